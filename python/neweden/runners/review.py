"""A folder of transcribed games under review (`neweden review DIR`, docs/review.md): its
games listed with their verdicts (the invalid and unreadable first), each read and saved
by its id, safely.

A game's id is its path below the folder (`round3/table7.json`), with `:LINE` for a line of
a JSON Lines file (`round3.jsonl:12`, 1-based, as `neweden validate` names it). Only files
under the folder are read or written: an id that leaves it (an absolute path, `..`, a
symlink out of it) is refused. A save is atomic (a temporary file renamed into place), keeps
the version it replaces in `DIR/.neweden/history/`, and carries the version it edited (its
ETag): a save over a newer version is refused, with that version. A `.jsonl.gz` file is read
only. What is fixed and what is left is the files' state: a game saved here and valid now is
fixed; nothing else is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from neweden.catalog.catalog import Catalog
from neweden.format.model import BOM, MAX_GAME_BYTES
from neweden.format.problems import is_index
from neweden.format.untyped import CUT_DEPTH, shallow_value
from neweden.i18n import N_, _
from neweden.runners.results import score_entries
from neweden.runners.sources import STATE_FOLDER, Entry, iter_entries

__all__ = [
    "HISTORY",
    "MAX_PHOTO_BYTES",
    "PHOTO_TYPES",
    "QueueItem",
    "ReviewError",
    "ReviewFolder",
    "Stale",
]

#: Where the versions a save replaced are kept, below the folder.
HISTORY = Path(STATE_FOLDER) / "history"
#: A photo larger than this is not served (docs/review.md).
MAX_PHOTO_BYTES = 32 * 1024 * 1024
#: The photos served, known by their first bytes (never by their names): media type, magic.
PHOTO_TYPES = (
    ("image/jpeg", b"\xff\xd8\xff"),
    ("image/png", b"\x89PNG\r\n\x1a\n"),
    ("image/webp", b"RIFF"),  # and "WEBP" at byte 8
)
_SUFFIXES = (".json", ".jsonl", ".jsonl.gz")


class ReviewError(Exception):
    """What a request to the folder cannot have: `status` (the HTTP status it answers with)
    and the words that say why (in the current language)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Stale(ReviewError):
    """A save of a version that is no longer the file's: the file's version and its ETag."""

    def __init__(self, current: bytes, etag: str) -> None:
        super().__init__(
            412,
            _(
                "this game was saved by someone else since you opened it: the version saved is "
                "below; open it again to see it, then make your changes again"
            ),
        )
        self.current = current
        self.etag = etag


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One game of the folder as the queue lists it."""

    id: str
    file: str
    line: int | None
    valid: bool | None  # None: it cannot be read as a game
    codes: tuple[str, ...]
    players: tuple[str, ...]
    photo: str | None
    saved: bool  # saved here at least once (its history holds a version)
    read_only: bool


def etag(data: bytes) -> str:
    """A version's ETag: a hash of its bytes."""
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _json(data: bytes | None) -> dict[str, Any]:
    """A game's JSON object, or {} when it is none (not JSON, not an object)."""
    if data is None:
        return {}
    try:
        doc = shallow_value(data)  # (a document nested past what msgspec follows, too)
    except msgspec.DecodeError:
        return {}
    return doc if isinstance(doc, dict) else {}


def _photo_named(doc: dict[str, Any]) -> str | None:
    """The photo a game names: its `meta.photo`, a path from its file (None: none)."""
    meta = doc.get("meta")
    photo = meta.get("photo") if isinstance(meta, dict) else None
    return photo if isinstance(photo, str) and photo else None


