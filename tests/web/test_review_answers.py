"""The review (`neweden review DIR`, `/?review=ID`) when the service answers late or not at
all: one save at a time, a photo picked meanwhile still to save, leaving lets a save
finish, and every failure said, nothing left saying "Saved" that was not (docs/review.md).
Requests are held or failed with Playwright's routes. Each game file is one test's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runners.test_review import _game, _typo
from tests.servers import running_server
from tests.web.requests import Held, failed_on_purpose, save_keys, until
from tests.web.test_page import Page, cell, in_a_browser
from tests.web.test_review_page import png

pytest.importorskip("starlette", reason="the serve extra")

GAMES = ("twice", "photos", "leave", "fails", "history")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    root = tmp_path_factory.mktemp("answers")
    for name in GAMES:
        (root / f"{name}.json").write_text(json.dumps(_typo()))
    (root / "one.png").write_bytes(png(30, 20))
    (root / "two.png").write_bytes(png(40, 20))
    with running_server({"NEWEDEN_REVIEW": str(root)}) as (port, _):
        yield port, root


def _open(browser: Any, port: int, name: str) -> Page:
    page = Page(browser, port, f"/?review={name}.json&lang=en")
    page.page.locator("#review:not([hidden])").wait_for()
    return page


def _fresh(browser: Any, folder: tuple[int, Path], name: str) -> Page:
    """A game of the folder's own for one test (`name`.json, the typo game), opened."""
    port, root = folder
    (root / f"{name}.json").write_text(json.dumps(_typo()))
    return _open(browser, port, name)


def _said(page: Page, start: str) -> str:
    """Waits until the status line starts with `start`; what it says."""
    page.page.wait_for_function(
        "(start) => document.getElementById('review-status').textContent.startsWith(start)",
        arg=start,
    )
    return str(page.page.locator("#review-status").inner_text())


def _points(page: Page, points: int) -> None:
    """The typo's card (row 0, column 0) given `points`: a change to save."""
    cell(page, 0, 0).click()
    page.page.locator(f'#c-points .chip[data-value="{points}"]').click()


def _saved_and_done(page: Page) -> None:
    """Waits until the page says a save was made and none is on its way (Save on again)."""
    page.page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('Saved')"
        " && !document.getElementById('review-save').disabled"
    )


def _card_points(root: Path, name: str) -> int:
    return int(
        json.loads((root / f"{name}.json").read_bytes())["players"][0]["city"][0]["card"]["points"]
    )


