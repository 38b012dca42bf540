"""The lean path of a game's score against the exact decode, attacked.

`neweden.score` reads a document lean when it can (:mod:`neweden.format.lean`: msgspec decodes
everything but the cities, the native core's strict reader packs the cities) and decodes it
the exact way otherwise (:func:`neweden.format.decode.decode_game`). The promise: for every
input, both give the same report byte for byte, or the same :class:`GameDecodeError` (the same
problems, in the same words).

Hypothesis properties try to make the lean path take what the exact path refuses, or read
something differently (the strategies are in tests/lean.py and tests/strategies.py):
generated games in every layout; the valid document BASE with a field removed, repeated or
of another kind, a value spelled another way (escapes, accents and aliases, invalid UTF-8,
numbers in every spelling, sides, wild cards, catalog ids, limits), its text changed
(whitespace, byte-order marks, trailing bytes, cuts, deep nesting, sizes), hostile tokens and
bytes anywhere; other input kinds; Portuguese; catalogs; batches. The inputs that the
enumerations of this file and of test_lean_head_attack.py used to name one by one are the
seeds of fuzz/corpus-lean/, replayed whole by one test.

Besides the equality, two things are checked where they say something: a document the exact
path refuses is never taken by the lean path (taken, its report would hide the problem
whenever no rule needs the cards decoded), and the plain documents *are* taken lean (so the
tests fail if the lean path silently stops being used)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import neweden
from neweden.catalog.catalog import Catalog
from neweden.catalog.files import parse_catalog
from neweden.format.decode import GameInput, decode_game, game_bytes
from neweden.format.lean import decode_lean
from neweden.format.model import MAX_CARDS
from neweden.format.problems import GameDecodeError
from neweden.geometry.native import JsonGames, score_games
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.scoring import report
from neweden.scoring.report import LEAN_FROM_BYTES, score_inputs, score_reports
from tests.conftest import EXAMPLES
from tests.lean import (
    BASE,
    BASE_DOC,
    RAW,
    ROTATE,
    STYLE,
    TYPE,
    WILD,
    Doc,
    Outcome,
    batch_outcomes,
    byte_edits,
    corpus,
    cut_is_right,
    exact,
    field_edits,
    holds,
    numbers,
    outcome_of,
    padded,
    readers_take,
    same,
    styles_game,
    sub,
    taken_lean,
    text_edits,
    token_edits,
    value_edits,
)
from tests.strategies import game_documents, layouts, names_as_written


def _settings(examples: int) -> settings:
    """Hypothesis for these tests: no deadline (a shared machine), `examples` examples."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


# --- generated games -------------------------------------------------------------------------


@_settings(150)
@given(game_documents().flatmap(layouts), st.booleans())
def test_generated_games_are_read_lean_into_the_exact_report(raw: bytes, detail: bool) -> None:
    """Games of every part of the format, in every layout, non-ASCII as UTF-8 or escapes:
    read lean, the exact report."""
    outcome = same(padded(raw), detail=detail, taken=True)
    assert outcome[0] == "ok"


def test_the_format_example_is_read_lean_with_its_card_by_id_and_without(
    format_example: dict[str, Any],
) -> None:
    """The format's example gives a card by catalog id: the lean path reads it from the
    catalog (tests/format/test_lean_catalog_ids.py), and made inline too; the same reports
    as the exact path either way, in both detail levels."""
    raw = json.dumps(format_example).encode()
    for detail in (False, True):
        same(raw, detail=detail, taken=True)
    format_example["players"][0]["city"][0]["card"] = {"wild": True}
    raw = json.dumps(format_example).encode()
    for detail in (False, True):
        assert same(raw, detail=detail, taken=True)[0] == "ok"


def test_the_base_document_is_valid_legal_and_read_lean() -> None:
    found = neweden.score(BASE, detail=False)
    assert found["valid"] is True
    assert all(player["legal"] for player in found["players"])
    for detail in (False, True):
        same(RAW, detail=detail, taken=True)


# --- the valid document changed ----------------------------------------------------------------

#: Closed vocabularies (a name not listed is an error: every card is read), the template's
#: invented cards and requirements.
CLOSED = """
styles = ["gothic", "futurist", "ex_amber", "ex_jade"]
types = ["green_area", "building", "ex_harbor", "ex_meadow", "ex_quarry"]
"""


def _catalogs() -> dict[str, Catalog]:
    text = (EXAMPLES / "catalog-template.toml").read_text(encoding="utf-8")
    head, _sep, rest = text.partition("[majority_table]")
    closed = head + CLOSED + "\n[majority_table]" + rest
    return {
        "open": parse_catalog(text.encode(), "open.toml"),
        "closed": parse_catalog(closed.encode(), "closed.toml"),
    }


