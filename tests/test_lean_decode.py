"""The lean path of a game's score against the exact decode, attacked.

`neweden.score` reads a document lean when it can (:mod:`neweden.format.lean`: msgspec decodes
everything but the cities, the native core's strict reader packs the cities), and decodes it
the exact way otherwise (:func:`neweden.format.decode.decode_game`). The promise: for every
input, both give the same report byte for byte, or the same :class:`GameDecodeError` (the
same problems, in the same words). These tests try to make the lean path take what the
exact path refuses, or read something differently: generated games, then text and byte
mutations of a valid document (repeated keys at every level, escapes, accents and aliases,
invalid UTF-8, numbers in every spelling, missing, unknown and null fields, sides, limits,
whitespace, a byte-order mark, trailing bytes, deep nesting), in both detail levels and in
Portuguese.

Besides the equality, two things are checked where they say something: a document the exact
path refuses is never taken by the lean path (were it taken, the report could hide the
problem whenever no rule needs the cards), and the plain documents *are* taken lean (so the
tests fail if the lean path silently stops being used)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import neweden
from neweden.format.decode import GameInput, decode_game, game_bytes
from neweden.format.lean import decode_lean
from neweden.format.model import MAX_CARDS, MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError
from neweden.format.vocabulary import ALIASES
from neweden.geometry.native import pack_json_games
from neweden.geometry.synth import STYLES, city_json, grow_city
from neweden.i18n import speaking
from neweden.scoring.report import score_report, score_reports
from tests.games import line

#: ("ok", the report as JSON) or ("error", the problems and the message as JSON).
Outcome = tuple[str, bytes]


def _outcome(run: Callable[[], object]) -> Outcome:
    try:
        found = run()
    except GameDecodeError as err:
        return "error", msgspec.json.encode({"problems": err.problems, "message": str(err)})
    return "ok", msgspec.json.encode(found)


def exact(raw: GameInput, detail: bool) -> Outcome:
    """The exact path alone: the game decoded by the every-problem decoder, then scored."""
    return _outcome(lambda: score_reports([decode_game(raw)], detail=detail)[0])


def lean(raw: GameInput, detail: bool) -> Outcome:
    """What `neweden.score` does: lean when it can, exact otherwise."""
    return _outcome(lambda: score_report(raw, detail=detail))


def taken_lean(raw: GameInput) -> bool:
    """Whether the lean path takes the document (both of its readers accept it)."""
    try:
        data = game_bytes(raw)
    except GameDecodeError:
        return False
    return decode_lean(data) is not None and pack_json_games([data]) is not None


def same(raw: GameInput, *, detail: bool = False, taken: bool | None = None) -> Outcome:
    """Asserts the lean and exact paths agree on `raw` (and, when `taken` is given, that the
    lean path takes it or not); returns the exact path's outcome."""
    want = exact(raw, detail)
    got = lean(raw, detail)
    assert got[0] == want[0], f"lean {got[0]}, exact {want[0]}: {got[1][:400]!r}"
    assert got[1] == want[1]
    took = taken_lean(raw)
    if want[0] == "error":
        assert not took, "the lean path takes a document the exact decoder refuses"
    if taken is not None:
        assert took == taken
    return want


# --- generated games -------------------------------------------------------------------------

#: Player names as people write them: accents, quotes, a backslash, an emoji (outside the
#: cities: the lean path takes them).
NAMES = ("Ana", "João", 'Zé "o grande"', "back\\slash", "🎲 dados", "x" * 100, "Bia")
#: Names the decoder folds (RULES §1), spelled in ASCII: the strict reader takes them.
ASCII_STYLE_ALIASES = ("gotico", "GOTICO", "Gotica", "futurista", "RENASCENTISTA", "gothic")
ASCII_TYPE_ALIASES = ("area_verde", "AREA_VERDE", "construcao", "Construcao", "building")
EFFECTS = ("third_star", "rotate", "move", "ex_fly")


