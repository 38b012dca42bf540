"""Placements (issue 22): the native candidates and figures against the reference twin, and
every placement's total against a brute force that puts the card there and scores the game
with `neweden.score`; illegal starting cities, every mode and rotations included."""

from __future__ import annotations

import contextlib
import enum
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden import _core
from neweden.catalog.catalog import BUILTIN, ResolvedCard
from neweden.format.decode import decode_game, plain_card
from neweden.format.model import Game, InlineCard, Placement, Player
from neweden.format.sides import turned
from neweden.geometry import reference
from neweden.geometry.compact import WIDTH, pack_games
from neweden.geometry.native import JsonGames
from neweden.geometry.native import placements as native_placements
from neweden.geometry.synth import _random_card, city_json
from neweden.scoring import placing
from neweden.scoring.placements import PlacementError, placements
from neweden.scoring.placing import _card_game
from tests.table_games import table_games

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: A card whose icons are left and right only: a line of them joins end to end.
BRIDGE = {
    "style": "gothic",
    "type": "plaza",
    "facility": "lab",
    "points": 2,
    "stars": 0,
    "sides": ["left", "right"],
}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@contextlib.contextmanager
def _python_packer() -> Iterator[None]:
    """Placements made by the Python packer: the gate to the core's reader (`plain_card`)
    says no card is plain JSON. The patch is of a module global, which the module reads at
    each call compiled or not; it must have been asked."""
    with mock.patch.object(placing, "plain_card", return_value=False) as gate:
        yield
    assert gate.called, "the gate to the core's reader was not asked"


def _card(rng: random.Random) -> dict[str, Any]:
    (entry,) = city_json([ResolvedCard(0, 0, 0, False, _random_card(rng, 5, 6))])
    return entry["card"]  # type: ignore[no-any-return]


def _doc(game: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in game.items() if k != "_cities"}


def _candidates(
    doc: dict[str, Any], seat: int, card: dict[str, Any] | str
) -> list[tuple[int, int, bool]]:
    """The definition, written again: empty cells next to a card of the city, upright, and
    rotated when that changes the card's icons."""
    taken = {(e["row"], e["col"]) for e in doc["players"][seat]["city"]}
    cells = sorted({(r + dr, c + dc) for r, c in taken for dr, dc in STEPS} - taken)
    if isinstance(card, str):  # a catalog id
        spec = BUILTIN.card(card)
        assert spec is not None
        sides, turns = spec.sides, not spec.wild and turned(spec.sides) != spec.sides
    else:
        sides = frozenset(card.get("sides", ["top", "right", "bottom", "left"]))
        turns = "wild" not in card and turned(sides) != sides
    return [(r, c, rot) for r, c in cells for rot in ((False, True) if turns else (False,))]


def _brute_force(
    doc: dict[str, Any], seat: int, card: dict[str, Any] | str
) -> list[dict[str, Any]]:
    name = doc["players"][seat]["name"]
    before = _total(neweden.score(doc, detail=False), name)
    found = []
    for row, col, rot in _candidates(doc, seat, card):
        # through JSON, as a document is: the generated games may share one city's list
        # between two players (a tie), which deepcopy would keep shared
        placed = json.loads(json.dumps(doc))
        entry: dict[str, Any] = {"row": row, "col": col, "card": card}
        if rot:
            entry["rotated"] = True
        placed["players"][seat]["city"].append(entry)
        report = neweden.score(placed, detail=False)
        me = next(p for p in report["players"] if p["name"] == name)
        if me["legal"]:
            total = me["score"]["total"]
            found.append(
                {
                    "row": row,
                    "col": col,
                    "rotated": rot,
                    "open_connections": me["open_connections"],
                    "total": total,
                    "delta": total - before,
                }
            )
    found.sort(key=lambda p: (-p["total"], p["row"], p["col"], p["rotated"]))
    return found


