"""The lean path of a game's score against the exact decode, attacked.

`neweden.score` reads a document lean when it can (:mod:`neweden.format.lean`: msgspec decodes
everything but the cities, the native core's strict reader packs the cities) and decodes it
the exact way otherwise (:func:`neweden.format.decode.decode_game`). The promise: for every
input, both give the same report byte for byte, or the same :class:`GameDecodeError` (the same
problems, in the same words). These tests try to make the lean path take what the exact path
refuses, or read something differently: generated games; a valid document with a key given
twice at every level; text mutations (escapes, accents and aliases, invalid UTF-8, numbers in
every spelling, missing, unknown and null fields, sides, limits, whitespace, a byte-order
mark, trailing bytes, deep nesting); hostile tokens and bytes put anywhere; other input
kinds; both detail levels; Portuguese.

Besides the equality, two things are checked where they say something: a document the exact
path refuses is never taken by the lean path (taken, its report would hide the problem
whenever no rule needs the cards decoded), and the plain documents *are* taken lean (so the
tests fail if the lean path silently stops being used)."""

from __future__ import annotations

import copy
import json
import random
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import neweden
from neweden.catalog.catalog import Catalog
from neweden.catalog.files import load_catalog
from neweden.format.decode import GameInput, decode_game, game_bytes
from neweden.format.lean import decode_lean
from neweden.format.model import IDENTIFIER_PATTERN, MAX_CARDS, MAX_GAME_BYTES
from neweden.format.problems import GameDecodeError
from neweden.format.vocabulary import ALIASES, Attribute, fold
from neweden.geometry.native import JsonGames, score_games
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.scoring import report
from neweden.scoring.report import LEAN_FROM_BYTES, score_inputs, score_report, score_reports
from tests.games import line

#: ("ok", the report as JSON) or ("error", the problems and the message as JSON).
Outcome = tuple[str, bytes]


def _outcome(run: Callable[[], object]) -> Outcome:
    try:
        found = run()
    except GameDecodeError as err:
        return "error", msgspec.json.encode({"problems": err.problems, "message": str(err)})
    return "ok", msgspec.json.encode(found)


def exact(raw: GameInput, detail: bool, catalog: Catalog | None = None) -> Outcome:
    """The exact path alone: the game decoded by the every-problem decoder, then scored."""
    return _outcome(lambda: score_reports([decode_game(raw)], catalog=catalog, detail=detail)[0])


def lean(raw: GameInput, detail: bool, catalog: Catalog | None = None) -> Outcome:
    """What `neweden.score` does: lean when it can, exact otherwise."""
    return _outcome(lambda: score_report(raw, catalog=catalog, detail=detail))


def readers_take(raw: GameInput) -> bool:
    """Whether both readers of the lean path accept the document (whatever its size), as
    the pipeline asks them: the strict reader its cities, then msgspec the rest (the
    document with each city given as `[]`)."""
    try:
        data = game_bytes(raw)
    except GameDecodeError:
        return False
    return report.lean_game(JsonGames(), data) is not None


def taken_lean(raw: GameInput) -> bool:
    """Whether `neweden.score` reads the document lean: both readers accept it, and it is
    not so small that the exact decoder is as fast (LEAN_FROM_BYTES)."""
    return readers_take(raw) and len(game_bytes(raw)) >= LEAN_FROM_BYTES


def padded(raw: bytes) -> bytes:
    """`raw` with whitespace after it, up to the size read lean."""
    return raw + b" \n\t\r" * max(0, (LEAN_FROM_BYTES - len(raw) + 3) // 4)


def same(
    raw: GameInput,
    *,
    detail: bool = False,
    taken: bool | None = None,
    catalog: Catalog | None = None,
) -> Outcome:
    """Asserts the lean and exact paths agree on `raw`, that the readers of the lean path
    do not both accept a document the exact path refuses, and (when `taken` is given) that
    `neweden.score` reads it lean or not; returns the exact path's outcome."""
    want = exact(raw, detail, catalog)
    got = lean(raw, detail, catalog)
    assert got[0] == want[0], f"lean {got[0]}, exact {want[0]}: {got[1][:400]!r}"
    assert got[1] == want[1]
    if want[0] == "error":
        assert not readers_take(raw), "the lean readers take a document the exact path refuses"
    if taken is not None:
        assert taken_lean(raw) == taken, f"taken lean: {not taken}"
    return want


# --- generated games -------------------------------------------------------------------------

#: Player names as people write them: accents, quotes, a backslash, an emoji (outside the
#: cities: the lean path takes them).
NAMES = ("Ana", "João", 'Zé "o grande"', "back\\slash", "🎲 dados", "x" * 99, "Bia")
#: Names the decoder folds (RULES §1), spelled in ASCII: the strict reader takes them.
ASCII_STYLES = ("gotico", "GOTICO", "Gotica", "futurista", "RENASCENTISTA", "gothic")
ASCII_TYPES = ("area_verde", "AREA_VERDE", "construcao", "Construcao", "building")
EFFECTS = ("third_star", "rotate", "move", "ex_fly")


def _city(draw: st.DrawFn, rng: random.Random, styles: int) -> list[dict[str, Any]]:
    """A city of 0-16 cards grown by legal placement (wild and rotated cards among them),
    sometimes made illegal (a card on a taken cell, a card far away), with card names,
    points on wild cards and style or type aliases now and then."""
    size = draw(st.integers(0, 16))
    city = city_json(grow_city(rng, size, styles=styles, types=6)) if size else []
    for entry in city:
        card = entry["card"]
        if "style" in card and draw(st.integers(0, 7)) == 0:
            card["style"] = draw(st.sampled_from(ASCII_STYLES))
        if "type" in card and draw(st.integers(0, 7)) == 0:
            card["type"] = draw(st.sampled_from(ASCII_TYPES))
        if draw(st.integers(0, 9)) == 0:
            card["name"] = draw(st.sampled_from(["Catedral", "x" * 100, "a b-c's"]))
        if card.get("wild") and draw(st.integers(0, 2)) == 0:
            card["points"] = draw(st.integers(0, 1000))
            card["stars"] = draw(st.integers(0, 3))
        if "rotated" not in entry and draw(st.integers(0, 14)) == 0:
            entry["rotated"] = draw(st.booleans())  # `false` written, or a wild card turned
    if city and draw(st.integers(0, 4)) == 0:  # an overlap
        city.append({**city[-1], "row": city[0]["row"], "col": city[0]["col"]})
    if city and draw(st.integers(0, 4)) == 0:  # a disconnected card
        city.append({**city[-1], "row": draw(st.integers(-1000, 1000)), "col": 1000})
    return city


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A readable game: 1-4 players, the three modes, epiphanies (inline with points and
    effect, or by catalog id; held, validated or activated; a rotate one or not), bonuses,
    first_player, meta, requirements right or not; legal and illegal cities."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    styles = draw(st.sampled_from([3, 5, 7]))  # 7: sometimes more styles than the box holds
    players = []
    for p in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(NAMES)) + ("" if draw(st.integers(0, 9)) == 0 else str(p))
        player: dict[str, Any] = {"name": name, "city": _city(draw, rng, styles)}
        epiphanies: list[dict[str, Any]] = []
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
        if draw(st.booleans()) or epiphanies:
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


#: The ways a document is written: compact, spaced, indented with spaces or tabs, CRLF.
LAYOUTS = ("compact", "spaced", "indented", "tabs", "crlf")


