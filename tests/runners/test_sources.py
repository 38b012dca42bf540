"""Reading sources in blocks (worker processes read big .jsonl files themselves) gives
exactly the entries of reading them whole: the same games, lines and problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.runners import sources
from neweden.runners.sources import Block, Entry, iter_entries, iter_sources


def _expanded(items: list[Entry | Block]) -> list[Entry]:
    return [e for item in items for e in (item.entries() if isinstance(item, Block) else [item])]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 40)  # long lines within a few blocks
    lines = [
        b'\xef\xbb\xbf{"a": 1}',  # a byte-order mark on the first line
        b"",  # blank: skipped, counted
        b'{"b": 2}\r',
        b'{"truncated": ',
        b"x" * 100,  # over the (patched) limit: too_large
        b"   ",
        b'{"c": 3}',
        b'{"d": "' + b"y" * 30 + b'"}',
    ]
    (tmp_path / "games.jsonl").write_bytes(b"\n".join(lines) + b"\n" + b'{"last": 1}')
    (tmp_path / "one.json").write_bytes(b'{"e": 5}')
    return tmp_path


@pytest.mark.parametrize("blocksize", [1, 2, 3, 7, 8, 9, 10, 16, 33, 64, 1000])
def test_blocks_give_the_entries_of_the_whole_file(folder: Path, blocksize: int) -> None:
    paths = [str(folder), str(folder / "games.jsonl"), str(folder / "missing.jsonl")]
    whole = list(iter_entries(paths))
    items = list(iter_sources(paths, blocksize))
    assert _expanded(items) == whole
    size = (folder / "games.jsonl").stat().st_size
    if blocksize < size:
        assert any(isinstance(item, Block) for item in items)
    assert [e.line for e in whole[:7]] == [1, 3, 4, 5, 7, 8, 9]
    assert whole[3].problem is not None
    assert whole[3].problem.code == "too_large"


def test_a_block_of_a_file_gone_meanwhile_is_a_problem(tmp_path: Path) -> None:
    (entry,) = Block(str(tmp_path / "gone.jsonl"), "gone.jsonl", 0, 10, 1).entries()
    assert entry.problem is not None
    assert entry.problem.code == "not_found"


_PIECES = [b'{"g": 1}', b"", b" ", b"\t", b"\x0b", b"\x0c", b"\r", b"\r\r", b"x" * 39, b"y" * 40]
_PIECES += [b"z" * 41, b"\xef\xbb\xbf", b'"\xc3\xa9"', b"\x00"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(_PIECES), max_size=3).map(b"".join), max_size=12),
    st.booleans(),
    st.integers(1, 120),
)
def test_a_block_read_at_once_gives_the_entries_read_line_by_line(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], last_newline: bool, size: int
) -> None:
    """Blank lines of every kind of whitespace, carriage returns, a byte-order mark, lines
    at, under and over the (patched) limit, the last line with or without its newline: a
    block read at once and split (sources._plain_block) or line by line (what it falls
    back to) gives the entries of the whole file read line by line."""
    path = tmp_path_factory.mktemp("blocks") / "games.jsonl"
    path.write_bytes(b"\n".join(lines) + (b"\n" if last_newline and lines else b""))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sources, "MAX_LINE_BYTES", 40)
        whole = list(iter_entries([str(path)]))
        assert _expanded(list(iter_sources([str(path)], size))) == whole


def test_a_plain_block_is_read_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The usual block (games, blank lines, CRLF) takes the quick read, not the fallback."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(b'{"a": 1}\r\n\n  \n{"b": 2}\n' * 20)
    called: list[bool] = []
    quick = sources._plain_block

    def spy(*args: object) -> object:
        found = quick(*args)  # type: ignore[arg-type]
        called.append(found is not None)
        return found

    monkeypatch.setattr(sources, "_plain_block", spy)
    blocks = list(iter_sources([str(path)], 64))
    assert _expanded(blocks) == list(iter_entries([str(path)]))
    assert called
    assert all(called)


def test_a_first_line_with_a_byte_order_mark_near_the_limit_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The byte-order mark does not count in the line's limit (FORMAT §1): a first line at
    the (patched) limit after its mark is one entry, and the lines after keep their numbers
    (the mark's bytes once made the first read stop short of the newline)."""
    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 40)
    path = tmp_path / "games.jsonl"
    for size in (38, 39, 40):
        path.write_bytes(b"\xef\xbb\xbf" + b"a" * size + b'\n{"b": 2}\n')
        entries = list(iter_entries([str(path)]))
        assert [(e.line, e.data) for e in entries] == [(1, b"a" * size), (2, b'{"b": 2}')]
    path.write_bytes(b"\xef\xbb\xbf" + b"a" * 41 + b'\n{"b": 2}\n')  # over: too_large
    over, after = list(iter_entries([str(path)]))
    assert over.problem is not None
    assert over.problem.code == "too_large"
    assert (after.line, after.data) == (2, b'{"b": 2}')


