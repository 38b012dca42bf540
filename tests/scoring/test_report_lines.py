"""The lean report lines of a chunk written natively (`neweden._core.report_lines`, issue 19):
byte for byte the JSON msgspec writes of the same report, with the same verdict and error
codes; a game the writer cannot write exactly goes the usual way, and loses nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import msgspec
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN
from neweden.format.decode import decode_game
from neweden.format.problems import Problem, pointer_order
from neweden.geometry.native import report_lines
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.runners import results
from neweden.runners.sources import Entry
from neweden.scoring import chunk, report
from neweden.scoring.report import ReportLine, score_inputs

from .test_chunk import _EXAMPLES, games

SMALL_CHUNKS = 4


@pytest.fixture
def small_chunks() -> Iterator[None]:
    with mock.patch.object(report, "CHUNK_FROM", SMALL_CHUNKS):
        yield


def _lines_and_reports(raws: list[bytes], catalog: Any = BUILTIN) -> list[tuple[Any, Any]]:
    written = score_inputs(raws, catalog=catalog, lines=True)
    made = score_inputs(raws, catalog=catalog)
    return list(zip(written, made, strict=True))


def _same(raws: list[bytes], catalog: Any = BUILTIN) -> int:
    """Each line written natively is the report's JSON, verdict and codes; how many were."""
    count = 0
    for i, (line, made) in enumerate(_lines_and_reports(raws, catalog)):
        if isinstance(made, Exception):
            assert type(line) is type(made)
            continue
        expected = results._result(Entry("x", i + 1, raws[i]), made, short=False, rows=False)
        if isinstance(line, ReportLine):
            count += 1
            assert line.json == msgspec.json.encode(made)
            assert (line.valid, line.codes) == (expected.valid, expected.codes)
            assert line.totals() == [(p.name, p.score.total) for p in made.players]
        else:  # a game scored alone: its report as it is
            assert msgspec.json.encode(line) == msgspec.json.encode(made)
    return count


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=SMALL_CHUNKS, max_size=SMALL_CHUNKS + 8))
def test_report_lines_are_the_bytes_of_the_reports(docs: list[dict[str, Any]]) -> None:
    raws = [msgspec.json.encode(doc) for doc in docs]
    with mock.patch.object(report, "CHUNK_FROM", SMALL_CHUNKS):
        written = _same(raws, _EXAMPLES)
        with speaking("pt-BR"):
            assert _same(raws, _EXAMPLES) == written
    lean = sum(len(raw) >= report.LEAN_FROM_BYTES for raw in raws)
    assume(lean >= SMALL_CHUNKS)  # (the others are made the exact way: no chunk)
    assert written > 0


def _game(rng: random.Random, name: str, meta: Any = None) -> bytes:
    """A game large enough to be read lean (the chunk's games are)."""
    raw = b""
    while len(raw) < report.LEAN_FROM_BYTES:
        raw = _any_game(rng, name, meta)
    return raw


def _any_game(rng: random.Random, name: str, meta: Any) -> bytes:
    doc: dict[str, Any] = {
        "mode": rng.choice(["populist", "military", "elitist"]),
        "players": [
            {"name": name if p == 0 else f"{name}{p}", "city": city_json(grow_city(rng, 8))}
            for p in range(rng.randint(1, 3))
        ],
    }
    if doc["mode"] != "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    if meta is not None:
        doc["meta"] = meta
    return msgspec.json.encode(doc)


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=30), st.dictionaries(st.text(max_size=8), st.text()))
def test_report_lines_escape_text_as_msgspec_does(name: str, meta: dict[str, str]) -> None:
    rng = random.Random(len(name))
    raws = [_game(rng, name, meta if k % 2 else None) for k in range(SMALL_CHUNKS)]
    with mock.patch.object(report, "CHUNK_FROM", SMALL_CHUNKS):
        assert _same(raws) == SMALL_CHUNKS  # all written natively, none alone


def test_a_whole_batch_of_the_issue_19_mix_is_written_natively() -> None:
    from bench.conftest import transcribed_games

    raws = transcribed_games(300, seed=31)
    written = _same(raws)
    assert written >= 250  # the lean ones, in chunks (the rest are too small to read lean)