def written(doc: Any, layout: str, *, ascii_only: bool = False) -> bytes:
    """`doc` as JSON laid out as `layout`; non-ASCII as UTF-8 or as escapes."""
    if layout == "compact":
        text = json.dumps(doc, ensure_ascii=ascii_only, separators=(",", ":"))
    elif layout == "spaced":
        text = json.dumps(doc, ensure_ascii=ascii_only, separators=(" , ", " : "))
    elif layout == "tabs":
        text = json.dumps(doc, ensure_ascii=ascii_only, indent="\t")
    else:
        text = json.dumps(doc, ensure_ascii=ascii_only, indent=2)
        if layout == "crlf":
            text = text.replace("\n", "\r\n")
    return text.encode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.sampled_from(LAYOUTS), st.booleans(), st.booleans())
def test_generated_games_are_read_lean_into_the_exact_report(
    doc: dict[str, Any], layout: str, ascii_only: bool, detail: bool
) -> None:
    raw = padded(written(doc, layout, ascii_only=ascii_only))
    outcome = same(raw, detail=detail, taken=True)
    assert outcome[0] == "ok"


def test_the_format_example_is_left_to_the_exact_path_and_read_lean_without_its_id(
    format_example: dict[str, Any],
) -> None:
    """The format's example gives a card by catalog id: the exact path reads it. Made
    inline, the lean path takes it; the same reports either way, in both detail levels."""
    raw = json.dumps(format_example).encode()
    for detail in (False, True):
        same(raw, detail=detail, taken=False)
    format_example["players"][0]["city"][0]["card"] = {"wild": True}
    raw = json.dumps(format_example).encode()
    for detail in (False, True):
        assert same(raw, detail=detail, taken=True)[0] == "ok"


# --- a valid document, a key given twice ---------------------------------------------------------

CARD_A = {
    "style": "ex_amber",
    "type": "ex_harbor",
    "facility": "lab",
    "points": 3,
    "stars": 2,
    "sides": ["right", "bottom"],
}
CARD_B = {
    "style": "ex_amber",
    "type": "ex_meadow",
    "facility": "tower",
    "points": 1,
    "stars": 0,
    "sides": ["left"],
}
CARD_C = {
    "style": "ex_jade",
    "type": "ex_quarry",
    "facility": "base",
    "points": 4,
    "stars": 3,
    "sides": ["top"],
    "name": "Catedral",
}
#: A valid game with legal cities (so that, with detail=False, no rule needs the cards
#: decoded: a document the lean path took wrongly would show as a report where the exact
#: path errs), every part of the format in it.
BASE_DOC: dict[str, Any] = {
    "$schema": "https://example.invalid/game.schema.json",
    "format": "new-eden/game@1",
    "mode": "elitist",
    "requirements": ["A1", "B1", "C1"],
    "first_player": "Bia",
    "meta": {"table": 3, "photo": "t3.jpg"},
    "players": [
        {
            "name": "Ana",
            "city": [
                {"row": 0, "col": 0, "card": CARD_A},
                {"row": 0, "col": 1, "card": CARD_B},
                {"row": 1, "col": 0, "card": {"wild": True}, "rotated": True},
            ],
            "epiphanies": [
                {"points": 2, "state": "activated", "effect": "rotate"},
                {"points": 5, "state": "validated"},
            ],
            "bonuses": [{"name": "Photographer", "points": 3}],
        },
        {"name": "Bia", "city": [{"row": -3, "col": 7, "card": CARD_C}]},
    ],
}
BASE = json.dumps(BASE_DOC, separators=(",", ":"))


def test_the_base_document_is_valid_legal_and_read_lean() -> None:
    report = neweden.score(BASE, detail=False)
    assert report["valid"] is True
    assert all(player["legal"] for player in report["players"])
    for detail in (False, True):
        same(BASE.encode(), detail=detail, taken=True)


def with_pair(doc: Any, at: tuple[str | int, ...], key: str, value: Any, *, first: bool) -> bytes:
    """`doc` as compact JSON with the object at `at` given one more `key: value` pair, as
    its first pair or its last (a key already there is then given twice)."""

    def emit(value: Any, here: tuple[str | int, ...]) -> str:
        if isinstance(value, dict):
            pairs = [
                json.dumps(k, ensure_ascii=False) + ":" + emit(v, (*here, k))
                for k, v in value.items()
            ]
            if here == at:
                extra = json.dumps(key) + ":" + json.dumps(extra_value, ensure_ascii=False)
                pairs.insert(0 if first else len(pairs), extra)
            return "{" + ",".join(pairs) + "}"
        if isinstance(value, list):
            return "[" + ",".join(emit(v, (*here, i)) for i, v in enumerate(value)) + "]"
        return json.dumps(value, ensure_ascii=False)

    extra_value = value
    return emit(doc, ()).encode()


#: The objects of BASE_DOC, by path.
OBJECTS: dict[str, tuple[str | int, ...]] = {
    "game": (),
    "meta": ("meta",),
    "player": ("players", 0),
    "second player": ("players", 1),
    "placement": ("players", 0, "city", 0),
    "rotated placement": ("players", 0, "city", 2),
    "card": ("players", 0, "city", 0, "card"),
    "named card": ("players", 1, "city", 0, "card"),
    "wild card": ("players", 0, "city", 2, "card"),
    "epiphany": ("players", 0, "epiphanies", 0),
    "bonus": ("players", 0, "bonuses", 0),
}

#: For each key, another value the format takes and one it does not (None: no such value).
OTHER_VALUES: dict[str, tuple[Any, Any]] = {
    "$schema": ("x", 5),
    "format": ("new-eden/game@1", "new-eden/game@2"),
    "mode": ("populist", "elitest"),
    "requirements": (["A1"], "A1"),
    "first_player": ("Ana", ""),
    "meta": ({}, []),
    "players": ([{"name": "Z", "city": []}], [{"name": "Z", "city": "nope"}]),
    "table": (4, None),
    "photo": ("é.jpg", None),
    "name": ("Zoe", ""),
    "city": ([], "nope"),
    "epiphanies": ([], {}),
    "bonuses": ([], [{"name": "x"}]),
    "row": (1, 1001),
    "col": (5, "0"),
    "card": ({"wild": True}, "EX 1"),
    "rotated": (False, 1),
    "style": ("ex_jade", "Goth/ic"),
    "type": ("gotico", "B/AD"),
    "facility": ("base", "lav"),
    "points": (1, -1),
    "stars": (0, 4),
    "sides": (["top"], []),
    "wild": (True, False),
    "state": ("held", "used"),
    "effect": ("move", "Rot/ate"),
}


