"""RULES §4a as a table plays it: requirement cards the catalog does not know, scored as the
table declared them (`requirements_met`), a known card checked against the city, and the
game's own D5 table (`majority_table`). Each score below is worked out by hand in its
docstring; the tests are named after the rules."""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec
import pytest

import neweden
from neweden.format.checks import decoded_is_sound
from neweden.format.decode import find_problems
from neweden.format.model import Game
from tests.games import card, game, line, player

#: Three cards in a row, each worth 4 points with 2 stars: every icon in a complete
#: connection, so 0 open connections (C1 met), no row of six (B1 not met). With 2 stars the
#: city scores 12, with fewer 3 (1 point a card).
ROW = line(3, points=4, stars=2)
#: The same three cards with icons to every side: 6 open connections (C1 not met).
OPEN = [card(0, 0, "rtb", points=4, stars=2), card(0, 1, "lrtb", points=4, stars=2)]
OPEN.append(card(0, 2, "ltb", points=4, stars=2))

REAL_DECKS = ["A3", "B1", "C1"]  # A3: a card of the A deck no catalog here knows


def _score(doc: dict[str, Any], detail: bool = False) -> dict[str, Any]:
    found: dict[str, Any] = neweden.score(json.dumps(doc), detail=detail)
    return found


def _codes(problems: list[dict[str, Any]]) -> list[str]:
    return [p["code"] for p in problems]


def _three(*declared: list[str] | None, city: list[dict[str, Any]] = ROW) -> dict[str, Any]:
    """A populist game of three players with ROW cities (the third's `city`), playing A3, B1
    and C1; player k declares `declared[k]` (None: no `requirements_met`)."""
    players = []
    for k, name in enumerate(["Ana", "Bo", "Cy"]):
        extra = {} if declared[k] is None else {"requirements_met": declared[k]}
        players.append(player(name, copy.deepcopy(city if k == 2 else ROW), **extra))
    return game("populist", *players, requirements=REAL_DECKS)


def test_rule_4a_an_unknown_card_declared_by_one_player_is_met_by_that_player_only() -> None:
    """Ana declares A3: A3 (declared) + C1 (her city: 0 open) = 2 stars, her cards score
    3 x 4 = 12. Bo declares nothing ([]) and Cy carries no field: once someone declares,
    they met none of the unknown cards: C1 alone, 1 star, 3 x 1 = 3. One warning names A3;
    the decks are A (A3's printed id), B and C: no mismatch."""
    report = _score(_three(["A3"], [], None))
    assert report["valid"] is True
    ana, bo, cy = report["players"]
    assert (ana["requirements_met"], ana["requirements_declared"]) == (["A3", "C1"], ["A3"])
    assert (ana["stars"], ana["score"]["total"], ana["place"]) == (2, 12, 1)
    for other in (bo, cy):
        assert (other["requirements_met"], other["requirements_declared"]) == (["C1"], [])
        assert (other["stars"], other["score"]["total"]) == (1, 3)
    (declared,) = [w for w in report["warnings"] if w["code"] == "requirements_declared"]
    assert declared["path"] == "/requirements"
    assert declared["message"].startswith("A3: ")
    assert "requirements_mismatch" not in _codes(report["warnings"])


def test_rule_4a_two_players_declaring_an_unknown_card_both_meet_it() -> None:
    """Ana and Bo declare A3 (Bo also C1, which his city meets: a check that agrees): both
    2 stars, 12 points; Cy (no field) 1 star, 3 points."""
    report = _score(_three(["A3"], ["C1", "A3"], None))
    assert report["valid"] is True
    totals = [(p["stars"], p["score"]["total"]) for p in report["players"]]
    assert totals == [(2, 12), (2, 12), (1, 3)]
    assert report["players"][1]["requirements_met"] == ["A3", "C1"]  # in play order
    assert report["players"][1]["requirements_declared"] == ["A3"]


def test_rule_4a_an_unknown_card_nobody_declares_is_unknown_requirement_saying_how() -> None:
    """No player declares: A3 stays the error unknown_requirement, its message saying how to
    declare it; nobody meets it (every player: C1 alone, 3 points)."""
    report = _score(_three(None, None, None))
    assert report["valid"] is False
    (error,) = report["errors"]
    assert (error["code"], error["path"]) == ("unknown_requirement", "/requirements/0")
    assert '"requirements_met": ["A3"]' in error["message"]
    assert [p["score"]["total"] for p in report["players"]] == [3, 3, 3]
    assert [p["requirements_declared"] for p in report["players"]] == [[], [], []]
    assert "requirements_declared" not in _codes(report["warnings"])