CATALOGS = _catalogs()
#: The template's ids, and ids no catalog knows.
_CARD_IDS = ("EX-wildcard", "EX-gothic-garden", "EX-unknown")
_REQUIREMENTS = ("A1", "B1", "C1", "EX-A2", "EX-B2", "EX-C2", "EX-R9")


@st.composite
def catalog_games(draw: st.DrawFn) -> bytes:
    """BASE or a line of cards with styles and types as players write them (listed in the
    closed catalog or not), cards and epiphanies by the template's ids, requirements of
    the template whose conditions count the folded names."""
    if draw(st.booleans()):
        raw = RAW
        style = draw(names_as_written("style") | st.sampled_from(["ex_jade", "ex_onyx"]))
        raw = sub(STYLE, json.dumps({"style": style}, ensure_ascii=False)[1:-1], raw)
        type_ = draw(names_as_written("type") | st.sampled_from(["ex_meadow", "ex_new"]))
        raw = sub(TYPE, json.dumps({"type": type_}, ensure_ascii=False)[1:-1], raw)
        if draw(st.booleans()):
            raw = sub(WILD, json.dumps(draw(st.sampled_from(_CARD_IDS))), raw)
        requirements = draw(st.lists(st.sampled_from(_REQUIREMENTS), max_size=3, unique=True))
        return sub('["A1","B1","C1"]', json.dumps(requirements), raw)
    count = draw(st.integers(1, 8))
    pool = ("gotico", "GOTICA", "gothic", "ex_amber", "ex_jade", "Futurista")
    styles = draw(st.lists(st.sampled_from(pool), min_size=count, max_size=count))
    type_pool = ("area_verde", "AREA_VERDE", "green_area", "Area_Verde", "construcao", "ex_x")
    types = draw(st.lists(st.sampled_from(type_pool), min_size=count, max_size=count))
    epiphanies = draw(
        st.lists(
            st.builds(
                dict,
                card=st.sampled_from(["EX-E1", "EX-E2"]),
                state=st.sampled_from(["held", "validated", "activated"]),
            ),
            max_size=3,
        )
    )
    return styles_game(
        styles,
        types,
        stars=draw(st.integers(0, 3)),
        requirements=tuple(draw(st.lists(st.sampled_from(_REQUIREMENTS), max_size=3, unique=True))),
        epiphanies=tuple(epiphanies),
    )


#: Every change of the valid document: a field removed, repeated or of another kind; a value
#: spelled another way (each of its families a branch, numbers three: eight of them, each
#: with its range); the text around the values; hostile tokens and bytes in BASE or in a
#: generated game; a game of the catalog's names and ids.
changed = st.one_of(
    field_edits(),
    value_edits(),
    numbers(),
    text_edits(),
    token_edits(RAW),
    byte_edits(RAW),
    game_documents()
    .map(lambda doc: json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode())
    .flatmap(lambda raw: token_edits(raw) | byte_edits(raw)),
    catalog_games().map(Doc),
)


@_settings(400)
@given(
    changed,
    st.booleans(),
    st.sampled_from([None, None, None, "open", "closed"]),
    st.sampled_from(["en", "en", "pt-BR"]),
)
def test_a_changed_document_reads_as_the_exact_path_reads_it(
    doc: Doc, detail: bool, catalog: str | None, lang: str
) -> None:
    """BASE with a field removed, repeated or of another kind, a value spelled another way,
    its text changed, hostile tokens or bytes put in (BASE's or a generated game's); a game
    of catalog names and ids; without a catalog or with one (closed vocabularies or not), in
    English or Portuguese, at either detail level: the same report or the same problems,
    read lean where the document is plain (`doc.taken`), and where only a string outside
    the cities changed, read lean exactly when the exact path reads it."""
    with speaking(lang):
        holds(doc, detail=detail, catalog=CATALOGS[catalog] if catalog else None)


# --- the seeds --------------------------------------------------------------------------------


def test_the_corpus_reads_alike_alone_and_in_one_batch() -> None:
    """Each file of fuzz/corpus-lean/ (padded to the size read lean): the same outcome both
    ways (a report at both detail levels), the cut where the document's cities are, and read
    lean when its name says `lean-`. Then all of them in one batch, each the strict reader
    packs followed by the valid document: a document whose cities the strict reader packed
    but whose rest msgspec refuses leaves nothing behind in the batch's table."""
    files = corpus()
    batch: list[bytes] = []
    want: list[Outcome] = []
    for name, raw in files:
        doc = padded(raw)
        taken = True if name.startswith("lean-") else None
        try:
            if _readable(doc):
                cut_is_right(game_bytes(doc))
            found = same(doc, taken=taken)
            if found[0] == "ok":  # (a decode error is the same at both detail levels)
                same(doc, detail=True)
        except AssertionError as err:
            raise AssertionError(f"{name}: {err}") from None
        batch.append(doc)
        want.append(found)
        if _packs(doc):
            batch.append(RAW)
            want.append(exact(RAW, False))
    kinds = [kind for kind, _ in want]
    assert kinds.count("ok") > 250
    assert kinds.count("error") > 900
    assert sum(name.startswith("lean-") for name, _ in files) > 150
    assert batch_outcomes(batch, False) == want
    refused = [name for name, raw in files if _packed_refused(padded(raw))]
    assert len(refused) > 10, refused  # the batch had such documents