def _total(report: dict[str, Any], name: str) -> int:
    return next(p["score"]["total"] for p in report["players"] if p["name"] == name)  # type: ignore[no-any-return]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_placement_scores_as_the_game_with_the_card_placed(seed: int) -> None:
    rng = random.Random(seed)
    (game,) = table_games(seed, 1)
    doc = _doc(game)
    seat = rng.randrange(len(doc["players"]))
    card = _card(rng)
    name = doc["players"][seat]["name"]
    assert placements(doc, player=name, card=card) == _brute_force(doc, seat, card)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_native_candidates_and_figures_are_the_reference_twins(seed: int) -> None:
    rng = random.Random(seed)
    (game,) = table_games(seed, 1)
    doc = _doc(game)
    seat = rng.randrange(len(doc["players"]))
    card = _card(rng)
    decoded = decode_game(json.dumps(doc))
    packed = pack_games([decoded, _card_game(decoded, card)], BUILTIN)  # the card last
    now, bases, figures, found = native_placements(packed.flat, packed.offsets, seat)
    assert len(set(figures)) == len(figures)  # each figures once
    assert now == reference.score_figures(game["_cities"][seat])  # the city as it is
    assert bases == [reference.score_figures(city).bases for city in game["_cities"]]
    city = game["_cities"][seat]
    (spec,) = [c.spec for c in decode_card_city(card)]
    twins = []  # every candidate of the definition after which the twin finds the city legal
    for row, col, rot in _candidates(doc, seat, card):
        twin = reference.score_figures([*city, ResolvedCard(len(city), row, col, rot, spec)])
        if twin.legal:
            twins.append((row, col, rot, twin))
    assert [(row, col, rot, figures[k]) for row, col, rot, k in found] == twins


def test_the_native_call_takes_the_game_then_the_card_and_refuses_anything_else() -> None:
    decoded = decode_game((EXAMPLES / "final-scoring-example.json").read_bytes())
    packed = pack_games([decoded, _card_game(decoded, "new-eden")], BUILTIN)
    cities = len(decoded.players)
    _, bases, _, _ = native_placements(packed.flat, packed.offsets, cities - 1)
    assert len(bases) == cities
    game_only = packed.offsets[: cities + 1]  # no card after the game's cities
    with pytest.raises(ValueError, match="then the card"):
        native_placements(packed.flat[: game_only[-1] * WIDTH], game_only, 0)
    with pytest.raises(ValueError, match="seat among them"):  # the card is no seat
        native_placements(packed.flat, packed.offsets, cities)
    with pytest.raises(TypeError, match="tuple type"):
        _core.placements(packed.flat, packed.offsets, 0, list)


def decode_card_city(card: dict[str, Any]) -> list[ResolvedCard]:
    from neweden.catalog.catalog import resolve_city

    game = decode_game(
        {
            "mode": "military",
            "players": [{"name": "c", "city": [{"row": 0, "col": 0, "card": card}]}],
        }
    )
    cards, _ = resolve_city(game.players[0].city, BUILTIN, "/city")
    return cards


def test_an_illegal_city_can_be_joined_by_a_placement() -> None:
    bridge = dict(BRIDGE)
    line = [{"row": 0, "col": c, "card": bridge} for c in (0, 1, 3)]
    doc = {"mode": "military", "players": [{"name": "Ana", "city": line}]}
    assert not neweden.score(doc)["valid"]  # card 2 is apart
    found = placements(doc, player="Ana", card=bridge)
    assert [(p["row"], p["col"]) for p in found] == [(0, 2)]
    assert found == _brute_force(doc, 0, bridge)
    assert placements(doc, player="Ana", card=bridge, best=True) == found[:1]


def test_a_requirement_that_reads_the_cards_is_refused() -> None:
    import dataclasses

    from neweden.catalog.catalog import RequirementSpec

    condition = {">=": [{"count": {"style": "gothic"}}, 2]}  # counts cards: no figure says it
    catalog = dataclasses.replace(
        BUILTIN, requirements={"EX-R": RequirementSpec("EX-R", "A", "example", condition)}
    )
    bridge = dict(BRIDGE)
    city = [{"row": 0, "col": c, "card": bridge} for c in (0, 1)]
    doc = {"mode": "populist", "requirements": ["EX-R"], "players": [{"name": "Ana", "city": city}]}
    with pytest.raises(PlacementError, match="looks at the cards themselves") as refused:
        placements(doc, player="Ana", card=bridge, catalog=catalog)
    assert [(p.code, p.path) for p in refused.value.problems] == [
        ("requirement_reads_cards", "/game/requirements/0")
    ]