def _placed_paths(paths: list[str]) -> list[str]:
    """The order report_lines writes a game's top-level warnings in, given their paths."""
    numbers = np.zeros((1, len(chunk.LINE_NUMBERS)), dtype=np.int64)
    problems = [Problem(code=f"c{k}", message="m", path=p) for k, p in enumerate(paths)]
    game: tuple[Any, ...] = (
        "military",
        None,
        False,
        True,
        0,
        1,
        [],
        problems,
        [],
        None,
        None,
        "default",
    )
    (line,), _codes, _firsts, _warned = report_lines(b'{"valid":', [game], numbers, ["A"], [None])
    assert line is not None
    written = msgspec.json.decode(b'{"valid":' + line[len(b'{"valid":') :])
    return [w["path"] for w in written["warnings"]]


_TOKEN = st.one_of(
    st.sampled_from(["", "0", "00", "1", "007", "10", "9", "a", "b", "ab", "A", "~1", "z0"]),
    st.integers(0, 10**30).map(str),
    st.text(alphabet="0123456789ab-_", max_size=6),
)
_PATH = (
    st.lists(_TOKEN, max_size=4)
    .map(lambda ts: "".join("/" + t for t in ts))
    .filter(lambda p: not p.startswith("/players/"))
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PATH, min_size=1, max_size=8))
def test_report_lines_place_problems_in_document_order(paths: list[str]) -> None:
    assert _placed_paths(paths) == sorted(paths, key=pointer_order)  # stable, as placed


def _with_extra_warning(path: str) -> Any:
    """_ChunkReports.problems with one more warning at `path` for every game."""
    usual = report._ChunkReports.problems

    def problems(self: Any, g: int, quiet: Any, *more: Any) -> tuple[list[Problem], list[Problem]]:
        errors, warnings = usual(self, g, quiet, *more)
        return errors, [*warnings, Problem(code="x", message="odd path", path=path)]

    return mock.patch.object(report._ChunkReports, "problems", problems)


@pytest.mark.parametrize("path", ["/players/0/caf\u00e9", "/players/7", "/meta/a\nb"])
def test_a_game_the_writer_cannot_place_is_made_the_usual_way(
    path: str, small_chunks: None
) -> None:
    rng = random.Random(3)
    raws = [_game(rng, "Ana") for _ in range(SMALL_CHUNKS)]
    with _with_extra_warning(path):
        written = score_inputs(raws, lines=True)
    # the path is not one report_lines places for certain (non-ASCII, a player the game
    # lacks, a control byte): every game went the usual way, each game's rules alone (which
    # the odd warning, added to the chunk's problems only, does not reach)
    assert not any(isinstance(r, ReportLine) for r in written)
    alone = [score_inputs([raw])[0] for raw in raws]
    assert [msgspec.json.encode(r) for r in written] == [msgspec.json.encode(r) for r in alone]


def test_report_lines_refuses_numbers_of_another_shape() -> None:
    with pytest.raises(ValueError, match="cities x 15"):
        report_lines(b"{", [], np.zeros((1, 3), dtype=np.int64), [], [])


def test_validate_writes_the_same_lines_either_way(tmp_path: Any) -> None:
    import io

    from bench.conftest import transcribed_games
    from neweden.runners.batch import validate

    source = tmp_path / "games.jsonl"
    source.write_bytes(b"\n".join(transcribed_games(200, seed=7)) + b"\n")
    outs, shown = [], []
    for csv in (False, True):  # --csv: each report made whole (its rows); otherwise written
        out, stdout = tmp_path / f"out-{csv}.jsonl", io.StringIO()
        csv_path = str(tmp_path / "t.csv") if csv else None
        validate([str(source)], out=str(out), csv_path=csv_path, jobs=1, stdout=stdout)
        outs.append(out.read_bytes())
        said = stdout.getvalue().splitlines()
        summary = said[-1]  # (its timing differs: the counts after it are compared)
        shown.append([*said[:-1], summary[summary.index("most frequent errors") :]])
    assert outs[0] == outs[1]
    assert outs[0].count(b"\n") == 200
    assert shown[0] == shown[1]  # the summary's warnings too, from the writer's codes
    assert "most frequent warnings: rotated_without_epiphany" in shown[0][-1]
    assert sum(": INVALID " in line for line in shown[0]) > 20  # the first error named