def _readable(raw: bytes) -> bool:
    """Whether the document is within the size limit, and UTF-8 (a byte-order mark off)."""
    try:
        game_bytes(raw)
    except GameDecodeError:
        return False
    return True


def _packs(raw: bytes) -> bool:
    """Whether the strict reader packs the document's cities."""
    return _readable(raw) and JsonGames().add(game_bytes(raw))


def _packed_refused(raw: bytes) -> bool:
    """Whether the strict reader packs the document's cities but msgspec refuses the rest."""
    return _packs(raw) and report.lean_game(JsonGames(), game_bytes(raw)) is None


def test_two_byte_order_marks_are_refused_as_the_exact_path_refuses_them() -> None:
    """The one finding of the first attack on the lean read (7462638): `neweden.score`
    stripped a byte-order mark, then handed the bytes to a decoder that stripped another,
    so a document starting with two marks was scored where the exact decoder refuses it."""
    small = b'{"mode":"military","players":[{"name":"A","city":[]}]}'
    for given_ in (b"\xef\xbb\xbf" * 2 + RAW, "\ufeff\ufeff" + BASE, b"\xef\xbb\xbf" * 2 + small):
        assert exact(given_, False)[0] == "error"
        same(given_)


# --- other kinds of input ---------------------------------------------------------------------


class _Int(int):
    pass


def _objects(doc: Any) -> list[dict[str, Any]]:
    """Every object of `doc`, itself first."""
    if isinstance(doc, dict):
        return [doc] + [o for v in doc.values() for o in _objects(v)]
    if isinstance(doc, list):
        return [o for v in doc for o in _objects(v)]
    return []


#: Values no JSON document holds, as a mapping given in Python may.
_ODD_VALUES = (float("nan"), {"top"}, _Int(3), "ex_\ud800", ("right", "bottom"), b"x")


@st.composite
def inputs(draw: st.DrawFn) -> tuple[GameInput, bool | None]:
    """A game (generated, or BASE) given as bytes, str (a byte-order mark before, a lone
    surrogate after a quote), bytearray, memoryview or a mapping; the mapping perhaps holding a
    value no JSON has (NaN, a set, an int subclass, a tuple, a lone surrogate, bytes, an int
    key). With whether it is read lean."""
    doc = draw(st.builds(copy.deepcopy, st.just(BASE_DOC)) | game_documents())
    kinds = ["bytes", "str", "bom", "surrogate", "bytearray", "memoryview", "dict", "odd"]
    kind = draw(st.sampled_from(kinds))
    raw = padded(json.dumps(doc, ensure_ascii=False).encode())
    given_: GameInput
    if kind == "bytes":
        given_ = raw
    elif kind in ("str", "bom"):
        given_ = ("\ufeff" if kind == "bom" else "") + raw.decode()
    elif kind == "surrogate":  # after any quote: in a string (a name, a style...) or not
        text = raw.decode()
        at = draw(st.sampled_from([i + 1 for i in range(len(text)) if text[i] == '"']))
        return text[:at] + "\ud800" + text[at:], None
    elif kind == "bytearray":
        given_ = bytearray(raw)
    elif kind == "memoryview":
        given_ = memoryview(raw)
    else:
        given_ = doc
        if kind == "odd":
            where = draw(st.sampled_from(_objects(doc)))
            key = draw(st.sampled_from([*where, "odd", 1]))
            where[key] = draw(st.sampled_from(_ODD_VALUES))
            return given_, None
    return given_, True if len(game_bytes(given_)) >= LEAN_FROM_BYTES else None


@_settings(100)
@given(inputs(), st.booleans())
def test_other_kinds_of_input_read_alike(
    found: tuple[GameInput, bool | None], detail: bool
) -> None:
    given_, taken = found
    same(given_, detail=detail, taken=taken)


# --- in Portuguese ------------------------------------------------------------------------------


