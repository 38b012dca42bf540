"""A folder under review (`neweden review DIR`, neweden.runners.review): the queue lists the
unreadable and the invalid games first with what can be read of them; a save is atomic,
keeps the version it replaced and is refused over a newer one; in a JSON Lines file only
the game's line changes; a version of the history is restored byte for byte; nothing
outside the folder is read or written; a photo is known by its bytes."""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from neweden.catalog.catalog import BUILTIN
from neweden.runners.review import HISTORY, ReviewError, ReviewFolder, Stale, etag

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads((ROOT / "examples" / "final-scoring-example.json").read_bytes())
#: The smallest PNG: its signature, then what a reader checks no further.
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def _game(**changes: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(EXAMPLE)), **changes}


def _typo() -> dict[str, Any]:
    game = _game()
    game["players"][0]["city"][0]["card"]["style"] = "gothc"  # misspelled_name
    return game


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "round"
    (root / "sub").mkdir(parents=True)
    (root / "a.json").write_text(json.dumps(_game(), indent=2) + "\n")
    lines = [json.dumps(_game()), json.dumps(_typo()), '{"players": [{"name": "Zé"', ""]
    (root / "b.jsonl").write_bytes("\r\n".join(lines).encode())
    with gzip.open(root / "c.jsonl.gz", "wt") as handle:
        handle.write(json.dumps(_game()) + "\n")
    bad = _typo()
    bad["meta"] = {"photo": "d.png", "table": "7"}
    (root / "sub" / "d.json").write_text(json.dumps(bad))
    (root / "sub" / "d.png").write_bytes(PNG)
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps(_game()))
    (root / "out.json").symlink_to(outside)
    return root


def test_the_queue_lists_the_unreadable_and_the_invalid_first(folder: Path) -> None:
    items = ReviewFolder(folder, BUILTIN).queue()
    assert [(i.id, i.valid) for i in items] == [
        ("b.jsonl:3", None),
        ("b.jsonl:2", False),
        ("sub/d.json", False),
        ("a.json", True),
        ("b.jsonl:1", True),
        ("c.jsonl.gz:1", True),
    ]  # not out.json: a symlink out of the folder
    by_id = {i.id: i for i in items}
    assert "misspelled_name" in by_id["sub/d.json"].codes
    assert by_id["sub/d.json"].photo == "d.png"
    assert by_id["sub/d.json"].players == ("Sarah", "Bruno", "Carla")
    assert by_id["b.jsonl:3"].players == ()  # not JSON: nothing read of it
    assert by_id["c.jsonl.gz:1"].read_only
    assert not any(i.saved for i in items)


