"""The reports of a batch scored as chunks: each game's report the bytes it gets alone, the
--out line the JSON of its source then the report's own keys."""

from __future__ import annotations

import random
from collections.abc import Iterator
from unittest import mock

import msgspec
import pytest

from neweden.catalog.catalog import BUILTIN
from neweden.format.decode import decode_game
from neweden.format.problems import Problem
from neweden.geometry.synth import city_json, grow_city
from neweden.runners import results
from neweden.runners.sources import Entry
from neweden.scoring import chunk, report
from neweden.scoring.report import score_inputs
from neweden.scoring.types import ProblemItem, Unreadable
from tests.games import game, line, player

SMALL_CHUNKS = 4


@pytest.fixture
def small_chunks() -> Iterator[None]:
    with mock.patch.object(chunk, "CHUNK_FROM", SMALL_CHUNKS):
        yield


@pytest.mark.parametrize(
    "entry", [Entry('a"b\\c.jsonl', 3, b""), Entry("x", None, b""), Entry("é/ü", 10**20, b"")]
)
def test_an_out_line_starts_with_the_json_of_its_source(entry: Entry) -> None:
    line = results.sourced_line(entry, Unreadable(False, []))
    assert msgspec.json.decode(line) == {"source": entry.source(), "valid": False, "errors": []}
    assert line.startswith(b'{"source":' + msgspec.json.encode(entry.source()) + b",")


def test_out_lines_made_one_after_another_keep_nothing_of_the_one_before() -> None:
    """A short line after a long one, and a source of 70,000 characters, are each their own
    line exactly."""
    long_report = Unreadable(False, [ProblemItem("bad_json", "x" * 5000, "/a", [[1, 2]])])
    short_report = Unreadable(False, [])
    sources = [Entry("a.jsonl", 1, b""), Entry("p" * 70_000, 2, b""), Entry("b", None, b"")]
    for entry in sources:
        for one in (long_report, short_report, long_report):
            line = results.sourced_line(entry, one)
            assert msgspec.json.decode(line) == {
                "source": entry.source(),
                **msgspec.to_builtins(one),
            }


