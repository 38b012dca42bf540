"""Attacks on the lean read's new order (commit f8377fb): the strict reader packs the cities
of a document it has only skipped elsewhere, then msgspec decodes `head()`, the document
with each city cut down to `[]`.

Each test tries to make that order break the promise of tests/format/test_lean_decode.py (the lean
and exact paths give the same report or the same error; the lean readers never take what
the exact path refuses), aiming at the C++ reader's skipper (`JsonIn::skip`, `skip_string`,
`skip_number`, `keyed`, `delimited`) and at the cut positions. Besides `same`, one check is
made directly on the cut (`cut_is_right`): whenever the strict reader takes a document and
msgspec takes its head as JSON, the document itself is JSON and means the same as its head
but for the cities (so the `[]` put in stands where the exact decoder finds each city)."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neweden.format.decode import decode_game, game_bytes
from neweden.format.problems import GameDecodeError
from neweden.geometry.native import JsonGames
from neweden.scoring.report import score_inputs
from tests.format.test_lean_decode import BASE, padded, readers_take, same

BOM = b"\xef\xbb\xbf"
RAW = BASE.encode()
ANA = RAW[RAW.index(b'"city":[') + 7 : RAW.index(b',"epiphanies"')]  # Ana's city array
BIA = RAW[RAW.index(b'"name":"Bia","city":[') + 20 : -3]  # Bia's city array
for _city in (ANA, BIA):
    assert _city.startswith(b"[")
    assert _city.endswith(b"]")
    assert json.loads(_city)
CITY_KEY = b'"city":'


def packer() -> JsonGames:
    return JsonGames()


def core_head(raw: bytes) -> bytes | None:
    """The strict reader's head of `raw`, or None when it refuses the document."""
    p = packer()
    return p.head(raw) if p.add(raw) else None


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


def attack(raw: bytes, *, taken: bool | None = None) -> None:
    """`raw`, padded over the lean threshold, through every check: the cut, and both
    paths at both detail levels."""
    data = padded(raw)
    cut_is_right(data)
    same(data, detail=False, taken=taken)
    same(data, detail=True)


def sub(old: bytes, new: bytes, text: bytes = RAW) -> bytes:
    assert old in text, old
    return text.replace(old, new, 1)


# --- the cut itself ---------------------------------------------------------------------------


def test_the_head_is_the_document_with_each_city_given_as_an_empty_list() -> None:
    """Byte for byte: only the two cities change (spaces around them are kept)."""
    assert core_head(RAW) == RAW.replace(ANA, b"[]").replace(BIA, b"[]")
    spaced = sub(b'"city":' + ANA, b'"city" :\r\n\t ' + ANA + b" \n")
    want = sub(b'"city":' + ANA, b'"city" :\r\n\t [] \n').replace(BIA, b"[]")
    assert core_head(spaced) == want
    inner = sub(ANA, b"[ " + ANA[1:-1] + b"\n]")
    assert core_head(inner) == core_head(RAW)
    empty = sub(ANA, b"[ \t]")
    assert core_head(empty) == core_head(RAW)


def test_a_head_after_a_refused_game_is_not_asked_and_the_next_head_is_its_own() -> None:
    """The spans are those of the game read last: a refused read between two taken ones
    does not leave its spans in the next head."""
    p = packer()
    assert p.add(RAW)
    refused = sub(b'"name":"Bia"', b'"name":"Bia","city":[]')
    assert not p.add(refused)
    other = sub(b'"city":' + ANA, b'"city":[]')
    assert p.add(other)
    assert p.head(other) == other.replace(BIA, b"[]")


# --- strings that look like cities ----------------------------------------------------------