TEMPLATE = EXAMPLES / "catalog-template.toml"  # EX-A2 counts the gothic cards


def _reading_game() -> dict[str, Any]:
    city = [{"row": 0, "col": c, "card": dict(BRIDGE)} for c in (0, 1)]
    return {"mode": "populist", "requirements": ["EX-A2"], "players": [{"name": "A", "city": city}]}


def test_a_requirement_that_reads_the_cards_is_a_problem_over_http_and_on_the_command_line(
    tmp_path: Path,
) -> None:
    """Said where it is (HTTP 422 with the problem at /game/requirements/0; the command exits
    2 with the message), never an internal error or a traceback."""
    import http.client

    from tests.cli.test_terminal import piped
    from tests.servers import QUIET, running_server

    with running_server({}, args=(*QUIET, "--catalog", str(TEMPLATE))) as (port, _):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = _request(game=_reading_game(), player="A", card=BRIDGE)
        conn.request("POST", "/v1/placements", body, {"content-type": "application/json"})
        answer = conn.getresponse()
        status, problems = answer.status, json.loads(answer.read())["errors"]
        conn.close()
    assert status == 422
    assert [(p["code"], p["path"]) for p in problems] == [
        ("requirement_reads_cards", "/game/requirements/0")
    ]
    game = tmp_path / "game.json"
    game.write_text(json.dumps(_reading_game()))
    ran = piped("placements", str(game), "--player", "A", "--card", json.dumps(BRIDGE),
                "--catalog", str(TEMPLATE))  # fmt: skip
    assert ran.returncode == 2
    assert "EX-A2" in ran.stderr
    assert "looks at the cards themselves" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_a_hand_built_game_is_placed_as_it_is_scored() -> None:
    """A `Game` built by hand (not decoded) may hold what no decoded game holds: a side named
    twice, a name msgspec cannot encode. The core's packer refuses them and the Python
    packer packs them, as `neweden.score` reads them."""
    from neweden.format.model import Game, InlineCard, Placement, Player

    fields = {"style": "gothic", "type": "plaza", "facility": "lab", "points": 2, "stars": 0}
    twice = Game(mode="military", players=[Player(name="A", city=[
        Placement(row=0, col=0, card=InlineCard(**fields, sides=["bottom", "right"])),
        Placement(row=1, col=0, card=InlineCard(**fields, sides=["top", "top"])),
    ])])  # fmt: skip
    assert not JsonGames().add(msgspec.json.encode(twice))
    with _python_packer():
        python_packed = placements(twice, player="A", card=dict(BRIDGE))
    assert placements(twice, player="A", card=dict(BRIDGE)) == python_packed
    surrogate = Game(mode="military", players=[Player(name="A\ud800", city=[
        Placement(row=0, col=0, card=InlineCard(**fields, sides=["left", "right"])),
    ])])  # fmt: skip
    found = placements(surrogate, player="A\ud800", card=dict(BRIDGE))
    assert {(p["row"], p["col"]) for p in found} == {(0, -1), (0, 1)}