def test_rotated_cards_warnings_are_written_from_their_numbers(small_chunks: None) -> None:
    from bench.conftest import transcribed_games

    raws = transcribed_games(40, seed=8)
    rotated = [r for r, _made in _lines_and_reports(raws) if isinstance(r, ReportLine)]
    assert any(b"rotated_without_epiphany" in r.json for r in rotated)  # some to write
    assert _same(raws) == len(rotated)
    with speaking("pt-BR"):
        assert _same(raws) == len(rotated)
    # a language whose sentence the writer cannot fill: the warnings made as Problems
    with mock.patch.object(report, "rotated_form", return_value=None):
        assert _same(raws) == len(rotated)
    # no geometry forms (the writer is not handed the cards): Python finds the rotated
    # cards to warn of, the writer writes them
    with mock.patch.object(report, "geometry_forms", return_value=None):
        assert _same(raws) == len(rotated)


def test_a_form_gives_its_pieces_around_its_fields() -> None:
    from neweden.i18n import Form

    assert Form("a %s b %% c %%s d %s e %%%s", None).pieces() == ("a ", " b % c %s d ", " e %", "")
    assert Form("%s", None).pieces() == ("", "")
    assert Form("no field, 100%%", None).pieces() == ("no field, 100%",)


@pytest.mark.parametrize(
    "entry", [Entry('a"b\\c.jsonl', 3, b""), Entry("x", None, b""), Entry("é/ü", 10**20, b"")]
)
def test_an_out_line_starts_with_the_json_of_its_source(entry: Entry) -> None:
    line = results._sourced(entry, b'{"k":1}')
    assert msgspec.json.decode(line) == {"source": entry.source(), "k": 1}
    assert line.startswith(b'{"source":' + msgspec.json.encode(entry.source()) + b",")


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_http_batch_answer_is_the_same_with_the_lines_written(lang: str) -> None:
    """`/v1/score/batch` puts the written lines in its answer as they are (msgspec.Raw):
    the same bytes as its reports encoded, unreadable entries and their caps included."""
    pytest.importorskip("starlette", reason="the serve extra")
    from bench.conftest import transcribed_games
    from neweden.http import service

    games = [*transcribed_games(60, seed=12), b'{"mode": 3}', b"[1, 2"]
    body = b'{"games": [' + b",".join(g if g.startswith(b"{") else b'"x"' for g in games) + b"]}"
    usual = service.scored

    def reports_only(*args: Any, lines: bool = False) -> list[Any]:
        return usual(*args, lines=False)

    with speaking(lang):
        with mock.patch.object(service, "scored", wraps=usual) as spy:
            written = service._answer_batch(body, BUILTIN).body
        assert spy.call_args.kwargs == {"lines": True}  # the path named is the path run
        with mock.patch.object(service, "scored", reports_only):
            made = service._answer_batch(body, BUILTIN).body
    assert written == made
    answer = msgspec.json.decode(written)["results"]
    assert len(answer) == len(games)
    assert (
        sum(
            isinstance(r, ReportLine)
            for r in usual(games, [None] * len(games), BUILTIN, False, lines=True)
        )
        > 40
    )


def _illegal_cities() -> list[bytes]:
    """Games whose illegal cities show every way `overlap` and `disconnected` are told: each
    reason a part stays apart (both icons but nothing shared, only the other card's icon,
    only its own, neither, no contact at all), parts of one card and of two, an overlap,
    read lean (large enough) and over a chunk."""
    from tests.games import card, game, line, player

    apart = [
        [card(1, 0, "t", style="ex_x", type="ex_y")],  # both icons, nothing shared
        [card(1, 0, "l")],  # only the other card's icon
        [card(0, 4, "l")],  # only its own
        [card(1, 1, "r")],  # neither
        [card(7, 7, "r"), card(7, 8, "l")],  # no contact (a part of two cards)
    ]
    raws = []
    for k, extra in enumerate(apart):
        city = [*line(4), *extra]
        city[0]["card"]["sides"] = ["right", "bottom"]  # (0,0) offers a bottom icon
        if k == 3:
            city.append({**city[1]})  # an overlap too
        other = player("Bia", line(6, row=2))
        raws.append(msgspec.json.encode(game("military", player("Ana", city), other)))
    return raws


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_illegal_cities_problems_are_written_from_their_figures(
    lang: str, small_chunks: None
) -> None:
    raws = _illegal_cities()
    assert all(len(raw) >= report.LEAN_FROM_BYTES for raw in raws)  # read lean, in a chunk
    with speaking(lang):
        assert _same(raws) == len(raws)  # all written natively, the same bytes
        lines = score_inputs(raws, lines=True)
        made = score_inputs(raws)
    said = b"".join(r.json for r in lines if isinstance(r, ReportLine))
    assert said.count(b'"code":"disconnected"') == 5
    assert said.count(b'"code":"overlap"') == 1
    for line, report_made in zip(lines, made, strict=True):
        assert isinstance(line, ReportLine)
        assert isinstance(report_made, report.Report)
        first = results._first_error(report_made)
        assert first is not None
        assert line.first_error is not None
        assert (line.first_error.code, line.first_error.path) == (first.code, first.path)