_LOOKALIKES = [
    # A player name holding city text, escaped quotes and backslashes of every parity.
    (b'"name":"Ana"', b'"name":"\\"city\\":[1]"'),
    (b'"name":"Ana"', b'"name":"Ana\\\\"'),
    (b'"name":"Ana"', b'"name":"Ana\\\\\\\\"'),
    (b'"name":"Ana"', b'"name":"Ana\\"'),  # the quote escaped: the string runs on
    (b'"name":"Ana"', b'"name":"Ana\\\\\\"'),
    (b'"name":"Ana"', b'"name":"Ana\\'),
    (b'"name":"Ana"', b'"name":"Ana\\","city":[],"x":"'),
    (b'"name":"Ana",', b'"name":"Ana\\",'),  # the city key inside the name's string
    (b'"name":"Ana",', b'"name":"Ana\\\\",'),
    (b'"photo":"t3.jpg"', b'"photo":"\\",\\"players\\":[{\\"city\\":[]}],\\""'),
    (b'"photo":"t3.jpg"', b'"photo":"t3.jpg\\\\\\\\\\\\\\\\\\\\\\\\"'),
    (b'"photo":"t3.jpg"', b'"photo":"t3\\u0022,\\u0022city\\u0022:[1]"'),
    (b'"photo":"t3.jpg"', b'"photo":"\\u005c"'),
    (b'"photo":"t3.jpg"', b'"photo":"\\u005c\\"'),
    (b'"photo":"t3.jpg"}', b'"photo":"t3.jpg}'),  # meta left open, a string swallowing
    (b'"first_player":"Bia"', b'"first_player":"Bia\\",\\"players\\":[{\\"city\\":[]}]'),
    # City-looking keys: escaped, accented, spaced.
    (b'"city":[', b'"c\\u0069ty":['),
    (b'"city":[', b'"\\u0063ity":['),
    (b'"city":[', b'"cit\\u0079":['),
    (b'"city":[', b'"city\\u0000":['),
    (b'"city":[', b'"city ":['),
    (b'"city":[', b'" city":['),
    (b'"city":[', b'"CITY":['),
    (b'"city":[', b'"\xc4\xb1city":['),
    (b'"city":[', b'"c\xc4\xb1ty":['),
    (b'"players":', b'"pl\\u0061yers":'),
    (b'"players":', b'"players\\u0000":'),
    (b'"players":', b'"Players":'),
    (b'"name":"Ana",', b'"name":"Ana","c\\u0069ty":[],'),  # the city given twice
    (b'"name":"Ana",', b'"name":"Ana","c\\u0069ty":[{"row":0}],'),
    (b'"name":"Ana",', b'"name":"Ana","c\\u0069ty":"x",'),
    (b'"name":"Bia"', b'"name":"Bia","c\\u0069ty":[1]'),  # an escaped key after the city
]


@pytest.mark.parametrize(("old", "new"), _LOOKALIKES, ids=[repr(n) for _, n in _LOOKALIKES])
def test_strings_and_keys_that_look_like_cities(old: bytes, new: bytes) -> None:
    attack(sub(old, new))


# --- duplicates, nesting, cities of another kind --------------------------------------------

_PLAYERS = RAW[RAW.index(b'"players":') : -1]


def _structural_cases() -> list[tuple[str, bytes]]:
    cases = [
        ("players twice, same", sub(_PLAYERS, _PLAYERS + b"," + _PLAYERS)),
        ("players twice, empty first", sub(b'"players":', b'"players":[],"players":')),
        ("players twice, null first", sub(b'"players":', b'"players":null,"players":')),
        (
            "players twice, by id first",
            sub(b'"players":', b'"players":[{"name":"X","city":["EX-1"]}],"players":'),
        ),
        ("players twice, empty last", sub(_PLAYERS, _PLAYERS + b',"players":[]')),
        ("city twice", sub(b'"name":"Ana",', b'"name":"Ana","city":[],')),
        ("city twice, null", sub(b'"name":"Ana",', b'"name":"Ana","city":null,')),
        ("city twice, after", sub(b'"name":"Bia"', b'"name":"Bia","city":[]')),
        ("players in meta", sub(b'"table":3', b'"players":[{"city":["EX-1",{"x":1}]}]')),
        ("players in meta, bad city", sub(b'"table":3', b'"players":[{"city":[1e,]}]')),
        ("players in a player", sub(b'"name":"Ana",', b'"name":"Ana","players":[{"city":[]}],')),
        ("city in an epiphany", sub(b'"points":2,', b'"city":[],"points":2,')),
        ("city at the root", sub(b'"mode":', b'"city":[],"mode":')),
        ("city in meta", sub(b'"table":3', b'"city":' + ANA)),
        ("a second root object", RAW + b"{}"),
        ("players at the end, after junk", sub(b'"players":', b'"x":1,"players":')),
        ("name twice, number first", sub(b'"name":"Ana",', b'"name":1,"name":"Ana",')),
        ("name twice, bad number first", sub(b'"name":"Ana",', b'"name":1e,"name":"Ana",')),
        ("mode twice, bad string first", sub(b'"mode":', b'"mode":"\\q","mode":')),
    ]
    for value in (
        b"{}",
        b"null",
        b'"[]"',
        b"1",
        b"[]]",
        b"[[]]",
        b"[1]",
        b"[,]",
        b"[",
        b"]",
        b"[{}]",
        b'["EX-1"]',
        b"true",
        b"[null]",
        b"-",
        b"[]1",
        b"[]]]",
    ):
        cases.append((f"city {value!r}", sub(ANA, value)))
        cases.append((f"Bia's city {value!r}", sub(BIA, value)))
    for value in (b"{}", b"null", b"[1]", b"[{}]", b'{"city":[]}', b"[[]]", b'[{"city":[]},]'):
        cases.append((f"players {value!r}", sub(_PLAYERS, b'"players":' + value)))
    return cases


