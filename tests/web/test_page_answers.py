"""The page at `/` when the service answers late, out of order or not at all, and when the
browser cannot read a file or keep site data: nothing an older game's answer says passes
for the game on the screen, and nothing fails without a word (docs/web.md, "When the
service is slow or away"). Requests are held or failed with Playwright's routes; file reads
with tests.web.requests' `READS`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.requests import READS, Held, failed_on_purpose, text_log, until
from tests.web.test_page import Page, cell, inline, one_city, share, total_of

#: Every text the totals bar shows, in order (`window.bars`), from the page's first line.
_BAR_LOG = text_log("totals", "bars")
#: The browser keeps no site data (cookies and site data blocked): localStorage throws.
_NO_STORAGE = """
Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The user denied it", "SecurityError"); },
});
"""


def _blank(browser: Any, server: int, script: str = "") -> Page:
    """The page in English on a new game, its first score shown."""
    page = Page(browser, server, "/?lang=en", script)
    page.wait_total("Player 1", "0")
    return page


def _bar(page: Page) -> str:
    return str(page.page.locator("#totals").inner_text())


@pytest.mark.long
def test_a_score_the_service_did_not_answer_leaves_no_old_total_and_is_asked_again(
    browser: Any, server: int
) -> None:
    page = _blank(browser, server)
    cell(page, 0, 0).click()
    page.wait_total("Player 1", "1")
    page.page.route("**/v1/score?*", lambda route: route.abort("internetdisconnected"))
    cell(page, 0, 1).click()
    page.page.wait_for_function(
        "() => document.getElementById('totals').textContent"
        ".startsWith('The service did not answer')"
    )
    assert page.page.locator("#score-rows tr").count() == 0  # no total of the older game
    assert page.page.locator("#score-valid").inner_text() == ""
    page.page.unroute("**/v1/score?*")
    page.wait_total("Player 1", "2")  # asked again without another change
    assert _bar(page) == "Player 1: 2 · place 1"
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
def test_an_answer_for_an_older_game_is_never_drawn(browser: Any, server: int) -> None:
    page = _blank(browser, server, _BAR_LOG)
    cell(page, 0, 0).click()
    page.wait_total("Player 1", "1")
    held = Held(page.page, "**/v1/score?*", first=True).routes
    cell(page, 0, 1).click()
    until(lambda: bool(held), page.page)  # the two-card game's score asked, its answer held
    mark = page.page.evaluate("window.bars.length")
    cell(page, 1, 1).click()  # a third card: the held answer is of an older game now
    held[0].continue_()
    page.wait_total("Player 1", "3")
    after = page.page.evaluate(f"window.bars.slice({mark})")
    assert "Player 1: 2 · place 1" not in after, after
    assert _bar(page) == "Player 1: 3 · place 1"
    page.close()


@pytest.mark.long
def test_problems_of_an_older_game_cannot_be_clicked_while_the_new_one_is_scored(
    browser: Any, server: int
) -> None:
    apart = {"row": 5, "col": 5, "card": inline()}
    game = {"mode": "military", "players": [one_city(inline()), one_city(inline(), name="Bruno")]}
    game["players"][1]["city"].append(apart)
    page = Page(browser, server, f"/?lang=en{share(game)}")
    page.wait_total("Bruno", total_of(game, "Bruno"))
    problem = page.page.locator("#problems button.problem.error", has_text="Bruno")
    problem.wait_for()
    scores = Held(page.page, "**/v1/score?*")
    page.page.locator("#player-tabs [role=tab]", has_text="Bruno").click()
    page.page.locator("#p-remove").click()
    assert problem.is_disabled()  # its player is gone: it points at nothing now
    until(lambda: bool(scores.routes), page.page)
    scores.release()
    alone = {"mode": "military", "players": game["players"][:1]}
    page.page.wait_for_selector("#totals:not(.stale)")  # the answer for the game as it is
    page.wait_total("Ana", total_of(alone, "Ana"))
    assert page.page.locator("#problems button.problem.error").count() == 0
    cell(page, 0, 1).click()  # the page still works
    page.page.wait_for_function("() => document.querySelectorAll('#grid .card').length === 2")
    page.close()


@pytest.mark.long
def test_a_request_outrun_and_then_failed_leaves_the_status_alone(
    browser: Any, server: int
) -> None:
    page = _blank(browser, server)
    held = Held(page.page, "**/v1/score?*", first=True).routes
    cell(page, 0, 0).click()
    until(lambda: bool(held), page.page)
    cell(page, 0, 1).click()
    page.wait_total("Player 1", "2")
    with page.page.expect_event("requestfailed"):
        held[0].abort("failed")
    page.page.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # its failure seen
    assert page.page.locator("#live-status").inner_text() == ""
    assert _bar(page) == "Player 1: 2 · place 1"
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
def test_a_file_read_after_a_newer_game_was_opened_is_not_opened(
    browser: Any, server: int, tmp_path: Path
) -> None:
    carla = tmp_path / "held-carla.json"
    carla.write_text(json.dumps({"mode": "military", "players": [{"name": "Carla", "city": []}]}))
    gone = tmp_path / "unreadable-bruno.json"
    gone.write_text("{}")
    page = Page(browser, server, "/?lang=en", READS)
    page.page.locator("#io-file").set_input_files(str(carla))  # its reading held
    davi = {"mode": "military", "players": [{"name": "Davi", "city": []}]}
    page.page.locator("#io-text").fill(json.dumps(davi))
    page.page.locator("#io-open").click()
    page.wait_total("Davi", "0")
    page.page.evaluate("window.releaseReads()")
    page.page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
    page.wait_total("Davi", "0")
    assert page.page.locator("#player-tabs [role=tab]").all_inner_texts() == ["Davi"]
    page.page.locator("#io-file").set_input_files(str(gone))
    page.page.wait_for_function(
        "() => document.getElementById('io-status').textContent.startsWith('The file')"
    )
    assert page.page.locator("#io-status").inner_text() == (
        "The file unreadable-bruno.json could not be read: the disk is gone"
    )
    assert page.page.locator("#player-tabs [role=tab]").all_inner_texts() == ["Davi"]
    page.close()


@pytest.mark.long
def test_a_language_chosen_last_wins_and_a_page_without_storage_works(
    browser: Any, server: int
) -> None:
    page = _blank(browser, server)
    held = Held(page.page, "**/web/messages.json?lang=pt-BR").routes
    page.page.locator("#lang").select_option("pt-BR")  # its words held
    until(lambda: bool(held), page.page)
    page.page.locator("#lang").select_option("en")
    page.page.wait_for_function("() => document.getElementById('live-status').textContent === ''")
    with page.page.expect_response("**/web/messages.json?lang=pt-BR"):
        held[0].continue_()  # the words of the language left come last
    page.page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
    page.wait_total("Player 1", "0")
    assert page.page.evaluate("document.documentElement.lang") == "en"
    assert page.page.locator("#lang").input_value() == "en"
    page.close()
    bare = Page(browser, server, "/?lang=pt-BR", _NO_STORAGE)  # ready, or the test fails
    cell(bare, 0, 0).click()
    bare.wait_total("Jogador 1", "1")
    bare.errors = [e for e in bare.errors if "storage" not in e.lower()]
    bare.close()


@pytest.mark.long
def test_where_a_card_may_go_and_the_picture_say_when_the_service_fails(
    browser: Any, server: int
) -> None:
    page = _blank(browser, server)
    page.page.route(
        "**/v1/placements?*",
        lambda route: route.fulfill(status=503, json={"detail": "busy"}),
    )
    cell(page, 0, 0).click()
    page.wait_total("Player 1", "1")
    status = page.page.locator("#live-status")
    assert status.inner_text() == "Where the card may go is not known: busy"
    page.page.route("**/v1/render?*", lambda route: route.abort("internetdisconnected"))
    page.page.locator("#io-picture").click()
    page.page.wait_for_function(
        "() => document.getElementById('io-status').textContent.startsWith('The picture')"
    )
    assert (
        page.page.locator("#io-status")
        .inner_text()
        .startswith("The picture of the result could not be made: TypeError")
    )
    page.errors = failed_on_purpose(page.errors)
    page.close()


@pytest.mark.long
def test_a_card_selected_leaves_the_score_shown_as_it_is(browser: Any, server: int) -> None:
    game = {"mode": "military", "players": [one_city(inline()), one_city(inline(), name="Bruno")]}
    game["players"][1]["city"].append({"row": 5, "col": 5, "card": inline()})
    page = Page(browser, server, f"/?lang=en{share(game)}")
    page.wait_total("Bruno", total_of(game, "Bruno"))
    cell(page, 0, 0).click()  # a card selected: the game is the same
    assert "stale" not in (page.page.locator("#totals").get_attribute("class") or "")
    problem = page.page.locator("#problems button.problem.error", has_text="Bruno")
    assert problem.is_enabled()
    problem.click()  # one problem, then at once another player's: both taken
    assert page.page.locator("#player-tabs [aria-selected=true]").inner_text() == "Bruno"
    page.close()


@pytest.mark.long
def test_a_language_whose_words_cannot_be_read_leaves_the_page_as_it_was(
    browser: Any, server: int
) -> None:
    page = _blank(browser, server)
    page.page.route("**/web/messages.json?lang=pt-BR", lambda route: route.abort("failed"))
    page.page.locator("#lang").select_option("pt-BR")
    page.page.wait_for_selector("#notice:not([hidden])")
    assert (
        "The page could not change its language" in page.page.locator("#notice-text").inner_text()
    )
    assert page.page.evaluate("document.documentElement.lang") == "en"
    assert page.page.locator("#lang").input_value() == "en"
    assert page.page.url.endswith("/?lang=en")  # a reload speaks English too
    page.wait_total("Player 1", "0")  # scored again
    page.errors = failed_on_purpose(page.errors)
    page.close()