def _city(draw: st.DrawFn, rng: random.Random, styles: int) -> list[dict[str, Any]]:
    """A city of 0-16 cards grown by legal placement (wild and rotated cards among them),
    sometimes made illegal (a card on a taken cell, a card far away), with card names and
    style or type aliases now and then."""
    size = draw(st.integers(0, 16))
    city = city_json(grow_city(rng, size, styles=styles, types=6)) if size else []
    for entry in city:
        card = entry["card"]
        if "style" in card and draw(st.integers(0, 7)) == 0:
            card["style"] = draw(st.sampled_from(ASCII_STYLE_ALIASES))
        if "type" in card and draw(st.integers(0, 7)) == 0:
            card["type"] = draw(st.sampled_from(ASCII_TYPE_ALIASES))
        if draw(st.integers(0, 9)) == 0:
            card["name"] = draw(st.sampled_from(["Catedral", "x" * 100, "a b-c's"]))
        if card.get("wild") and draw(st.integers(0, 3)) == 0:
            card["points"] = draw(st.integers(0, 1000))
            card["stars"] = draw(st.integers(0, 3))
        if "rotated" not in entry and draw(st.integers(0, 19)) == 0:
            entry["rotated"] = draw(st.booleans())  # `false` given, or a wild card turned
    if city and draw(st.integers(0, 4)) == 0:  # an overlap
        city.append({**city[-1], "row": city[0]["row"], "col": city[0]["col"]})
    if city and draw(st.integers(0, 4)) == 0:  # a disconnected card
        city.append({**city[-1], "row": draw(st.integers(-1000, 1000)), "col": 1000})
    return city


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A readable game: 1-4 players, the three modes, epiphanies (inline with points and
    effect, by catalog id; held, validated or activated, a rotate one or not), bonuses,
    first_player, meta, requirements right or not; legal and illegal cities."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    styles = draw(st.sampled_from([3, 5, 7]))  # 7: sometimes more styles than the box holds
    players = []
    for p in range(draw(st.integers(1, 4))):
        player: dict[str, Any] = {
            "name": draw(st.sampled_from(NAMES)) + ("" if draw(st.integers(0, 9)) == 0 else str(p)),
            "city": _city(draw, rng, styles),
        }
        epiphanies = []
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.integers(0, 9)) == 0:
                epiphanies.append({"card": "EX-E1", "state": "held"})
                continue
            entry: dict[str, Any] = {
                "points": draw(st.sampled_from([2, 5])),
                "state": draw(st.sampled_from(["held", "validated", "activated"])),
            }
            if draw(st.booleans()):
                entry["effect"] = draw(st.sampled_from(EFFECTS))
            epiphanies.append(entry)
        if epiphanies or draw(st.booleans()):
            player["epiphanies"] = epiphanies
        if draw(st.booleans()):
            player["bonuses"] = [
                {"name": draw(st.sampled_from(["Company", "Fotógrafo"])), "points": points}
                for points in draw(st.lists(st.integers(-1000, 1000), max_size=3))
            ]
        players.append(player)
    mode = draw(st.sampled_from(["populist", "military", "elitist"]))
    doc: dict[str, Any] = {"mode": mode, "players": players}
    if mode != "military" or draw(st.integers(0, 4)) == 0:
        doc["requirements"] = draw(
            st.sampled_from([["A1", "B1", "C1"], ["C1", "A1"], [], ["A1", "EX-R9"]])
        )
    if draw(st.booleans()):
        doc["first_player"] = draw(st.sampled_from([players[0]["name"], "nobody"]))
    if draw(st.booleans()):
        doc["meta"] = {"photo": "t3.jpg", "nested": {"a": [1, 2.5, None, {"b": "ç"}]}}
    if draw(st.booleans()):
        doc["format"] = "new-eden/game@1"
    return doc


def _encoded(draw: st.DrawFn, doc: dict[str, Any]) -> bytes:
    """The document as JSON in one of the ways it is written: compact, spaced, indented with
    spaces or tabs, with CRLF line ends, non-ASCII as UTF-8 or escaped (outside the cities:
    the cities' strings are ASCII here)."""
    style = draw(st.sampled_from(["compact", "spaced", "indented", "tabs", "crlf"]))
    ascii_only = draw(st.booleans())
    if style == "compact":
        text = json.dumps(doc, ensure_ascii=ascii_only, separators=(",", ":"))
    elif style == "spaced":
        text = json.dumps(doc, ensure_ascii=ascii_only, separators=(" , ", " : "))
    elif style == "tabs":
        text = json.dumps(doc, ensure_ascii=ascii_only, indent="\t")
    else:
        text = json.dumps(doc, ensure_ascii=ascii_only, indent=2)
        if style == "crlf":
            text = text.replace("\n", "\r\n")
    return text.encode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.booleans(), st.data())
