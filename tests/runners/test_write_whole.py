"""--svg's pictures are written by `runners.outputs.write_whole`: each whole or not at all (a
hidden temporary file renamed over the picture), the short way for a plain file or a new one,
as any output (`OutputFile`) for a name that is there and is not a plain file."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from neweden.runners import outputs
from neweden.runners.outputs import OutputFile, WriteError, write_whole


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


class _Pictures:
    """A folder's pictures written by write_whole, as run_outputs writes them."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def write(self, name: str, data: bytes) -> None:
        write_whole(os.path.join(self.folder, name), data)


def test_a_picture_is_written_whole_and_replaces_the_one_before(tmp_path: Path) -> None:
    pictures = _Pictures(str(tmp_path))
    pictures.write("a.svg", b"<svg>first</svg>")
    pictures.write("b.svg", "<svg>é</svg>".encode())
    pictures.write("a.svg", b"<svg>second</svg>")
    assert (tmp_path / "a.svg").read_bytes() == b"<svg>second</svg>"
    assert (tmp_path / "b.svg").read_text(encoding="utf-8") == "<svg>é</svg>"
    assert _left(tmp_path) == ["a.svg", "b.svg"]  # no temporary file left
    mode = stat.S_IMODE((tmp_path / "a.svg").stat().st_mode)
    output = OutputFile(str(tmp_path / "c.svg"))
    output.commit()
    assert mode == stat.S_IMODE((tmp_path / "c.svg").stat().st_mode)  # as any output's


def test_a_picture_whose_name_is_a_link_is_written_through_it(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.svg"
    target.write_bytes(b"old")
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "a.svg").symlink_to(target)
    _Pictures(str(folder)).write("a.svg", b"<svg>new</svg>")
    assert (folder / "a.svg").is_symlink()  # the link stays a link, as with any output
    assert target.read_bytes() == b"<svg>new</svg>"
    assert _left(folder) == ["a.svg"]


def test_a_picture_that_cannot_be_written_is_a_write_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.svg").write_bytes(b"<svg>kept</svg>")

    def full(handle: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(WriteError, match=r"a\.svg: No space left on device"):
        _Pictures(str(tmp_path)).write("a.svg", b"<svg>new</svg>")
    monkeypatch.undo()
    assert (tmp_path / "a.svg").read_bytes() == b"<svg>kept</svg>"  # the one before stays
    assert _left(tmp_path) == ["a.svg"]


def test_a_picture_written_in_pieces_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write

    def few_bytes(handle: int, data: Any) -> int:  # a write that takes only part of it
        return real_write(handle, bytes(data[:7]))

    monkeypatch.setattr(os, "write", few_bytes)
    _Pictures(str(tmp_path)).write("a.svg", b"<svg>" + b"x" * 100 + b"</svg>")
    monkeypatch.undo()
    assert (tmp_path / "a.svg").read_bytes() == b"<svg>" + b"x" * 100 + b"</svg>"


def test_a_folder_gone_is_a_write_error_naming_the_picture(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match=r"gone/a\.svg: No such file"):
        _Pictures(str(tmp_path / "gone")).write("a.svg", b"<svg/>")


def test_a_temporary_name_taken_is_written_another_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pictures = _Pictures(str(tmp_path))
    taken = tmp_path / ".a.svg.0badcafe.part"
    taken.write_bytes(b"someone else's")
    tokens = iter(["0badcafe", "0fadedbe"])
    monkeypatch.setattr(outputs.secrets, "token_hex", lambda size: next(tokens))
    written: list[str] = []

    class Watched(OutputFile):
        def __init__(self, path: str) -> None:
            written.append(path)
            super().__init__(path)

    monkeypatch.setattr(outputs, "OutputFile", Watched)
    pictures.write("a.svg", b"<svg/>")
    assert written == [str(tmp_path / "a.svg")]
    assert (tmp_path / "a.svg").read_bytes() == b"<svg/>"
    assert taken.read_bytes() == b"someone else's"  # not removed


@pytest.mark.parametrize("name", ["sub/a.svg", "é" * 115 + ".svg"])
def test_a_name_with_a_folder_or_too_long_for_its_temporary_name_is_written_as_before(
    tmp_path: Path, name: str
) -> None:
    # (not names validate gives: svg_name keeps 137 bytes of letters, digits and ._-)
    (tmp_path / "sub").mkdir()
    _Pictures(str(tmp_path)).write(name, b"<svg/>")
    assert (tmp_path / name).read_bytes() == b"<svg/>"


def test_a_name_that_is_a_folder_or_a_dangling_link_is_met_as_any_output_meets_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.svg").mkdir()
    pictures = _Pictures(str(tmp_path))
    with pytest.raises(WriteError, match=r"a\.svg: Is a directory"):
        pictures.write("a.svg", b"<svg/>")
    with pytest.raises(WriteError, match=r"a\.svg: Is a directory"):
        write_whole(str(tmp_path / "a.svg"), b"<svg/>")  # (as before)
    (tmp_path / "b.svg").symlink_to(tmp_path / "made.svg")  # a link to nothing yet
    pictures.write("b.svg", b"<svg/>")
    assert (tmp_path / "b.svg").is_symlink()
    assert (tmp_path / "made.svg").read_bytes() == b"<svg/>"
    assert _left(tmp_path) == ["a.svg", "b.svg", "made.svg"]
