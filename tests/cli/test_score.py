"""`neweden score`: the report on standard output, problems on standard error, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from neweden.cli.main import main
from neweden.format.modes import MODES
from tests.games import card, game, line, player


def write(tmp_path: Path, doc: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def test_score_example_exits_0_with_sarah_at_78(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--example"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"][0]["score"]["total"] == 78
    assert "audit" in report["players"][0]  # the CLI's default is the detailed report


def test_score_lean_leaves_out_the_audit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--example", "--lean"]) == 0
    assert "audit" not in json.loads(capsys.readouterr().out)


def test_score_text_is_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--example", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "Sarah" in out
    assert " 78" in out.splitlines()[2]


def test_score_exits_1_when_the_report_has_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = game("military", player("A", [*line(2), card(0, 0)]))
    assert main(["score", write(tmp_path, doc)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["valid"] is False
    assert captured.err == ""


def test_score_exits_2_listing_every_decode_problem_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = {"mode": "democracy", "players": [{"name": "A", "city": [], "colour": 1}]}
    assert main(["score", write(tmp_path, doc)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    modes = ", ".join(f'"{mode}"' for mode in sorted(MODES))  # the modes' table, sorted
    assert captured.err.splitlines() == [
        f'/mode: bad_value: `mode` is "democracy"; it must be one of {modes}',
        "/players/0/colour: unknown_field: `colour` is not a field of a player (the fields "
        "are: name, city, epiphanies, bonuses, requirements_met)",
    ]


def test_score_exits_2_for_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(tmp_path / "nothing.json")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "cannot read" in captured.err


def test_score_needs_a_file_or_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 2
    assert "FILE" in capsys.readouterr().err


def test_score_reads_standard_input_through_the_console_script() -> None:
    doc = json.dumps(game("military", player("A", line(3))))
    done = subprocess.run(
        [sys.executable, "-m", "neweden", "score", "-", "--lean"],
        input=doc.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["score"]["total"] == 9