def test_generated_games_read_lean_give_the_exact_report(
    doc: dict[str, Any], detail: bool, data: st.DataObject
) -> None:
    raw = data.draw(st.builds(lambda: b"")) or _encoded(data.draw, doc)
    outcome = same(raw, detail=detail, taken=True)
    assert outcome[0] == "ok"


def test_generated_games_cover_what_they_claim() -> None:
    """The generator's games show the cases the property is about (checked on a fixed
    sample, so a change of the generator cannot quietly drop them)."""
    rng = random.Random(7)
    seen: set[str] = set()
    for seed in range(300):
        rng.seed(seed)
        city = city_json(grow_city(rng, 16, styles=5, types=6))
        if any(entry.get("rotated") for entry in city):
            seen.add("rotated")
        if any(entry["card"].get("wild") for entry in city):
            seen.add("wild")
    assert seen == {"rotated", "wild"}


def test_a_plain_game_is_read_lean_in_both_detail_levels(format_example: dict[str, Any]) -> None:
    """The format's example, its catalog card made inline: the lean path takes it (the
    example itself, with a card given by catalog id, is left to the exact path)."""
    raw = json.dumps(format_example).encode()
    assert not taken_lean(raw)
    same(raw, detail=True)
    format_example["players"][0]["city"][0]["card"] = {"wild": True}
    raw = json.dumps(format_example).encode()
    for detail in (False, True):
        assert same(raw, detail=detail, taken=True)[0] == "ok"


# --- a valid document, mutated -----------------------------------------------------------------

CARD_A = (
    '{"style":"ex_amber","type":"ex_harbor","facility":"lab","points":3,"stars":2,'
    '"sides":["right","bottom"]}'
)
CARD_B = (
    '{"style":"ex_amber","type":"ex_meadow","facility":"tower","points":1,"stars":0,'
    '"sides":["left"]}'
)
CARD_C = (
    '{"style":"ex_jade","type":"ex_quarry","facility":"base","points":4,"stars":3,'
    '"sides":["top"],"name":"Catedral"}'
)
#: A valid, legal game (so that with detail=False no rule needs the cards decoded: a
#: mutation the lean path took wrongly would show as a report where the exact path errs).
BASE = (
    '{"$schema":"https://example.invalid/game.schema.json","format":"new-eden/game@1",'
    '"mode":"elitist","requirements":["A1","B1","C1"],"first_player":"Bia",'
    '"meta":{"table":3,"photo":"t3.jpg"},"players":['
    '{"name":"Ana","city":['
    '{"row":0,"col":0,"card":' + CARD_A + "},"
    '{"row":0,"col":1,"card":' + CARD_B + "},"
    '{"row":1,"col":0,"card":{"wild":true},"rotated":true}],'
    '"epiphanies":[{"points":2,"state":"activated","effect":"rotate"},'
    '{"points":5,"state":"validated"}],'
    '"bonuses":[{"name":"Photographer","points":3}]},'
    '{"name":"Bia","city":[{"row":-3,"col":7,"card":' + CARD_C + "}]}]}"
)


def sub(old: str | bytes, new: str | bytes, text: str | bytes = BASE, *, count: int = 1) -> bytes:
    """BASE (or `text`) with the first `count` places of `old` replaced (0: every place)."""
    data = text.encode() if isinstance(text, str) else text
    was = old.encode() if isinstance(old, str) else old
    now = new.encode() if isinstance(new, str) else new
    assert was in data, was
    return data.replace(was, now, count if count else -1)


class Case(NamedTuple):
    name: str
    raw: bytes
    #: True: the lean path must take it; None: either way (refusing is always allowed).
    taken: bool | None = None


