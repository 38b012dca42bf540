"""The lean path of a game's score beside the exact one: what the tests of their equality
share (tests/format/test_lean_decode.py, tests/format/test_lean_head_attack.py,
tests/rules/test_names_as_written.py). No test lives here.

The paths: :func:`exact` (the every-problem decoder, then the score), :func:`lean` (what
`neweden.score` does: lean when both readers take the document, exact otherwise) and
:func:`same`, which holds them equal. The document: :data:`BASE`, a valid game with every part
of the format, and the strategies that change it the ways the enumerations of these tests
used to (:class:`Doc`: the bytes, and whether the lean path must take them). The seeds:
:func:`corpus`, the files of fuzz/corpus-lean/ (those named `lean-*` must be read lean).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.format.decode import GameInput, decode_game, game_bytes
from neweden.format.model import FACILITIES, MAX_CARDS, MAX_GAME_BYTES, MAX_META_BYTES, SIDES
from neweden.format.problems import GameDecodeError
from neweden.geometry.native import JsonGames
from neweden.scoring import report
from neweden.scoring.report import LEAN_FROM_BYTES, score_inputs, score_report, score_reports
from tests.games import line
from tests.strategies import (
    BOM,
    NOT_JSON_SPACES,
    escaped,
    invalid_utf8,
    json_spaces,
    json_values,
    layouts,
    name_is_read,
    names_as_written,
    number_spellings,
    string_contents,
)

# --- the two paths ---------------------------------------------------------------------------

#: ("ok", the report as JSON) or ("error", the problems and the message as JSON).
Outcome = tuple[str, bytes]


def outcome_of(found: object) -> Outcome:
    """A report or a GameDecodeError (as `score_inputs` gives them) as an outcome."""
    if isinstance(found, GameDecodeError):
        return "error", msgspec.json.encode({"problems": found.problems, "message": str(found)})
    assert not isinstance(found, Exception), found
    return "ok", msgspec.json.encode(found)


def _outcome(run: Callable[[], object]) -> Outcome:
    try:
        found = run()
    except GameDecodeError as err:
        return outcome_of(err)
    return outcome_of(found)


def exact(raw: GameInput, detail: bool, catalog: Catalog | None = None) -> Outcome:
    """The exact path alone: the game decoded by the every-problem decoder, then scored."""
    return _outcome(lambda: score_reports([decode_game(raw)], catalog=catalog, detail=detail)[0])


def lean(raw: GameInput, detail: bool, catalog: Catalog | None = None) -> Outcome:
    """What `neweden.score` does: lean when it can, exact otherwise."""
    return _outcome(lambda: score_report(raw, catalog=catalog, detail=detail))


def batch_outcomes(docs: Sequence[GameInput], detail: bool) -> list[Outcome]:
    """`score_inputs` (the batch path of validate, score_many, Dask and HTTP: the lean
    documents packed together by one packer), as outcomes."""
    found = score_inputs(docs, detail=detail)
    assert len(found) == len(docs)
    return [outcome_of(one) for one in found]


def readers_take(raw: GameInput, catalog: Catalog | None = None) -> bool:
    """Whether both readers of the lean path accept the document (whatever its size), as
    the pipeline asks them: the strict reader its cities (a card by id, one of `catalog`'s:
    the built-in one unless given), then msgspec the rest (the document with each city
    given as `[]`)."""
    try:
        data = game_bytes(raw)
    except GameDecodeError:
        return False
    return report.lean_game(JsonGames(catalog or BUILTIN), data) is not None


def taken_lean(raw: GameInput, catalog: Catalog | None = None) -> bool:
    """Whether `neweden.score` reads the document lean: both readers accept it, and it is
    not so small that the exact decoder is as fast (LEAN_FROM_BYTES)."""
    return readers_take(raw, catalog) and len(game_bytes(raw)) >= LEAN_FROM_BYTES


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
        assert not readers_take(raw, catalog), "the lean readers take what the exact path refuses"
    if taken is not None:
        assert taken_lean(raw, catalog) == taken, f"taken lean: {not taken}"
    return want


def core_head(raw: bytes) -> bytes | None:
    """The strict reader's head of `raw` (the document with each city given as `[]`), or
    None when it refuses the document."""
    packer = JsonGames()
    return packer.head(raw) if packer.add(raw) else None


def cut_is_right(raw: bytes) -> None:
    """When the strict reader takes `raw` and its head is JSON, `raw` is JSON too and is its
    head but for the cities: each `[]` stands where a player's city is."""
    head = core_head(raw)
    if head is None:
        return
    assert len(head) <= len(raw)
    try:
        rest = msgspec.json.decode(head)
    except msgspec.DecodeError:
        return  # msgspec refuses the rest: the lean path drops the game
    try:
        whole = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise AssertionError(f"head is JSON, the document is not ({err}): {raw!r}") from None
    assert isinstance(whole, dict), raw
    assert isinstance(whole.get("players"), list), raw
    for player in whole["players"]:
        assert isinstance(player, dict), raw
        assert isinstance(player.get("city"), list), raw
        player["city"] = []
    assert rest == whole, f"the head means something else: {head!r}"


# --- the seeds -------------------------------------------------------------------------------

#: The seeds of the lean read: one input a file, its bytes as given (test_lean_decode.py pads
#: each one over LEAN_FROM_BYTES). Written once from the inputs that test_lean_decode.py and
#: test_lean_head_attack.py listed one by one before they became properties (see them at
#: 18f6a92), with the examples; a file named `lean-*` must be read lean. To keep an input a
#: property found, add its bytes as a file (`lean-` first if a plain document). The same
#: folder seeds the atheris target too:
#: `python scripts/fuzz_score.py -runs=20000 build/fuzz/corpus-score fuzz/corpus fuzz/corpus-lean`.
CORPUS = Path(__file__).resolve().parent.parent / "fuzz" / "corpus-lean"