@pytest.mark.parametrize(
    ("name", "raw"), _structural_cases(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_duplicates_nesting_and_cities_of_another_kind(name: str, raw: bytes) -> None:
    attack(raw)


# --- bytes around and inside the cities ------------------------------------------------------

_AROUND = (
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\x0c",
    b"\x0b",
    b"\x00",
    b"\xc2\xa0",
    BOM,
    b"\xe2\x80\x8b",
    b"\xff",
    b"\xc3",
    b"\x80",
    b"\xed\xa0\x80",
    b",",
    b":",
    b"1",
    b'""',
    b"/**/",
    b"//\n",
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


@pytest.mark.parametrize("place", _PLACES)
@pytest.mark.parametrize("byte", _AROUND)
def test_bytes_next_to_a_city(place: bytes, byte: bytes) -> None:
    old = place.replace(b"#", b"")
    raw = sub(old, place.replace(b"#", byte))
    taken = True if byte in (b" ", b"\t", b"\n", b"\r") else None
    attack(raw, taken=taken)


@pytest.mark.parametrize(
    "bad", [b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]
)
def test_invalid_utf8_in_and_next_to_cities(bad: bytes) -> None:
    for old, new in (
        (b'"ex_amber"', b'"ex_amber' + bad + b'"'),
        (b'"style"', b'"sty' + bad + b'le"'),
        (b'"name":"Ana"', b'"name":"Ana' + bad + b'"'),
        (b'"name":"Bia"', b'"name":"' + bad + b'"'),
        (b'"effect":"rotate"', b'"effect":"rotate' + bad + b'"'),
        (b'"photo":"t3.jpg"', b'"photo' + bad + b'":"t3.jpg"'),
        (b'"photo":"t3.jpg"', b'"photo":"t3.jpg\\' + bad + b'"'),  # an escape of a lead byte
    ):
        attack(sub(old, new))


# --- numbers, words and values the skipper passes -------------------------------------------

_NUMBERS = (
    b"1e-+",
    b"01",
    b"-",
    b"1.",
    b".5",
    b"+1",
    b"1e",
    b"--1",
    b"1.2.3",
    b"e",
    b"E",
    b"-e",
    b"+",
    b".",
    b"1e5e5",
    b"0-0",
    b"1-",
    b"00",
    b"-01",
    b"1.e1",
    b"1E+-1",
    b"1e999",
    b"-0",
    b"1" * 5000,
    b"0.1e-400",
    b"Infinity",
    b"NaN",
    b"-Infinity",
    b"tru",
    b"nul",
    b"True",
    b"truefalse",
    b"nulll",
    b"0x10",
    b"1_0",
    b"\xd9\xa1",
)


@pytest.mark.parametrize("number", _NUMBERS)
def test_numbers_and_words_where_the_reader_only_skips(number: bytes) -> None:
    for old, new in (
        (b'"table":3', b'"table":' + number),
        (b'"table":3', b'"table":[3,' + number + b"]"),
        (b'"points":3}', b'"points":' + number + b"}"),  # the bonus, after the cities
        (b'"name":"Ana",', b'"name":' + number + b","),  # right before a city
        (b'"name":"Ana",', b'"x":' + number + b',"name":"Ana",'),
        (b',"epiphanies"', b',"x":' + number + b',"epiphanies"'),  # right after a city
        (b'"name":"Bia"', b'"name":"Bia","y":' + number),
        (ANA + b",", ANA + number + b","),  # glued to the city's bracket
    ):
        attack(sub(old, new))


# --- deep and huge skipped values ------------------------------------------------------------


@pytest.mark.parametrize("depth", [31, 32, 33, 62, 63, 64, 65, 66, 200, 5000])
def test_deep_values_skipped_around_cities(depth: int) -> None:
    deep = b"[" * depth + b"]" * depth
    deep_obj = b'{"a":' * depth + b"1" + b"}" * depth
    for old, new in (
        (b'"table":3', b'"table":' + deep),
        (b'"table":3', b'"table":' + deep_obj),
        (b'"name":"Ana",', b'"x":' + deep + b',"name":"Ana",'),
        (b',"epiphanies"', b',"x":' + deep_obj + b',"epiphanies"'),
        (b'"table":3', b'"table":' + b"[" * depth),  # never closed
        (b'"table":3', b'"table":' + b"[" * depth + b'"city":[]' + b"]" * depth),
    ):
        attack(sub(old, new))


def test_huge_skipped_values_around_cities() -> None:
    long = b'"' + b"\\\\" * 100_000 + b'"'
    odd = b'"' + b"\\" * 200_001 + b'"'
    many = b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(20_000)) + b"}"
    for value in (long, odd, many, b"[" + b"1," * 100_000 + b"1]", b'"' + b"x" * 900_000 + b'"'):
        for old in (b'"table":3', b'"name":"Bia"'):
            key, _, _ = old.partition(b":")
            attack(sub(old, key + b":" + value))


# --- truncated documents and trailing bytes --------------------------------------------------


def test_every_truncation_of_the_document() -> None:
    """Every prefix of the document, with and without white space after it (padded over the
    lean threshold: each one asked of the lean readers)."""
    for end in range(len(RAW)):
        cut = RAW[:end]
        cut_is_right(cut)
        cut_is_right(padded(cut))
        if end > 400:
            same(padded(cut))
            assert not readers_take(padded(cut))


@pytest.mark.parametrize(
    "tail",
    [
        b"x",
        b"\x00",
        b"}",
        b"]",
        b",",
        b"{}",
        b"[]",
        BOM,
        b"\xff",
        b"1",
        b"null",
        b'"',
        b"\\",
        b" \x0c",
        b',"city":[]}',
        b"//",
        b"\n}",
    ],
)
def test_trailing_bytes(tail: bytes) -> None:
    attack(RAW + tail)
    attack(padded(RAW) + tail)
    attack(RAW + b" " * 10 + tail + b" ")


def test_byte_order_marks_around_the_document() -> None:
    for raw in (BOM + RAW, BOM + BOM + RAW, RAW + BOM, b" " + BOM + RAW, BOM + b" " + RAW):
        same(padded(raw))
        same(padded(raw), detail=True)
        try:
            data = game_bytes(padded(raw))
        except GameDecodeError:
            continue
        cut_is_right(data)


# --- fuzzing around the cut ------------------------------------------------------------------

_HOSTILE = (
    b" ",
    b"\t",
    b"\n",
    b"\\",
    b'"',
    b'\\"',
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b"[]",
    b"{}",
    b"1",
    b"-",
    b"e",
    b".",
    b"+",
    b"\x00",
    b"\xff",
    b"\xc3",
    BOM,
    b"null",
    b"true",
    b'"city":',
    b'"city":[]',
    b'"players":',
    b"\\u0069",
    b'"x":',
    b'""',
)


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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hostile_bytes_at_the_cut(data: st.DataObject) -> None:
    """One to three edits (a hostile token put in, a byte taken out or changed) next to a
    city's key, its brackets or a string before it."""
    raw = bytearray(RAW)
    for _ in range(data.draw(st.integers(1, 3))):
        places = _boundaries(bytes(raw)) or [0]
        at = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["insert", "insert", "delete", "change"]))
        token = data.draw(st.sampled_from(_HOSTILE))
        if how == "insert":
            raw[at:at] = token
        elif at < len(raw):
            if how == "delete":
                del raw[at]
            else:
                raw[at] = token[0]
    doc = bytes(raw)
    cut_is_right(doc)
    same(padded(doc), detail=data.draw(st.booleans()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=12), st.sampled_from([b'"name":"Ana"', b'"photo":"t3.jpg"']))