def test_bad_questions_are_told_where() -> None:
    doc = json.loads((EXAMPLES / "final-scoring-example.json").read_text())
    with pytest.raises(PlacementError) as no_player:
        placements(doc, player="Zoe", card="new-eden")
    assert no_player.value.problems[0].path == "/player"
    with pytest.raises(PlacementError) as bad_card:
        placements(doc, player="Sarah", card={"style": "gothic", "points": 99})
    assert {p.path.split("/")[1] for p in bad_card.value.problems} == {"card"}
    with pytest.raises(PlacementError) as unknown:
        placements(doc, player="Sarah", card="EX-nothing")
    assert unknown.value.problems[0].code == "unknown_card"


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = (EXAMPLES.parent / "docs" / "placements.md").read_text()
    code = doc.split("```python\n", 1)[1].split("```", 1)[0]
    code = code.replace('Path("examples/', f'Path("{EXAMPLES}/')
    exec(compile(code, "docs/placements.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].split()[4:] == ["87", "9"]  # the best: 87 points, 9 more


def _request(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


def test_a_placements_request_is_answered_as_the_python_api() -> None:
    from neweden.scoring.placing import answer_request

    game = json.loads((EXAMPLES / "final-scoring-example.json").read_text())
    card = {"style": "gothic", "type": "green_area", "facility": "medical", "points": 5}
    card |= {"stars": 1, "sides": ["top", "left"]}
    answer = answer_request(_request(game=game, player="Sarah", card=card))
    assert answer == {"placements": placements(game, player="Sarah", card=card)}
    best = answer_request(_request(game=game, player="Sarah", card=card, best=True))
    assert best == {"placements": answer["placements"][:1]}


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (b"[1, 2", {("bad_json", "")}),
        (b"[]", {("bad_type", "")}),
        (_request(player="Sarah", card="x"), {("missing_field", "")}),
        (_request(game={}, player=1, card=2, best="yes", extra=0), {
            ("unknown_field", "/extra"), ("bad_type", "/player"), ("bad_type", "/card"),
            ("bad_type", "/best"), ("missing_field", "/game/mode"),
            ("missing_field", "/game/players"),
        }),
        (_request(game={"mode": "military", "players": []}, player="A", card="x"), {
            ("bad_value", "/game/players"),
        }),
        (_request(game={"mode": "military", "players": [{"name": "A", "city": []}]}, player="Z",
                  card="new-eden"), {("not_found", "/player")}),
    ],
)  # fmt: skip
def test_a_bad_placements_request_says_every_problem_and_where(
    body: bytes, where: set[tuple[str, str]]
) -> None:
    from neweden.format.problems import GameDecodeError
    from neweden.scoring.placing import answer_request

    with pytest.raises(GameDecodeError) as err:
        answer_request(body)
    assert {(p.code, p.path) for p in err.value.problems} == where


# --- neweden placements ------------------------------------------------------------------------

CARD_TEXT = json.dumps(
    {"style": "gothic", "type": "green_area", "facility": "medical", "points": 5, "stars": 1}
    | {"sides": ["top", "left"]}
)


def _command(*more: str) -> list[str]:
    example = str(EXAMPLES / "final-scoring-example.json")
    return ["placements", example, "--player", "Sarah", "--card", CARD_TEXT, *more]


def test_the_command_shows_a_table_on_a_terminal_and_json_when_piped() -> None:
    from tests.cli.test_terminal import on_terminal, piped

    code, shown = on_terminal(*_command())
    assert code == 0
    lines = [line.split() for line in shown.splitlines() if line.strip()]
    assert lines[0][:3] == ["Where", "the", "card"]
    assert lines[1] == ["row", "col", "turned", "open", "total", "change"]
    assert lines[2] == ["1", "6", "no", "6", "87", "+9"]
    answer = piped(*_command())
    assert answer.returncode == 0
    game = (EXAMPLES / "final-scoring-example.json").read_bytes()
    expected = placements(game, player="Sarah", card=json.loads(CARD_TEXT))
    assert json.loads(answer.stdout) == {"placements": expected}
    best = piped(*_command("--best"))
    assert json.loads(best.stdout) == {"placements": expected[:1]}


def test_the_command_speaks_portuguese_and_says_what_is_wrong() -> None:
    from tests.cli.test_terminal import piped

    shown = piped(*_command("--format", "text", "--lang", "pt-BR")).stdout
    assert shown.splitlines()[1].split() == ["linha", "col", "girada", "abert", "total", "mudança"]
    wrong = piped("placements", str(EXAMPLES / "final-scoring-example.json"), "--player", "Zed",
                  "--card", "new-eden")  # fmt: skip
    assert wrong.returncode == 2
    assert '/player: not_found: no player of the game is called "Zed"' in wrong.stderr
    bad = piped(*_command()[:-2], "--card", "{oops")
    assert (bad.returncode, "--card is not valid JSON" in bad.stderr) == (2, True)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_native_packer_and_the_python_packer_give_the_same_placements(seed: int) -> None:
    """Placements read the game's cities with the core's strict reader (a document read
    lean; a decoded game as the format writes it); where that reader refuses (a card given
    by catalog id) the Python packer packs it: all agree."""
    rng = random.Random(seed)
    (game,) = table_games(seed, 1)
    doc = _doc(game)
    name = doc["players"][rng.randrange(len(doc["players"]))]["name"]
    card = _card(rng)
    native = placements(doc, player=name, card=card)
    assert placements(decode_game(doc), player=name, card=card) == native
    assert placements(json.dumps(doc).encode(), player=name, card=card) == native
    with _python_packer():
        assert placements(doc, player=name, card=card) == native


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_card_as_players_write_it_is_read_by_the_core_and_placed_as_folded(seed: int) -> None:
    """The card asked, its style and type written as players write them ("EX Crimson" for
    ex_crimson): the core's strict reader reads it (the exact decoder is not called) and its
    placements are those of the card with its names folded, for a game given as a mapping,
    as bytes and decoded."""
    rng = random.Random(seed)
    (game,) = table_games(seed, 1)
    doc = _doc(game)
    name = doc["players"][rng.randrange(len(doc["players"]))]["name"]
    card = _card(rng)
    while "style" not in card:  # a wild card: no names to write another way
        card = _card(rng)
    accented = str.maketrans({"a": "á", "e": "ê", "o": "õ", "c": "ç"})
    written = card | {
        "style": card["style"].replace("_", " ").upper(),
        "type": card["type"].title().translate(accented),
    }
    wanted = placements(doc, player=name, card=card)
    with mock.patch.object(placing, "decode_card", side_effect=AssertionError("decoded")):
        for asked in (doc, json.dumps(doc).encode(), decode_game(doc)):
            assert placements(asked, player=name, card=written) == wanted


def test_a_game_built_by_hand_with_names_not_as_read_is_placed_as_the_python_packer_does() -> None:
    """A Game built in Python whose city names a style otherwise than the decoder reads it
    ("Gótico", "x y!"): a card asked with that name is not matched against it as written
    (the core's reader would take the game's names as they are); the answer is the Python
    packer's, the card decoded the exact way."""
    fields = {
        "type": "ex_y",
        "facility": "lab",
        "points": 2,
        "stars": 0,
        "sides": ["left", "right"],
    }
    asked = {"type": "ex_x", "facility": "lab", "points": 2, "stars": 0, "sides": ["left", "right"]}
    for style in ("Gótico", "x y!"):
        city = [Placement(row=0, col=0, card=InlineCard(style=style, **fields))]
        game = Game(mode="military", players=[Player(name="A", city=city)])
        for written in (style, style.upper(), "gothic"):
            card = asked | {"style": written}
            try:
                found: Any = placements(game, player="A", card=card)
            except PlacementError as err:
                found = str(err)
            with _python_packer():
                try:
                    wanted: Any = placements(game, player="A", card=card)
                except PlacementError as err:
                    wanted = str(err)
            assert found == wanted, (style, written)
    bad = Game(mode="military", players=[Player(name="A", city=city)])  # "x y!", no name
    with pytest.raises(PlacementError, match="/card/style: bad_value"):
        placements(bad, player="A", card=asked | {"style": "x y!"})


def test_a_card_with_a_key_that_is_no_str_is_not_plain_json() -> None:
    """plain_card (the gate to the core's reader) looks at every key, a list's too."""

    class Key(str, enum.Enum):
        SIDES = "sides"

    card = {"style": "ex_a", "type": "ex_b", "facility": "lab", "points": 1, "stars": 0}
    assert plain_card(card | {"sides": ["top"]})
    assert not plain_card(card | {Key.SIDES: ["top"]})
    assert not plain_card(card | {1: ["top"]})


def test_games_with_cards_given_by_id_are_packed_in_python_and_placed_right() -> None:
    """A common card of the city replaced by the catalog's Atomic Waste (wild, by id), and
    the card asked by id (New Eden): the strict reader refuses, the Python packer packs,
    and every placement is the brute force's."""
    placed = 0
    for seed in range(12):
        rng = random.Random(seed)
        (game,) = table_games(seed, 1)
        doc = json.loads(json.dumps(_doc(game)))
        city = doc["players"][0]["city"]
        if not city:
            continue
        city[-1]["card"] = "atomic-waste"
        assert not JsonGames().add(json.dumps(doc).encode())
        name = doc["players"][0]["name"]
        for card in (_card(rng), "new-eden"):
            found = placements(doc, player=name, card=card)
            assert found == _brute_force(doc, 0, card)
            placed += len(found)
    assert placed > 20  # the seeds give placements to compare


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_bad_card_is_told_with_the_decoders_words_and_no_made_up_cell(lang: str) -> None:
    """A card asked about is decoded alone: each problem at `/card...` with the words the
    decoder says of the same card in a city, without a cell (the card has none yet)."""
    doc = json.loads((EXAMPLES / "final-scoring-example.json").read_text())
    bad_cards: list[Any] = [
        {"style": "gothic", "points": 99},
        {**BRIDGE, "sides": ["left", "left"]},
        {**BRIDGE, "facility": "castle"},
        {"wild": True, "style": "gothic"},
        {**BRIDGE, "stars": "2"},
        7,
    ]
    for card in bad_cards:
        with neweden.i18n.speaking(lang), pytest.raises(PlacementError) as asked:
            placements(doc, player="Sarah", card=card)
        in_city = {
            "mode": "military",
            "players": [{"name": "A", "city": [{"row": 3, "col": 4, "card": card}]}],
        }
        with neweden.i18n.speaking(lang), pytest.raises(neweden.GameDecodeError) as placed:
            decode_game(in_city)
        with neweden.i18n.speaking(lang):
            cell = (
                " (" + neweden.i18n._("card at row {row}, column {column}", row=3, column=4) + ")"
            )
        expected = [
            (
                p.code,
                p.path.replace("/players/0/city/0/card", "/card"),
                p.message.removesuffix(cell),
            )
            for p in placed.value.problems
        ]
        assert [(p.code, p.path, p.message) for p in asked.value.problems] == expected, card
        with neweden.i18n.speaking(lang):
            zero = neweden.i18n._("card at row {row}, column {column}", row=0, column=0)
        assert not any(zero in p.message for p in asked.value.problems)
        assert all(p.message.endswith(cell) for p in placed.value.problems)  # told with it there


def test_a_card_holding_what_json_cannot_carry_is_refused_as_in_a_game() -> None:
    """A card given as a Python mapping is read as a game mapping reads it: a set, bytes, a
    NaN or a date is refused where it stands, never converted (a set to a list, bytes to
    base64, NaN to null) into a card that would pass."""
    import datetime

    doc = json.loads((EXAMPLES / "final-scoring-example.json").read_text())
    cards: list[Any] = [
        {**BRIDGE, "sides": {"left", "right"}},
        {**BRIDGE, "name": b"bridge"},
        {**BRIDGE, "points": float("nan")},
        {**BRIDGE, "name": datetime.date(2026, 12, 1)},
    ]
    for card in cards:
        with pytest.raises(PlacementError) as asked:
            placements(doc, player="Sarah", card=card)
        in_city = {"mode": "military", "players": [{"name": "A", "city": [
            {"row": 3, "col": 4, "card": card}]}]}  # fmt: skip
        with pytest.raises(neweden.GameDecodeError) as placed:
            decode_game(in_city)
        expected = [
            (p.code, p.path.replace("/players/0/city/0/card", "/card"))
            for p in placed.value.problems
        ]
        assert [(p.code, p.path) for p in asked.value.problems] == expected, card
        assert expected[0][0] in {"bad_type", "bad_value"}