@pytest.mark.long
@in_a_browser
def test_a_second_save_asked_while_the_first_is_on_its_way_is_that_one(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = _open(browser, port, "twice")
    _points(page, 7)
    held = Held(page.page, "**/v1/review/game?*", method="PUT")
    save_keys(page.page)
    until(lambda: bool(held.routes), page.page)
    assert page.page.locator("#review-save").is_disabled()
    save_keys(page.page)  # again, at once
    held.release()
    said = _said(page, "Saved")
    assert said.startswith("Saved to twice.json")
    # (once Save is on again, a second save asked after the first would be on its way: its
    # request seen, the button off)
    page.page.wait_for_function("() => !document.getElementById('review-save').disabled")
    assert len(held.sent) == 1  # one save sent, not a second that its own would refuse
    assert page.page.locator("#review-conflict").is_hidden()
    assert _card_points(root, "twice") == 7
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_photo_picked_while_another_is_being_saved_is_still_to_save(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = _open(browser, port, "photos")
    page.page.set_input_files("#review-pick", str(root / "one.png"))
    held = Held(page.page, "**/v1/review/photo?*", method="PUT")
    page.page.locator("#review-save").click()
    until(lambda: bool(held.routes), page.page)
    page.page.set_input_files("#review-pick", str(root / "two.png"))  # while the first goes
    held.release()
    _said(page, "Saved")
    assert (root / "photos.json.png").read_bytes() == (root / "one.png").read_bytes()
    asked: list[str] = []
    page.page.once("dialog", lambda dialog: (dialog.dismiss(), asked.append(dialog.message)))
    page.page.locator("#review-back").click()
    until(lambda: bool(asked), page.page)  # the second photo is a change not saved: asked
    save_keys(page.page)
    _saved_and_done(page)
    assert (root / "photos.json.png").read_bytes() == (root / "two.png").read_bytes()
    page.close()


@pytest.mark.long
@in_a_browser
def test_leaving_while_a_save_is_on_its_way_lets_it_finish(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = _open(browser, port, "leave")
    _points(page, 9)
    held = Held(page.page, "**/v1/review/game?*", method="PUT")
    save_keys(page.page)
    until(lambda: bool(held.routes), page.page)
    asked: list[str] = []
    page.page.on("dialog", lambda dialog: (dialog.dismiss(), asked.append(dialog.message)))
    page.page.locator("#review-back").click()  # leaving waits for the save
    held.release()
    page.page.wait_for_url("**/review?lang=en")
    assert asked == []  # nothing was left unsaved to ask about
    assert _card_points(root, "leave") == 9
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_save_that_fails_is_said_whatever_the_answer(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = _open(browser, port, "fails")
    _points(page, 5)
    save_keys(page.page)
    _said(page, "Saved to fails.json")
    _points(page, 6)
    page.page.route("**/v1/review/game?*", lambda route: route.abort("internetdisconnected"))
    save_keys(page.page)
    assert _said(page, "Not saved").startswith("Not saved: ")  # not "Saved" still
    page.page.unroute("**/v1/review/game?*")
    page.page.route(
        "**/v1/review/game?*",
        lambda route: (
            route.fulfill(status=500, body="Internal Server Error")
            if route.request.method == "PUT"
            else route.continue_()
        ),
    )
    save_keys(page.page)
    page.page.wait_for_function(
        "() => document.getElementById('review-status').textContent"
        " === 'Not saved: 500 Internal Server Error'"
    )
    assert _card_points(root, "fails") == 5
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_history_not_read_leaves_the_game_open_and_saved_to_its_own_file(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    page = Page(browser, port, "/?review=twice.json&lang=en")  # another game kept first
    page.page.locator("#review:not([hidden])").wait_for()
    page.page.route("**/v1/review/history?*", lambda route: route.abort("failed"))
    page.page.goto(f"http://127.0.0.1:{port}/?review=history.json&lang=en")
    page.page.wait_for_selector("body[data-ready]")
    _said(page, "The versions saved before could not be read")
    assert page.page.locator("#review-id").inner_text() == "history.json"
    _points(page, 8)
    save_keys(page.page)
    _said(page, "Saved to history.json")
    assert _card_points(root, "history") == 8
    assert json.loads((root / "twice.json").read_bytes())["players"][0]["city"][0]["card"][
        "style"
    ] in ("gothc", "gothic")  # (the other game untouched by this one)
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_photo_and_a_queue_the_service_fails_are_said(
    browser: Any, folder: tuple[int, Path]
) -> None:
    port, root = folder
    game = _game()
    game["meta"] = {"photo": "one.png"}
    (root / "shown.json").write_text(json.dumps(game))
    page = Page(browser, port, "/?review=shown.json&lang=en")
    page.page.route(
        "**/v1/review/photo?*",
        lambda route: route.fulfill(
            status=415,
            content_type="application/problem+json",
            body=json.dumps({"detail": "install the heic extra"}),
        ),
    )
    page.page.reload()
    page.page.wait_for_selector("body[data-ready]")
    assert _said(page, "The photo could not be shown") == (
        "The photo could not be shown: install the heic extra"
    )
    page.page.route("**/v1/review/queue*", lambda route: route.fulfill(status=500, body="down"))
    page.page.locator("#review-next").click()
    assert _said(page, "The queue could not be read").endswith("500 Internal Server Error")
    page.page.goto(f"http://127.0.0.1:{port}/review?lang=en")
    page.page.wait_for_function(
        "() => document.getElementById('q-counts').textContent.startsWith('The queue could not')"
    )
    page.errors = failed_on_purpose(page.errors)
    page.close()


def _restore_the_newest_version(page: Page) -> None:
    """The first version of the game's history restored, the changes not saved let go."""
    page.page.once("dialog", lambda dialog: dialog.accept())
    page.page.locator("#review-versions summary").click()
    page.page.locator("#review-history button").first.click()


@pytest.mark.long
@in_a_browser
def test_a_save_asked_while_a_restore_is_on_its_way_is_made_after_it(
    browser: Any, folder: tuple[int, Path]
) -> None:
    """(A review's finding.) A Ctrl+S while a restore was on its way was taken and lost: a
    restore that fails leaves the page's edits, and they were not saved as asked."""
    root = folder[1]
    page = _fresh(browser, folder, "restoring")
    _points(page, 2)
    save_keys(page.page)
    _said(page, "Saved to restoring.json")  # a version to restore: the one before
    page.page.locator('#c-points .chip[data-value="8"]').click()  # (its card still selected)
    held = Held(page.page, "**/v1/review/restore?*")
    _restore_the_newest_version(page)  # (the edit let go, asked first)
    until(lambda: bool(held.routes), page.page)
    save_keys(page.page)  # while the restore is on its way
    for route in held.routes:
        route.fulfill(status=503, json={"detail": "busy"})  # the restore fails: the edit stays
    _saved_and_done(page)
    assert _card_points(root, "restoring") == 8
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_photo_picked_then_given_up_for_a_restored_version_is_not_saved_with_it(
    browser: Any, folder: tuple[int, Path]
) -> None:
    root = folder[1]
    page = _fresh(browser, folder, "given-up")
    _points(page, 3)
    save_keys(page.page)
    _said(page, "Saved to given-up.json")  # a version to restore: the one before
    page.page.set_input_files("#review-pick", str(root / "one.png"))
    _restore_the_newest_version(page)
    _said(page, "The version chosen is saved to given-up.json again")
    assert page.page.locator("#review-photo").is_hidden()  # the version restored names none
    save_keys(page.page)
    _said(page, "Saved to given-up.json")
    assert not (root / "given-up.json.png").exists()
    assert "photo" not in json.loads((root / "given-up.json").read_bytes()).get("meta", {})
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_photo_kept_through_a_failed_restore_and_a_refused_one_given_up(
    browser: Any, folder: tuple[int, Path]
) -> None:
    root = folder[1]
    page = _fresh(browser, folder, "kept")
    _points(page, 2)
    save_keys(page.page)
    _said(page, "Saved to kept.json")
    page.page.set_input_files("#review-pick", str(root / "one.png"))
    page.page.route(
        "**/v1/review/restore?*",
        lambda route: route.fulfill(status=503, json={"detail": "busy"}),
    )
    _restore_the_newest_version(page)
    assert _said(page, "Not saved") == "Not saved: busy"
    save_keys(page.page)  # the photo picked is still this game's to save
    _said(page, "Saved to kept.json")
    assert (root / "kept.json.png").read_bytes() == (root / "one.png").read_bytes()
    # a photo the service will never take: given up, said, and the game saved without it
    page.page.set_input_files("#review-pick", str(root / "two.png"))
    page.page.route(
        "**/v1/review/photo?*",
        lambda route: (
            route.fulfill(status=413, json={"detail": "the photo is too large"})
            if route.request.method == "PUT"
            else route.continue_()
        ),
    )
    page.page.locator('#c-points .chip[data-value="4"]').click()  # (its card still selected)
    save_keys(page.page)
    said = _said(page, "Saved to kept.json")
    assert said.endswith("The photo is not kept: the photo is too large")
    assert _card_points(root, "kept") == 4
    assert (root / "kept.json.png").read_bytes() == (root / "one.png").read_bytes()
    asked: list[str] = []
    page.page.once("dialog", lambda dialog: (dialog.dismiss(), asked.append(dialog.message)))
    page.page.locator("#review-back").click()
    page.page.wait_for_url("**/review?lang=en")
    assert asked == []  # nothing left to save: the photo given up
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
@in_a_browser
def test_edits_made_while_a_save_is_on_its_way_are_saved_after_it(
    browser: Any, folder: tuple[int, Path]
) -> None:
    root = folder[1]
    page = _fresh(browser, folder, "after")
    _points(page, 6)
    held = Held(page.page, "**/v1/review/game?*", method="PUT")
    save_keys(page.page)
    until(lambda: bool(held.routes), page.page)
    page.page.locator('#c-points .chip[data-value="1"]').click()  # after its text was taken
    save_keys(page.page)
    held.release()
    until(lambda: len(held.sent) == 2, page.page)
    _saved_and_done(page)
    assert _card_points(root, "after") == 1
    page.close()