def corpus() -> list[tuple[str, bytes]]:
    """(name, bytes) of each file of the corpus, in name order."""
    return [(path.name, path.read_bytes()) for path in sorted(CORPUS.iterdir())]


# --- a valid document with every part of the format -----------------------------------------

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
RAW = BASE.encode()


def sub(old: str | bytes, new: str | bytes, text: str | bytes = RAW) -> bytes:
    """`text` (BASE) with the first place of `old` replaced by `new`."""
    data = text.encode() if isinstance(text, str) else text
    was = old.encode() if isinstance(old, str) else old
    now = new.encode() if isinstance(new, str) else new
    assert was in data, was
    return data.replace(was, now, 1)


#: Where BASE writes the fields of the first placement and its card, and the rest.
PLACEMENT = '{"row":0,"col":0,"card":' + json.dumps(CARD_A, separators=(",", ":")) + "}"
STYLE = '"style":"ex_amber"'
TYPE = '"type":"ex_harbor"'
FACILITY = '"facility":"lab"'
SIDES_TEXT = '"sides":["right","bottom"]'
WILD = '{"wild":true}'
ROTATED = '"rotated":true'
CARD_NAME = '"name":"Catedral"'
ROTATE = '"state":"activated","effect":"rotate"'
META = '"meta":{"table":3,"photo":"t3.jpg"}'
ANA_CITY = BASE[BASE.index('"city":[') : BASE.index(',"epiphanies"')]
#: Ana's and Bia's city arrays, as written in BASE.
ANA = RAW[RAW.index(b'"city":[') + 7 : RAW.index(b',"epiphanies"')]
BIA = RAW[RAW.index(b'"name":"Bia","city":[') + 20 : -3]
#: `"players":[...]`, as written in BASE.
PLAYERS = RAW[RAW.index(b'"players":') : -1]
assert all(
    part in BASE
    for part in (PLACEMENT, STYLE, TYPE, FACILITY, SIDES_TEXT, WILD, ROTATED, ROTATE, META)
)
for _city in (ANA, BIA):
    assert json.loads(_city)
    assert _city.startswith(b"[")
    assert _city.endswith(b"]")


class Doc(NamedTuple):
    """A document, and whether the lean path must take it (True) or either way (None)."""

    raw: bytes
    taken: bool | None = None
    #: Only a string value outside the cities was changed, to one JSON string: the lean path
    #: takes the document exactly when the exact path reads it (the strict reader skips any
    #: string there, msgspec and the exact decoder judge it alike).
    lean_when_read: bool = False


def holds(doc: Doc, *, detail: bool, catalog: Catalog | None = None) -> Outcome:
    """:func:`same` of `doc.raw`, told whether the lean path must take it; and, where the
    document says so, read lean exactly when the exact path reads it."""
    want = same(doc.raw, detail=detail, taken=doc.taken, catalog=catalog)
    if doc.lean_when_read:
        assert taken_lean(doc.raw) == (want[0] == "ok"), f"taken lean: {want[0] != 'ok'}"
    return want


def one_string(literal: bytes) -> bool:
    """Whether `literal` is one JSON string and nothing else."""
    try:
        return isinstance(json.loads(literal), str)
    except ValueError:  # (UnicodeDecodeError and JSONDecodeError among them)
        return False


# --- the valid document, a field removed, repeated or of another kind ---------------------------

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
    "majority_table": ([5, 3], [3, 5]),
    "requirements_met": (["A1"], ["A1", "A1"]),
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
#: Keys an object may be given that it has not: unknown, in another case, of another object.
OTHER_KEYS = ("extra", "$schema", "Row", "styles", "majority_table", "requirements_met", "city")


