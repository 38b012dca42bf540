"""The page's work kept on the device when several tabs are open, and the saved games'
list: one tab never overwrites another's game in progress without a word, tabs opened at
once do not set a good game aside, and a saved game the page does not show is never erased
by keeping or deleting another (docs/web.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.test_page import Page, cell, inline, one_city, share, total_of

SAVED, KEPT, SET_ASIDE = "neweden.game", "neweden.saved", "neweden.game.set-aside"


def _stored(page: Page, key: str) -> Any:
    text = page.page.evaluate(f"localStorage.getItem({json.dumps(key)})")
    return None if text is None else json.loads(text)


@pytest.mark.long
def test_a_tab_whose_game_another_tab_changed_stops_overwriting_it(
    browser: Any, server: int
) -> None:
    first = Page(browser, server, "/?lang=en")
    first.wait_total("Player 1", "0")
    cell(first, 0, 0).click()
    first.wait_total("Player 1", "1")
    second = Page(browser, server, "/?lang=en", tab_of=first)  # one device, two tabs
    second.wait_total("Player 1", "1")  # the game in progress, the first tab's
    second.page.once("dialog", lambda dialog: dialog.accept())  # (replace the game: yes)
    second.page.locator("#new-game").click()
    second.page.locator("#p-name").fill("Bia")
    second.page.locator("#p-name").dispatch_event("change")
    second.wait_total("Bia", "0")
    first.page.locator("#notice:not([hidden])").wait_for()
    assert "changed in another tab" in first.page.locator("#notice-text").inner_text()
    cell(first, 0, 1).click()  # more work in the first tab: not written over the second's
    first.wait_total("Player 1", "2")
    assert [p["name"] for p in _stored(second, SAVED)["players"]] == ["Bia"]
    first.page.locator("#saved-games summary").click()
    first.page.locator("#saved-keep").click()  # what the notice says keeps it
    kept = _stored(first, KEPT)
    assert any(len(e["game"]["players"][0]["city"]) == 2 for e in kept)
    second.close()
    first.close()


@pytest.mark.long
def test_tabs_opened_at_once_set_no_good_game_aside(browser: Any, server: int) -> None:
    players = [
        {"name": f"P{k}", "city": [{"row": 0, "col": c, "card": inline()} for c in range(60)]}
        for k in range(4)
    ]
    game = {"mode": "military", "players": players}
    ctx = browser.new_context()
    setup = ctx.new_page()
    setup.goto(f"http://127.0.0.1:{server}/?lang=en")
    setup.wait_for_selector("body[data-ready]")
    setup.evaluate(f"localStorage.setItem('{SAVED}', {json.dumps(json.dumps(game))})")
    setup.close()
    tabs = [ctx.new_page(), ctx.new_page()]
    for tab in tabs:  # (as a browser restoring its tabs: both drawing the saved game at once)
        tab.goto(f"http://127.0.0.1:{server}/?lang=en", wait_until="commit")
    for tab in tabs:
        tab.wait_for_selector("body[data-ready]", timeout=30_000)
        assert tab.locator("#notice").is_hidden(), tab.locator("#notice-text").inner_text()
        assert tab.evaluate(f"localStorage.getItem('{SET_ASIDE}')") is None
    assert json.loads(tabs[0].evaluate(f"localStorage.getItem('{SAVED}')")) is not None
    ctx.close()


@pytest.mark.long
def test_deleting_a_saved_game_keeps_the_entries_the_list_does_not_show(
    browser: Any, server: int
) -> None:
    good = {"mode": "military", "players": [one_city(inline())]}
    hidden = {"mode": "military", "players": [one_city(name=f"P{k}") for k in range(5)]}
    entries = [
        {"id": "a", "name": "Good", "saved": "2026-12-01T10:00:00Z", "game": good},
        {"id": "b", "name": "Five players", "saved": "2026-12-01T10:00:00Z", "game": hidden},
    ]
    page = Page(browser, server, "/?lang=en")
    page.page.evaluate(f"localStorage.setItem('{KEPT}', {json.dumps(json.dumps(entries))})")
    page.page.reload()
    page.page.wait_for_selector("body[data-ready]")
    page.page.locator("#saved-games summary").click()
    assert page.page.locator("#saved-list .saved-name").all_inner_texts()[0].startswith("Good")
    page.page.once("dialog", lambda dialog: dialog.accept())
    page.page.locator("#saved-list .saved-delete").first.click()
    page.page.wait_for_function("() => !document.querySelector('#saved-list .saved-name')")
    assert [e["id"] for e in _stored(page, KEPT)] == ["b"]  # the one not shown, kept
    page.close()


@pytest.mark.long
def test_a_player_added_gets_a_name_no_player_has_and_a_name_cannot_be_emptied(
    browser: Any, server: int
) -> None:
    game = {"mode": "military", "players": [one_city(inline())]}
    page = Page(browser, server, f"/?lang=en{share(game)}")
    page.wait_total("Ana", total_of(game, "Ana"))
    page.page.locator("#p-add").click()  # Player 2
    page.page.locator("#player-tabs [role=tab]", has_text="Ana").click()
    page.page.locator("#p-remove").click()
    page.page.locator("#p-add").click()  # not a second "Player 2"
    tabs = page.page.locator("#player-tabs [role=tab]")
    page.page.wait_for_function(
        "() => document.querySelectorAll('#player-tabs [role=tab]').length === 2"
    )
    names = tabs.all_inner_texts()
    assert len(set(names)) == 2, names
    page.page.locator("#p-name").fill("   ")
    page.page.locator("#p-name").dispatch_event("change")
    assert page.page.locator("#p-name").input_value() == names[-1]  # the name before kept
    assert page.page.locator("#player-tabs [role=tab]").all_inner_texts() == names
    page.close()


@pytest.mark.long
def test_an_epiphany_id_with_a_space_and_an_empty_bonus_name_are_not_taken(
    browser: Any, server: int
) -> None:
    """Both made a game the service refuses, the score table emptied for a reason in the
    API's words; now each is refused where it is typed and the value before kept."""
    page = Page(browser, server, "/?lang=en")
    page.wait_total("Player 1", "0")
    page.page.locator("#extras summary").click()
    page.page.locator("#e-add").click()
    card = page.page.locator("#epiphanies input").first
    card.fill("E 12")
    card.dispatch_event("change")
    assert card.input_value() == ""
    assert card.evaluate("(input) => input.validationMessage") == (
        "“E 12” is not a catalog id (letters, digits, _ and -, no space)"
    )
    page.page.locator("#b-add").click()
    name = page.page.locator("#bonuses input").first
    before = name.input_value()
    name.fill("")
    name.dispatch_event("change")
    assert name.input_value() == before
    page.page.wait_for_selector("#totals:not(.stale)")
    page.total("Player 1")  # the game is still one the service scores: its table shown
    assert page.page.locator("#problems li.detail").count() == 0
    page.close()