def test_out_lines_made_by_threads_at_once_are_each_their_own() -> None:
    """Threads (Dask's, a server's) make --out lines at the same time: no line carries bytes
    of another's, however often the threads switch."""
    import sys
    import threading

    def lines_of(k: int) -> list[tuple[bytes, dict[str, object]]]:
        made = []
        for i in range(150):
            one = Unreadable(False, [ProblemItem("bad_json", f"{k}" * (i * 37 % 900), "/", [])])
            entry = Entry(f"t{k}.jsonl", i, b"")
            made.append(
                (
                    results.sourced_line(entry, one),
                    {"source": entry.source(), **msgspec.to_builtins(one)},
                )
            )
        return made

    found: dict[int, list[tuple[bytes, dict[str, object]]]] = {}
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [
            threading.Thread(target=lambda k=k: found.__setitem__(k, lines_of(k))) for k in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert sorted(found) == list(range(8))
    for made in found.values():
        for out_line, expected in made:
            assert msgspec.json.decode(out_line) == expected


@pytest.mark.parametrize("detail", [False, True])
def test_a_chunks_out_lines_are_each_entrys_line_ended(detail: bool) -> None:
    """out_lines encodes a chunk's lines in one call: each is the entry's own line (its
    source, then its report's keys in the report's order, `audit` only when detailed), ended
    by a newline, and a newline inside a message stays escaped within its line."""
    made = [grow_city(random.Random(seed), 6) for seed in range(3)]
    taken = city_json(made[2])
    documents = [
        game("elitist", player("A", city_json(made[0])), player("B", city_json(made[1]))),
        game("military", player("C", [*taken, dict(taken[0])])),  # an overlap: invalid
    ]
    found = results.scored([*documents, None], [None, None, _problem()], BUILTIN, detail)
    entries = [Entry("a.jsonl", 1, b""), Entry("b\n.jsonl", None, b""), Entry("c", 7, b"")]
    joined = results.out_lines(entries, found)
    # each line as the source's JSON spliced onto the report's own encoding, made apart
    spliced = [
        b'{"source":' + msgspec.json.encode(e.source()) + b"," + msgspec.json.encode(r)[1:]
        for e, r in zip(entries, found, strict=True)
    ]
    assert joined == b"".join(line + b"\n" for line in spliced)
    assert [results.sourced_line(e, r) for e, r in zip(entries, found, strict=True)] == spliced
    lines = joined.split(b"\n")
    assert len(lines) == 4
    assert lines[-1] == b""
    for entry, one, text in zip(entries, found, lines, strict=False):
        decoded = msgspec.json.decode(text)
        assert list(decoded) == ["source", *msgspec.to_builtins(one)]
        assert decoded == {"source": entry.source(), **msgspec.to_builtins(one)}
    assert found[0].valid
    assert not found[1].valid
    assert ("audit" in lines[0].decode()) == detail
    assert results.out_lines([], []) == b""


def _problem() -> Problem:
    """An entry's decode problem whose message holds a newline."""
    return Problem(code="bad_json", message="line one\nline two", path="")


def test_an_entrys_result_has_each_field_where_its_name_says() -> None:
    """_result makes a Result as tuple.__new__ does, every field given by place: each lands
    under its own name, with the defaults a Result made by name has."""
    entry = Entry("a.jsonl", 4, b"{}")
    report = Unreadable(False, [ProblemItem("bad_json", "m", "", [])])
    made = results._result(entry, report, short=True, rows=False)
    expected = results.Result(
        results.sourced_line(entry, report),
        made.short,
        False,
        ("bad_json",),
        (),
        (),
        readable=False,
    )
    assert made == expected
    assert made._asdict() == expected._asdict()
    assert made.short.startswith("a.jsonl:4: ")


def test_scored_refuses_games_and_errors_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="2 games and 1 errors"):
        results.scored([b"{}", b"{}"], [None], BUILTIN, False)


def test_games_sharing_an_unknown_requirement_each_tell_it(small_chunks: None) -> None:
    """A batch looks each requirement list up once (resolve_extras' memo): every game that
    plays it still tells its unknown id, in its own report, as it would alone."""
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
    alone = [score_inputs([raw])[0] for raw in raws]
    together = score_inputs(raws)
    for k, (made, one) in enumerate(zip(together, alone, strict=True)):
        assert msgspec.json.encode(made) == msgspec.json.encode(one)
        assert (b'"code":"unknown_requirement"' in msgspec.json.encode(made)) == bool(k % 2)


def test_a_small_game_of_a_chunked_batch_is_read_lean_into_the_exact_report() -> None:
    """A document under LEAN_FROM_BYTES (a game of a card or two) is decoded the exact way
    when scored alone, but in a batch scored as chunks it is read lean: the same bytes as
    its exact report alone."""
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
        for _ in range(chunk.CHUNK_FROM + 4)
    ]
    assert all(len(raw) < report.LEAN_FROM_BYTES for raw in raws)
    together = score_inputs(raws)
    for raw, made in zip(raws, together, strict=True):
        exact = report.score_reports([decode_game(raw)])[0]
        assert msgspec.json.encode(made) == msgspec.json.encode(exact)


class _Tagged(msgspec.Struct, tag=True):
    x: int


class _Made(msgspec.Struct):
    x: list[int] = msgspec.field(default_factory=list)


@pytest.mark.parametrize("kind", [_Tagged, _Made])
def test_a_report_struct_whose_line_the_source_struct_cannot_copy_is_refused(
    kind: type[msgspec.Struct],
) -> None:
    """A tag or a default factory would be lost in the --out line's struct: refused."""
    with pytest.raises(TypeError, match="a --out line copies no"):
        results._with_source(kind)