def _at(doc: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def with_pair(doc: Any, at: tuple[str | int, ...], key: str, value: Any, *, first: bool) -> bytes:
    """`doc` as compact JSON with the object at `at` given one more `key: value` pair, as
    its first pair or its last (a key already there is then given twice)."""

    def emit(node: Any, here: tuple[str | int, ...]) -> str:
        if isinstance(node, dict):
            pairs = [
                json.dumps(k, ensure_ascii=False) + ":" + emit(v, (*here, k))
                for k, v in node.items()
            ]
            if here == at:
                extra = json.dumps(key) + ":" + json.dumps(value, ensure_ascii=False)
                pairs.insert(0 if first else len(pairs), extra)
            return "{" + ",".join(pairs) + "}"
        if isinstance(node, list):
            return "[" + ",".join(emit(v, (*here, i)) for i, v in enumerate(node)) + "]"
        return json.dumps(node, ensure_ascii=False)

    return emit(doc, ()).encode()


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


@st.composite
def field_edits(draw: st.DrawFn) -> Doc:
    """A field of any object of the valid document given again before or after it (half
    the time: the same value, another the format takes, or any), removed, or set to a value
    of any kind (another the format takes, one it does not, one of every JSON kind); keys
    the object has not, given."""
    path = OBJECTS[draw(st.sampled_from(sorted(OBJECTS)))]
    here = _at(BASE_DOC, path)
    key = draw(st.sampled_from([*here, *OTHER_KEYS]))
    right, wrong = OTHER_VALUES.get(key, (None, None))
    choices = [v for v in (here.get(key), right, wrong) if v is not None]
    value = draw(st.sampled_from(choices) if choices and draw(st.booleans()) else json_values)
    how = draw(st.sampled_from(["first", "last", "first", "last", "remove", "set"]))
    if how == "remove":
        return Doc(changed(path, key))
    if how == "set":
        return Doc(changed(path, key, value))
    return Doc(with_pair(BASE_DOC, path, key, value, first=how == "first"))


# --- the valid document, a value spelled another way --------------------------------------------

#: A number's place in BASE: (the text it is in, that text before and after the number, its
#: range).
NUMBER_FIELDS: dict[str, tuple[str, str, str, range | tuple[int, ...]]] = {
    "row": ('{"row":0,"col":0', '{"row":', ',"col":0', range(-1000, 1001)),
    "col": ('{"row":0,"col":0', '{"row":0,"col":', "", range(-1000, 1001)),
    "points": ('"points":3,"stars":2', '"points":', ',"stars":2', range(1001)),
    "stars": ('"points":3,"stars":2', '"points":3,"stars":', "", range(4)),
    "wild points": (WILD, '{"wild":true,"points":', "}", range(1001)),
    "wild stars": (WILD, '{"wild":true,"stars":', "}", range(4)),
    "bonus points": ('"points":3}]', '"points":', "}]", range(-1000, 1001)),
    "epiphany points": ('{"points":2,"state"', '{"points":', ',"state"', (2, 5)),
}
_PLAIN_NUMBER = re.compile(rb"-?(0|[1-9][0-9]{0,9})")


@st.composite
def numbers(draw: st.DrawFn) -> Doc:
    """A number of a card, a placement, an epiphany or a bonus at the edges of its range (the
    strict reader's own checks) three times in four, else in any spelling: read lean when
    it is plain and in its range."""
    old, before, after, allowed = NUMBER_FIELDS[draw(st.sampled_from(sorted(NUMBER_FIELDS)))]
    edges = {allowed[0] - 1, allowed[0], allowed[-1], allowed[-1] + 1}
    if draw(st.integers(0, 3)):
        spelling = draw(st.sampled_from(sorted(str(n).encode() for n in edges)))
    else:
        spelling = draw(number_spellings)
    plain = _PLAIN_NUMBER.fullmatch(spelling) is not None
    taken = True if plain and int(spelling) in allowed else None
    return Doc(sub(old, before.encode() + spelling + after.encode()), taken)


@st.composite
def names(draw: st.DrawFn) -> Doc:
    """A card's style or type as players write it (an alias, accents, capitals, decomposed,
    spaces), a name that is none, as UTF-8 or as escapes: read lean when it folds to a name
    and is written without an escape."""
    attribute = draw(st.sampled_from(["style", "type"]))
    name = draw(names_as_written(attribute))
    ascii_only = draw(st.integers(0, 4)) == 0
    new = json.dumps({attribute: name}, ensure_ascii=ascii_only)[1:-1]
    plain = json.dumps(name, ensure_ascii=False) == f'"{name}"' and not (
        ascii_only and not name.isascii()
    )
    taken = True if plain and name_is_read(name, attribute) else None
    return Doc(sub(STYLE if attribute == "style" else TYPE, new), taken)


def _plain_card_name(name: Any) -> bool:
    return (
        isinstance(name, str)
        and 0 < len(name) <= 100
        and all(" " <= c <= "~" and c not in '"\\' for c in name)
    )


#: Card names: accents, empty, a space, about the limit, symbols; or no string.
CARD_NAMES = st.one_of(
    st.sampled_from(
        ["Catedral Gótica", "", " ", "x" * 99, "x" * 100, "x" * 101, "é" * 100, "é" * 101]
    ),
    st.sampled_from(["a~!@#$%^&*()_+{}|:<>?[];',./`", "Coringa é", "Curinga", "\\", '"']),
    st.text(max_size=8),
    json_values,
)


@st.composite
def cards(draw: st.DrawFn) -> Doc:
    """A card's other fields: a wild card with fields a wild card has not or values of
    another kind (in any order); sides repeated, none, five, unknown; facilities; a card by
    catalog id or by no id; a card's name of any length."""
    kind = draw(st.sampled_from(["wild", "sides", "facility", "id", "name"]))
    if kind == "wild":
        card: dict[str, Any] = {"wild": draw(st.sampled_from([True, True, False, "true", 1, None]))}
        extra = {
            "points": st.integers(0, 1000) | json_values,
            "stars": st.integers(0, 3) | json_values,
            "name": CARD_NAMES,
            "style": st.just("ex_amber"),
            "type": st.just("ex_harbor"),
            "facility": st.just("lab"),
            "sides": st.just(["top", "right", "bottom", "left"]),
            "rotated": st.just(True),
        }
        for key in draw(st.lists(st.sampled_from(sorted(extra)), unique=True, max_size=3)):
            card[key] = draw(extra[key])
        order = draw(st.permutations(sorted(card)))
        card = {k: card[k] for k in order}
        readable = (
            card["wild"] is True
            and set(card) <= {"wild", "points", "stars", "name"}
            and card.get("points", 0) in range(1001)
            and type(card.get("points", 0)) is int
            and card.get("stars", 0) in range(4)
            and type(card.get("stars", 0)) is int
            and ("name" not in card or _plain_card_name(card["name"]))
        )
        sep = draw(st.sampled_from([(",", ":"), (" , ", " : ")]))
        text = json.dumps(card, separators=sep, ensure_ascii=False)
        return Doc(sub(WILD, text), True if readable else None)
    if kind == "sides":
        odd = ["up", "Top", "top ", None, 1, ["top"]]
        sides = draw(st.lists(st.sampled_from([*SIDES, *odd]), max_size=5))
        readable = 0 < len(sides) == len(set(map(str, sides))) and set(map(str, sides)) <= set(
            SIDES
        )
        value = draw(st.just(sides) | st.sampled_from(['"top"', "{}", "[[]]"]))
        text = value if isinstance(value, str) else json.dumps(value)
        return Doc(
            sub(SIDES_TEXT, f'"sides":{text}'), True if value is sides and readable else None
        )
    if kind == "facility":
        good = draw(st.booleans())
        facility = draw(
            st.sampled_from(FACILITIES)
            if good
            else st.sampled_from(["Lab", "lab ", "", "hospital"]) | st.text(max_size=6)
        )
        taken = True if facility in FACILITIES else None
        return Doc(sub(FACILITY, json.dumps({"facility": facility})[1:-1]), taken)
    if kind == "id":
        ref = draw(
            st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,8}", fullmatch=True)
            | st.sampled_from(["EX-1", "A1", "atomic-waste", "new-eden", "EX 1", "", "-EX"])
            | st.sampled_from(["EX-é", "ex_amber", "E" * 100, "E" * 101])
            | json_values
        )
        return Doc(sub(PLACEMENT, '{"row":0,"col":0,"card":' + json.dumps(ref) + "}"))
    name = draw(CARD_NAMES)
    new = json.dumps({"name": name}, ensure_ascii=False)[1:-1]
    return Doc(sub(CARD_NAME, new), True if _plain_card_name(name) else None)


