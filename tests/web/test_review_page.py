"""The review of a folder in a real browser (issue 40, a start): the queue at /review lists
the games to fix first with the counts; a game opens in the editor with its photo beside the
grid; a mistake fixed by clicks is saved to its file (the version before kept), and the
queue then counts it fixed; a save over someone else's newer one is refused, said."""

from __future__ import annotations

import contextlib
import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from neweden.catalog.catalog import BUILTIN
from neweden.runners.review import ReviewFolder, etag
from tests.runners.test_review import _game, _typo
from tests.servers import running_server
from tests.web.requests import save_keys
from tests.web.test_page import Page, cell, in_a_browser
from tests.web.test_phone import pinch

pytest.importorskip("starlette", reason="the serve extra")


def png(width: int, height: int) -> bytes:
    """A grey PNG picture of this size (a stand-in for a table's photo)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    root = tmp_path_factory.mktemp("round")
    (root / "a.json").write_text(json.dumps(_game()))
    bad = _typo()  # Sarah's card at row 0, column 0: "gothc"
    bad["meta"] = {"photo": "b.png"}
    (root / "b.json").write_text(json.dumps(bad))
    (root / "b.png").write_bytes(png(64, 48))
    (root / "c.jsonl").write_text(json.dumps(_game()) + "\n" + json.dumps(_typo()) + "\n")
    with running_server({"NEWEDEN_REVIEW": str(root)}) as (port, _):
        yield port, root


def _said(page: Page, start: str) -> None:
    """Waits until the review's status line starts with `start`."""
    page.page.wait_for_function(
        "(start) => document.getElementById('review-status').textContent.startsWith(start)",
        arg=start,
    )


def _counts_say(page: Page, text: str) -> None:
    """Waits until the queue's counts say `text`; after 10 s, fails with what they say."""
    with contextlib.suppress(PlaywrightTimeout):
        page.page.wait_for_function(
            "(text) => document.getElementById('q-counts').textContent === text",
            arg=text,
            timeout=10_000,
        )
    assert page.page.locator("#q-counts").inner_text() == text