class ReviewFolder:
    """The folder `root` and the games in it."""

    def __init__(self, root: str | os.PathLike[str], catalog: Catalog) -> None:
        try:
            self.root = Path(root).resolve(strict=True)
        except OSError as err:
            raise ReviewError(404, _("no such folder: {path}", path=str(root))) from err
        if not self.root.is_dir():
            raise ReviewError(400, _("{path} is not a folder", path=str(root)))
        self.catalog = catalog
        self._lock = threading.Lock()  # one save at a time: read, compare, write

    # --- ids and paths ---

    def _path(self, rel: str) -> Path:
        """The file `rel` names below the folder; refused when it is not one (absolute, with
        `..`, through a symlink out of the folder, or not there)."""
        parts = Path(rel).parts
        if not rel or "\x00" in rel or Path(rel).is_absolute() or ".." in parts:
            raise ReviewError(403, _(_OUTSIDE, path=rel))
        if parts and parts[0] == STATE_FOLDER:
            raise ReviewError(403, _(_OUTSIDE, path=rel))
        try:
            found = (self.root / rel).resolve(strict=True)
        except (OSError, RuntimeError):
            raise ReviewError(404, _("no such file in the folder: {path}", path=rel)) from None
        if not found.is_relative_to(self.root) or found.is_relative_to(self.root / STATE_FOLDER):
            raise ReviewError(403, _(_OUTSIDE, path=rel))
        if not found.is_file():
            raise ReviewError(404, _("no such file in the folder: {path}", path=rel))
        return found

    def _parse(self, game_id: str) -> tuple[str, Path, int | None]:
        """(its file below the folder, the file, its line or None) of a game's id."""
        rel, line = game_id, None
        if not game_id.endswith(".json"):
            rel, sep, number = game_id.rpartition(":")
            digits = is_index(number) and len(number) <= 9
            if not sep or not digits or not rel.endswith((".jsonl", ".jsonl.gz")):
                raise ReviewError(404, _("no such game in the folder: {id}", id=game_id))
            line = int(number)
        return rel, self._path(rel), line

    # --- the queue ---

    def files(self) -> Iterator[tuple[str, Path]]:
        """Every game file below the folder (its path below it, the file), in name order;
        not the history, not what a symlink leads out to."""
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d != STATE_FOLDER)  # as validate walks
            for name in sorted(names):
                if name.endswith(_SUFFIXES) and _speakable(os.path.join(folder, name)):
                    path = Path(folder) / name
                    rel = path.relative_to(self.root).as_posix()
                    try:
                        self._path(rel)
                    except ReviewError:
                        continue  # a symlink out of the folder, or gone
                    yield rel, path

    def queue(self) -> list[QueueItem]:
        """Every game, the unreadable and the invalid first (then by file and line)."""
        entries: list[Entry] = []
        ids: list[tuple[str, int | None]] = []
        for rel, path in self.files():
            for entry in iter_entries([str(path)]):
                entries.append(entry)
                ids.append((rel, entry.line))
        results = score_entries(entries, self.catalog, False, short=False, rows=False)
        items = [
            self._item(rel, line, entry, result.valid if result.readable else None, result.codes)
            for (rel, line), entry, result in zip(ids, entries, results, strict=True)
        ]
        rank = {None: 0, False: 1, True: 2}
        return sorted(items, key=lambda i: (rank[i.valid], i.file, i.line or 0))

    def _item(
        self, rel: str, line: int | None, entry: Entry, valid: bool | None, codes: tuple[str, ...]
    ) -> QueueItem:
        """A game as the queue lists it (`valid` None: not readable as a game): what can be
        read of it, its players' names and its photo, kept even when it is not valid."""
        game_id = rel if line is None else f"{rel}:{line}"
        doc = _json(entry.data)
        found = doc.get("players")
        listed: list[Any] = found if isinstance(found, list) else []
        players = tuple(
            p["name"] for p in listed if isinstance(p, dict) and isinstance(p.get("name"), str)
        )
        photo = _photo_named(doc)
        return QueueItem(
            game_id,
            rel,
            line,
            valid,
            codes,
            players,
            photo,
            self._history_dir(rel, line).is_dir(),
            rel.endswith(".jsonl.gz"),
        )

    # --- a game ---

    def read(self, game_id: str) -> bytes:
        """A game's bytes: the file's, or its line's (without its line ending)."""
        _rel, path, line = self._parse(game_id)
        if line is None:
            return _read_limited(path)
        for entry in iter_entries([str(path)]):
            if entry.line == line:
                if entry.data is None:
                    raise ReviewError(422, _("line {line} cannot be read", line=line))
                return entry.data
        raise ReviewError(404, _("no such game in the folder: {id}", id=game_id))

    def save(self, game_id: str, body: bytes, if_match: str | None) -> str:
        """Writes `body` as the game `game_id` in place of the version `if_match` (its ETag),
        keeping that version in the history; the new version's ETag. `body` must be JSON; in
        a JSON Lines file a body of several lines is written on one, its line breaks made
        spaces."""
        rel, path, line = self._parse(game_id)
        if rel.endswith(".gz"):
            raise ReviewError(409, _("{path} is compressed: it is read only here", path=rel))
        if len(body) > MAX_GAME_BYTES:
            raise ReviewError(413, _("{path} is larger than a game may be", path=game_id))
        try:
            msgspec.json.decode(body)  # (JSON: a line break in it is white space, then)
        except msgspec.DecodeError:
            raise ReviewError(400, _("what is saved must be JSON (a game)")) from None
        except RecursionError:  # (no game is: what is saved is kept whole, or refused)
            message = _(
                "what is saved is nested more than {limit} levels deep: it cannot be a game",
                limit=CUT_DEPTH,
            )
            raise ReviewError(400, message) from None
        if line is not None and (b"\n" in body or b"\r" in body):
            # one line of the file: its line breaks made spaces, every other byte as sent (a
            # key given twice stays twice; JSON holds no raw line break inside a string)
            body = body.replace(b"\r", b" ").replace(b"\n", b" ")
        if if_match is None:
            raise ReviewError(428, _("a save names the version it edited (If-Match)"))
        with self._lock:
            current = self.read(game_id)
            if etag(current) != if_match:
                raise Stale(current, etag(current))
            _writable(path, rel)
            whole = body if line is None else _with_line(path.read_bytes(), line, body)
            _written(path, whole, rel, self._keep(rel, line, current))
        return etag(body)

    def history(self, game_id: str) -> list[dict[str, Any]]:
        """The versions saves replaced, newest first: their names, when, their sizes."""
        rel, _path, line = self._parse(game_id)
        folder = self._history_dir(rel, line)
        if not folder.is_dir():
            return []
        kept = sorted(
            (p for p in folder.glob("*.json") if p.is_file() and not p.is_symlink()), reverse=True
        )
        return [
            {"version": p.name, "saved": _when(p.name), "bytes": p.stat().st_size} for p in kept
        ]

    def restore(self, game_id: str, version: str, if_match: str | None) -> str:
        """Saves a version of the history again, byte for byte (the one it replaces kept)."""
        rel, _path, line = self._parse(game_id)
        folder = self._history_dir(rel, line)
        if "/" in version or "\\" in version or not version.endswith(".json"):
            raise ReviewError(404, _("no such version: {version}", version=version))
        found = folder / version
        try:  # (a name the file system cannot hold, 300 characters say, is no version either)
            kept = found.is_file() and not found.is_symlink()
            data = found.read_bytes() if kept and found.stat().st_size <= MAX_GAME_BYTES else None
        except OSError:
            data = None
        if data is None:
            raise ReviewError(404, _("no such version: {version}", version=version))
        return self.save(game_id, data, if_match)

    def photo(self, game_id: str) -> tuple[bytes, str]:
        """The game's photo (its `meta.photo`, a path from the game's file, in the folder)
        and its media type, known by its first bytes."""
        rel, _path, _line = self._parse(game_id)
        named = _photo_named(_json(self.read(game_id)))
        if named is None:
            raise ReviewError(404, _("this game names no photo (meta.photo)"))
        where = (Path(rel).parent / named).as_posix()
        path = self._path(os.path.normpath(where))
        if path.stat().st_size > MAX_PHOTO_BYTES:
            raise ReviewError(413, _(_PHOTO_LARGE, most=MAX_PHOTO_BYTES // (1024 * 1024)))
        data = path.read_bytes()
        media = _media(data)
        if media == _HEIC:
            return _heic_as_jpeg(data, named), "image/jpeg"
        if media is None:
            raise ReviewError(415, _(_NOT_A_PHOTO, path=named))
        return data, media

    def put_photo(self, game_id: str, data: bytes, if_match: str | None) -> str:
        """Writes a photo picked for the game next to its file (`table7.json` ->
        `table7.json.jpg`, a line of `round3.jsonl` -> `round3.jsonl-12.jpg`: no two games
        share a name), the photo it replaces kept in the history; its name from the game's
        file, for `meta.photo`. `if_match`: the game's version the page holds (refused, as
        a save is, when the game changed since)."""
        rel, path, line = self._parse(game_id)
        if rel.endswith(".gz"):
            raise ReviewError(409, _("{path} is compressed: it is read only here", path=rel))
        if if_match is None:
            raise ReviewError(428, _("a save names the version it edited (If-Match)"))
        current = self.read(game_id)
        if etag(current) != if_match:
            raise Stale(current, etag(current))
        if len(data) > MAX_PHOTO_BYTES:
            raise ReviewError(413, _(_PHOTO_LARGE, most=MAX_PHOTO_BYTES // (1024 * 1024)))
        media = _media(data)
        if media is None:
            raise ReviewError(415, _(_NOT_A_PHOTO, path=path.name))
        name = f"{path.name}{'' if line is None else f'-{line}'}{_EXTENSIONS[media]}"
        target = path.parent / name
        with self._lock:
            rel_photo = target.relative_to(self.root).as_posix()
            _writable(target, rel_photo)
            kept = self._keep(rel_photo, None, target.read_bytes()) if target.is_file() else None
            _written(target, data, rel_photo, kept)
        return name

    # --- the history ---

    def _history_dir(self, rel: str, line: int | None) -> Path:
        below = self.root / HISTORY / rel
        return below if line is None else below / f"line-{line}"

    def _keep(self, rel: str, line: int | None, data: bytes) -> Path:
        """Keeps `data` as a version of `rel` (line `line`), the file it is written to;
        refused when the history would be written anywhere but below DIR (a symlink where
        its folders are)."""
        folder = self._history_dir(rel, line)
        state = self.root / STATE_FOLDER
        refused = ReviewError(403, _(_OUTSIDE, path=(HISTORY / rel).as_posix()))
        if state.is_symlink() or (state.exists() and not state.is_dir()):
            raise refused  # nothing made out of the folder
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.resolve().is_relative_to(state.resolve()):
            raise refused  # a symlink below it
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        version = folder / f"{stamp}-{hashlib.sha256(data).hexdigest()[:12]}.json"
        _written(version, data, (HISTORY / rel).as_posix(), None)
        return version


_OUTSIDE = N_("{path} is not a file of the folder under review")
_PHOTO_LARGE = N_("the photo is larger than {most} MiB")


#: The brands of a HEIF file a phone writes (its `ftyp` box, bytes 8 to 12).
_HEIC_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1"})
_HEIC = "image/heic"
_EXTENSIONS = {"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", _HEIC: ".heic"}
_NOT_A_PHOTO = N_("{path} is not a JPEG, PNG, WebP or HEIC picture")


def _media(data: bytes) -> str | None:
    """A photo's media type, known by its first bytes (None: no picture a photo is)."""
    for media, magic in PHOTO_TYPES:
        if data.startswith(magic) and (media != "image/webp" or data[8:12] == b"WEBP"):
            return media
    if data[4:8] == b"ftyp" and data[8:12] in _HEIC_BRANDS:
        return _HEIC
    return None


def _heic_as_jpeg(data: bytes, named: str) -> bytes:
    """A phone's HEIC photo made a JPEG a browser shows (turned as its EXIF says), with the
    heic extra (`pip install 'neweden[heic]'`: Pillow and pillow-heif); without it, a 415
    that says so."""
    try:
        import pillow_heif  # type: ignore[import-not-found,unused-ignore]
        from PIL import Image, ImageOps  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ReviewError(
            415,
            _(
                "{path} is a HEIC photo (a phone's): to show it, install the heic extra "
                "(pip install 'neweden[heic]') or save it as JPEG",
                path=named,
            ),
        ) from None
    import io

    pillow_heif.register_heif_opener()
    try:
        with Image.open(io.BytesIO(data)) as image:
            turned = ImageOps.exif_transpose(image).convert("RGB")
            out = io.BytesIO()
            turned.save(out, format="JPEG", quality=90)
    except (OSError, ValueError, SyntaxError) as err:
        raise ReviewError(
            415, _("{path} cannot be read as a picture: {why}", path=named, why=err)
        ) from None
    return out.getvalue()


def _when(version: str) -> str:
    """When a history version was saved (its name starts with the time, UTC)."""
    stamp = version.split("-", 1)[0]
    try:
        return datetime.strptime(stamp, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC).isoformat()
    except ValueError:
        return ""


def _read_limited(path: Path) -> bytes:
    if path.stat().st_size > MAX_GAME_BYTES:
        raise ReviewError(413, _("{path} is larger than a game may be", path=path.name))
    return path.read_bytes()


def _with_line(text: bytes, line: int, body: bytes) -> bytes:
    """`text` (a JSON Lines file) with its line `line` (1-based) made `body`: lines as the
    reader numbers them (each ended by a newline, `\n`), the `\r` before its newline, a
    byte-order mark before the first line and every other byte kept."""
    pieces = text.split(b"\n")
    if not 1 <= line <= len(pieces) or not pieces[line - 1].strip():
        raise ReviewError(404, _("the file has no line {line}", line=line))
    old = pieces[line - 1]
    bom = BOM if line == 1 and old.startswith(BOM) else b""
    content = old[len(bom) :]
    ending = content[len(content.rstrip(b"\r")) :]
    pieces[line - 1] = bom + body + ending
    return b"\n".join(pieces)


def _speakable(path: str) -> bool:
    """Whether a file's name can be said in JSON (a name that is not UTF-8 cannot: left out
    of the queue)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _writable(path: Path, rel: str) -> None:
    """Refuses a file marked read-only (no one may write it: `chmod a-w`), even for a
    server that could replace it (root): a finished game write-protected stays as it is."""
    if path.is_file() and not path.stat().st_mode & 0o222:
        raise ReviewError(
            409, _("{path} is read-only (no one may write it): not changed", path=rel)
        )


def _written(path: Path, data: bytes, rel: str, kept: Path | None) -> None:
    """`path` made `data` (:func:`_replace`); a write the system refuses (a full disk, a
    folder not writable) said as a ReviewError, the version `kept` for it taken back out of
    the history (nothing was replaced: the queue must not count the game saved)."""
    try:
        _replace(path, data)
    except OSError as error:
        if kept is not None:
            kept.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # (its folder too, when it holds nothing else)
                kept.parent.rmdir()
        reason = error.strerror or str(error)
        said = _("{path} could not be written: {reason}", path=rel, reason=reason)
        raise ReviewError(500, said) from None


def _replace(path: Path, data: bytes) -> None:
    """`path` made `data` at once: a temporary file beside it, written, flushed to the disk
    and renamed over it (a reader sees the old file or the new one, never half of one)."""
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