def test_rule_4a_a_known_card_the_city_does_not_meet_is_requirement_disagrees() -> None:
    """Cy declares C1 but her city has 6 open connections: the error requirement_disagrees at
    her declaration, saying what the city shows; the score follows the city (no star: her
    cards score 1 each, 3). Her city stays legal; the game is not valid."""
    report = _score(_three(["A3"], [], ["C1"], city=OPEN))
    assert report["valid"] is False
    cy = report["players"][2]
    (error,) = cy["errors"]
    assert (error["code"], error["path"]) == (
        "requirement_disagrees",
        "/players/2/requirements_met/0",
    )
    assert "C1 is declared met, but the city does not meet it" in error["message"]
    assert "6 open connections; at most 4 allowed" in error["message"]
    assert (cy["legal"], cy["requirements_met"], cy["stars"], cy["score"]["total"]) == (
        True,
        [],
        0,
        3,
    )


def test_rule_4a_a_known_card_declared_and_met_agrees_silently() -> None:
    report = _score(_three(["A3", "C1"], ["C1"], ["C1"]))
    assert report["valid"] is True
    assert [p["requirements_declared"] for p in report["players"]] == [["A3"], [], []]
    assert all(not p["errors"] for p in report["players"])


def test_rule_4a_the_audit_tells_a_declared_card_from_a_checked_one() -> None:
    report = _score(_three(["A3"], [], None), detail=True)
    ana, bo = report["players"][0]["audit"]["requirements"], report["players"][1]["audit"]
    assert [(r["id"], r["met"], r["declared"]) for r in ana] == [
        ("A3", True, True),
        ("B1", False, False),
        ("C1", True, False),
    ]
    assert ana[0]["why"] == "A3 met: as the table declared (no condition to check it against)"
    assert bo["requirements"][0]["why"] == (
        "A3 not met: the table did not declare it for this player"
    )


def test_rule_4a_requirements_met_in_a_military_game_is_ignored_with_a_warning() -> None:
    doc = game("military", player("Ana", ROW, requirements_met=["A3"]), player("Bo", ROW))
    report = _score(doc)
    assert report["valid"] is True
    ana = report["players"][0]
    assert (ana["requirements_met"], ana["requirements_declared"]) == (None, None)
    (ignored,) = ana["warnings"]
    assert (ignored["code"], ignored["path"]) == (
        "requirements_ignored",
        "/players/0/requirements_met",
    )


@pytest.mark.parametrize(
    ("declared", "path", "words"),
    [
        (["A9"], "/players/0/requirements_met/0", 'the requirement "A9" is not in play'),
        (["A3", "A3"], "/players/0/requirements_met/1", "declared met twice (items 0 and 1)"),
        (["a 3"], "/players/0/requirements_met/0", "catalog id"),
    ],
)
def test_rule_4a_a_declared_id_not_in_play_is_a_decode_problem_at_its_place(
    declared: list[str], path: str, words: str
) -> None:
    """Both decoding passes: the fast path refuses the game (msgspec reads its types, the
    cross-field checks refuse it), the every-problem pass lists the problem at its place,
    and `neweden.score` raises with it. A sound declaration reads."""
    assert neweden.decode_game(json.dumps(_three(["A3"], [], None))).players[0].requirements_met
    raw = json.dumps(_three(declared, [], None)).encode()
    assert decoded_is_sound(msgspec.json.decode(raw, type=Game)) is False
    assert ("bad_value", path) in [(p.code, p.path) for p in find_problems(raw)]
    with pytest.raises(neweden.GameDecodeError) as raised:
        neweden.score(raw)
    (problem,) = [p for p in raised.value.problems if p.path == path]
    assert words in problem.message


# --- the game's D5 table ----------------------------------------------------------------------


def _bases(n: int) -> list[dict[str, Any]]:
    """A city of n military bases in a row (one lab for none)."""
    return line(n, facility="base") if n else line(1, facility="lab")