def _duplicate_key_cases() -> list[Case]:
    """A key given twice at every level, the first value wrong and the last right, the
    other way round, and both right but different."""
    row0 = '{"row":0,"col":0,"card":'
    spots: list[tuple[str, str, str, str]] = [
        # (name, the pair as in BASE, a right other value's pair, a wrong value's pair)
        ("top players", '"players":[', '"players":[{"name":"Z","city":[]}],', '"players":7,'),
        ("top mode", '"mode":"elitist"', '"mode":"populist"', '"mode":"elitest"'),
        ("top requirements", '"requirements":["A1","B1","C1"]', '"requirements":["A1"]', ""),
        ("top meta", '"meta":{"table":3,"photo":"t3.jpg"}', '"meta":{}', '"meta":[]'),
        ("top first_player", '"first_player":"Bia"', '"first_player":"Ana"', ""),
        ("player name", '"name":"Ana"', '"name":"Bia"', '"name":""'),
        ("player city", '"city":[{"row":0,"col":0,', '"city":[]', '"city":"nope"'),
        ("player epiphanies", '"epiphanies":[', '"epiphanies":[]', '"epiphanies":{}'),
        ("player bonuses", '"bonuses":[', '"bonuses":[]', '"bonuses":[{"name":"x"}]'),
        ("placement row", row0, '"row":1', '"row":1001'),
        ("placement col", row0, '"col":5', '"col":"0"'),
        ("placement card", row0, '"card":{"wild":true}', '"card":"EX 1"'),
        ("placement rotated", row0, '"rotated":true', '"rotated":1'),
        ("card style", '"style":"ex_amber","type":"ex_harbor"', '"style":"ex_jade"', ""),
        ("card type", '"style":"ex_amber","type":"ex_harbor"', '"type":"ex_lagoon"', ""),
        ("card facility", '"facility":"lab"', '"facility":"base"', '"facility":"lav"'),
        ("card points", '"points":3', '"points":4', '"points":-1'),
        ("card stars", '"stars":2', '"stars":0', '"stars":4'),
        ("card sides", '"sides":["right","bottom"]', '"sides":["right"]', '"sides":[]'),
        ("card name", '"name":"Catedral"', '"name":"Igreja"', '"name":""'),
        ("wild wild", '{"wild":true}', '"wild":true', '"wild":false'),
        ("epiphany state", '"state":"activated"', '"state":"held"', '"state":"used"'),
        ("bonus points", '"points":3}]', '"points":1', '"points":1001'),
    ]
    cases: list[Case] = []
    for name, anchor, right, wrong in spots:
        # The pair is added right after the object's opening brace (first) or right
        # before its closing one would be hard to find: for "last", the pair goes after the
        # anchor's own pair when the anchor is one pair, else first place is all we test.
        is_pair = anchor.count(":") == 1 and not anchor.endswith("[")
        opener = anchor if anchor.startswith("{") else None
        for label, extra in (("right", right), ("wrong", wrong), ("wrong style", "")):
            if not extra:
                continue
            pair = extra.rstrip(",")
            if opener is not None:
                inner = "{" + pair + "," + opener[1:]
                cases.append(Case(f"{name}: {label} first", sub(opener, inner)))
            elif anchor.startswith('"players":') or anchor.startswith('"city":'):
                cases.append(Case(f"{name}: {label} first", sub(anchor, pair + "," + anchor)))
            elif is_pair:
                cases.append(Case(f"{name}: {label} first", sub(anchor, pair + "," + anchor)))
                cases.append(Case(f"{name}: {label} last", sub(anchor, anchor + "," + pair)))
            else:
                cases.append(Case(f"{name}: {label} first", sub(anchor, pair + "," + anchor)))
    # The same value given twice (msgspec takes either; the strict reader refuses both).
    cases.append(Case("row twice, same", sub(row0, '{"row":0,"row":0,"col":0,"card":')))
    cases.append(Case("city key twice, same", sub('"city":[]', '"city":[],"city":[]', sub(
        '{"name":"Bia","city":[{"row":-3,"col":7,"card":' + CARD_C + "}]}",
        '{"name":"Bia","city":[]}',
    ))))
    # The last players/city wrong, the first right (the lean decoder reads a city as raw
    # JSON, whatever it is: only the strict reader sees it is given twice).
    cases.append(Case("players: last wrong city", sub('"players":[', '"players":[{"name":"Z",'
        '"city":"nope"}],"players":[')))
    tail = "}]}]}"
    assert BASE.endswith(tail)
    cases.append(Case("city: last not an array", BASE[: -len(tail)].encode() + b'}],"city":7}]}'))
    cases.append(Case("city: last refused", BASE[: -len(tail)].encode()
        + b'}],"city":[{"row":0,"col":0,"card":{"wild":false}}]}]}'))
    cases.append(Case("city: last with an id", BASE[: -len(tail)].encode()
        + b'}],"city":[{"row":0,"col":0,"card":"EX-1"}]}]}'))
    cases.append(Case("top: players last wrong", BASE[:-1].encode() + b',"players":[]}'))
    cases.append(Case("top: mode last wrong", BASE[:-1].encode() + b',"mode":"elitest"}'))
    cases.append(Case("top: mode last right", BASE[:-1].encode() + b',"mode":"military"}'))
    return cases