def test_a_save_changes_only_its_line_and_keeps_the_version_it_replaced(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    before = (folder / "b.jsonl").read_bytes()
    old = review.read("b.jsonl:2")
    fixed = json.dumps(_game(), indent=2).encode()  # several lines: written on one
    new_tag = review.save("b.jsonl:2", fixed, etag(old))
    after = (folder / "b.jsonl").read_bytes()
    first, second, third = before.split(b"\r\n")[:3]
    assert after.split(b"\r\n")[0] == first  # the other lines, byte for byte
    assert after.split(b"\r\n")[2] == third
    assert after.count(b"\r\n") == before.count(b"\r\n")  # the line endings kept
    assert json.loads(after.split(b"\r\n")[1]) == _game()
    assert new_tag == etag(review.read("b.jsonl:2"))
    (kept,) = review.history("b.jsonl:2")
    assert (folder / HISTORY / "b.jsonl" / "line-2" / kept["version"]).read_bytes() == second
    item = {i.id: i for i in review.queue()}["b.jsonl:2"]
    assert (item.valid, item.saved) == (True, True)  # fixed: saved here, valid now
    assert not [p for p in folder.iterdir() if p.name.startswith(".b.jsonl")]  # no leftovers


def test_a_version_is_restored_byte_for_byte(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    original = (folder / "a.json").read_bytes()
    review.save("a.json", json.dumps(_typo()).encode(), etag(original))
    (kept,) = review.history("a.json")
    review.restore("a.json", kept["version"], etag(review.read("a.json")))
    assert (folder / "a.json").read_bytes() == original
    assert len(review.history("a.json")) == 2  # the version restored over is kept too


def test_a_save_over_a_newer_version_is_refused_with_it(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    opened = etag(review.read("sub/d.json"))
    theirs = json.dumps(_game()).encode()
    review.save("sub/d.json", theirs, opened)  # someone else saves first
    with pytest.raises(Stale) as refused:
        review.save("sub/d.json", json.dumps(_typo()).encode(), opened)
    assert refused.value.status == 412
    assert refused.value.current == theirs
    assert refused.value.etag == etag(theirs)
    assert (folder / "sub" / "d.json").read_bytes() == theirs


@pytest.mark.parametrize(
    ("game_id", "body", "match", "status"),
    [
        ("c.jsonl.gz:1", b"{}", None, 409),  # compressed: read only
        ("a.json", b"not json", None, 400),
        ("a.json", b"{}", None, 428),  # no version named
        ("../secret.json", b"{}", "x", 403),
        ("out.json", b"{}", "x", 403),  # a symlink out of the folder
        ("/etc/passwd.json", b"{}", "x", 403),
        (".neweden/history/a.json", b"{}", "x", 403),
        ("missing.json", b"{}", "x", 404),
        ("b.jsonl:9", b"{}", "x", 404),
        ("b.jsonl", b"{}", "x", 404),  # a line of it, not the file
    ],
)
def test_what_a_save_refuses(
    folder: Path, game_id: str, body: bytes, match: str | None, status: int
) -> None:
    files = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    with pytest.raises(ReviewError) as refused:
        ReviewFolder(folder, BUILTIN).save(game_id, body, match)
    assert refused.value.status == status
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == files


def test_a_photo_is_known_by_its_bytes_and_kept_in_the_folder(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    assert review.photo("sub/d.json") == (PNG, "image/png")
    (folder / "sub" / "d.png").write_bytes(b"<svg onload=alert(1)>")  # not a picture
    with pytest.raises(ReviewError) as refused:
        review.photo("sub/d.json")
    assert refused.value.status == 415
    game = json.loads((folder / "sub" / "d.json").read_bytes())
    game["meta"]["photo"] = "../../secret.json"
    (folder / "sub" / "d.json").write_text(json.dumps(game))
    with pytest.raises(ReviewError) as outside:
        review.photo("sub/d.json")
    assert outside.value.status == 403
    with pytest.raises(ReviewError) as none:
        review.photo("a.json")  # names no photo
    assert none.value.status == 404


def test_only_a_folder_is_reviewed(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}")
    with pytest.raises(ReviewError):
        ReviewFolder(tmp_path / "a.json", BUILTIN)
    with pytest.raises(ReviewError) as missing:
        ReviewFolder(tmp_path / "nowhere", BUILTIN)
    assert missing.value.status == 404
    assert os.listdir(tmp_path) == ["a.json"]


def _heic(folder: Path) -> bytes:
    """A phone's photo: a HEIC picture of 40 by 30, turned by its EXIF (made by pillow-heif)."""
    pillow_heif = pytest.importorskip("pillow_heif", reason="the heic extra")
    from PIL import Image

    buffer = io.BytesIO()
    pillow_heif.from_pillow(Image.new("RGB", (40, 30), (200, 10, 10))).save(buffer, quality=50)
    data: bytes = buffer.getvalue()
    (folder / "sub" / "d.png").write_bytes(data)  # (its name says nothing: its bytes do)
    return data


def test_a_phones_heic_photo_is_shown_as_a_jpeg(folder: Path) -> None:
    _heic(folder)
    data, media = ReviewFolder(folder, BUILTIN).photo("sub/d.json")
    assert media == "image/jpeg"
    from PIL import Image

    with Image.open(io.BytesIO(data)) as shown:
        assert (shown.format, shown.size) == ("JPEG", (40, 30))


def test_without_the_heic_extra_a_heic_photo_is_said(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _heic(folder)
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as if not installed
    with pytest.raises(ReviewError) as refused:
        ReviewFolder(folder, BUILTIN).photo("sub/d.json")
    assert refused.value.status == 415
    assert "pip install 'neweden[heic]'" in refused.value.message


def test_a_photo_picked_is_written_next_to_its_game(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    version = etag(review.read("a.json"))
    assert review.put_photo("a.json", PNG, version) == "a.json.png"
    assert (folder / "a.json.png").read_bytes() == PNG
    # a line of a JSON Lines file: a name no .json game's photo can have
    assert review.put_photo("b.jsonl:2", PNG, etag(review.read("b.jsonl:2"))) == "b.jsonl-2.png"
    review.put_photo("a.json", PNG + b"again", version)  # the photo it replaces kept
    (kept,) = (folder / HISTORY / "a.json.png").iterdir()
    assert kept.read_bytes() == PNG
    for game_id, data, match, status in [
        ("a.json", b"<svg/>", version, 415),
        ("a.json", PNG, '"old"', 412),  # the game changed since the page opened it
        ("a.json", PNG, None, 428),
        ("c.jsonl.gz:1", PNG, version, 409),
        ("../x.json", PNG, version, 403),
    ]:
        with pytest.raises(ReviewError) as refused:
            review.put_photo(game_id, data, match)
        assert refused.value.status == status


def test_a_save_in_a_file_of_stray_carriage_returns_changes_its_line_only(tmp_path: Path) -> None:
    """(A review's finding.) Lines are what the reader reads: ended by \\n; a \\r before
    it, doubled or alone inside a line, stays where it is."""
    a, b, c = (json.dumps(_game(meta={"table": t})).encode() for t in "ABC")
    text = a + b"\r\r\n" + b + b"\r\r\n" + c + b"\r\r\n"
    (tmp_path / "cr.jsonl").write_bytes(b"\xef\xbb\xbf" + text)
    review = ReviewFolder(tmp_path, BUILTIN)
    assert review.read("cr.jsonl:2") == b
    fixed = json.dumps(_game(meta={"table": "B2"})).encode()
    review.save("cr.jsonl:2", fixed, etag(b))
    after = (tmp_path / "cr.jsonl").read_bytes()
    assert after == b"\xef\xbb\xbf" + a + b"\r\r\n" + fixed + b"\r\r\n" + c + b"\r\r\n"
    review.save("cr.jsonl:1", a, etag(a))  # the first line, after its byte-order mark
    assert (tmp_path / "cr.jsonl").read_bytes() == after


def test_the_history_is_kept_nowhere_but_in_the_folder(tmp_path: Path) -> None:
    """(A review's findings.) A `.neweden` that is a symlink out of the folder, a version
    that is a symlink to a file outside, an id that reaches the history through a symlink:
    each refused; a file name that is not UTF-8 is left out of the queue."""
    root = tmp_path / "round"
    root.mkdir()
    (root / "t.json").write_text(json.dumps(_game()))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".neweden").symlink_to(elsewhere)
    review = ReviewFolder(root, BUILTIN)
    with pytest.raises(ReviewError) as out:
        review.save("t.json", json.dumps(_game()).encode(), etag(review.read("t.json")))
    assert out.value.status == 403
    assert list(elsewhere.rglob("*.json")) == []
    (root / ".neweden").unlink()
    review.save("t.json", json.dumps(_typo()).encode(), etag(review.read("t.json")))
    secret = tmp_path / "secret.json"
    secret.write_text('{"api_key": "TOPSECRET"}')
    planted = root / HISTORY / "t.json" / "20990101T000000000000Z-aaaaaaaaaaaa.json"
    planted.symlink_to(secret)
    assert [v["version"] for v in review.history("t.json")] != [planted.name]
    with pytest.raises(ReviewError):
        review.restore("t.json", planted.name, etag(review.read("t.json")))
    (root / "h").symlink_to(root / ".neweden")
    with pytest.raises(ReviewError) as through:
        review.read("h/history/t.json/" + review.history("t.json")[0]["version"])
    assert through.value.status in (403, 404)
    (root / os.fsdecode(b"caf\xe9.json")).write_text(json.dumps(_game()))
    assert [i.id for i in review.queue()] == ["t.json"]
    for odd in ("t.jsonl:\u00b2", "t.jsonl:" + "9" * 5000):
        with pytest.raises(ReviewError) as refused:
            review.read(odd)
        assert refused.value.status == 404


def test_a_game_nested_past_reading_is_listed_and_a_save_of_one_refused(folder: Path) -> None:
    deep = b"[" * 200_000 + b"]" * 200_000
    (folder / "deep.json").write_bytes(deep)  # once a RecursionError listing the folder
    review = ReviewFolder(folder, BUILTIN)
    listed = {item.id: item for item in review.queue()}
    assert listed["deep.json"].valid is None  # not readable as a game
    files = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    with pytest.raises(ReviewError) as refused:
        review.save("a.json", deep, etag((folder / "a.json").read_bytes()))
    assert refused.value.status == 400
    assert "nested more than 48 levels deep" in refused.value.message
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == files


def test_a_version_name_too_long_for_the_file_system_is_no_version(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    original = (folder / "a.json").read_bytes()
    review.save("a.json", json.dumps(_typo()).encode(), etag(original))  # a history now
    with pytest.raises(ReviewError) as refused:  # once an OSError (ENAMETOOLONG): a 500
        review.restore("a.json", "x" * 300 + ".json", etag(review.read("a.json")))
    assert refused.value.status == 404


def test_a_save_of_several_lines_keeps_every_byte_but_its_line_breaks(folder: Path) -> None:
    # Once written on its line as msgspec read it: a key given twice kept its last value
    # only, the reviewer's text lost (the format reads the last, as before).
    review = ReviewFolder(folder, BUILTIN)
    pretty = json.dumps(_game(), indent=2)
    twice = pretty.replace('"mode":', '"mode": "populist",\r\n  "mode":', 1).encode()
    review.save("b.jsonl:2", twice, etag(review.read("b.jsonl:2")))
    saved = (folder / "b.jsonl").read_bytes().split(b"\r\n")[1]
    assert saved == twice.replace(b"\r", b" ").replace(b"\n", b" ")
    assert saved.count(b'"mode":') == 2
    assert json.loads(saved) == _game()  # the last `mode` read, as the format reads it


def test_a_file_marked_read_only_is_not_saved_over_nor_its_photo(folder: Path) -> None:
    review = ReviewFolder(folder, BUILTIN)
    before = (folder / "a.json").read_bytes()
    version = etag(before)
    os.chmod(folder / "a.json", 0o444)  # a finished game, write-protected
    with pytest.raises(ReviewError) as refused:
        review.save("a.json", json.dumps(_typo()).encode(), version)
    assert refused.value.status == 409
    assert "a.json is read-only" in refused.value.message
    assert (folder / "a.json").read_bytes() == before
    assert review.history("a.json") == []  # nothing kept: nothing was replaced
    os.chmod(folder / "a.json", 0o644)
    review.put_photo("a.json", PNG, version)
    os.chmod(folder / "a.json.png", 0o444)
    with pytest.raises(ReviewError) as refused:
        review.put_photo("a.json", PNG + b"again", version)
    assert refused.value.status == 409
    assert (folder / "a.json.png").read_bytes() == PNG


def test_a_write_the_system_refuses_is_said_and_the_game_not_counted_saved(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (the write of the game itself fails; its old version was kept first)."""
    from neweden.runners import review as module

    replace = module._replace

    def full(path: Path, data: bytes) -> None:
        if path.name == "a.json":
            raise OSError(28, "No space left on device")
        replace(path, data)

    monkeypatch.setattr(module, "_replace", full)
    review = ReviewFolder(folder, BUILTIN)
    before = (folder / "a.json").read_bytes()
    with pytest.raises(ReviewError) as refused:
        review.save("a.json", json.dumps(_typo()).encode(), etag(before))
    assert refused.value.status == 500
    assert refused.value.message == "a.json could not be written: No space left on device"
    assert (folder / "a.json").read_bytes() == before
    assert review.history("a.json") == []  # the version kept for it taken back
    assert {i.id: i for i in review.queue()}["a.json"].saved is False
