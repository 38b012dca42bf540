"""The command line on the inputs of the second hardening round: a problem with its pointer,
exit 2 for one game, and `validate` goes on to its summary (docs/hardening.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neweden.cli.main import main
from tests.conftest import EXAMPLES

HOSTILE = {
    "out-of-range-in-broken.json": (b"[1e999,", "UNREADABLE bad_json at /"),
    "huge-integer.json": (
        b'{"players": [' + b"1" * 5000 + b"]}",
        "UNREADABLE bad_value at /players/0",
    ),
    "deep-then-escapes.json": (b"[" * 2000 + b'"' + b'\\"' * 40_000, "UNREADABLE bad_json at /"),
    "meta.jsonl": (b'{"meta": {"x": 1e999}}\n', "UNREADABLE bad_value at /meta/x"),
}


def test_validate_reads_every_hostile_input_and_prints_its_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Once a traceback at the first of them (JSONDecodeError, ValueError), and no summary.
    for name, (raw, _) in HOSTILE.items():
        (tmp_path / name).write_bytes(raw)
    (tmp_path / "z-good.json").write_bytes((EXAMPLES / "format-example.json").read_bytes())
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    for name, (_, line) in HOSTILE.items():
        assert any(o.startswith(f"{tmp_path / name}") and o.endswith(line) for o in out), name
    assert out[-1].startswith("5 games: 1 valid, 4 invalid")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_score_exits_2_with_the_problem_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    raw, line = HOSTILE[name]
    path = tmp_path / name.replace(".jsonl", ".json")
    path.write_bytes(raw)
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    code, _, pointer = line.removeprefix("UNREADABLE ").partition(" at ")
    assert captured.err.startswith(f"{pointer}: {code}: ")