def test_every_reason_a_part_is_apart_is_written(small_chunks: None) -> None:
    raws = _illegal_cities()
    said = b"".join(r.json for r in score_inputs(raws, lines=True) if isinstance(r, ReportLine))
    for reason in (
        b"but the two share neither style nor type",
        b"but card 4 has no icon on that side (a wall)",
        b"card 4 at row 0, column 4: its left side meets card 3 at row 0, column 3",
        b"whose right side has no icon (a wall)",
        b"and neither has an icon there",
        b"no card of it touches another card of the city",
        b'"message":"1 card(s) at',
        b'"message":"2 card(s) at',
    ):
        assert reason in said


def test_illegal_cities_told_in_python_where_the_forms_cannot_be_filled(
    small_chunks: None,
) -> None:
    """A language whose geometry sentences the writer cannot fill (geometry_forms None):
    the problems are made as Problems, the lines the same."""
    raws = _illegal_cities()
    with mock.patch.object(report, "geometry_forms", return_value=None):
        assert _same(raws) == len(raws)


def test_report_lines_refuses_a_table_of_other_ints() -> None:
    from neweden.rules.legality import geometry_forms

    forms = geometry_forms()
    assert forms is not None
    numbers = np.zeros((1, len(chunk.LINE_NUMBERS)), dtype=np.int64)
    wide = np.zeros(9, dtype=np.int64)
    with pytest.raises(ValueError, match="int32"):
        report_lines(b"{", [], numbers, [], [], None, (forms, wide, report.ErrorAt, [0], []))


def test_games_sharing_an_unknown_requirement_each_tell_it(small_chunks: None) -> None:
    """A batch looks each requirement list up once (resolve_extras' memo): every game that
    plays it still tells its unknown id, in its own report, as it would alone."""
    from tests.games import game, line, player

    raws = [
        msgspec.json.encode(
            game(
                "populist",
                player(f"P{k}", line(6 + k % 3)),
                player("Q", line(5)),
                requirements=["A1", "B9", "C1"] if k % 2 else ["A1", "B1", "C1"],
            )
        )
        for k in range(8)
    ]
    raws = [raw + b" " * max(0, report.LEAN_FROM_BYTES - len(raw)) for raw in raws]  # lean
    assert _same(raws) == len(raws)
    alone = [score_inputs([raw])[0] for raw in raws]
    written = score_inputs(raws, lines=True)
    for k, (line_k, made) in enumerate(zip(written, alone, strict=True)):
        assert isinstance(line_k, ReportLine)
        assert line_k.json == msgspec.json.encode(made)
        assert (b'"code":"unknown_requirement"' in line_k.json) == bool(k % 2)


def test_a_lines_result_is_the_result_its_fields_make() -> None:
    """_line_result makes its Result with tuple.__new__, every field given: the same
    Result as the class makes of the same fields, its defaults after `readable`."""
    assert len(results._LINE_RESULT_REST) == len(results.Result._fields) - 7
    entry = Entry("a.jsonl", 7, b"")
    players = report.LinePlayers([], [])
    line = ReportLine(b'{"valid":true}', True, (), None, players, 0, 1, ("game_not_ended",))
    for lines in (results.Lines(shown=False), results.Lines(shown=True)):
        made = results._line_result(entry, line, lines)
        assert made == results.Result(
            b'{"source":{"path":"a.jsonl","line":7},"valid":true}',
            lines.short(entry, line),
            True,
            (),
            ("game_not_ended",),
            (),
            True,
        )