def test_random_bytes_inside_a_string_before_a_city(blob: bytes, old: bytes) -> None:
    """Any bytes inside a skipped string (escapes, quotes, backslashes, controls) before
    the first city: both readers must split the text where msgspec does."""
    key, _, value = old.partition(b":")
    attack(sub(old, key + b':"' + blob + value[1:]))


# --- batches ---------------------------------------------------------------------------------


def _outcomes(found: list[Any]) -> list[tuple[str, bytes]]:
    out = []
    for one in found:
        if isinstance(one, GameDecodeError):
            out.append(("error", msgspec.json.encode({"problems": one.problems, "msg": str(one)})))
        else:
            out.append(("ok", msgspec.json.encode(one)))
    return out


def _named(styles: tuple[bytes, bytes]) -> bytes:
    """BASE with its two styles renamed (new names numbered by the packer)."""
    return RAW.replace(b'"ex_amber"', styles[0]).replace(b'"ex_jade"', styles[1])


_PACKED_THEN_REFUSED = [
    sub(b'"table":3', b'"table":1e'),
    sub(b'"table":3', b'"table":"\\q"'),
    sub(b'"name":"Ana",', b'"name":"Ana","n":.5,'),
    sub(ANA + b",", ANA + b',"x":"\\u12",'),
    sub(b'"photo":"t3.jpg"', b'"photo":"\xff"'),
    sub(b'"mode":"elitist"', b'"mode":"elitist","mode":1'),
    sub(b'"name":"Bia"', b'"name":"Bia","bogus":1'),
    RAW.replace(b'"ex_amber"', b'"gotico"').replace(b'"table":3', b'"table":-'),
    RAW.replace(b'"ex_jade"', b'"ex_new_style"').replace(b'"rotate"', b'"rotate\\x"'),
]