#: A city's own shapes: empty (with spaces), of another kind, holding what is no placement.
CITY_SHAPES = (
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
)


@st.composite
def cities(draw: st.DrawFn) -> Doc:
    """Cities that are none, empty, of up to 78 cards (the last perhaps by catalog id), in
    up to five players; rotated cards with and without an activated rotate epiphany, in a
    city after empty ones; an overlap; a card far away."""
    kind = draw(st.sampled_from(["shape", "size", "players", "rotated"]))
    if kind == "shape":
        text, taken = draw(st.sampled_from(CITY_SHAPES))
        return Doc(sub(ANA_CITY, f'"city":{text}'), taken)
    doc = copy.deepcopy(BASE_DOC)
    if kind == "size":
        n = draw(st.sampled_from([MAX_CARDS - 1, MAX_CARDS, MAX_CARDS + 1]) | st.integers(1, 20))
        doc["players"][0]["city"] = line(n)
        by_id = draw(st.booleans())
        if by_id:
            doc["players"][0]["city"][-1]["card"] = "EX-last"
        return Doc(json.dumps(doc).encode(), True if n <= MAX_CARDS and not by_id else None)
    if kind == "players":
        count = draw(st.integers(0, 5))
        size = draw(st.sampled_from([0, 3, MAX_CARDS]))
        doc["players"] = [{"name": f"P{p}", "city": line(size, row=p)} for p in range(count)]
        return Doc(padded(json.dumps(doc).encode()), True if 0 < count <= 4 else None)
    rotated = draw(st.sampled_from(["held", "activated", "none"]))
    if rotated != "activated":
        doc["players"][0]["epiphanies"] = (
            [{"points": 2, "state": "held", "effect": "rotate"}] if rotated == "held" else []
        )
    doc["players"][0]["city"][2]["rotated"] = draw(st.booleans())
    for _ in range(draw(st.integers(0, 2))):
        doc["players"].insert(1, {"name": f"E{len(doc['players'])}", "city": []})
    if draw(st.booleans()):
        doc["players"][-1]["city"][0]["rotated"] = True
    if draw(st.booleans()):  # an overlap, or a card far away
        far = draw(st.booleans())
        where = {"row": -1000, "col": 1000} if far else {"row": 0, "col": 0}
        doc["players"][0]["city"].append({**where, "card": {"wild": True}})
    return Doc(json.dumps(doc).encode(), True)


#: Every key of BASE, and every string (a key when a colon follows).
_STRING_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"')
_STRINGS = [(m.start(), m.end()) for m in _STRING_TOKEN.finditer(RAW)]
#: Where Ana's and Bia's cities are written in BASE.
_CITY_SPANS = [(RAW.index(city), RAW.index(city) + len(city)) for city in (ANA, BIA)]


@st.composite
def strings(draw: st.DrawFn) -> Doc:
    """Any key or string of the document (in a city or not) spelled with escapes, given in
    another case or with a space or an accent, or holding escapes of every kind, control
    characters JSON does not take raw or bytes that are no UTF-8 (a string value outside the
    cities, still a string: read lean when the exact path reads it)."""
    start, end = draw(st.sampled_from(_STRINGS))
    text = RAW[start + 1 : end - 1].decode()
    how = draw(st.sampled_from(["escaped", "respelled", "inserted"]))
    if how == "escaped":
        new = draw(escaped(text))
    elif how == "respelled":
        new = draw(
            st.sampled_from(
                [text.upper(), text + " ", " " + text, "é" + text, text.title(), text[:-1]]
            )
        ).encode()
        new = b'"' + new + b'"'
    else:
        at = draw(st.integers(0, len(text)))
        piece = draw(string_contents | invalid_utf8)
        new = b'"' + text[:at].encode() + piece + text[at:].encode() + b'"'
    value = RAW[end : end + 1] != b":" and not any(a <= start < b for a, b in _CITY_SPANS)
    return Doc(RAW[:start] + new + RAW[end:], lean_when_read=value and one_string(new))