def _in_portuguese(raw: GameInput, detail: bool) -> tuple[Outcome, Outcome]:
    """(`neweden.score(raw, lang="pt-BR")`, the exact path speaking pt-BR), as outcomes."""
    try:
        lean_found = outcome_of(neweden.score(raw, detail=detail, lang="pt-BR"))
    except GameDecodeError as err:
        lean_found = outcome_of(err)
    with speaking("pt-BR"):
        try:
            exact_found = outcome_of(
                msgspec.to_builtins(score_reports([decode_game(raw)], detail=detail)[0])
            )
        except GameDecodeError as err:
            exact_found = outcome_of(err)
    return lean_found, exact_found


def test_the_portuguese_reports_are_in_portuguese() -> None:
    """`neweden.score(lang="pt-BR")` says what the exact path says in Portuguese, and in
    Portuguese words (so the property above, which draws the language, compares
    Portuguese words, not English ones twice)."""
    for raw in (
        RAW,
        sub(ROTATE, '"state":"held","effect":"rotate"'),
        sub('{"row":0,"col":1', '{"row":0,"col":0'),
        sub(WILD, '{"wild":false}'),
        sub(STYLE, '"style":"GOTICO"'),
        styles_game(["gotico", "gotiko", "ex_b", "ex_c", "ex_d", "ex_e", "ex_f"]),
    ):
        for detail in (False, True):
            lean_found, exact_found = _in_portuguese(raw, detail)
            assert lean_found == exact_found
            assert lean_found != exact(raw, detail)


# --- many documents at once -----------------------------------------------------------------------


@_settings(40)
@given(
    st.lists(
        st.one_of(
            game_documents().map(lambda doc: padded(json.dumps(doc).encode())),
            changed.map(lambda doc: doc.raw),
            st.sampled_from(corpus()).map(lambda named: padded(named[1])),
        ),
        min_size=1,
        max_size=8,
    ),
    st.booleans(),
)
def test_a_batch_reads_as_each_document_alone(docs: list[bytes], detail: bool) -> None:
    """Generated, changed and seed documents in one batch (names folded across games, games
    the packer takes then drops for a name that is none, between games it keeps)."""
    assert batch_outcomes(docs, detail) == [exact(raw, detail) for raw in docs]


def test_a_dropped_game_leaves_the_next_ones_read_right() -> None:
    """A game the strict reader reads but whose style is none (`Goth/ic`) is dropped from
    the packer: the games around it, with names of their own and aliases, read alike."""
    docs = [
        sub(STYLE, '"style":"gotico"'),
        sub(STYLE, '"style":"Goth/ic"'),
        sub(STYLE, '"style":"ex_new"').replace(b'"ex_jade"', b'"Futurista"'),
        sub(TYPE, '"type":"B/AD"').replace(b'"ex_jade"', b'"ex_other"'),
        sub(STYLE, '"style":"GOTICO"').replace(b'"ex_quarry"', b'"ex_new_type"'),
        RAW,
    ]
    assert [taken_lean(raw) for raw in docs] == [True, False, True, False, True, True]
    for detail in (False, True):
        assert batch_outcomes(docs, detail) == [exact(raw, detail) for raw in docs]


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
    assert [outcome_of(one) for one in found] == [exact(doc, True) for doc in docs]


# --- after the review of the change ------------------------------------------------------------


def test_a_meta_key_with_an_accent_or_an_escape_is_still_read_lean() -> None:
    """The reader skips past whatever `meta` holds: its keys may be any string (a
    Portuguese word, an escape), and the game is read lean all the same (7dd33a4: such a
    game went the exact way)."""
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
    game = decode_lean(padded(RAW))
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
    good = padded(RAW)
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
        padded(RAW),
        padded(json.dumps(by_id).encode()),  # the strict reader refuses it
        padded(sub('"mode":"elitist"', '"mode":"elitista"')),  # msgspec refuses the rest
        padded(sub(STYLE, '"style":"Goth/ic"')),  # a style that is none: dropped
        padded(sub(STYLE, '"style":"ex_new"').replace(b'"ex_harbor"', b'"ex_new_type"')),
        padded(sub(STYLE, '"style":"gotico"')),  # an alias (the table's lists renumbered)
        b'{"mode":"military","players":[{"name":"A","city":[]}]}',  # under min_size
        "not bytes",
        padded(RAW),
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
    assert packer.read_many([padded(RAW)], 0, decode_lean)[0] is not None
    before = _table(packer)

    def broken(head: bytes) -> object:
        raise MemoryError("no room")

    with pytest.raises(MemoryError, match="no room"):
        packer.read_many([padded(sub(STYLE, '"style":"ex_new"'))], 0, broken)
    assert _table(packer) == before
    assert len(packer) == 1


def test_the_lean_readers_take_the_valid_document_and_not_a_refused_one() -> None:
    """(A check of the check: `same` asks readers_take of every document the exact path
    refuses, which must not be a question answered no whatever the document.)"""
    assert readers_take(RAW)
    assert not readers_take(sub(WILD, '{"wild":false}'))
