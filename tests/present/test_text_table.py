"""`neweden score --format text`: golden files, and 80 columns whatever the input."""

from __future__ import annotations

from pathlib import Path

import pytest

import neweden
from neweden.cli.main import example_game
from neweden.present.text import WIDTH, report_table
from tests.games import card, game, line, player

GOLDEN = Path(__file__).parent / "golden"


def messy_game() -> dict[str, object]:
    long_name = "Maximiliano de Albuquerque e Silva"
    return game(
        "elitist",
        player(long_name, [*line(3), card(0, 0, "r"), card(4, 4, "t", rotated=True)]),
        player("Bo", [{"row": 0, "col": 0, "card": "atomic-wast"}]),
        requirements=["A1", "B1", "EX-C9"],
        first_player="Nobody",
    )


@pytest.mark.parametrize(
    ("name", "doc"),
    [("example-table.txt", None), ("messy-table.txt", messy_game())],
)
def test_text_table_matches_its_golden_file(name: str, doc: object) -> None:
    report = neweden.score(example_game() if doc is None else doc)  # type: ignore[arg-type]
    text = report_table(report)
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert text == expected, f"regenerate with: python -m tests.present.test_text_table {name}"


def test_every_line_fits_80_columns() -> None:
    text = report_table(neweden.score(messy_game()))
    assert all(len(line) <= WIDTH for line in text.splitlines())


if __name__ == "__main__":  # write the golden files after a deliberate change
    import sys

    for name, doc in (("example-table.txt", None), ("messy-table.txt", messy_game())):
        if len(sys.argv) > 1 and name not in sys.argv[1:]:
            continue
        report = neweden.score(example_game() if doc is None else doc)  # type: ignore[arg-type]
        (GOLDEN / name).write_text(report_table(report), encoding="utf-8")