@st.composite
def rotations(draw: st.DrawFn) -> Doc:
    """`rotated` of another value, and the rotate epiphany of another state or effect."""
    if draw(st.booleans()):
        value = draw(st.sampled_from(["true", "false", "1", '"true"', "null", "0"]))
        return Doc(sub(ROTATED, f'"rotated":{value}'), True if value in ("true", "false") else None)
    state = draw(st.sampled_from(["held", "validated", "activated", "used", ""]))
    effect = draw(st.sampled_from(["rotate", "ROTATE", "move", "Rot/ate", "third_star"]))
    return Doc(sub(ROTATE, f'"state":"{state}","effect":"{effect}"'))


@st.composite
def vocabulary_games(draw: st.DrawFn) -> Doc:
    """One player's line of cards named as players write them: the names of a game counted
    after folding (five styles in eight spellings are five, six too many; fifteen cards of
    a style in three spellings are over the box; names alike)."""
    count = draw(st.integers(1, 16))
    pool = st.sampled_from(
        ("gotico", "GOTICO", "gothic", "Gotica", "gothik", "gotiko", "futurista", "futurist",
         "ex_amber", "ex_ambar", "ex_b", "ex_c", "ex_d", "ex_e", "ex_f")
    )  # fmt: skip
    types_pool = st.sampled_from(
        ["area_verde", "AREA_VERDE", "green_area", "construcao", "x_a", "x_b", "x_c", "x_d"]
    )
    styles = draw(st.lists(pool, min_size=count, max_size=count))
    types = draw(st.none() | st.lists(types_pool, min_size=count, max_size=count))
    return Doc(styles_game(styles, types), True)


def styles_game(
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


def value_edits() -> st.SearchStrategy[Doc]:
    """The valid document with one value spelled another way (a number more often: there
    are eight of them, each with its range)."""
    return st.one_of(
        numbers(), numbers(), names(), cards(), cities(), strings(), rotations(), vocabulary_games()
    )


# --- the valid document, its text around the values -----------------------------------------

#: Byte-order marks: one before the document (read lean), two, one after a space or inside
#: or after the document, UTF-16's.
byte_order_marks = st.sampled_from(
    [
        Doc(BOM + RAW, True),
        Doc(BOM + BOM + RAW),
        Doc(b" " + BOM + RAW),
        Doc(BOM + b" " + RAW),
        Doc(sub('"players"', BOM + b'"players"')),
        Doc(RAW + BOM),
        Doc(b"\xff\xfe" + RAW),
    ]
)


@st.composite
def text_edits(draw: st.DrawFn) -> Doc:
    """The whole text: any layout; spaces JSON takes or not, before, after and inside;
    byte-order marks; bytes after the document; the document cut short; other top-level
    values; `meta` nested deep, holding anything, about its size limit; the document about
    the size limit."""
    kind = draw(
        st.sampled_from(
            ["layout", "spaces", "not spaces", "bom", "tail", "cut", "top", "deep", "meta", "size"]
        )
    )
    if kind == "layout":
        return Doc(draw(layouts(BASE_DOC)), True)
    if kind == "spaces":
        return Doc(draw(json_spaces) + RAW + draw(json_spaces), True)
    if kind == "not spaces":
        space = draw(st.sampled_from(NOT_JSON_SPACES))
        if draw(st.booleans()):
            return Doc(sub('"row":0', b'"row":' + space + b"0"))
        return Doc(space + RAW)
    if kind == "bom":
        return draw(byte_order_marks)
    if kind == "tail":
        tail = draw(
            st.sampled_from([b"x", b"}", b" {}", b"\x00", b",", b"]", b"//", BOM, b"\xff"])
            | st.binary(min_size=1, max_size=3)
        )
        return Doc(RAW + draw(st.just(b"") | json_spaces) + tail)
    if kind == "cut":
        return Doc(RAW[: draw(st.integers(0, len(RAW) - 1))])
    if kind == "top":
        top = draw(
            st.sampled_from([b"", b" ", b"[]", b"null", b'"x"', b"1", b"{}", b'{"players":[]}'])
            | json_values.map(lambda v: json.dumps(v).encode())
            | st.just(b"[" + RAW + b"]")
        )
        return Doc(top)
    if kind == "deep":
        depth = draw(
            st.sampled_from([30, 31, 32, 33, 62, 63, 64, 65, 66, 3000]) | st.integers(1, 99)
        )
        if draw(st.booleans()):
            nested = '{"a":' * (depth - 1) + "1" + "}" * (depth - 1)
        else:
            nested = "[" * (depth - 1) + "]" * (depth - 1)
        return Doc(sub(META, f'"meta":{{"d":{nested}}}'))
    if kind == "meta":
        value = draw(
            json_values.map(lambda v: json.dumps(v, ensure_ascii=False).encode())
            | st.sampled_from(
                [b'[{"city":["EX-1"]}]', b'"\\u0000\\/"', b'{"observa\xc3\xa7\xc3\xa3o":1}']
            )
        )
        key = draw(
            escaped("players") | st.sampled_from([b'"players"', b'"city"', b'"mesa \xc3\xa9"'])
        )
        return Doc(sub('"table":3', key + b":" + value))
    if kind == "size":  # meta's size limit, and the document's
        if draw(st.booleans()):
            length = MAX_META_BYTES - 30 + draw(st.integers(-4, 34))
            return Doc(sub('"photo":"t3.jpg"', '"photo":"' + "x" * length + '"'))
        more = draw(st.integers(-1, 1))
        bom = draw(st.booleans())
        raw = (BOM if bom else b"") + RAW[:-1] + b" " * (MAX_GAME_BYTES - len(RAW) + more) + b"}"
        return Doc(raw, True if more <= 0 else None)
    raise AssertionError(kind)


# --- hostile tokens and bytes anywhere ---------------------------------------------------------

#: A JSON string, number or literal of a compact document (a key when a colon follows).
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null')
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
#: Values put in place of a value: numbers in any spelling, strings of any text, names,
#: ids, and values of every kind.
#: Hostile values written by hand: side, facility, id, state and effect names (one escaped),
#: sides repeated and all four, wild cards, a city, a byte no UTF-8.
_HOSTILE_TEXTS = (
    b'"top"', b'"t\\u006fp"', b'"lab"', b'"base"', b'"EX-1"', b'"A1"', b'"held"',
    b'"activated"', b'"rotate"', b'["top","top"]', b'["top","right","bottom","left"]',
    b'{"wild":true}', b'{"wild":false}', b'{"wild":true,"style":"ex_amber"}',
    b'[{"row":0,"col":0,"card":{"wild":true}}]', b'"\xff"',
)  # fmt: skip
hostile_values = st.one_of(
    number_spellings,
    string_contents.map(lambda text: b'"' + text + b'"'),
    names_as_written("style").map(lambda name: json.dumps(name, ensure_ascii=False).encode()),
    st.sampled_from(_HOSTILE_TEXTS),
    json_values.map(lambda value: json.dumps(value).encode()),
)


def _replaced(data: bytes, spans: list[tuple[int, int, bytes]]) -> bytes:
    out = bytearray(data)
    for start, end, new in sorted(spans, reverse=True):
        out[start:end] = new
    return bytes(out)


@st.composite
def token_edits(draw: st.DrawFn, base: bytes) -> Doc:
    """One to three tokens of `base` replaced by hostile ones: a value by a number in
    another spelling, an alias, an escape, another kind; a key by another, an escaped one,
    or by itself given twice."""
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(base)]
    picked = draw(st.lists(st.sampled_from(tokens), min_size=1, max_size=3, unique=True))
    spans = []
    for start, end in picked:
        if base[end : end + 1] == b":":  # a key
            key = base[start + 1 : end - 1].decode()
            new = draw(st.sampled_from(HOSTILE_KEYS)).replace("K", key)
            spans.append((start, end, b'"' + new.encode() + b'"'))
        else:
            spans.append((start, end, draw(hostile_values)))
    return Doc(_replaced(base, spans))