@pytest.mark.parametrize(
    "city",
    [
        (0, 2049638230412172401, (None, (0,), (0,), 1, 0)),  # its rows' index would wrap
        (0, 2, (None, (0,), (0,), 1, 0)),  # a card past the table
        (0, -1, (None, (0,), (0,), 1, 0)),
        (0, 0, (None, (-1, 0), (0,), 1, 0)),  # figures of another city
    ],
)
def test_an_illegal_city_the_table_does_not_hold_is_left_to_python(city: Any) -> None:
    """The writer reads an illegal city's cards from the table only where the table holds
    them: anything else leaves the game to the usual way (None), nothing read beside it."""
    from array import array

    from neweden.rules.legality import geometry_forms

    forms = geometry_forms()
    assert forms is not None
    numbers = np.zeros((1, len(chunk.LINE_NUMBERS)), dtype=np.int64)
    flat = array("i", [5] * 18)  # two cards
    geometry = (forms, flat, report.ErrorAt, [0, 2], [False])
    game: tuple[Any, ...] = (
        "military",
        None,
        False,
        True,
        0,
        1,
        [],
        [],
        [],
        [city],
        None,
        "default",
    )
    (line,), _codes, _firsts, _warned = report_lines(
        b"{", [game], numbers, ["A"], [None], None, geometry
    )
    assert line is None


@pytest.mark.parametrize("turned", [[(0, 2)], [(0, 2**62)], [(1, 0)], [(0, -1)]])
def test_a_rotated_card_the_city_does_not_hold_is_left_to_python(turned: Any) -> None:
    from array import array

    from neweden.rules.legality import geometry_forms
    from neweden.rules.warnings import rotated_form

    forms, rotated = geometry_forms(), rotated_form()
    assert forms is not None
    assert rotated is not None
    numbers = np.zeros((1, len(chunk.LINE_NUMBERS)), dtype=np.int64)
    geometry = (forms, array("i", [5] * 18), report.ErrorAt, [0, 2], [False])
    game: tuple[Any, ...] = (
        "military",
        None,
        False,
        True,
        0,
        1,
        [],
        [],
        [],
        None,
        turned,
        "default",
    )
    (line,), _codes, _firsts, _warned = report_lines(
        b"{", [game], numbers, ["A"], [None], rotated, geometry
    )
    assert line is None
    ok: tuple[Any, ...] = (*game[:10], [(0, 1)], "default")  # the city's second card: written
    (line,), _codes, _firsts, _warned = report_lines(
        b"{", [ok], numbers, ["A"], [None], rotated, geometry
    )
    assert line is not None
    assert b'"path":"/players/0/city/1/rotated"' in line


def test_report_lines_refuses_a_table_read_with_gaps() -> None:
    from array import array

    from neweden.rules.legality import geometry_forms

    forms = geometry_forms()
    assert forms is not None
    numbers = np.zeros((1, len(chunk.LINE_NUMBERS)), dtype=np.int64)
    every_other = memoryview(array("i", [5] * 36))[::2]
    with pytest.raises(ValueError, match="one after the other"):
        report_lines(b"{", [], numbers, [], [], None, (forms, every_other, report.ErrorAt, [0], []))


def test_a_small_game_of_a_chunked_batch_is_read_lean_into_the_exact_report() -> None:
    """A document under LEAN_FROM_BYTES (a game of a card or two) is decoded the exact way
    when scored alone, but in a batch scored as chunks it is read lean, its line written
    natively: the same bytes as its exact report alone."""
    rng = random.Random(5)
    raws = [
        msgspec.json.encode(
            {
                "mode": "military",
                "players": [
                    {"name": f"P{p}", "city": city_json(grow_city(rng, rng.randint(0, 2)))}
                    for p in range(rng.randint(1, 2))
                ],
            }
        )
        for _ in range(report.CHUNK_FROM + 4)
    ]
    assert all(len(raw) < report.LEAN_FROM_BYTES for raw in raws)
    written = score_inputs(raws, lines=True)
    assert all(isinstance(line, ReportLine) for line in written)
    for raw, line in zip(raws, written, strict=True):
        exact = report.score_reports([decode_game(raw)])[0]
        assert line.json == msgspec.json.encode(exact)  # type: ignore[union-attr]
    alone = score_inputs(raws[:1], lines=True)[0]  # a batch of one: the exact way
    assert not isinstance(alone, ReportLine)