class _Counting:
    """A file handle that counts the bytes read through it."""

    read_so_far = 0

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def __enter__(self) -> _Counting:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()

    def _counted(self, data: bytes) -> bytes:
        _Counting.read_so_far += len(data)
        return data

    def read(self, size: int = -1) -> bytes:
        return self._counted(self.handle.read(size))

    def readline(self, size: int = -1) -> bytes:
        return self._counted(self.handle.readline(size))

    def seek(self, offset: int, whence: int = 0) -> int:
        return int(self.handle.seek(offset, whence))

    def tell(self) -> int:
        return int(self.handle.tell())


def _counted(opened: tuple[Any, int]) -> tuple[_Counting, int]:
    return _Counting(opened[0]), opened[1]


def test_a_long_line_read_by_blocks_is_read_once_not_once_a_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35, finding 2: with worker processes a `.jsonl` is read in blocks, and every
    block that started inside a long line read on to its end: a line of n blocks cost n²/2
    blocks read (512 MiB, 57 s with 2 jobs against 0.7 s with 1). Now a block starts at its
    first line, and a stretch of a line with no line start in it is no block: the blocks'
    readers read the file about once, and give the entries of the file read whole."""
    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "long.jsonl"
    line = b'{"meta": "' + b"x" * 200_000 + b'"}'
    path.write_bytes(b'{"a": 1}\n' * 50 + line + b"\n" + b'{"b": 2}\n' * 50 + line)
    blocks = list(iter_sources([str(path)], 1000))
    assert all(isinstance(block, Block) for block in blocks)
    assert len(blocks) < 10  # the blocks of the lines around the long ones, and theirs
    real = sources.open_regular
    monkeypatch.setattr(sources, "open_regular", lambda path: _counted(real(path)))
    found = _expanded(blocks)
    assert _Counting.read_so_far < 2 * path.stat().st_size
    assert found == list(iter_entries([str(path)]))
    assert [e.line for e in found if e.problem] == [51, 102]
    assert [e.problem.code for e in found if e.problem] == ["too_large", "too_large"]


@pytest.mark.parametrize("blocksize", [1, 2, 5, 9, 10, 11, 40])
def test_every_block_starts_at_a_line_and_numbers_it(tmp_path: Path, blocksize: int) -> None:
    """A block's start is the start of a line (the file's first byte or a byte after a
    newline) and its first line is that line's number."""
    data = b"ab\n\ncdefghijklmnop\nq\n\n\nrstuvwxyz0123456789\nend"
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    blocks = [b for b in iter_sources([str(path)], blocksize) if isinstance(b, Block)]
    assert blocks
    for block in blocks:
        assert block.start == 0 or data[block.start - 1 : block.start] == b"\n"
        assert block.first_line == data[: block.start].count(b"\n") + 1
    starts = {0} | {i + 1 for i, byte in enumerate(data) if byte == ord("\n")}
    assert {b.start for b in blocks} <= starts
    assert _expanded(list(iter_sources([str(path)], blocksize))) == list(iter_entries([str(path)]))
