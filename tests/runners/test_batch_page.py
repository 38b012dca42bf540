"""`neweden validate --html` (the page of a batch) as a file read back: every game listed,
the pictures held inside the page up to a limit, the output never an input (issue 41)."""

from __future__ import annotations

import json
import re
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