@in_a_browser
def test_a_mistake_is_fixed_by_clicks_and_saved_to_its_file(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = Page(browser, port, "/review?lang=en")
    counts = page.page.locator("#q-counts")
    assert counts.inner_text() == "2 left to fix, 0 fixed, of 4 games"
    games = page.page.locator("#q-games li a")
    assert games.all_inner_texts() == ["b.json", "c.jsonl:2", "a.json", "c.jsonl:1"]
    games.first.click()
    page.page.wait_for_selector("body[data-ready]")
    page.page.locator("#review:not([hidden])").wait_for()
    assert page.page.locator("#review-id").inner_text() == "b.json"
    page.page.wait_for_function("() => document.getElementById('review-photo').naturalWidth === 64")
    page.wait_total("Sarah", "78")  # scored with the typo: the same total, not valid
    assert page.page.locator("#review-conflict").is_hidden()  # (only after a refused save)
    cell(page, 0, 0).click()  # the card with the typo, then its style
    page.page.locator('#c-style .chip[data-value="gothic"]').click()
    page.page.locator("#review-save").click()
    status = page.page.locator("#review-status")
    _said(page, "Saved")
    assert status.inner_text().startswith("Saved to b.json")
    saved = json.loads((root / "b.json").read_bytes())
    assert saved["players"][0]["city"][0]["card"]["style"] == "gothic"
    assert len(ReviewFolder(root, BUILTIN).history("b.json")) == 1
    page.page.locator("#review-back").click()
    # the queue read again (its list of before may still be shown a moment)
    _counts_say(page, "1 left to fix, 1 fixed, of 4 games")
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_save_over_a_newer_one_is_refused_and_said(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = Page(browser, port, "/?review=c.jsonl%3A2&lang=en")
    page.page.locator("#review:not([hidden])").wait_for()
    review = ReviewFolder(root, BUILTIN)
    theirs = json.dumps(_game()).encode()
    review.save("c.jsonl:2", theirs, etag(review.read("c.jsonl:2")))  # someone else
    cell(page, 0, 0).click()
    page.page.locator('#c-points .chip[data-value="7"]').click()
    save_keys(page.page)
    _said(page, "Not saved")
    assert review.read("c.jsonl:2") == theirs  # theirs kept
    # both versions shown side by side: this page's, with its 7 points, and the one saved
    mine = json.loads(page.page.locator("#review-mine").inner_text())
    assert mine["players"][0]["city"][0]["card"]["points"] == 7
    assert json.loads(page.page.locator("#review-theirs").inner_text()) == json.loads(theirs)
    assert {e for e in page.errors if "412" not in e} == set()  # (the refusal, logged)
    page.errors = []
    page.close()


@pytest.mark.long
@in_a_browser
def test_the_pictures_of_validate_show_each_games_photo_beside_it(
    browser: Any, tmp_path: Path
) -> None:
    """`neweden validate DIR --svg OUT`: index.html, opened from the disk (no server), shows
    beside each invalid game's picture the photo its meta.photo names (issue 40)."""
    import subprocess
    import sys

    games = tmp_path / "round"
    (games / "photos").mkdir(parents=True)
    bad = _typo()
    bad["meta"] = {"photo": "photos/t1.png"}
    (games / "t1.json").write_text(json.dumps(bad))
    (games / "photos" / "t1.png").write_bytes(png(120, 90))
    out = tmp_path / "pictures"
    done = subprocess.run(
        [sys.executable, "-m", "neweden", "validate", str(games), "--svg", str(out), "--quiet"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    context = browser.new_context()
    page = context.new_page()
    page.goto((out / "index.html").as_uri())
    page.locator("li.game summary").click()  # "picture and photo": the two side by side
    photo = page.locator("li.game img.photo")
    assert photo.count() == 1
    page.wait_for_function("() => document.querySelector('img.photo').naturalWidth === 120")
    picture = page.locator('li.game a[href$=".svg"] img')
    assert picture.count() == 1
    page.wait_for_function(
        "() => document.querySelector('li.game a[href$=\".svg\"] img').naturalWidth > 0"
    )
    left, right = picture.bounding_box(), photo.bounding_box()
    assert left is not None
    assert right is not None
    assert right["x"] >= left["x"] + left["width"]  # beside it, not below
    context.close()


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_review_on_a_phone_scrolls_nothing_sideways(
    browser: Any, folder: tuple[int, Path], lang: str
) -> None:
    port, _root = folder
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    for path in (f"/review?lang={lang}", f"/?review=b.json&lang={lang}"):
        page = Page(browser, port, path, **phone)
        if "review=" in path:
            page.page.locator("#review:not([hidden])").wait_for()
            page.page.wait_for_function(
                "() => document.getElementById('review-photo').naturalWidth > 0"
            )
        assert page.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.close()


@pytest.mark.long
@in_a_browser
def test_a_photo_picked_in_the_browser_is_copied_next_to_the_game(
    browser: Any, folder: tuple[int, Path]
) -> None:
    """A game that names no photo: one picked is shown at once, and on saving it is written
    next to the game's file and named in its meta.photo."""
    port, root = folder
    page = Page(browser, port, "/?review=a.json&lang=en")
    page.page.locator("#review:not([hidden])").wait_for()
    assert page.page.locator("#review-no-photo").is_visible()
    photo = root / "picked.png"
    photo.write_bytes(png(30, 20))
    page.page.set_input_files("#review-pick", str(photo))
    page.page.wait_for_function("() => document.getElementById('review-photo').naturalWidth === 30")
    assert not (root / "a.json.png").exists()  # in the browser only, until the game is saved
    page.page.locator("#review-save").click()
    _said(page, "Saved")
    assert (root / "a.json.png").read_bytes() == photo.read_bytes()
    assert json.loads((root / "a.json").read_bytes())["meta"]["photo"] == "a.json.png"
    page.close()


def _exif_jpeg(width: int, height: int, orientation: int) -> bytes:
    """A JPEG of width by height whose EXIF says to show it turned (6: 90° clockwise)."""
    import io

    image_module = pytest.importorskip("PIL.Image", reason="the heic extra (Pillow)")
    image = image_module.new("RGB", (width, height), (40, 120, 200))
    exif = image.getexif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


@pytest.mark.long
@in_a_browser
def test_the_photo_is_turned_as_its_exif_says_and_pinched_larger(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    game = _game()
    game["meta"] = {"photo": "turned.jpg"}
    (root / "turned.json").write_text(json.dumps(game))
    (root / "turned.jpg").write_bytes(_exif_jpeg(60, 20, 6))
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    page = Page(browser, port, "/?review=turned.json&lang=en", **phone)
    page.page.wait_for_function("() => document.getElementById('review-photo').naturalWidth > 0")
    size = page.page.evaluate(
        "() => { const p = document.getElementById('review-photo');"
        " return [p.naturalWidth, p.naturalHeight]; }"
    )
    assert size == [20, 60]  # stood up, as its EXIF says
    before = page.page.locator("#review-photo").bounding_box()
    box = page.page.locator("#review-photo-wrap").bounding_box()
    assert before is not None
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 200) / 2
    pinch(page, x, y, (50, 70, 100))
    after = page.page.locator("#review-photo").bounding_box()
    assert after is not None
    assert after["width"] == pytest.approx(before["width"] * 2, rel=0.05)  # 50 -> 100 apart
    page.close()


@pytest.mark.long
@in_a_browser
def test_changes_not_saved_are_asked_about_and_a_broken_file_is_mended_as_text(
    browser: Any, folder: tuple[int, Path]
) -> None:
    """(A review's findings.) Leaving a game with changes not saved asks first (declined:
    the page stays); a file the page cannot draw opens as its text, saved as mended."""
    port, root = folder
    (root / "broken.json").write_text('{"players": [{"name": "Zé"')
    page = Page(browser, port, "/?review=c.jsonl%3A1&lang=en")
    page.page.locator("#review:not([hidden])").wait_for()
    cell(page, 0, 0).click()
    page.page.locator('#c-points .chip[data-value="9"]').click()
    asked: list[str] = []

    def decline(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.page.on("dialog", decline)
    page.page.locator("#review-back").click()
    assert asked == ["This game has changes not saved to its file. Leave it anyway?"]
    assert "review=" in page.page.url  # still here
    page.page.remove_listener("dialog", decline)
    page.close()
    page = Page(browser, port, "/?review=broken.json&lang=en")
    page.page.locator("#review-raw-box:not([hidden])").wait_for()
    assert page.page.locator("#compose").is_hidden()
    page.page.locator("#review-raw").fill(json.dumps(_game()))
    page.page.locator("#review-save").click()
    _said(page, "Saved")
    assert json.loads((root / "broken.json").read_bytes()) == _game()
    page.close()
