"""`neweden validate --html` (the page of a batch) as a file read back: every game listed,
the pictures held inside the page up to a limit, the output never an input (issue 41)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from neweden.cli.main import main
from neweden.runners import run_outputs
from tests.games import problem_games


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "round.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in problem_games(6, seed=3)))
    return path


def test_a_page_holds_at_most_so_many_pictures_and_says_where_the_rest_are(
    batch: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_outputs, "MAX_INLINE_PICTURES", 2)
    page = tmp_path / "round.html"
    assert main(["validate", str(batch), "--html", str(page), "--quiet", "--jobs", "1"]) == 1
    html = page.read_text(encoding="utf-8")
    invalid = html.count('data-verdict="invalid"')
    assert invalid == 6  # every game of problem_games has a problem
    assert html.count('src="data:image/svg+xml;base64,') == 2
    assert '<a href="data:' not in html  # a picture held in the page opens nowhere
    assert html.count("no picture in this page: use --svg DIR for all") == invalid - 2


def test_with_svg_the_page_links_the_pictures_beside_it(batch: Path, tmp_path: Path) -> None:
    page, pictures = tmp_path / "pages" / "round.html", tmp_path / "pictures"
    page.parent.mkdir()
    args = ["validate", str(batch), "--html", str(page), "--svg", str(pictures), "--quiet"]
    assert main(args) == 1
    html = page.read_text(encoding="utf-8")
    linked = re.findall(r'<img src="(\.\./pictures/[^"]+\.svg)"', html)
    assert len(linked) == 6
    assert all((page.parent / link).is_file() for link in linked)
    assert "data:image" not in html
    index = (pictures / "index.html").read_text(encoding="utf-8")
    assert index.count('data-verdict="invalid"') == 6


def test_the_page_is_never_an_input(batch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(batch), "--html", str(batch), "--quiet"]) == 2
    assert "is both an input and the --html output" in capsys.readouterr().err


def test_the_page_is_the_same_whatever_the_hash_seed(tmp_path: Path) -> None:
    # the problem table's codes with as many games each came in a set's order, which the
    # process's hash seed changes: two runs of one batch gave two pages
    lines = tmp_path / "games.jsonl"
    codes = ["overlap", "disconnected", "unknown_card", "copy_limit", "bad_value", "bad_type"]
    lines.write_text("".join(json.dumps({"codes": codes[i:] + codes[:i]}) + "\n" for i in range(6)))
    script = (
        "import json, sys\n"
        "from neweden.present.index import _problems\n"
        "class Line:\n"
        "    def __init__(self, codes): self.codes = tuple(codes)\n"
        "lines = [Line(json.loads(l)['codes']) for l in open(sys.argv[1])]\n"
        "print(_problems(lines))\n"
    )
    pages = set()
    for seed in range(4):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        done = subprocess.run(
            [sys.executable, "-c", script, str(lines)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        pages.add(done.stdout)
    assert len(pages) == 1
    assert "<code>overlap</code>" in pages.pop()