#: Bytes that matter to a JSON reader.
_BYTES = b' \t\r\n{}[]":,\\-+.0123456789eEtrufalsn\x00\x7f\x80\xc3\xff'


@st.composite
def byte_edits(draw: st.DrawFn, base: bytes) -> Doc:
    """One to three bytes of `base` changed, put in or taken out."""
    raw = bytearray(base)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(raw) - 1))
        byte = draw(st.sampled_from(_BYTES) | st.integers(0, 255))
        how = draw(st.sampled_from(["change", "insert", "delete"]))
        if how == "change":
            raw[at] = byte
        elif how == "insert":
            raw.insert(at, byte)
        else:
            del raw[at]
    return Doc(bytes(raw))


# --- around the cut: what the strict reader only skips past -------------------------------------

#: Strings the reader skips past before and after the cities.
_SKIPPED_STRINGS = (b'"name":"Ana"', b'"name":"Bia"', b'"photo":"t3.jpg"', b'"first_player":"Bia"')
#: Pieces of text that look like a city, or end a string early, or escape its quote.
_LOOKALIKE_PIECES = st.sampled_from(
    [b"\\", b'"', b'\\"', b"\\\\", b'"city":[1]', b'","city":[],"x":"', b'\\"city\\":[1]',
     b"\\u0022", b"\\u005c", b"}", b"{", b"[", b"]", b",", b":", b'"players":[{"city":[]}]',
     b"Ana", b"city", b"\\u0022,\\u0022city\\u0022:[1]"]
)  # fmt: skip
#: `city` and `players` spaced, in capitals, dotless, with a NUL; and as they are.
_CITY_KEY_TEXTS = (
    b'"city "', b'" city"', b'"CITY"', b'"\xc4\xb1city"', b'"c\xc4\xb1ty"', b'"city\\u0000"',
    b'"Players"', b'"players\\u0000"', b'"city"', b'"players"',
)  # fmt: skip
#: Keys a reader might take for `city` or `players`.
_CITY_KEYS = st.one_of(
    escaped("city"),
    escaped("players"),
    st.sampled_from(_CITY_KEY_TEXTS),
)
#: Cities and player lists of another kind, unclosed, over-closed, with a bad entry.
_CITY_VALUE_TEXTS = (
    b"{}", b"null", b'"[]"', b"1", b"[]]", b"[[]]", b"[1]", b"[,]", b"[", b"]", b"[{}]",
    b'["EX-1"]', b"true", b"[null]", b"-", b"[]1", b"[]]]", b'{"city":[]}', b'[{"city":[]},]',
    b'[{"row":0}]', b'"x"', b"[]", ANA, BIA,
)  # fmt: skip
#: Values a city or a player list might be given instead.
_CITY_VALUES = st.one_of(
    st.sampled_from(_CITY_VALUE_TEXTS),
    st.text('[]{},1" :', max_size=8).map(str.encode),
)
#: Spaces JSON takes or not, a byte-order mark, bytes no UTF-8, stray tokens, comments.
_AROUND_BYTES = (
    b" ", b"\t", b"\n", b"\r", b"\x0c", b"\x0b", b"\x00", b"\xc2\xa0", BOM, b"\xe2\x80\x8b",
    b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80", b",", b",,", b":", b":1", b"]", b"}", b"1",
    b'""', b' "x"', b"/**/", b"//\n",
)  # fmt: skip
#: Bytes put next to a city.
_AROUND = st.one_of(
    st.sampled_from(_AROUND_BYTES),
    json_spaces,
)
#: Places next to Ana's city: before its key, before the colon, after it, inside the
#: brackets, after it.
_PLACES = (
    b'#"city"',
    b'"city"#:',
    b'"city":#[',
    b'[#{"row":0,"col":0',
    b"true}#]",
    b'"rotated":true}]#,"epiphanies"',
    b'"top"],"name":"Catedral"}}]#}',
)
#: Places where a value the reader only skips goes: in meta, the bonus after the cities,
#: right before a city, right after one, glued to a city's bracket.
_SKIPPED_PLACES = (
    (b'"table":3', b'"table":#'),
    (b'"table":3', b'"table":[3,#]'),
    (b'"points":3}', b'"points":#}'),
    (b'"name":"Ana",', b'"name":#,'),
    (b'"name":"Ana",', b'"x":#,"name":"Ana",'),
    (b',"epiphanies"', b',"x":#,"epiphanies"'),
    (b'"name":"Bia"', b'"name":"Bia","y":#'),
    (ANA + b",", ANA + b"#,"),
)


