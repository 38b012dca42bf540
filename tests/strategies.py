"""Hypothesis strategies: cities (legal and illegal, wild, rotated, overlapping, unresolved,
negative and far-apart coordinates, 0 to 77 cards); game documents; and JSON text as people
and hostile writers write it (numbers in every spelling, escapes, bytes no UTF-8, spaces,
names as players write them)."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from typing import Any

from hypothesis import strategies as st

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.model import FACILITIES, IDENTIFIER_PATTERN, MAX_STRING, SIDES
from neweden.format.sides import ALL_SIDES
from neweden.format.vocabulary import ALIASES, Attribute, fold
from neweden.geometry.synth import city_json, grow_city

common_cards = st.builds(
    CardSpec,
    wild=st.just(False),
    style=st.sampled_from(["ex_a", "ex_b", "ex_c"]),
    type=st.sampled_from(["ex_x", "ex_y", "ex_z"]),
    facility=st.sampled_from(FACILITIES),
    points=st.integers(0, 9),
    stars=st.integers(0, 3),
    sides=st.frozensets(st.sampled_from(SIDES), min_size=1),
)
wild_cards = st.just(CardSpec(True, None, None, None, 0, 0, ALL_SIDES))
specs = st.one_of(common_cards, common_cards, common_cards, wild_cards, st.none())


@st.composite
def scattered_cities(draw: st.DrawFn, max_cards: int = 77) -> list[ResolvedCard]:
    """Cards on a small window of cells (so they touch and overlap), sometimes far away."""
    n = draw(st.integers(0, max_cards))
    width = draw(st.integers(1, 9))
    origin = draw(st.integers(-1000, 1000 - width))
    cards = []
    for i in range(n):
        far = draw(st.booleans()) if i % 7 == 6 else False
        lo, hi = (-1000, 1000) if far else (origin, origin + width)
        cards.append(
            ResolvedCard(
                i,
                draw(st.integers(lo, hi)),
                draw(st.integers(lo, hi)),
                draw(st.booleans()),
                draw(specs),
            )
        )
    return cards


@st.composite
def grown_cities(draw: st.DrawFn) -> list[ResolvedCard]:
    """A legal city grown by placement, then perhaps broken: an overlap, a lost card."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    city = grow_city(rng, draw(st.integers(1, 77)))
    if draw(st.booleans()) and len(city) > 1:
        victim = draw(st.integers(0, len(city) - 1))
        c = city[victim]
        city[victim] = ResolvedCard(c.index, c.row, c.col, c.rotated, None)
    if draw(st.booleans()):
        c = city[draw(st.integers(0, len(city) - 1))]
        city.append(ResolvedCard(len(city), c.row, c.col, False, draw(common_cards)))
    return city


cities = st.one_of(scattered_cities(), grown_cities())


# --- game documents and JSON text, as people and hostile writers write them -----------------

#: Player names as people write them: accents, quotes, a backslash, an emoji.
PLAYER_NAMES = ("Ana", "João", 'Zé "o grande"', "back\\slash", "🎲 dados", "x" * 99, "Bia")
#: Names the decoder folds (RULES §1), spelled in ASCII: the strict reader takes them.
ASCII_STYLES = ("gotico", "GOTICO", "Gotica", "futurista", "RENASCENTISTA", "gothic")
ASCII_TYPES = ("area_verde", "AREA_VERDE", "construcao", "Construcao", "building")
EFFECTS = ("third_star", "rotate", "move", "ex_fly")
REQUIREMENTS = (["A1", "B1", "C1"], ["C1", "A1"], [], ["A1", "EX-R9"])


def _city(draw: st.DrawFn, rng: random.Random, styles: int) -> list[dict[str, Any]]:
    """A city of 0-16 cards grown by legal placement (wild and rotated cards among them),
    sometimes made illegal (a card on a taken cell, a card far away), with card names,
    points on wild cards and style or type aliases now and then (chosen by `rng`, as the
    city is grown: a few draws a city, not five a card)."""
    size = draw(st.integers(0, 16))
    city = city_json(grow_city(rng, size, styles=styles, types=6)) if size else []
    for entry in city:
        card = entry["card"]
        if "style" in card and rng.randrange(8) == 0:
            card["style"] = rng.choice(ASCII_STYLES)
        if "type" in card and rng.randrange(8) == 0:
            card["type"] = rng.choice(ASCII_TYPES)
        if rng.randrange(10) == 0:
            card["name"] = rng.choice(["Catedral", "x" * 100, "a b-c's"])
        if card.get("wild") and rng.randrange(3) == 0:
            card["points"] = rng.choice([0, 1000, rng.randrange(1001)])
            card["stars"] = rng.randrange(4)
        if "rotated" not in entry and rng.randrange(15) == 0:
            entry["rotated"] = rng.random() < 0.5  # `false` written, or a wild card turned
    if city and draw(st.integers(0, 4)) == 0:  # an overlap
        city.append({**city[-1], "row": city[0]["row"], "col": city[0]["col"]})
    if city and draw(st.integers(0, 4)) == 0:  # a disconnected card
        city.append({**city[-1], "row": draw(st.integers(-1000, 1000)), "col": 1000})
    return city


