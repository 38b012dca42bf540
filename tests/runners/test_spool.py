"""Validate's worker processes put each chunk's --out lines in a file of the run's spool,
which the parent copies to --out with the kernel (`runners.workers._spooled`,
`OutputFile.append`): the same bytes as lines sent back through the pipe, nothing left
behind, nothing lost when the spool cannot be written."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from neweden.runners import batch, workers
from neweden.runners.outputs import OutputFile, WriteError
from tests.games import card, game, line, player


def _games(path: Path, count: int) -> Path:
    """A .jsonl of `count` games, every fifth one illegal, large enough to be read in
    several blocks."""
    import json

    docs = []
    for i in range(count):
        city = [*line(3 + i % 5), card(0, 0)] if i % 5 == 0 else line(2 + i % 7)
        docs.append(json.dumps(game("military", player(f"A{i}", city), player("B", line(2)))))
    path.write_text("\n".join(docs) + "\n")
    return path


def _validate(source: Path, out: Path, jobs: int, **options: Any) -> tuple[int, bytes]:
    code = batch.validate(
        [str(source)],
        out=str(out),
        jobs=jobs,
        quiet=True,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        **options,
    )
    return code, out.read_bytes()


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "BLOCK_BYTES", 4096)  # many chunks, each its own task


@pytest.fixture
def spools(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The spool folders the runs make (the parent's calls of _spool)."""
    made: list[str] = []
    real = batch._spool

    def spool(*args: Any) -> str | None:
        found = real(*args)
        if found is not None:
            made.append(found)
        return found

    monkeypatch.setattr(batch, "_spool", spool)
    return made


def test_spooled_lines_are_the_bytes_sent_through_the_pipe(
    tmp_path: Path, small_blocks: None, spools: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _games(tmp_path / "games.jsonl", 300)
    one = _validate(source, tmp_path / "one.jsonl", jobs=1)  # one process: no spool
    appended: list[int] = []
    real = OutputFile.append

    def append(self: OutputFile, path: str, size: int) -> None:
        appended.append(size)
        real(self, path, size)

    monkeypatch.setattr(OutputFile, "append", append)
    two = _validate(source, tmp_path / "two.jsonl", jobs=2)
    assert two == one
    assert one[1].count(b"\n") == 300
    assert len(appended) > 5  # every chunk's lines came through the spool
    assert sum(appended) == len(two[1])
    assert len(spools) == 1
    assert not os.path.exists(spools[0])  # removed, with whatever it held


def test_no_spool_for_an_out_that_is_not_a_regular_file(
    tmp_path: Path, small_blocks: None, spools: list[str]
) -> None:
    source = _games(tmp_path / "games.jsonl", 40)
    fifo_like = tmp_path / "null"
    os.symlink(os.devnull, fifo_like)  # written in place: no temporary file beside it
    batch.validate(
        [str(source)],
        out=str(fifo_like),
        jobs=2,
        quiet=True,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert spools == []


def test_a_spool_that_cannot_be_written_loses_nothing(
    tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every chunk's file refused (a folder that is gone: a full disk would do the same):
    the lines come back through the pipe, the same bytes."""
    source = _games(tmp_path / "games.jsonl", 120)
    gone = str(tmp_path / "gone")
    monkeypatch.setattr(batch, "_spool", lambda *args: gone)
    assert _validate(source, tmp_path / "two.jsonl", jobs=2) == _validate(
        source, tmp_path / "one.jsonl", jobs=1
    )


def test_append_copies_a_file_after_what_is_written_and_removes_it(tmp_path: Path) -> None:
    spooled = tmp_path / "chunk"
    spooled.write_bytes(b"second\nthird\n" + b"not this")
    out = OutputFile(str(tmp_path / "out.jsonl"))
    out.write(b"first\n")  # buffered: it goes before the copy
    out.append(str(spooled), len(b"second\nthird\n"))
    out.write(b"fourth\n")
    out.commit()
    assert (tmp_path / "out.jsonl").read_bytes() == b"first\nsecond\nthird\nfourth\n"
    assert not spooled.exists()


def test_append_of_a_file_cut_short_or_gone_is_a_write_error(tmp_path: Path) -> None:
    spooled = tmp_path / "chunk"
    spooled.write_bytes(b"short")
    out = OutputFile(str(tmp_path / "out.jsonl"))
    with pytest.raises(WriteError, match=r"chunk: Input/output error"):
        out.append(str(spooled), 100)  # fewer bytes than its worker wrote
    with pytest.raises(WriteError, match=r"chunk: No such file"):
        out.append(str(spooled), 5)  # removed after the first try
    out.discard()


def test_append_copies_the_usual_way_where_sendfile_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    def no_sendfile(*args: Any) -> int:
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))

    monkeypatch.setattr(os, "sendfile", no_sendfile)
    spooled = tmp_path / "chunk"
    spooled.write_bytes(b"x" * (3 << 20) + b"not this")  # several pieces of 1 MiB
    out = OutputFile(str(tmp_path / "out.jsonl"))
    out.write(b"first\n")
    out.append(str(spooled), 3 << 20)
    out.commit()
    assert (tmp_path / "out.jsonl").read_bytes() == b"first\n" + b"x" * (3 << 20)


def test_a_spool_name_taken_is_not_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk whose spool name is another's file (a pid used again in one run) comes back
    the usual way; the other file stays, for its own chunk."""
    import itertools

    taken = tmp_path / f"{os.getpid()}-5"
    taken.write_bytes(b"another chunk's lines\n")
    monkeypatch.setattr(workers, "_SPOOLED", itertools.count(5))
    chunk = workers.Chunk(1, 1, b"mine\n", "", [], [], [], [])
    assert workers._spooled(chunk, str(tmp_path)) is chunk
    assert taken.read_bytes() == b"another chunk's lines\n"
