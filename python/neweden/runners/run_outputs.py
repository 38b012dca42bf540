"""The files of a `neweden validate` run: --out, --csv and --parquet (written to temporary
files renamed into place at the end) and --svg pictures (each written whole), and the
refusal of an output that is also an input of the run."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from neweden.i18n import _
from neweden.present.index import batch_page, picture_data
from neweden.runners.outputs import OutputFile, Table, WriteError, write_whole
from neweden.runners.results import CSV_HEADER, TABLE_KINDS, GameLine
from neweden.runners.sources import Identity, identity
from neweden.runners.workers import Chunk

__all__ = ["OutputPaths", "RunOutputs", "open_outputs", "output_among_inputs"]


@dataclass(frozen=True)
class OutputPaths:
    """Where a run writes, as its options name it (None: not written)."""

    out: str | None = None
    csv_path: str | None = None
    parquet_dir: str | None = None
    svg_dir: str | None = None
    csv_sep: str = ","
    csv_bom: bool = False  # the CSV starts with a UTF-8 byte-order mark (Excel reads accents)
    csv_header: str = "ids"  # the CSV's header: the identifiers, or a language's names
    html: str | None = None  # the page of the batch (--html)

    @property
    def listed(self) -> bool:
        """Whether the run makes the page of the batch (--html, or --svg's index)."""
        return self.html is not None or self.svg_dir is not None

    def named(self) -> dict[str, str | None]:
        """The output files by option, in the order a refusal names them."""
        parquet_dir = self.parquet_dir
        parquet_file = os.path.join(parquet_dir, "part-00000.parquet") if parquet_dir else None
        return {
            "--out": self.out,
            "--csv": self.csv_path,
            "--parquet": parquet_file,
            "--html": self.html,
        }


class RunOutputs:
    """The files of a run: --out, --csv and --parquet (written to temporary files renamed
    into place at the end) and --svg pictures (each written whole)."""

    def __init__(self, paths: OutputPaths) -> None:
        self.out: OutputFile | None = None
        self.table: Table | None = None
        self.svg_dir = svg_dir = paths.svg_dir
        self.html = paths.html
        self.listed: list[GameLine] = []  # the page of the batch
        self.inline: dict[str, str] = {}  # without --svg, the pictures the page holds
        try:
            if svg_dir is not None:
                try:
                    os.makedirs(svg_dir, exist_ok=True)
                except OSError as exc:
                    raise WriteError(svg_dir, exc) from None
            self.out = OutputFile(paths.out) if paths.out else None
            self.table = Table(
                CSV_HEADER,
                paths.csv_path,
                paths.parquet_dir,
                TABLE_KINDS,
                sep=paths.csv_sep,
                bom=paths.csv_bom,
                names=paths.csv_header,
            )
        except BaseException:
            self.discard()
            raise

    @property
    def files(self) -> list[OutputFile]:
        return ([self.out] if self.out else []) + (self.table.outputs() if self.table else [])

    def identities(self) -> set[Identity]:
        """Every output file's identity (and that of the file it replaces): never read."""
        return {i for output in self.files for i in output.identities()}

    def write(self, chunk: Chunk) -> None:
        if self.out is not None:
            if chunk.spooled is not None:
                self.out.append(*chunk.spooled)
            else:
                self.out.write(chunk.lines)
        if self.table is not None:
            self.table.add(chunk.rows, chunk.metas, chunk.batch)
        for name, picture in chunk.pictures:
            if self.svg_dir is not None:
                write_whole(os.path.join(self.svg_dir, name), picture)
            elif len(self.inline) < MAX_INLINE_PICTURES:
                self.inline[name] = picture_data(picture)
        self.listed.extend(chunk.listed)

    def commit(self) -> None:
        """Every output renamed into place; if one fails, the rest are discarded."""
        try:
            if self.out is not None:
                self.out.commit()
            if self.table is not None:
                self.table.commit()
            if self.svg_dir is not None:
                files = {line.picture: line.picture for line in self.listed if line.picture}
                index = batch_page(self.listed, files, self.svg_dir)
                write_whole(os.path.join(self.svg_dir, "index.html"), index.encode())
            if self.html is not None:
                self._write_page(self.html)
        except WriteError:
            self.discard()
            raise

    def _write_page(self, path: str) -> None:
        """The page of --html: the pictures beside it in --svg's folder, else inside it."""
        where = os.path.dirname(os.path.abspath(path))
        if self.svg_dir is not None:
            folder = os.path.relpath(os.path.abspath(self.svg_dir), where).replace(os.sep, "/")
            pictures = {
                line.picture: f"{folder}/{line.picture}" for line in self.listed if line.picture
            }
        else:
            pictures = self.inline
        write_whole(path, batch_page(self.listed, pictures, where).encode())

    def discard(self) -> None:
        if self.out is not None:
            self.out.discard()
        if self.table is not None:
            self.table.discard()


#: Pictures a page of --html holds without --svg (each some kilobytes): the first invalid
#: games'; the others say to use --svg DIR.
MAX_INLINE_PICTURES = 300


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: by identity (symlinks and hard links followed)
    when both exist, by resolved path otherwise."""
    first, second = identity(a), identity(b)
    if first is not None and second is not None:
        return first == second
    return os.path.realpath(a) == os.path.realpath(b)


def output_among_inputs(paths: Sequence[str], outputs: dict[str, str | None]) -> str | None:
    """The refusal when an input PATH is also an output of the run, or two outputs are one
    file, else None."""
    named = [(option, output) for option, output in outputs.items() if output is not None]
    for at, (option, output) in enumerate(named):
        for path in paths:
            if _same_file(path, output):
                return (
                    _(
                        "neweden: {path} is both an input and the {option} output",
                        path=path,
                        option=option,
                    )
                    + "\n"
                )
        for other, second in named[at + 1 :]:
            if _same_file(output, second):
                return (
                    _(
                        "neweden: {option} and {other} name the same file, {output}",
                        option=option,
                        other=other,
                        output=output,
                    )
                    + "\n"
                )
    return None


def open_outputs(paths: OutputPaths, stderr: IO[str]) -> RunOutputs | None:
    """The files of a run, open; None, the reason written, when one cannot be."""
    try:
        return RunOutputs(paths)
    except ImportError:
        stderr.write(_("neweden: --parquet needs pyarrow: pip install 'neweden[parquet]'") + "\n")
    except WriteError as err:
        stderr.write(f"neweden: {err}\n")
    return None