@st.composite
def game_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A readable game as a JSON object: 1-4 players, the three modes, epiphanies (inline
    with points and effect, or by catalog id; held, validated or activated; a rotate one or
    not), bonuses, first_player, meta, a D5 table, requirements right or not and the ones a
    player declares met; legal and illegal cities (none read from a catalog but the
    epiphany `EX-E1`)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    styles = draw(st.sampled_from([3, 5, 7]))  # 7: sometimes more styles than the box holds
    players = []
    for p in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(PLAYER_NAMES)) + (
            "" if draw(st.integers(0, 9)) == 0 else str(p)
        )
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
        doc["requirements"] = draw(st.sampled_from(REQUIREMENTS))
        if doc["requirements"] and draw(st.integers(0, 4)) == 0:
            met = draw(st.lists(st.sampled_from(doc["requirements"]), unique=True))
            players[draw(st.integers(0, len(players) - 1))]["requirements_met"] = met
    if draw(st.integers(0, 4)) == 0:
        values = draw(st.lists(st.integers(0, 1000), min_size=len(players), max_size=len(players)))
        doc["majority_table"] = sorted(values, reverse=True)
    if draw(st.booleans()):
        doc["first_player"] = draw(st.sampled_from([players[0]["name"], "nobody"]))
    if draw(st.booleans()):
        doc["meta"] = {"photo": "t3.jpg", "nested": {"a": [1, 2.5, None, {"b": "ç"}]}}
    if draw(st.booleans()):
        doc["format"] = "new-eden/game@1"
    return doc


#: The ways a document is laid out: compact, spaced, indented with spaces or tabs, CRLF.
LAYOUTS = ("compact", "spaced", "indented", "tabs", "crlf")


def written(doc: Any, layout: str = "compact", *, ascii_only: bool = False) -> bytes:
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


@st.composite
def layouts(draw: st.DrawFn, doc: Any) -> bytes:
    """`doc` written in any layout, non-ASCII as UTF-8 or as escapes."""
    return written(doc, draw(st.sampled_from(LAYOUTS)), ascii_only=draw(st.booleans()))


#: JSON values of every kind (as a field's value: the right kind or not).
json_values = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1.5, "", "x", [], {}, [None], {"a": 1}]),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    ),
)

#: Numbers at the edges of the format's ranges, of 32- and 64-bit integers and of floats.
EDGE_NUMBERS = (
    "0", "-0", "1", "-1", "2", "3", "4", "5", "1000", "-1000", "1001", "-1001", "9999999999",
    "99999999999", "2147483647", "2147483648", "-2147483649", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "1e400", "-1e400", "1e999", "-1e999", "0.1e-400", "-0.0",
)  # fmt: skip
#: Spellings that are no JSON number, and words a reader might half-read as one.
NOT_NUMBERS = (
    "+1", ".5", "1.", "0x1", "0x10", "Infinity", "-Infinity", "NaN", "- 1", "1e-+", "-",
    "1e", "--1", "1.2.3", "e", "E", "-e", "+", ".", "1e5e5", "0-0", "1-", "1.e1", "1E+-1",
    "1E+", "1_0", "tru", "nul", "True", "truefalse", "nulll", "\u0661",
)  # fmt: skip

#: Numbers in every spelling, as bytes: plain, signed zero, leading zeros, fractions,
#: exponents, the edges of ranges, too many digits, and what is no number at all.
number_spellings = st.one_of(
    st.integers(-1001, 1001).map(str),
    st.integers().map(str),
    st.sampled_from(EDGE_NUMBERS + NOT_NUMBERS),
    st.from_regex(r"-?0*[0-9]{1,3}(\.[0-9]{0,2})?([eE][+-]?[0-9]{1,3})?", fullmatch=True),
    st.integers(11, 5000).map(lambda n: "1" * n),
).map(str.encode)

