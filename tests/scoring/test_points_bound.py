"""Points are bounded (a documented limit): a card's printed points at most 1,000, a
bonus from -1,000 to 1,000. Beyond is `too_large` where the number stands, in games and
catalogs alike, and every total stays far inside the core's int32 table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.catalog.files import CatalogError, parse_catalog
from neweden.cli.main import main
from neweden.format.decode import decode_game
from neweden.format.model import MAX_BONUS_POINTS, MAX_POINTS
from neweden.runners.batch import validate
from tests.games import card, game, line, player

BIG = 2**63 - 1


def problems(doc: Any) -> list[tuple[str, str]]:
    with pytest.raises(neweden.GameDecodeError) as info:
        decode_game(doc)
    return [(p.code, p.path) for p in info.value.problems]


def wild(row: int, col: int, points: int) -> dict[str, Any]:
    return {"row": row, "col": col, "card": {"wild": True, "points": points}}


def test_the_issue_two_cards_of_two_to_the_63_minus_1_are_too_large() -> None:
    city = line(2, points=BIG)
    assert problems(game("populist", player("Ana", city))) == [
        ("too_large", "/players/0/city/0/card/points"),
        ("too_large", "/players/0/city/1/card/points"),
    ]


@pytest.mark.parametrize("make", [card, wild], ids=["common", "wild"])
def test_a_card_of_1001_points_is_too_large_and_1000_is_fine(make: Any) -> None:
    def doc(points: int) -> dict[str, Any]:
        placed = make(0, 0, points=points) if make is card else make(0, 0, points)
        return game("military", player("Ana", [placed]))

    assert problems(doc(MAX_POINTS + 1)) == [("too_large", "/players/0/city/0/card/points")]
    report = neweden.score(doc(MAX_POINTS))
    assert report["players"][0]["audit"]["cards"][0]["points"] == MAX_POINTS
    assert problems(doc(-1)) == [("bad_value", "/players/0/city/0/card/points")]


@pytest.mark.parametrize("points", [MAX_BONUS_POINTS + 1, -MAX_BONUS_POINTS - 1, BIG, -BIG])
def test_a_bonus_beyond_a_thousand_either_way_is_too_large(points: int) -> None:
    doc = game("military", player("Ana", line(1), bonuses=[{"name": "x", "points": points}]))
    assert problems(doc) == [("too_large", "/players/0/bonuses/0/points")]


def test_bonuses_at_the_bounds_are_scored() -> None:
    bonuses = [
        {"name": "a", "points": 1000},
        {"name": "b", "points": -1000},
        {"name": "c", "points": 7},
    ]
    doc = game("military", player("Ana", line(1), bonuses=bonuses))
    assert neweden.score(doc)["players"][0]["score"]["bonuses"] == 7


def test_the_largest_points_everywhere_score_exactly() -> None:
    """77 cards of 1,000 points, 3 stars short of none: every total fits the int32 table."""
    city = [card(0, c, "rl", points=MAX_POINTS, stars=0) for c in range(77)]
    bonuses = [{"name": f"b{i}", "points": MAX_BONUS_POINTS} for i in range(20)]
    doc = game("populist", player("Ana", city, bonuses=bonuses))
    score = neweden.score(doc, detail=False)["players"][0]["score"]
    assert score["bonuses"] == 20 * MAX_BONUS_POINTS
    assert score["requirements"] >= 77 * MAX_POINTS


def test_a_catalog_card_of_1001_points_is_too_large() -> None:
    text = json.dumps(
        {
            "cards": {
                "EX-big": {
                    "style": "ex_gothic",
                    "type": "ex_plaza",
                    "facility": "lab",
                    "points": MAX_POINTS + 1,
                    "stars": 0,
                    "sides": ["top"],
                    "example": True,
                },
                "EX-wild": {"wild": True, "points": BIG, "example": True},
            }
        }
    )
    with pytest.raises(CatalogError) as info:
        parse_catalog(text.encode(), "big.json")
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("too_large", "/cards/EX-big/points"),
        ("too_large", "/cards/EX-wild/points"),
    ]


def test_validate_parquet_reports_the_refusal_and_goes_on(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow.parquet")
    import pyarrow.parquet as pq

    good = game("military", player("Ana", line(2)))
    big = game("military", player("Ana", line(2, points=BIG)))
    source = tmp_path / "games.jsonl"
    source.write_text(json.dumps(big) + "\n" + json.dumps(good) + "\n")
    folder = tmp_path / "pq"
    code = validate([str(source)], parquet_dir=str(folder), quiet=True)
    assert code == 1
    table = pq.read_table(folder).to_pylist()
    assert [row["game_valid"] for row in table] == [False, True]
    assert table[0]["error_codes"] == "too_large;too_large"


def test_the_schema_states_the_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    defs = schema["$defs"]
    points = defs["InlineCard"]["properties"]["points"]
    assert (points["minimum"], points["maximum"]) == (0, MAX_POINTS)
    bonus = defs["Bonus"]["properties"]["points"]
    assert (bonus["minimum"], bonus["maximum"]) == (-MAX_BONUS_POINTS, MAX_BONUS_POINTS)


def test_a_majority_table_beyond_a_thousand_points_is_too_large(tmp_path: Path) -> None:
    """The D5 table's points are points too: 2**63-1 for the first place, and a bonus,
    made a total no 64-bit integer holds, and `validate --parquet` crashed."""
    catalog = tmp_path / "table.json"
    catalog.write_text(json.dumps({"majority_table": {"2": [BIG, 0], "3": [MAX_POINTS, 3, 0]}}))
    with pytest.raises(CatalogError) as info:
        parse_catalog(catalog.read_bytes(), "table.json")
    assert [(p.code, p.path) for p in info.value.problems] == [("too_large", "/majority_table/2/0")]
    bases = [card(0, 0, "r", facility="base"), card(0, 1, "l", facility="base")]
    doc = game(
        "military",
        player("A", bases, bonuses=[{"name": "x", "points": 5}]),
        player("B", line(1)),
    )
    source = tmp_path / "games.jsonl"
    source.write_text(json.dumps(doc) + "\n")
    code = validate(
        [str(source)], parquet_dir=str(tmp_path / "pq"), catalog_path=str(catalog), quiet=True
    )
    assert code == 2  # the catalog does not load; nothing is written past int64