def _d5(counts: list[int], table: list[int] | None) -> dict[str, Any]:
    names = ["Ana", "Bo", "Cy", "Di"][: len(counts)]
    extra = {} if table is None else {"majority_table": table}
    cities = [player(n, _bases(c)) for n, c in zip(names, counts, strict=True)]
    doc = game("military", *cities, **extra)
    return _score(doc, detail=True)


@pytest.mark.parametrize(
    ("counts", "table", "points"),
    [
        ([2, 2], [6, 2], [6, 6]),  # a full tie is a shared first place
        ([3, 1], [6, 2], [6, 0]),  # the fewest score 0
        ([3, 3, 1], [9, 4, 1], [9, 9, 0]),  # a tie shares first; the fewest 0
        ([3, 2, 1], [9, 4, 1], [9, 4, 0]),
        ([2, 2, 1, 0], [12, 7, 3, 0], [12, 12, 3, 0]),  # ties, then place 3; no base: 0
        ([1, 1, 1, 1], [12, 7, 3, 0], [12, 12, 12, 12]),
    ],
)
def test_rule_4a_d5_the_games_own_table_for_2_3_and_4_players(
    counts: list[int], table: list[int], points: list[int]
) -> None:
    """The game's `majority_table` replaces the default: D5 points by hand from the table
    (RULES §4a's ties), the report naming its source, no default_majority_table warning."""
    report = _d5(counts, table)
    assert [p["score"]["military"]["bases"] for p in report["players"]] == points
    assert report["majority_table"] == "game"
    assert report["audit"]["majority_table"] == table
    assert report["audit"]["majority_table_is_default"] is False
    assert "default_majority_table" not in _codes(report["warnings"])


def test_rule_4a_d5_without_a_table_the_default_is_used_and_said() -> None:
    report = _d5([2, 1, 1], None)
    assert [p["score"]["military"]["bases"] for p in report["players"]] == [7, 0, 0]
    assert report["majority_table"] == "default"
    assert "default_majority_table" in _codes(report["warnings"])
    assert '"majority_table": [7, 3, 0]' in report["warnings"][0]["message"]


def test_rule_4a_d5_a_populist_game_names_no_table() -> None:
    assert _score(_three(["A3"], [], None))["majority_table"] is None


@pytest.mark.parametrize(
    ("table", "path", "words"),
    [
        ([9, 4], "/majority_table", "this game has 3 players: the D5 table needs 3 values"),
        ([9, 4, 1, 0], "/majority_table", "it has 4"),
        ([4, 9, 1], "/majority_table/1", "place 2 is worth 9, more than place 1 (4)"),
        ([9, 4, -1], "/majority_table/2", "item 2 of `majority_table` is -1; it must be from 0"),
        ([9, 4, 1001], "/majority_table/2", "item 2 of `majority_table` is 1001"),
    ],
)
def test_rule_4a_d5_a_table_of_the_wrong_length_or_that_increases_is_a_decode_problem(
    table: list[int], path: str, words: str
) -> None:
    doc = game("military", *[player(n, _bases(1)) for n in ("Ana", "Bo", "Cy")])
    doc["majority_table"] = table
    with pytest.raises(neweden.GameDecodeError) as raised:
        neweden.score(json.dumps(doc))
    (problem,) = raised.value.problems
    assert problem.path == path
    assert words in problem.message


# --- everywhere: the command line, the text table, validate, HTTP -----------------------------


