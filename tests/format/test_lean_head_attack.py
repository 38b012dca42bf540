"""Attacks on the lean read's order (commit f8377fb): the strict reader packs the cities of a
document it has only skipped elsewhere, then msgspec decodes `head()`, the document with each
city cut down to `[]`.

The tests try to make that order break the promise of tests/format/test_lean_decode.py (the
lean and exact paths give the same report or the same error; the lean readers never take
what the exact path refuses), aiming at the C++ reader's skipper (`JsonIn::skip`,
`skip_string`, `skip_number`, `keyed`, `delimited`) and at the cut positions. Besides `same`,
one check is made directly on the cut (`cut_is_right`): whenever the strict reader takes a
document and msgspec takes its head as JSON, the document itself is JSON and means the same
as its head but for the cities (so the `[]` put in stands where the exact decoder finds each
city). The inputs these tests used to list one by one are seeds of fuzz/corpus-lean/
(replayed by test_lean_decode.py); the strategies that make such inputs are in
tests/lean.py (`skipper_edits`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neweden.format.decode import decode_game, game_bytes
from neweden.format.problems import GameDecodeError
from neweden.geometry.native import JsonGames
from neweden.scoring.report import score_inputs
from tests.lean import (
    ANA,
    BIA,
    RAW,
    Doc,
    core_head,
    cut_is_right,
    holds,
    outcome_of,
    padded,
    readers_take,
    same,
    skipper_edits,
    sub,
)

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
    packer = JsonGames()
    assert packer.add(RAW)
    refused = sub(b'"name":"Bia"', b'"name":"Bia","city":[]')
    assert not packer.add(refused)
    other = sub(b'"city":' + ANA, b'"city":[]')
    assert packer.add(other)
    assert packer.head(other) == other.replace(BIA, b"[]")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(skipper_edits())
def test_what_the_reader_skips_or_cuts_reads_as_the_exact_path_reads_it(doc: Doc) -> None:
    """The valid document with strings and keys that look like cities, players and cities
    given twice or nested or of another kind, numbers, strings, deep values and bytes no
    UTF-8 where the reader only skips, bytes next to a city, after the document or at the
    cut, byte-order marks, the document cut short; padded over the lean threshold: the cut
    right, and both paths alike at both detail levels."""
    data = padded(doc.raw)
    try:
        cut_is_right(game_bytes(data))
    except GameDecodeError:  # not UTF-8, or over the size limit: no reader is asked
        assert not readers_take(data)
    holds(doc._replace(raw=data), detail=False)
    same(data, detail=True)


def test_every_truncation_of_the_document() -> None:
    """Every prefix of the document, with and without white space after it: the cut right
    whenever the reader takes one (it never should); the long ones, padded over the lean
    threshold, refused by the lean readers and read as the exact path reads them."""
    for end in range(len(RAW)):
        cut = RAW[:end]
        cut_is_right(cut)
        cut_is_right(padded(cut))
        if end > 400:
            same(padded(cut))
            assert not readers_take(padded(cut))


def test_huge_skipped_values_around_cities() -> None:
    """Values the reader skips of a megabyte or near: 100,000 escaped backslashes, an odd
    run of backslashes, 20,000 keys, 100,000 numbers, a string of 900,000 bytes."""
    long = b'"' + b"\\\\" * 100_000 + b'"'
    odd = b'"' + b"\\" * 200_001 + b'"'
    many = b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(20_000)) + b"}"
    for value in (long, odd, many, b"[" + b"1," * 100_000 + b"1]", b'"' + b"x" * 900_000 + b'"'):
        for old in (b'"table":3', b'"name":"Bia"'):
            key, _, _ = old.partition(b":")
            data = padded(sub(old, key + b":" + value))
            cut_is_right(data)
            same(data)
            same(data, detail=True)


# --- batches ---------------------------------------------------------------------------------


def _outcomes(found: list[Any]) -> list[tuple[str, bytes]]:
    return [outcome_of(one) for one in found]


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
    batch tests below drop a game the packer holds)."""
    for raw in _PACKED_THEN_REFUSED:
        assert JsonGames().add(padded(raw)), raw
        assert not readers_take(padded(raw)), raw


def test_a_batch_where_packed_games_are_dropped_reads_as_each_alone() -> None:
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
    for detail in (False, True):
        together = _outcomes(score_inputs(docs, detail=detail))
        alone = [_outcomes(score_inputs([doc], detail=detail))[0] for doc in docs]
        assert together == alone
        assert sum(kind == "ok" for kind, _ in together) >= 2 * len(_PACKED_THEN_REFUSED)


_POOL = (
    [padded(raw) for raw in _PACKED_THEN_REFUSED]
    + [
        padded(RAW),
        padded(_named((b'"gotico"', b'"ex_new_style"'))),
        padded(_named((b'"Goth/ic"', b'"ex_z"'))),  # a name that is none: dropped by add
        padded(sub(b'"name":"Bia"', b'"name":"Bia","city":[]')),  # refused by the reader
    ]
    + [padded(_named((b'"ex_s%d"' % i, b'"ex_t%d"' % i))) for i in range(9)]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(_POOL) | skipper_edits().map(lambda d: padded(d.raw)),
        min_size=2,
        max_size=8,
    )
)
def test_random_batches_of_dropped_and_valid_games(docs: list[bytes]) -> None:
    together = _outcomes(score_inputs(docs))
    alone = [_outcomes(score_inputs([doc]))[0] for doc in docs]
    assert together == alone


# --- found on the way: the exact decoder itself (fixed with this file) -----------------------


def test_a_number_out_of_range_nested_in_meta_is_a_problem() -> None:
    """A number Python does not hold, nested in `meta`, is a decode problem like one at
    `meta`'s top level (8fcd514: the exact decoder crashed on it, check_meta encoded the
    walk's OutOfRange marker, a TypeError that stopped a whole batch), on both paths
    alike."""
    for value, path in (
        (b"[3,1e999]", "/meta/table/1"),
        (b'{"a":-1e999}', "/meta/table/a"),
        (b"[" + b"1" * 5000 + b"]", "/meta/table/0"),
        (b'[[[[1e999]]],{"x":[2,2e999]}]', "/meta/table/0/0/0/0"),
    ):
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