def _hash(template: bytes, value: bytes) -> bytes:
    return template.replace(b"#", value)


@st.composite
def lookalikes(draw: st.DrawFn) -> Doc:
    """Strings and keys that look like cities: a skipped string holding city text, quotes
    and backslashes of every parity (the string ending early or running on); city and
    players keys escaped, in capitals, spaced, dotless; a city given twice."""
    kind = draw(st.sampled_from(["string", "key", "again"]))
    if kind == "string":
        old = draw(st.sampled_from(_SKIPPED_STRINGS))
        key, _, _ = old.partition(b":")
        text = b"".join(draw(st.lists(_LOOKALIKE_PIECES, min_size=1, max_size=5)))
        literal = b'"' + text + draw(st.sampled_from([b'"', b'"', b""]))
        return Doc(sub(old, key + b":" + literal), lean_when_read=one_string(literal))
    if kind == "key":
        old, after = draw(st.sampled_from([(b'"city":[', b":["), (b'"players":', b":")]))
        return Doc(sub(old, draw(_CITY_KEYS) + after))
    where = draw(st.sampled_from([b'"name":"Ana",', b'"name":"Bia"']))
    pair = draw(_CITY_KEYS) + b":" + draw(_CITY_VALUES)
    new = where + pair + b"," if where.endswith(b",") else where + b"," + pair
    return Doc(sub(where, new))


@st.composite
def structures(draw: st.DrawFn) -> Doc:
    """Players and cities given twice (empty, null or by id first or last), in meta, in a
    player, in an epiphany, at the root; a second root object; a name or the mode given
    twice, a bad value first; cities and player lists of another kind."""
    kind = draw(st.sampled_from(["twice", "nested", "city", "players"]))
    if kind == "twice":
        return draw(
            st.sampled_from(
                [
                    Doc(sub(PLAYERS, PLAYERS + b"," + PLAYERS)),
                    Doc(sub(PLAYERS, PLAYERS + b',"players":[]')),
                    Doc(sub(b'"name":"Bia"', b'"name":"Bia","city":[]')),
                    Doc(sub(b'"name":"Ana",', b'"name":1,"name":"Ana",')),
                    Doc(sub(b'"name":"Ana",', b'"name":1e,"name":"Ana",')),
                    Doc(sub(b'"mode":', b'"mode":"\\q","mode":')),
                    Doc(sub(b'"players":', b'"x":1,"players":')),
                    Doc(RAW + b"{}"),
                ]
            )
            | _CITY_VALUES.map(
                lambda v: Doc(sub(b'"players":', b'"players":' + v + b',"players":'))
            )
            | _CITY_VALUES.map(
                lambda v: Doc(sub(b'"name":"Ana",', b'"name":"Ana","city":' + v + b","))
            )
        )
    if kind == "nested":
        value = draw(_CITY_VALUES)
        return draw(
            st.sampled_from(
                [
                    Doc(sub(b'"table":3', b'"players":[{"city":' + value + b"}]")),
                    Doc(sub(b'"table":3', b'"city":' + value)),
                    Doc(
                        sub(b'"name":"Ana",', b'"name":"Ana","players":[{"city":' + value + b"}],")
                    ),
                    Doc(sub(b'"points":2,', b'"city":' + value + b',"points":2,')),
                    Doc(sub(b'"mode":', b'"city":' + value + b',"mode":')),
                ]
            )
        )
    if kind == "city":
        return Doc(sub(draw(st.sampled_from([ANA, BIA])), draw(_CITY_VALUES)))
    return Doc(sub(PLAYERS, b'"players":' + draw(_CITY_VALUES)))