def _write(tmp_path: Any, doc: dict[str, Any], name: str = "g.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_rule_4a_score_exit_codes_and_the_text_table_of_declared_cards(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """`neweden score`: 0 for a valid game scored as declared (the met column marks declared
    cards `*`, a line below says so), 1 when a declaration disagrees with its city, 2 when
    the declaration names a card not in play or the D5 table does not fit."""
    from neweden.cli.main import main

    assert main(["score", _write(tmp_path, _three(["A3"], [], None)), "--format", "text"]) == 0
    shown = capsys.readouterr().out
    assert "A3*,C1" in shown
    assert "* met as the table declared (requirements_met), not checked" in shown
    assert "requirements_declared: A3:" in shown
    disagreeing = _three(["A3"], [], ["C1"], city=OPEN)
    assert main(["score", _write(tmp_path, disagreeing), "--format", "text"]) == 1
    assert "requirement_disagrees" in capsys.readouterr().out
    assert main(["score", _write(tmp_path, _three(["A9"], [], None))]) == 2
    assert "/players/0/requirements_met/0: bad_value" in capsys.readouterr().err
    bad_table = game("military", player("A", ROW), player("B", ROW), majority_table=[1, 5])
    assert main(["score", _write(tmp_path, bad_table)]) == 2
    assert "/majority_table/1: bad_value" in capsys.readouterr().err


def test_rule_4a_validate_counts_declared_games_and_their_warnings(tmp_path: Any) -> None:
    import csv
    import io

    from neweden.runners.batch import validate

    lines = [_three(["A3"], [], None), _three(["A3"], [], ["C1"], city=OPEN)]
    source = tmp_path / "round.jsonl"
    source.write_text("".join(json.dumps(doc) + "\n" for doc in lines))
    out, table, stdout = tmp_path / "out.jsonl", tmp_path / "t.csv", io.StringIO()
    assert validate([str(source)], out=str(out), csv_path=str(table), stdout=stdout) == 1
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert first["players"][0]["requirements_declared"] == ["A3"]
    assert second["valid"] is False
    summary = stdout.getvalue().splitlines()[-1]
    assert "most frequent errors: requirement_disagrees 1" in summary
    assert "requirements_declared 2" in summary
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert rows[0]["requirements_met"] == "A3;C1"
    assert rows[0]["warning_codes"] == "game_not_ended;requirements_declared"
    assert rows[5]["error_codes"] == "requirement_disagrees"
    # the CSV says which requirements were checked against the city and which declared
    assert (rows[0]["requirements_checked"], rows[0]["requirements_declared"]) == ("C1", "A3")
    assert rows[0]["mode"] == "populist"


def test_rule_4a_http_scores_declared_cards_and_refuses_a_table_that_does_not_fit(
    tmp_path: Any,
) -> None:
    import http.client

    pytest.importorskip("starlette", reason="the serve extra")
    from tests.servers import running_server

    def post(port: int, body: bytes) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/v1/score", body, {"content-type": "application/json"})
        answer = conn.getresponse()
        found = answer.status, json.loads(answer.read())
        conn.close()
        return found

    with running_server({}, tmp_path / "server.log") as (port, _pid):
        status, report = post(port, json.dumps(_three(["A3"], [], None)).encode())
        assert status == 200
        assert report["players"][0]["requirements_declared"] == ["A3"]
        assert report["players"][0]["score"]["total"] == 12
        doc = game("military", player("A", ROW), player("B", ROW), majority_table=[9])
        status, problem = post(port, json.dumps(doc).encode())
        assert status == 422
        assert [(e["code"], e["path"]) for e in problem["errors"]] == [
            ("bad_value", "/majority_table")
        ]


def test_rule_4a_a_placement_is_scored_with_the_declaration_and_the_games_d5_table() -> None:
    """`neweden.placements`: each placement's total is the report's total of the game with
    the card placed there, the player's declared cards met as declared (Ana: A3 declared,
    C1 judged on the new city) and D5 from the game's own table."""
    doc = _three(["A3"], [], None)
    doc["mode"] = "elitist"
    doc["majority_table"] = [8, 3, 0]
    for p, bases in enumerate((1, 2, 0)):  # a row with icons below, and bases under it
        row = [card(0, c, s, points=4, stars=2) for c, s in enumerate(("rb", "lrb", "lb"))]
        doc["players"][p]["city"] = row + [card(1, c, "t", facility="base") for c in range(bases)]
    new = {"style": "ex_gothic", "type": "ex_plaza", "facility": "base", "points": 4}
    new |= {"stars": 2, "sides": ["top", "right", "bottom", "left"]}
    found = neweden.placements(doc, player="Ana", card=new)
    assert found
    for placed in found:
        after = copy.deepcopy(doc)
        entry = {"row": placed["row"], "col": placed["col"], "card": new}
        if placed["rotated"]:
            entry["rotated"] = True
        after["players"][0]["city"].append(entry)
        report = _score(after)
        assert report["players"][0]["score"]["total"] == placed["total"], placed
        assert report["players"][0]["requirements_declared"] == ["A3"]
        assert report["majority_table"] == "game"