def _at(doc: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _repeated_key_cases() -> Iterator[Any]:
    for where, path in OBJECTS.items():
        for key, value in _at(BASE_DOC, path).items():
            right, wrong = OTHER_VALUES[key]
            for label, other in (("same", value), ("right", right), ("wrong", wrong)):
                if other is None and label == "wrong":
                    continue
                for first in (True, False):
                    order = "first" if first else "last"
                    raw = with_pair(BASE_DOC, path, key, other, first=first)
                    yield pytest.param(raw, id=f"{where}.{key} again, {label}, {order}")


@pytest.mark.parametrize("raw", list(_repeated_key_cases()))
@pytest.mark.parametrize("detail", [False, True])
def test_a_key_given_twice_reads_as_the_exact_path_reads_it(raw: bytes, detail: bool) -> None:
    same(raw, detail=detail)


# --- a valid document, each field removed, null, or of another kind --------------------------

_DELETE = object()


def changed(path: tuple[str | int, ...], key: str, value: Any = _DELETE) -> bytes:
    """BASE_DOC as compact JSON with `key` of the object at `path` set to `value` (or
    removed)."""
    doc = copy.deepcopy(BASE_DOC)
    obj = _at(doc, path)
    if value is _DELETE:
        obj.pop(key, None)
    else:
        obj[key] = value
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


#: Values of every JSON kind, put in place of each field.
KINDS: tuple[Any, ...] = (None, True, False, 0, -1, 1.5, "", "x", [], {}, [None], {"a": 1})


def _field_cases() -> Iterator[Any]:
    for where, path in OBJECTS.items():
        for key in [*_at(BASE_DOC, path), "extra", "$schema", "Row", "styles"]:
            yield pytest.param(path, key, id=f"{where}.{key}")


@pytest.mark.parametrize(("path", "key"), list(_field_cases()))
def test_a_field_missing_null_unknown_or_of_another_kind(
    path: tuple[str | int, ...], key: str
) -> None:
    """Each field of each object of the format removed, null, or of every other JSON kind
    (and keys the objects do not have, given: `extra`, `$schema`, `Row`, `styles`)."""
    right, wrong = OTHER_VALUES.get(key, (None, None))
    for value in (_DELETE, *KINDS, right, wrong):
        raw = changed(path, key, value)
        for detail in (False, True):
            try:
                same(raw, detail=detail)
            except AssertionError as err:
                raise AssertionError(f"{key} = {value!r}, detail {detail}: {err}") from None


# --- a valid document, its text changed ------------------------------------------------------


def sub(old: str | bytes, new: str | bytes, text: str | bytes = BASE) -> bytes:
    """`text` (BASE) with the first place of `old` replaced by `new`."""
    data = text.encode() if isinstance(text, str) else text
    was = old.encode() if isinstance(old, str) else old
    now = new.encode() if isinstance(new, str) else new
    assert was in data, was
    return data.replace(was, now, 1)


class Case(NamedTuple):
    name: str
    raw: bytes
    #: True: the lean path must take it (a valid document it can read); None: either way.
    taken: bool | None = None


#: Where BASE writes the fields of the first placement and its card, and the rest.
PLACEMENT = '{"row":0,"col":0,"card":' + json.dumps(CARD_A, separators=(",", ":")) + "}"
STYLE = '"style":"ex_amber"'
TYPE = '"type":"ex_harbor"'
FACILITY = '"facility":"lab"'
SIDES = '"sides":["right","bottom"]'
WILD = '{"wild":true}'
ROTATED = '"rotated":true'
CARD_NAME = '"name":"Catedral"'
ANA_CITY = BASE[BASE.index('"city":[') : BASE.index(',"epiphanies"')]
ROTATE = '"state":"activated","effect":"rotate"'
assert all(
    part in BASE for part in (PLACEMENT, STYLE, TYPE, FACILITY, SIDES, WILD, ROTATED, ROTATE)
)


def _escape_cases() -> Iterator[Case]:
    """Keys and strings with escapes (`"c\\u0069ty"` is `"city"` to the exact decoder), and
    characters JSON does not take raw in a string."""
    keys = [
        ('"city":[', '"c\\u0069ty":['),
        (STYLE, '"st\\u0079le":"ex_amber"'),
        ('{"row":0,"col":0', '{"r\\u006fw":0,"col":0'),
        ('"players":', '"pl\\u0061yers":'),
        ('"card":{', '"c\\u0061rd":{'),
        (WILD, '{"w\\u0069ld":true}'),
        (SIDES, '"s\\u0069des":["right","bottom"]'),
        (CARD_NAME, '"n\\u0061me":"Catedral"'),
        (ROTATED, '"rot\\u0061ted":true'),
        ('"$schema"', '"\\u0024schema"'),
        ('"mode"', '"m\\u006Fde"'),
        (STYLE, '"styl\\u0065\\u0020":"ex_amber"'),  # "style ": no field
        (STYLE, '"\\u00e9style":"ex_amber"'),
        ('"table"', '"t\\u00e1ble"'),  # in meta: any key
    ]
    values = [
        (STYLE, '"style":"ex_\\u0061mber"'),
        (TYPE, '"type":"\\u0065x_harbor"'),
        (FACILITY, '"facility":"l\\u0061b"'),
        (SIDES, '"sides":["r\\u0069ght","bottom"]'),
        (STYLE, '"style":"gothic\\u0000"'),
        (STYLE, '"style":"ex_amber\\n"'),
        (STYLE, '"style":"ex_amber\\t"'),
        (STYLE, '"style":"\\/ex_amber"'),
        (STYLE, '"style":"G\\u00f3tico"'),
        (STYLE, '"style":"Go\\u0301tico"'),
        (STYLE, '"style":"g\\u00d3tico"'),
        (STYLE, '"style":"\\ud800"'),
        (STYLE, '"style":"\\u0067otico"'),
        (CARD_NAME, '"name":"Cat\\/edral"'),
        (CARD_NAME, '"name":"Z\\u00e9 \\"o grande\\""'),
        (CARD_NAME, '"name":"\\ud83c\\udfb2"'),
        (CARD_NAME, '"name":"\\udfb2"'),
        (CARD_NAME, '"name":"\\u0000"'),
        (CARD_NAME, '"name":"\\\\"'),
        ('"name":"Ana"', '"name":"An\\u0061"'),  # outside the cities
        ('"first_player":"Bia"', '"first_player":"B\\u0069a"'),
        ('"photo":"t3.jpg"', '"photo":"t3\\u00e9.jpg"'),
    ]
    raw = [  # not escapes: characters JSON does not take raw in a string
        (STYLE, '"style":"ex_amber\t"'),
        (STYLE, '"style":"ex_amber\x7f"'),
        (STYLE, '"style":"ex_amber\x00"'),
        (STYLE, '"style":"ex_amber\x1f"'),
        (CARD_NAME, '"name":"Cate\ndral"'),
        (CARD_NAME, '"name":"Cate\x7fdral"'),
    ]
    for kind, found in (("key", keys), ("value", values), ("raw", raw)):
        for old, new in found:
            yield Case(f"escaped {kind} {new!a}", sub(old, new))


def _readable_name(name: str, attribute: Attribute) -> bool:
    return re.fullmatch(IDENTIFIER_PATTERN, fold(name, attribute)) is not None


def _alias_cases() -> Iterator[Case]:
    """Every name and alias of the vocabulary as written, in capitals, capitalized and
    decomposed; names as players write them (RULES §1: accents, spaces, hyphens) and near
    names that are none. Every spelling the decoder reads is read lean, UTF-8 included (the
    strict reader takes the name as written, the caller folds it)."""
    for attribute, names in ALIASES.items():
        old = STYLE if attribute == "style" else TYPE
        for name, forms in names.items():
            for form in (name, *forms):
                spellings = (form, form.upper(), form.title(), unicodedata.normalize("NFD", form))
                for spelling in dict.fromkeys(spellings):
                    yield Case(
                        f"{attribute} {spelling!a}",
                        sub(old, json.dumps({attribute: spelling}, ensure_ascii=False)[1:-1]),
                        True if _readable_name(spelling, attribute) else None,
                    )
    odd_styles = (
        "gótico ",
        "go\u0323tico",  # a mark Portuguese does not write
        "\uff47\uff4f\uff54\uff49\uff43\uff4f",  # fullwidth
        "gothíc",
        "área_verde",  # a type's alias as a style
        "gotico\u200b",
        "g\u00f3\u0301tico",
        "sustentavel_",
        "go tico",
        "",
        "x" * 100,
        "x" * 101,
        "a" + "é" * 99,
        "a" + "é" * 100,
        "Praça",
        "PRAÇA",
        "Pra\u0327ca",
        "  Arte-Déco  ",
        "Comércio Local",
        "3d",
        "a/b",
        "\U0001f3db",  # an emoji
        "Готика",  # another script's letters
        "-gothic",
        "\u0301gothic",
        "K\u212a",  # KELVIN SIGN decomposes to K
        "İstanbul",  # lower case adds a dot above
    )
    for odd in odd_styles:
        yield Case(
            f"style {odd!a}",
            sub(STYLE, json.dumps({"style": odd}, ensure_ascii=False)[1:-1]),
            True if _readable_name(odd, "style") and len(odd) <= 100 else None,
        )
    for odd in ("area verde", "Área Verde", "Construçao", "building ", "green-area", "Praça"):
        yield Case(
            f"type {odd!a}",
            sub(TYPE, json.dumps({"type": odd}, ensure_ascii=False)[1:-1]),
            True if _readable_name(odd, "type") else None,
        )


def _styles_game(
    styles: list[str],
    types: list[str] | None = None,
    *,
    stars: int = 0,
    requirements: tuple[str, ...] = ("A1", "B1", "C1"),
    epiphanies: tuple[dict[str, Any], ...] = (),
) -> bytes:
    """One player's line of cards, the card k of style `styles[k]` (and type `types[k]`)."""
    city = line(len(styles), stars=stars)
    for k, entry in enumerate(city):
        entry["card"]["style"] = styles[k]
        if types is not None:
            entry["card"]["type"] = types[k]
    player = {"name": "Ana", "city": city, "epiphanies": list(epiphanies)}
    doc = {"mode": "elitist", "requirements": list(requirements), "players": [player]}
    return padded(json.dumps(doc).encode())


def _vocabulary_cases() -> Iterator[Case]:
    """The names of a game counted after folding: seven spellings of five styles are five
    (no `too_many_styles`), six are too many; fifteen gothic cards spelled three ways are
    over the box; types likewise; two names one letter apart look alike."""
    five = ["gotico", "GOTICO", "gothic", "Gotica", "ex_b", "ex_c", "ex_d", "ex_e"]
    yield Case("five styles in eight spellings", _styles_game(five), True)
    yield Case("six styles in nine spellings", _styles_game([*five, "ex_f"]), True)
    yield Case("alias after its name", _styles_game(["gothic", "ex_b", "gotico"]), True)
    gothic = ["gotico", "GOTICA", "gothic"] * 5
    yield Case("fifteen gothic cards", _styles_game(gothic), True)
    yield Case("fifteen gothic cards spelled apart", _styles_game(["gotico"] * 7 + ["gothic"] * 8))
    types = ["area_verde", "AREA_VERDE", "green_area", "construcao", "x_a", "x_b", "x_c", "x_d"]
    yield Case("types folded", _styles_game(["ex_a"] * 8, types), True)
    yield Case("seven types", _styles_game(["ex_a"] * 9, [*types, "x_e"]), True)
    yield Case("names alike", _styles_game(["ex_amber", "ex_ambar", "gotico", "gothik"]), True)
    yield Case("aliases alike", _styles_game(["gotico", "gotiko", "futurista", "futurist"]), True)


#: Numbers in every spelling: plain, signed zero, leading zeros, fractions, exponents,
#: the edges of the format's ranges and of 32- and 64-bit integers, too many digits.
SPELLINGS = (
    "0",
    "-0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "-1",
    "1000",
    "-1000",
    "1001",
    "-1001",
    "01",
    "-01",
    "00",
    "1.0",
    "1e0",
    "1E0",
    "1e+0",
    "0.0",
    "-0.0",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "9999999999",
    "99999999999",
    "1e400",
    "-1e400",
    "+1",
    ".5",
    "1.",
    "0x1",
    "Infinity",
    "NaN",
    "- 1",
    "1" * 5000,
)

#: A number's place in BASE: (what it replaces, the text with the number as {}, its range).
NUMBER_FIELDS: dict[str, tuple[str, str, range | tuple[int, ...]]] = {
    "row": ('{"row":0,"col":0', '{{"row":{},"col":0', range(-1000, 1001)),
    "col": ('{"row":0,"col":0', '{{"row":0,"col":{}', range(-1000, 1001)),
    "points": ('"points":3,"stars":2', '"points":{},"stars":2', range(1001)),
    "stars": ('"points":3,"stars":2', '"points":3,"stars":{}', range(4)),
    "wild points": (WILD, '{{"wild":true,"points":{}}}', range(1001)),
    "wild stars": (WILD, '{{"wild":true,"stars":{}}}', range(4)),
    "bonus points": ('"points":3}]', '"points":{}}}]', range(-1000, 1001)),
    "epiphany points": ('{"points":2,"state"', '{{"points":{},"state"', (2, 5)),
}


def _number_cases() -> Iterator[Case]:
    for field, (old, template, allowed) in NUMBER_FIELDS.items():
        for spelling in SPELLINGS:
            plain = re.fullmatch(r"-?(0|[1-9][0-9]{0,9})", spelling) is not None
            readable = plain and int(spelling) in allowed
            yield Case(
                f"{field} {spelling[:24]}", sub(old, template.format(spelling)), readable or None
            )


def _card_cases() -> Iterator[Case]:
    """Wild cards with the fields a wild card has not, or other values; sides repeated,
    none, five, unknown; cards given by catalog id; card names of every length."""
    wild = [
        ('{"wild":false}', None),
        ('{"wild":true,"style":"ex_amber"}', None),
        ('{"wild":true,"type":"ex_harbor"}', None),
        ('{"wild":true,"facility":"lab"}', None),
        ('{"wild":true,"sides":["top","right","bottom","left"]}', None),
        ('{"style":"ex_amber","wild":true}', None),
        ('{"wild":true,"points":7,"stars":3,"name":"Curinga"}', True),
        ('{"name":"Curinga","stars":0,"points":0,"wild":true}', True),
        ('{"wild":true,"name":"Coringa é"}', None),
        ('{"wild":true,"name":""}', None),
        ('{"wild":true,"rotated":true}', None),
        ('{"wild":"true"}', None),
        ('{"wild":1}', None),
        ('{"wild":null}', None),
        ('{"wild":true,"points":null}', None),
        ("{}", None),
        ('{"points":1,"stars":0}', None),
        ('{ "wild" : true }', True),
    ]
    for text, taken in wild:
        yield Case(f"wild card {text}", sub(WILD, text), taken)
    sides = [
        ('["top","top"]', None),
        ("[]", None),
        ('["top","right","bottom","left","top"]', None),
        ('["left","left","left","left","left"]', None),
        ('["top","right","bottom","left"]', True),
        ('["bottom","right"]', True),
        ('["right","bottom","right"]', None),
        ('["up"]', None),
        ('["Top"]', None),
        ('["top "]', None),
        ('[["top"]]', None),
        ('"top"', None),
        ('["top",null]', None),
        ("[1]", None),
        ("{}", None),
    ]
    for text, taken in sides:
        yield Case(f"sides {text}", sub(SIDES, f'"sides":{text}'), taken)
    facilities = [("base", True), ("medical", True), ("shelter", True), ("tower", True)]
    for text, taken in [*facilities, ("Lab", None), ("lab ", None), ("", None), ("hospital", None)]:
        yield Case(f"facility {text!r}", sub(FACILITY, f'"facility":"{text}"'), taken)
    ids = ['"EX-1"', '"A1"', '"atomic-waste"', '"new-eden"', '"EX 1"', '""', '"-EX"', "1", "[]"]
    ids += ['"EX-é"', '"ex_amber"', json.dumps("E" * 100), json.dumps("E" * 101), "null"]
    for text in ids:
        yield Case(
            f"card {text[:20]} ({len(text)})",
            sub(PLACEMENT, '{"row":0,"col":0,"card":' + text + "}"),
        )
    names = [
        ("Catedral Gótica", None),
        ("", None),
        (" ", True),
        ("x" * 100, True),
        ("x" * 101, None),
        ("é" * 100, None),
        ("é" * 101, None),
        ("a~!@#$%^&*()_+{}|:<>?[];',./`", True),
    ]
    for text, taken in names:
        new = json.dumps({"name": text}, ensure_ascii=False)[1:-1]
        yield Case(f"card name {text[:12]!a} ({len(text)})", sub(CARD_NAME, new), taken)


def _city_cases() -> Iterator[Case]:
    """Cities that are none, empty, of 77 and 78 cards; rotated cards with and without an
    activated rotate epiphany, in a city after an empty one."""
    shapes = [
        ("[]", True),
        ("[ ]", True),
        ("[\n\t]", True),
        ("{}", None),
        ('"x"', None),
        ("1", None),
        ("true", None),
        ("null", None),
        ("[[]]", None),
        ("[1]", None),
        ("[null]", None),
        ('["EX-1"]', None),
        ("[{}]", None),
        ('[{"row":0,"col":0}]', None),
        ('[{"row":0,"col":0,"card":{"wild":true}},]', None),
    ]
    for text, taken in shapes:
        yield Case(f"city {text!a}", sub(ANA_CITY, f'"city":{text}'), taken)
    for n, taken in ((MAX_CARDS - 1, True), (MAX_CARDS, True), (MAX_CARDS + 1, None)):
        doc = copy.deepcopy(BASE_DOC)
        doc["players"][0]["city"] = line(n)
        yield Case(f"{n} cards", json.dumps(doc).encode(), taken)
        doc["players"][0]["city"][-1]["card"] = "EX-last"
        yield Case(f"{n} cards, the last by id", json.dumps(doc).encode())
    doc = copy.deepcopy(BASE_DOC)
    doc["players"] = [{"name": f"P{p}", "city": line(MAX_CARDS, row=p)} for p in range(4)]
    yield Case("four cities of 77 cards", json.dumps(doc).encode(), True)
    doc["players"].append({"name": "P4", "city": []})
    yield Case("five players", json.dumps(doc).encode())
    yield Case("no player", sub(BASE[BASE.index('"players":[') :], '"players":[]}'))
    held = sub(ROTATE, '"state":"held","effect":"rotate"')
    yield Case("rotated without an activated rotate", held, True)
    yield Case("rotated false", sub(ROTATED, '"rotated":false'), True)
    doc = copy.deepcopy(BASE_DOC)
    doc["players"][0]["city"] = []
    doc["players"][1]["city"][0]["rotated"] = True
    doc["players"].insert(1, {"name": "Caio", "city": []})
    yield Case("rotated after two empty cities", json.dumps(doc).encode(), True)
    doc["players"][0]["epiphanies"] = []
    doc["players"][2]["city"].append({"row": 9, "col": 9, "card": {"wild": True}, "rotated": True})
    yield Case("two rotated, an illegal city", json.dumps(doc).encode(), True)
    overlap = '{"row":0,"col":0,"card":{"wild":true}},' + PLACEMENT
    yield Case("an overlap", sub(PLACEMENT, overlap), True)
    yield Case("a card far away", sub('{"row":0,"col":1', '{"row":-1000,"col":1000'), True)


def _text_cases() -> Iterator[Case]:
    """Whitespace, byte-order marks, bytes after the document, a document cut short,
    other top-level values, deep nesting, the size limit."""
    for layout in LAYOUTS:
        for ascii_only in (False, True):
            yield Case(
                f"{layout}, ascii {ascii_only}",
                written(BASE_DOC, layout, ascii_only=ascii_only),
                True,
            )
    yield Case("spaces around", b" \r\n\t" + BASE.encode() + b"\n \t\r\n", True)
    for space in (b"\x0b", b"\x0c", b"\xc2\xa0", b"\xe2\x80\xa8", b"\x00", b"\x85"):
        yield Case(f"whitespace {space!r} inside", sub('"row":0', b'"row":' + space + b"0"))
        yield Case(f"whitespace {space!r} before", space + BASE.encode())
    bom = b"\xef\xbb\xbf"
    yield Case("a byte-order mark", bom + BASE.encode(), True)
    yield Case("a byte-order mark after a space", b" " + bom + BASE.encode())
    yield Case("a byte-order mark inside", sub('"players"', bom + b'"players"'))
    yield Case("a UTF-16 byte-order mark", b"\xff\xfe" + BASE.encode())
    for tail in (b"x", b"}", b" {}", b"\x00", b",", b"]", b"//", bom):
        yield Case(f"trailing {tail!r}", BASE.encode() + tail)
    for cut in (1, 2, 10, len(BASE) // 2):
        yield Case(f"cut {cut} bytes short", BASE.encode()[:-cut])
    for top in (
        b"",
        b" ",
        b"[]",
        b"null",
        b'"x"',
        b"1",
        b"{}",
        b'{"players":[]}',
        b"[" + BASE.encode() + b"]",
    ):
        yield Case(f"document {top[:20]!r}", top)
    for depth in (30, 31, 32, 33, 62, 63, 64, 65, 66, 200, 3000):
        nested = '{"a":' * (depth - 1) + "1" + "}" * (depth - 1)
        meta = '"meta":{"table":3,"photo":"t3.jpg"}'
        yield Case(f"meta {depth} objects deep", sub(meta, f'"meta":{{"d":{nested}}}'))
        listed = "[" * (depth - 1) + "]" * (depth - 1)
        yield Case(f"meta {depth} levels of arrays", sub(meta, f'"meta":{{"d":{listed}}}'))
    yield Case("meta holding players", sub('"table":3', '"players":[{"city":["EX-1"]}]'), True)
    yield Case("meta holding escapes", sub('"table":3', '"\\u0070layers":"\\u0000\\/"'))
    yield Case("meta with a non-ASCII key", sub('"table":3', '"mesa é":3'))
    yield Case(
        "meta of 16 KiB", sub('"photo":"t3.jpg"', '"photo":"' + "x" * (16 * 1024 - 30) + '"')
    )
    yield Case("meta over 16 KiB", sub('"photo":"t3.jpg"', '"photo":"' + "x" * (16 * 1024) + '"'))
    data = BASE.encode()
    yield Case("1 MiB", data[:-1] + b" " * (MAX_GAME_BYTES - len(data)) + b"}", True)
    yield Case("1 MiB and a byte", data[:-1] + b" " * (MAX_GAME_BYTES - len(data) + 1) + b"}")
    yield Case(
        "1 MiB after a BOM", bom + data[:-1] + b" " * (MAX_GAME_BYTES - len(data)) + b"}", True
    )


def _skipped_cases() -> Iterator[Case]:
    """Text that is not JSON where the strict reader only skips past it (msgspec reads it,
    with the cities given as `[]`): numbers in no JSON spelling, escapes and control
    bytes in strings, stray tokens next to a city."""
    for number in ("1e-+", "01", "-", "1.", ".5", "+1", "1e", "--1", "1.2.3", "0x1", "1E+"):
        yield Case(f"meta number {number}", sub('"table":3', f'"table":{number}'))
        yield Case(f"epiphany number {number}", sub('"points":2', f'"points":{number}'))
    for text in (b'"\\q"', b'"\\u12"', b'"a\x01b"', b'"a\tb"', b'"\\"', b'"a'):
        yield Case(f"meta string {text!r}", sub('"t3.jpg"', text))
    city_end = ANA_CITY + ',"epiphanies"'
    for stray in (",", ",,", "]", "}", ' "x"', " 1", ":1"):
        yield Case(f"{stray!r} after a city", sub(city_end, ANA_CITY + stray + ',"epiphanies"'))
    yield Case("a city's key given as meta", sub('"table":3', '"city":[]'), True)


def _utf8_cases() -> Iterator[Case]:
    """Bytes that are not UTF-8, in the cities' strings and keys and elsewhere."""
    broken = (b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80")
    for bad in broken:
        yield Case(f"style {bad!r}", sub(STYLE, b'"style":"ex_amb' + bad + b'"'))
        yield Case(f"card name {bad!r}", sub(CARD_NAME, b'"name":"Cated' + bad + b'"'))
        yield Case(f"placement key {bad!r}", sub('{"row":0', b'{"r' + bad + b'ow":0'))
        yield Case(f"player name {bad!r}", sub('"name":"Ana"', b'"name":"An' + bad + b'"'))
        yield Case(f"meta value {bad!r}", sub('"t3.jpg"', b'"t3' + bad + b'.jpg"'))
        yield Case(f"meta key {bad!r}", sub('"table"', b'"tab' + bad + b'le"'))
        yield Case(f"$schema {bad!r}", sub("example.invalid", b"example" + bad + b".invalid"))
    yield Case("style in UTF-8", sub(STYLE, '"style":"gótico"'))
    yield Case("style decomposed", sub(STYLE, '"style":"go\u0301tico"'))


CASES = [
    *_escape_cases(),
    *_alias_cases(),
    *_vocabulary_cases(),
    *_number_cases(),
    *_card_cases(),
    *_city_cases(),
    *_text_cases(),
    *_skipped_cases(),
    *_utf8_cases(),
]


def test_a_batch_of_the_cases_reads_each_as_it_reads_alone() -> None:
    """Every case in one batch, each followed by the valid document: a document whose
    cities the strict reader packed but whose rest msgspec refuses leaves nothing behind
    in the batch's table (the games after it are scored from their own rows)."""
    raws = [data for case in CASES for data in (padded(case.raw), padded(BASE.encode()))]
    together = score_inputs(raws)
    alone = [score_inputs([raw])[0] for raw in raws]
    encode = [msgspec.json.encode(r) if not isinstance(r, Exception) else repr(r) for r in alone]
    assert [
        msgspec.json.encode(r) if not isinstance(r, Exception) else repr(r) for r in together
    ] == encode
    refused = [case.name for case in CASES if _packed_then_refused(case.raw)]
    assert len(refused) > 10, refused  # the batch had such documents


def _packed_then_refused(raw: bytes) -> bool:
    """Whether the strict reader packs the document's cities but msgspec refuses the rest."""
    try:
        data = game_bytes(raw)
    except GameDecodeError:
        return False
    return JsonGames().add(data) and report.lean_game(JsonGames(), data) is None


def test_the_cases_have_distinct_names() -> None:
    names = [case.name for case in CASES]
    assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.parametrize("detail", [False, True])
def test_a_changed_document_reads_as_the_exact_path_reads_it(case: Case, detail: bool) -> None:
    same(case.raw, detail=detail, taken=case.taken)


# KNOWN MISMATCH (found by this file; left failing on purpose, the library is not changed
# here). Since c1b8bd2, `score_report` (now `score_inputs`, which `neweden.score`,
# `score_many`, validate, Dask and HTTP go through) strips the byte-order mark
# (`game_bytes`), and when the document is not read lean (refused by a lean reader, or under
# LEAN_FROM_BYTES) it hands those bytes to `decode_game`, which strips a byte-order mark
# again. A document starting with two marks is refused by the exact decoder (`bad_json` at
# line 1, column 1) but `neweden.score` scores it (here as a valid game); before c1b8bd2,
# `neweden.score` refused it too. Three marks are refused by both.
@pytest.mark.parametrize(
    "given",
    [
        pytest.param(b"\xef\xbb\xbf\xef\xbb\xbf" + BASE.encode(), id="bytes"),
        pytest.param("\ufeff\ufeff" + BASE, id="str"),
        pytest.param(
            b"\xef\xbb\xbf" * 2 + b'{"mode":"military","players":[{"name":"A","city":[]}]}',
            id="small",
        ),
    ],
)
def test_two_byte_order_marks_are_refused_as_the_exact_path_refuses_them(given: GameInput) -> None:
    assert exact(given, False)[0] == "error"
    same(given)


# --- hostile tokens and bytes anywhere ---------------------------------------------------------

#: A JSON string, number or literal of the compact BASE (a key when a colon follows).
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null')
#: Values put in place of a value.
HOSTILE_VALUES = tuple(
    text.encode() if isinstance(text, str) else text
    for text in (
        *SPELLINGS[:-1],
        "true",
        "false",
        "null",
        '""',
        '"ex_amber"',
        '"ex_\\u0061mber"',
        '"GOTICO"',
        '"gotico"',
        '"Gótico"',
        '"Go\u0301tico"',
        '"gothic\\u0000"',
        '"top"',
        '"t\\u006fp"',
        '"lab"',
        '"base"',
        '"EX-1"',
        '"A1"',
        '"atomic-waste"',
        '"held"',
        '"activated"',
        '"rotate"',
        json.dumps("x" * 101),
        "[]",
        "{}",
        '["top","top"]',
        '["top","right","bottom","left"]',
        '{"wild":true}',
        '{"wild":false}',
        '{"wild":true,"style":"ex_amber"}',
        '[{"row":0,"col":0,"card":{"wild":true}}]',
        b'"\xff"',
    )
)
#: Keys put in place of a key (`K` stands for the key it replaces).
HOSTILE_KEYS = (
    "K",
    'K":null,"K',  # the key given twice, null first
    'K":"EX-1","K',
    'K":[],"K',
    'K":{},"K',
    "K ",
    "",
    "row",
    "col",
    "card",
    "rotated",
    "style",
    "wild",
    "sides",
    "name",
    "city",
    "players",
    "points",
    "$schema",
    "\\u0063ity",
)


def _replaced(data: bytes, spans: list[tuple[int, int, bytes]]) -> bytes:
    out = bytearray(data)
    for start, end, new in sorted(spans, reverse=True):
        out[start:end] = new
    return bytes(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_tokens_anywhere_read_as_the_exact_path_reads_them(data: st.DataObject) -> None:
    """One to three tokens of a valid document (BASE or a generated game) replaced by
    hostile ones: a value by a number in another spelling, an alias, an escape, another
    kind; a key by another, an escaped one, or by itself given twice."""
    if data.draw(st.booleans()):
        base = BASE.encode()
    else:
        base = json.dumps(data.draw(games()), separators=(",", ":"), ensure_ascii=False).encode()
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(base)]
    picked = data.draw(st.lists(st.sampled_from(tokens), min_size=1, max_size=3, unique=True))
    spans = []
    for start, end in picked:
        if base[end : end + 1] == b":":  # a key
            key = base[start + 1 : end - 1].decode()
            new = data.draw(st.sampled_from(HOSTILE_KEYS)).replace("K", key)
            spans.append((start, end, b'"' + new.encode() + b'"'))
        else:
            spans.append((start, end, data.draw(st.sampled_from(HOSTILE_VALUES))))
    same(_replaced(base, spans), detail=data.draw(st.booleans()))


#: Bytes that matter to a JSON reader.
_BYTES = b' \t\r\n{}[]":,\\-+.0123456789eEtrufalsn\x00\x7f\x80\xc3\xff'


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_bytes_changed_anywhere_read_as_the_exact_path_reads_them(data: st.DataObject) -> None:
    """One to three bytes of the valid document changed, put in or taken out."""
    raw = bytearray(BASE.encode())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(raw) - 1))
        byte = data.draw(st.sampled_from(_BYTES) | st.integers(0, 255))
        how = data.draw(st.sampled_from(["change", "insert", "delete"]))
        if how == "change":
            raw[at] = byte
        elif how == "insert":
            raw.insert(at, byte)
        else:
            del raw[at]
    same(bytes(raw))


# --- other kinds of input ---------------------------------------------------------------------


class _Int(int):
    pass


def _inputs() -> Iterator[Any]:
    yield pytest.param(BASE, True, id="str")
    yield pytest.param("\ufeff" + BASE, True, id="str with a byte-order mark")
    yield pytest.param(bytearray(BASE.encode()), True, id="bytearray")
    yield pytest.param(memoryview(BASE.encode()), True, id="memoryview")
    yield pytest.param(copy.deepcopy(BASE_DOC), True, id="dict")
    yield pytest.param(BASE.replace('"ex_jade"', '"ex_\ud800"'), None, id="str, a lone surrogate")
    yield pytest.param(BASE.replace('"Ana"', '"An\ud800"'), None, id="str, a surrogate in a name")
    doc = copy.deepcopy(BASE_DOC)
    doc["players"][0]["city"][0]["card"]["sides"] = ("right", "bottom")
    yield pytest.param(doc, True, id="a tuple")
    for name, value in (("NaN", float("nan")), ("a set", {"top"}), ("an int subclass", _Int(3))):
        doc = copy.deepcopy(BASE_DOC)
        doc["players"][0]["city"][0]["card"]["points"] = value
        yield pytest.param(doc, None, id=name)
    doc = copy.deepcopy(BASE_DOC)
    doc["players"][0]["city"][0][1] = 2
    yield pytest.param(doc, None, id="an int key")


@pytest.mark.parametrize(("given", "taken"), list(_inputs()))
def test_other_kinds_of_input_read_alike(given: GameInput, taken: bool | None) -> None:
    for detail in (False, True):
        same(given, detail=detail, taken=taken)


# --- in Portuguese ------------------------------------------------------------------------------


def _in_portuguese(raw: GameInput, detail: bool) -> tuple[Outcome, Outcome]:
    """(`neweden.score(raw, lang="pt-BR")`, the exact path speaking pt-BR), as outcomes."""
    try:
        lean_found: Outcome = (
            "ok",
            msgspec.json.encode(neweden.score(raw, detail=detail, lang="pt-BR")),
        )
    except GameDecodeError as err:
        lean_found = "error", msgspec.json.encode({"problems": err.problems, "message": str(err)})
    with speaking("pt-BR"):
        try:
            report = score_reports([decode_game(raw)], detail=detail)[0]
            exact_found: Outcome = ("ok", msgspec.json.encode(msgspec.to_builtins(report)))
        except GameDecodeError as err:
            exact_found = (
                "error",
                msgspec.json.encode({"problems": err.problems, "message": str(err)}),
            )
    return lean_found, exact_found


PORTUGUESE = [
    pytest.param(BASE.encode(), id="valid"),
    pytest.param(sub(ROTATE, '"state":"held","effect":"rotate"'), id="rotated without epiphany"),
    pytest.param(sub('{"row":0,"col":1', '{"row":0,"col":0'), id="an overlap"),
    pytest.param(sub(WILD, '{"wild":false}'), id="a decode error"),
    pytest.param(sub(STYLE, '"style":"GOTICO"'), id="an alias"),
    pytest.param(
        _styles_game(["gotico", "gotiko", "ex_b", "ex_c", "ex_d", "ex_e", "ex_f"]), id="names"
    ),
]


@pytest.mark.parametrize("raw", PORTUGUESE)
@pytest.mark.parametrize("detail", [False, True])
def test_in_portuguese_the_lean_path_says_what_the_exact_path_says(
    raw: bytes, detail: bool
) -> None:
    lean_found, exact_found = _in_portuguese(raw, detail)
    assert lean_found == exact_found
    assert lean_found != exact(raw, detail)  # the words are Portuguese


# --- with a catalog -------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: Closed vocabularies (a name not listed is an error: every card is read), the template's
#: invented cards and requirements.
CLOSED = """
styles = ["gothic", "futurist", "ex_amber", "ex_jade"]
types = ["green_area", "building", "ex_harbor", "ex_meadow", "ex_quarry"]
"""

WITH_CATALOG = [
    pytest.param(BASE.encode(), id="base"),
    pytest.param(sub(STYLE, '"style":"gotico"'), id="an alias"),
    pytest.param(sub(STYLE, '"style":"ex_onyx"'), id="a style not listed"),
    pytest.param(sub(TYPE, '"type":"AREA_VERDE"'), id="a type alias"),
    pytest.param(sub(WILD, '"EX-wildcard"'), id="a wild card by id"),
    pytest.param(sub(WILD, '"EX-gothic-garden"'), id="a card by id"),
    pytest.param(sub('"requirements":["A1"', '"requirements":["EX-A2"'), id="a requirement"),
    pytest.param(
        _styles_game(["gotico", "GOTICA", "gothic", "ex_amber"]).replace(b'"A1"', b'"EX-A2"'),
        id="a requirement counting aliases",
    ),
    pytest.param(
        _styles_game(
            ["gotico", "GOTICA", "gothic", "ex_amber", "ex_amber"],
            ["area_verde", "AREA_VERDE", "green_area", "Area_Verde", "construcao"],
            stars=2,
            requirements=("EX-A2", "EX-B2", "EX-C2"),
            epiphanies=(
                {"card": "EX-E1", "state": "activated"},
                {"card": "EX-E2", "state": "validated"},
                {"card": "EX-E2", "state": "validated"},
            ),
        ),
        id="conditions over aliases",
    ),
]


@pytest.mark.parametrize("raw", WITH_CATALOG)
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("detail", [False, True])
def test_with_a_catalog_the_lean_path_reads_as_the_exact_path(
    raw: bytes, closed: bool, detail: bool, tmp_path: Path
) -> None:
    text = (EXAMPLES / "catalog-template.toml").read_text(encoding="utf-8")
    if closed:
        head, _sep, rest = text.partition("[majority_table]")
        text = head + CLOSED + "\n[majority_table]" + rest
    path = tmp_path / "catalog.toml"
    path.write_text(text, encoding="utf-8")
    same(raw, detail=detail, catalog=load_catalog(path))


# --- many documents at once -----------------------------------------------------------------------


def _batch_outcomes(docs: list[bytes], detail: bool) -> list[Outcome]:
    """`score_inputs` (the batch path of validate, score_many, Dask and HTTP: the lean
    documents packed together by one packer), as outcomes."""
    found = score_inputs(docs, detail=detail)
    assert len(found) == len(docs)
    out: list[Outcome] = []
    for one in found:
        if isinstance(one, GameDecodeError):
            out.append(
                ("error", msgspec.json.encode({"problems": one.problems, "message": str(one)}))
            )
        else:
            assert not isinstance(one, TypeError)
            out.append(("ok", msgspec.json.encode(one)))
    return out


@pytest.mark.parametrize("detail", [False, True])
def test_every_changed_document_at_once_reads_as_each_alone(detail: bool) -> None:
    """All the changed documents in one batch (names folded across games, games the packer
    takes then drops for a name that is none, between games it keeps), each against its
    exact report."""
    docs = [case.raw for case in CASES]
    assert _batch_outcomes(docs, detail) == [exact(raw, detail) for raw in docs]


def test_a_dropped_game_leaves_the_next_ones_read_right() -> None:
    """A game the strict reader reads but whose style is none (`Goth/ic`) is dropped from
    the packer: the games around it, with names of their own and aliases, read alike."""
    docs = [
        sub(STYLE, '"style":"gotico"'),
        sub(STYLE, '"style":"Goth/ic"'),
        sub(STYLE, '"style":"ex_new"').replace(b'"ex_jade"', b'"Futurista"'),
        sub(TYPE, '"type":"B/AD"').replace(b'"ex_jade"', b'"ex_other"'),
        sub(STYLE, '"style":"GOTICO"').replace(b'"ex_quarry"', b'"ex_new_type"'),
        BASE.encode(),
    ]
    assert [taken_lean(raw) for raw in docs] == [True, False, True, False, True, True]
    for detail in (False, True):
        assert _batch_outcomes(docs, detail) == [exact(raw, detail) for raw in docs]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            games().map(lambda doc: padded(json.dumps(doc).encode())),
            st.sampled_from(CASES).map(lambda case: case.raw),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_a_batch_of_generated_and_changed_documents_reads_as_each_alone(
    docs: list[bytes], detail: bool
) -> None:
    assert _batch_outcomes(docs, detail) == [exact(raw, detail) for raw in docs]


def test_a_batch_of_every_kind_of_input_reads_as_each_alone() -> None:
    """Documents as bytes, str, mappings and a value of no kind, lean and exact, in one
    batch: each its own outcome, in its place."""
    docs: list[Any] = [
        BASE,
        copy.deepcopy(BASE_DOC),
        7,
        bytearray(sub(STYLE, '"style":"GOTICO"')),
        "\ufeff" + BASE.replace("ex_jade", "gotico"),
        sub(WILD, '{"wild":false}'),
        memoryview(sub(STYLE, '"style":"Gótico"')),
    ]
    found = score_inputs(docs, detail=True)
    assert isinstance(found[2], TypeError)
    with pytest.raises(TypeError) as alone:
        decode_game(docs[2])
    assert str(found[2]) == str(alone.value)
    del docs[2], found[2]
    outcomes = [
        ("error", msgspec.json.encode({"problems": one.problems, "message": str(one)}))
        if isinstance(one, GameDecodeError)
        else ("ok", msgspec.json.encode(one))
        for one in found
    ]
    assert outcomes == [exact(doc, True) for doc in docs]


# --- after the review of the change ------------------------------------------------------------


def test_a_meta_key_with_an_accent_or_an_escape_is_still_read_lean() -> None:
    """The reader skips past whatever `meta` holds: its keys may be any string (a
    Portuguese word, an escape), and the game is read lean all the same."""
    doc = copy.deepcopy(BASE_DOC)
    doc["meta"] = {"observação": "mesa 3", "nota": {"tradução": ["ok"]}}
    raw = padded(json.dumps(doc, ensure_ascii=False).encode())
    same(raw, taken=True)
    escaped = padded(json.dumps(doc, ensure_ascii=True).encode())
    assert b"\\u00e7" in escaped
    same(escaped, taken=True)


def test_a_lean_game_is_refused_where_a_decoded_game_is_taken() -> None:
    """A LeanGame is a Game whose cities are JSON: scored as a decoded game, it is refused
    with a clear error (not a crash deep in the packer)."""
    game = decode_lean(padded(BASE.encode()))
    assert game is not None
    with pytest.raises(TypeError, match="LeanGame"):
        neweden.score(game)


def test_dropping_after_a_refused_game_keeps_the_game_before() -> None:
    """The packer's drop_last after a refused add drops nothing (it would otherwise drop the
    game accepted before)."""
    from neweden import _core
    from neweden.format.model import (
        FACILITIES,
        MAX_COORDINATE,
        MAX_POINTS,
        MAX_STARS,
        MAX_STRING,
        SIDES,
    )

    packer = _core.JsonPacker(
        FACILITIES, SIDES, MAX_CARDS, MAX_COORDINATE, MAX_POINTS, MAX_STARS, MAX_STRING
    )
    good = padded(BASE.encode())
    assert packer.add(good) >= 0
    by_id = json.loads(BASE)
    by_id["players"][0]["city"][0]["card"] = "EX-1"
    assert packer.add(json.dumps(by_id).encode()) == -1
    packer.drop_last()
    flat, offsets, first_city, _rotated, styles, _types = packer.table()
    assert first_city == [0, len(BASE_DOC["players"])]
    assert len(flat) == 4 * 9 * offsets[-1] > 0  # int32s
    assert styles


def test_the_core_reads_the_packers_own_table_as_it_reads_its_lists() -> None:
    """The core's pass over games read lean reads the packer's own table (no list of ints
    made into a vector again): the same figures as from the lists, details and columns
    included; a batch that read a Portuguese alias (its lists renumbered) reads the lists."""
    rng = random.Random(11)
    docs = []
    for g in range(12):
        players = [
            {"name": f"P{p}", "city": city_json(grow_city(rng, rng.randint(0, 14), styles=4))}
            for p in range(1 + g % 4)
        ]
        if g % 3 == 0 and players[0]["city"]:  # an illegal city: a card on a taken cell
            players[0]["city"].append(players[0]["city"][0])
        docs.append(json.dumps({"mode": "elitist", "requirements": [], "players": players}))
    packer = JsonGames()
    assert all(packer.add(doc.encode()) for doc in docs)
    packed = packer.packed()
    assert packed.scores is not None
    for details, columns in [(0, False), (1, True), (2, True)]:
        mine = packed.scores(14, details, columns)
        lists = score_games(packed.flat, packed.offsets, packed.first_city, 14, details, columns)
        assert mine[:3] == lists[:3]
        assert (mine[3] is None) == (lists[3] is None)
        if columns:
            assert (mine[3] == lists[3]).all()
    assert any(not f.legal for f in mine[0])
    aliased = JsonGames()
    assert aliased.add(sub(STYLE, '"style":"gotico"'))
    assert aliased.packed().scores is None


# --- a batch read in one call of the core (session 33) -----------------------------------------


def _table(packer: JsonGames) -> tuple[Any, ...]:
    packed = packer.packed()
    return (list(packed.flat), packed.offsets, packed.styles, packed.types, packed.first_city)


def test_read_many_reads_a_batch_as_each_game_is_read_in_turn() -> None:
    """JsonGames.read_many (score_inputs' read of a batch) against add(), head() and
    decode_lean game by game: the same games taken, each read alike, the same table. The
    batch holds what each step refuses (a card by catalog id, a head msgspec refuses, a
    style that is none, a new name and an alias), a game under min_size and an input of
    another kind, between games it keeps."""
    by_id = json.loads(BASE)
    by_id["players"][0]["city"][0]["card"] = "EX-1"
    docs: list[Any] = [
        padded(BASE.encode()),
        padded(json.dumps(by_id).encode()),  # the strict reader refuses it
        padded(sub('"mode":"elitist"', '"mode":"elitista"')),  # msgspec refuses the rest
        padded(sub(STYLE, '"style":"Goth/ic"')),  # a style that is none: dropped
        padded(sub(STYLE, '"style":"ex_new"').replace(b'"ex_harbor"', b'"ex_new_type"')),
        padded(sub(STYLE, '"style":"gotico"')),  # an alias (the table's lists renumbered)
        b'{"mode":"military","players":[{"name":"A","city":[]}]}',  # under min_size
        "not bytes",
        padded(BASE.encode()),
    ]
    assert b'"mode":"elitista"' in docs[2]
    batch = JsonGames()
    found = batch.read_many(docs, LEAN_FROM_BYTES, decode_lean)
    one_by_one = JsonGames()
    alone = [
        report.lean_game(one_by_one, doc)
        if isinstance(doc, bytes) and len(doc) >= LEAN_FROM_BYTES
        else None
        for doc in docs
    ]
    taken = [read is not None for read in found]
    assert taken == [True, False, False, False, True, True, False, False, True]
    assert taken == [read is not None for read in alone]
    assert [msgspec.json.encode(r) for r in found] == [msgspec.json.encode(r) for r in alone]
    assert len(batch) == len(one_by_one) == sum(taken)
    assert _table(batch) == _table(one_by_one)
    assert "gothic" in batch.packed().styles  # (the alias folded)


def test_read_many_keeps_the_table_as_it_was_when_decode_raises() -> None:
    """An error out of the head's reader (not a refusal: a bug, memory) reaches the caller,
    and the game it was reading is not left in the table."""
    packer = JsonGames()
    assert packer.read_many([padded(BASE.encode())], 0, decode_lean)[0] is not None
    before = _table(packer)

    def broken(head: bytes) -> object:
        raise MemoryError("no room")

    with pytest.raises(MemoryError, match="no room"):
        packer.read_many([padded(sub(STYLE, '"style":"ex_new"'))], 0, broken)
    assert _table(packer) == before
    assert len(packer) == 1