@st.composite
def skipped_values(draw: st.DrawFn) -> Doc:
    """What the strict reader only skips past, put before, next to and after the cities:
    numbers and words in any spelling, strings of any text, values nested deep (closed or
    not, holding a city), bytes that are no UTF-8."""
    kind = draw(st.sampled_from(["number", "string", "deep", "utf8"]))
    if kind == "utf8":
        bad = draw(invalid_utf8)
        old, new = draw(
            st.sampled_from(
                [
                    (b'"ex_amber"', b'"ex_amber' + bad + b'"'),
                    (b'"style"', b'"sty' + bad + b'le"'),
                    (b'"name":"Ana"', b'"name":"Ana' + bad + b'"'),
                    (b'"name":"Bia"', b'"name":"' + bad + b'"'),
                    (b'"effect":"rotate"', b'"effect":"rotate' + bad + b'"'),
                    (b'"photo":"t3.jpg"', b'"photo' + bad + b'":"t3.jpg"'),
                    (b'"photo":"t3.jpg"', b'"photo":"t3.jpg\\' + bad + b'"'),
                ]
            )
        )
        return Doc(sub(old, new))
    old, template = draw(st.sampled_from(_SKIPPED_PLACES))
    if kind == "number":
        value = draw(number_spellings)
    elif kind == "string":
        value = b'"' + draw(string_contents) + draw(st.sampled_from([b'"', b'"', b""]))
        return Doc(sub(old, _hash(template, value)), lean_when_read=one_string(value))
    else:
        depth = draw(
            st.sampled_from([31, 32, 33, 62, 63, 64, 65, 66, 200, 5000]) | st.integers(1, 80)
        )
        value = draw(
            st.sampled_from(
                [
                    b"[" * depth + b"]" * depth,
                    b'{"a":' * depth + b"1" + b"}" * depth,
                    b"[" * depth,
                    b"[" * depth + b'"city":[]' + b"]" * depth,
                ]
            )
        )
    return Doc(sub(old, _hash(template, value)))


#: Bytes after a document.
_TAILS = (
    b"x", b"\x00", b"}", b"]", b",", b"{}", b"[]", BOM, b"\xff", b"1", b"null", b'"', b"\\",
    b" \x0c", b',"city":[]}', b"//", b"\n}",
)  # fmt: skip


@st.composite
def around_cities(draw: st.DrawFn) -> Doc:
    """Bytes next to Ana's city (spaces JSON takes are read lean), bytes after the document,
    the document cut anywhere."""
    kind = draw(st.sampled_from(["next", "tail", "cut"]))
    if kind == "next":
        place = draw(st.sampled_from(_PLACES))
        byte = draw(_AROUND)
        taken = True if not byte.strip(b" \t\r\n") else None
        return Doc(sub(place.replace(b"#", b""), place.replace(b"#", byte)), taken)
    if kind == "tail":
        tail = draw(st.sampled_from(_TAILS) | st.binary(min_size=1, max_size=4))
        before = draw(st.sampled_from([b"", b" " * 10]))
        return Doc(RAW + before + tail + draw(st.sampled_from([b"", b" "])))
    return Doc(RAW[: draw(st.integers(0, len(RAW) - 1))] + draw(st.sampled_from([b"", b" \n"])))


_HOSTILE = st.sampled_from(
    [b" ", b"\t", b"\n", b"\\", b'"', b'\\"', b"[", b"]", b"{", b"}", b",", b":", b"[]", b"{}",
     b"1", b"-", b"e", b".", b"+", b"\x00", b"\xff", b"\xc3", BOM, b"null", b"true",
     b'"city":', b'"city":[]', b'"players":', b"\\u0069", b'"x":', b'""']
)  # fmt: skip


@st.composite
def at_the_cut(draw: st.DrawFn) -> Doc:
    """One to three edits (a hostile token put in, a byte taken out or changed) next to a
    city's key, its brackets or a string before it."""
    raw = bytearray(RAW)
    for _ in range(draw(st.integers(1, 3))):
        places = _boundaries(bytes(raw)) or [0]
        at = draw(st.sampled_from(places))
        how = draw(st.sampled_from(["insert", "insert", "delete", "change"]))
        token = draw(_HOSTILE)
        if how == "insert":
            raw[at:at] = token
        elif at < len(raw):
            if how == "delete":
                del raw[at]
            else:
                raw[at] = token[0]
    return Doc(bytes(raw))


def _boundaries(raw: bytes) -> list[int]:
    """Places next to each city's key, bracket and end, and of the strings around them."""
    out = []
    for m in re.finditer(rb'"city":', raw):
        out += [m.start(), m.start() + 1, m.end() - 1, m.end(), m.end() + 1]
    for city in (ANA, BIA):
        i = raw.find(city)
        if i >= 0:
            out += [i + len(city) - 1, i + len(city), i + len(city) + 1, i + len(city) - 2]
    for m in re.finditer(rb'"name":"[^"]*"', raw):
        out += [m.end() - 1, m.end()]
    return sorted({i for i in out if 0 <= i <= len(raw)})


@st.composite
def blobs_in_a_string(draw: st.DrawFn) -> Doc:
    """Any bytes inside a skipped string before the first city (escapes, quotes,
    backslashes, controls)."""
    old = draw(st.sampled_from([b'"name":"Ana"', b'"photo":"t3.jpg"']))
    key, _, value = old.partition(b":")
    literal = b'"' + draw(st.binary(max_size=12)) + value[1:]
    return Doc(sub(old, key + b":" + literal), lean_when_read=one_string(literal))


def skipper_edits() -> st.SearchStrategy[Doc]:
    """The valid document changed where the strict reader only skips or cuts: strings and
    keys that look like cities, duplicate and nested players and cities, values skipped
    before, beside and after the cities, bytes around them, hostile tokens at the cut."""
    return st.one_of(
        lookalikes(),
        structures(),
        skipped_values(),
        around_cities(),
        at_the_cut(),
        blobs_in_a_string(),
        byte_order_marks,
    )