#: Byte sequences that are no UTF-8: a stray byte, a cut sequence, an overlong form, a
#: surrogate, a code point past U+10FFFF, a continuation alone.
invalid_utf8 = st.sampled_from(
    [b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xfe"]
)
#: Spaces JSON does not take (and a byte-order mark); JSON's own four.
NOT_JSON_SPACES = (
    b"\x0b",
    b"\x0c",
    b"\xc2\xa0",
    b"\xe2\x80\xa8",
    b"\xe2\x80\x8b",
    b"\x00",
    b"\x85",
)
json_spaces = st.lists(st.sampled_from([b" ", b"\t", b"\n", b"\r"]), min_size=1, max_size=4).map(
    b"".join
)
BOM = b"\xef\xbb\xbf"

#: Pieces of a string's text: characters of any script, escapes of every kind (a lone
#: surrogate, NUL, an unknown or short escape), raw control bytes and bytes no UTF-8.
_STRING_PIECES = st.one_of(
    st.text(max_size=4).map(str.encode),
    st.sampled_from(
        [
            b"\\n",
            b"\\t",
            b"\\/",
            b"\\\\",
            b'\\"',
            b"\\b",
            b"\\f",
            b"\\r",
            b"\\u0000",
            b"\\ud800",
            b"\\udfb2",
            b"\\ud83c\\udfb2",
            b"\\q",
            b"\\u12",
            b"\\x",
            b"\\",
            b'"',
            b"\t",
            b"\n",
            b"\x00",
            b"\x01",
            b"\x1f",
            b"\x7f",
        ]
    ),
    st.integers(0, 0xFFFF).map(lambda c: b"\\u%04x" % c),
    st.integers(0, 0xFFFF).map(lambda c: b"\\u%04X" % c),
    invalid_utf8,
)
#: The text between a string's quotes, as bytes, JSON or not.
string_contents = st.lists(_STRING_PIECES, max_size=6).map(b"".join)


@st.composite
def escaped(draw: st.DrawFn, text: str) -> bytes:
    """`text` as a JSON string (quotes included) with at least one character written as an
    escape (`\\u0069` or `\\n`...): the same string to a JSON reader."""
    short = {'"': b'\\"', "\\": b"\\\\", "/": b"\\/", "\n": b"\\n", "\t": b"\\t"}
    chars = list(text) or [""]
    forced = draw(st.integers(0, len(chars) - 1))
    out = []
    for i, c in enumerate(chars):
        if c and (i == forced or draw(st.integers(0, 3)) == 0):
            if c in short and draw(st.booleans()):
                out.append(short[c])
            else:
                units = c.encode("utf-16-be")
                hexes = [units[k : k + 2].hex() for k in range(0, len(units), 2)]
                upper = draw(st.booleans())
                out.append(b"".join(b"\\u" + (h.upper() if upper else h).encode() for h in hexes))
        else:
            out.append(json.dumps(c, ensure_ascii=False)[1:-1].encode())
    return b'"' + b"".join(out) + b'"'


#: Names that are no style or type, or are only once folded (RULES §1): spaces, marks
#: Portuguese does not write, fullwidth and other scripts' letters, an emoji, symbols,
#: characters whose lower case or decomposition is longer, lengths about the limit.
ODD_NAMES = (
    "gótico ", "go\u0323tico", "\uff47\uff4f\uff54\uff49\uff43\uff4f", "gothíc", "área_verde",
    "gotico\u200b", "g\u00f3\u0301tico", "sustentavel_", "go tico", "", "Praça", "PRAÇA",
    "Pra\u0327ca", "  Arte-Déco  ", "Comércio Local", "3d", "a/b", "\U0001f3db", "Готика",
    "-gothic", "\u0301gothic", "K\u212a", "İstanbul", "Goth/ic", "gothic\n", "go\ttico",
    "area verde", "Área Verde", "Construçao", "building ", "green-area",
)  # fmt: skip
_NAME_ALPHABET = st.sampled_from(
    [*"aZkK09_- /.éÉçãõ", "\u0301", "\u0327", "\u0323", "\u00a0", "\u0130", "\u212a",
     "\u017f", "\uff41", "\u0436", "\U0001f600", "\u00df", "\u0131", "\t"]
)  # fmt: skip


def names_as_written(attribute: Attribute) -> st.SearchStrategy[str]:
    """A style's or type's name as players might write it: each name and alias of the
    vocabulary, in capitals, capitalized, decomposed, spaced or hyphenated; names that are
    none (or only once folded); any short string of letters, marks and symbols; names of
    about the most characters (MAX_STRING), some of two bytes each."""
    forms = [form for name, more in ALIASES[attribute].items() for form in (name, *more)]
    respelled = st.sampled_from(forms).flatmap(
        lambda n: st.sampled_from(
            [
                n,
                n.upper(),
                n.title(),
                unicodedata.normalize("NFD", n),
                f"  {n} ",
                n.replace("_", " "),
                n.replace("_", "-"),
            ]
        )
    )
    long = st.integers(MAX_STRING - 2, MAX_STRING + 2).flatmap(
        lambda n: st.sampled_from(["x" * n, "a" + "é" * (n - 1)])
    )
    return st.one_of(
        respelled,
        st.sampled_from(ODD_NAMES),
        st.text(_NAME_ALPHABET, max_size=12),
        st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True),
        long,
    )


def name_is_read(name: str, attribute: Attribute) -> bool:
    """Whether `name` is a style's or type's name once folded, within MAX_STRING."""
    return (
        len(name) <= MAX_STRING
        and re.fullmatch(IDENTIFIER_PATTERN, fold(name, attribute)) is not None
    )


def json_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, as the keys and indices that lead there (the value's
    own first: `()`), in document order."""
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(json_paths(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(json_paths(value, (*path, i)))
    return out