def test_the_batch_attacks_are_packed_then_refused() -> None:
    """Each one is taken by the strict reader, then its head refused by msgspec (so the
    batch test below drops a game the packer holds)."""
    for raw in _PACKED_THEN_REFUSED:
        assert packer().add(padded(raw)), raw
        assert not readers_take(padded(raw)), raw


@pytest.mark.parametrize("detail", [False, True])
def test_a_batch_where_packed_games_are_dropped_reads_as_each_alone(detail: bool) -> None:
    """Games packed then dropped (new style names, an alias, a rotated card), each between
    valid games of their own names and of the dropped one's: the reports of the games after
    each drop are those each gives alone."""
    valid = [
        padded(RAW),
        padded(_named((b'"gotico"', b'"ex_new_style"'))),
        padded(_named((b'"ex_other"', b'"futurista"'))),
        padded(sub(b'"rotated":true', b'"rotated":false')),
    ]
    docs = []
    for i, bad in enumerate(_PACKED_THEN_REFUSED):
        docs += [padded(bad), valid[i % len(valid)], padded(bad), padded(bad), valid[(i + 1) % 4]]
    together = _outcomes(score_inputs(docs, detail=detail))
    alone = [_outcomes(score_inputs([doc], detail=detail))[0] for doc in docs]
    assert together == alone
    assert sum(kind == "ok" for kind, _ in together) >= 2 * len(_PACKED_THEN_REFUSED)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2 * len(_PACKED_THEN_REFUSED) + 3), min_size=2, max_size=8))
def test_random_batches_of_dropped_and_valid_games(picks: list[int]) -> None:
    pool = (
        [padded(raw) for raw in _PACKED_THEN_REFUSED]
        + [
            padded(RAW),
            padded(_named((b'"gotico"', b'"ex_new_style"'))),
            padded(_named((b'"Goth/ic"', b'"ex_z"'))),  # a name that is none: dropped by add
            padded(sub(b'"name":"Bia"', b'"name":"Bia","city":[]')),  # refused by the reader
        ]
        + [
            padded(_named((b'"ex_s%d"' % i, b'"ex_t%d"' % i)))
            for i in range(len(_PACKED_THEN_REFUSED))
        ]
    )
    docs = [pool[i % len(pool)] for i in picks]
    together = _outcomes(score_inputs(docs))
    alone = [_outcomes(score_inputs([doc]))[0] for doc in docs]
    assert together == alone


# --- found on the way: the exact decoder itself (fixed with this file) -----------------------


@pytest.mark.parametrize(
    ("value", "path"),
    [
        (b"[3,1e999]", "/meta/table/1"),
        (b'{"a":-1e999}', "/meta/table/a"),
        (b"[" + b"1" * 5000 + b"]", "/meta/table/0"),
        (b'[[[[1e999]]],{"x":[2,2e999]}]', "/meta/table/0/0/0/0"),
    ],
)
def test_a_number_out_of_range_nested_in_meta_is_a_problem(value: bytes, path: str) -> None:
    """A number Python does not hold, nested in `meta`, is a decode problem like one at
    `meta`'s top level (the exact decoder crashed on it: check_meta encoded the walk's
    OutOfRange marker, a TypeError that stopped a whole batch), on both paths alike."""
    raw = sub(b'"table":3', b'"table":' + value)
    with pytest.raises(GameDecodeError) as found:
        decode_game(raw)
    first = found.value.problems[0]
    assert (first.code, first.path) == ("bad_value", path)
    assert "beyond any float" in first.message or "digits" in first.message
    batch = score_inputs([padded(RAW), padded(raw), padded(RAW)])
    assert isinstance(batch[1], GameDecodeError)
    assert batch[1].problems == found.value.problems
    assert not isinstance(batch[2], Exception)  # the batch goes on with the rest
