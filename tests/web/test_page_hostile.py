"""The web page attacked (hardening, round three), in a real browser: a share link, a paste
or an upload whose JSON is not the shape of a game is refused with a message, and never
breaks the page, now or after a reload (it used to be kept in the browser's storage and
break every later visit); names and style names with markup are shown as text."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from tests.web.test_page import Page, cell

pytest.importorskip("starlette", reason="the serve extra")

CARD = {"style": "<svg onload=alert(1)>", "type": "<img src=x onerror=alert(2)>"}
CARD |= {"points": 1, "stars": 0, "sides": ["top", "right", "bottom", "left"]}
HOSTILE = [
    None,
    [],
    "a game",
    {"players": "abc"},
    {"players": [None]},
    {"players": [7]},
    {"players": [{"name": "x", "city": "zz"}]},
    {"players": [{"name": "x", "city": [None]}]},
    {"players": [{"name": "x", "city": [{"row": "a", "col": 0, "card": "A"}]}]},
    {"players": [{"name": "x", "city": [{"row": 0, "col": 0, "card": None}]}]},
    {"players": [{"name": "x", "city": [{"row": 0, "col": 0, "card": [1]}]}]},
    {"players": [{"name": "x", "city": [], "epiphanies": "e"}]},
    {"players": [{"name": "x", "city": [], "bonuses": [None]}]},
]


def _link(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _works_after_a_reload(page: Page) -> None:
    page.page.reload()
    page.page.wait_for_selector("body[data-ready]", timeout=20_000)
    cell(page, 0, 0).click()  # still a page to work on
    page.page.wait_for_selector("#score-rows tr td.total", timeout=10_000)


@pytest.mark.long
def test_a_share_link_that_is_not_a_game_is_refused_and_breaks_nothing(
    browser: Any,
    server: int,
) -> None:
    """Each hostile link opened in turn in one browser context (one storage): each refused
    with a message; then a reload still gives a page to work on (nothing of them kept)."""
    page = Page(browser, server, "/?lang=en")
    for k, value in enumerate(HOSTILE):
        page.page.goto(f"http://127.0.0.1:{server}/?lang=en&try={k}#g={_link(value)}")
        page.page.wait_for_selector("body[data-ready]", timeout=20_000)
        said = page.page.locator("#notice-text").inner_text()
        assert said.startswith("The share link could not be opened: "), (value, said)
    _works_after_a_reload(page)
    page.close()


def test_a_share_link_that_is_not_base64_is_refused(browser: Any, server: int) -> None:
    page = Page(browser, server, "/?lang=en#g=%%%<script>")
    assert page.page.locator("#notice-text").inner_text() == "The share link could not be read."
    page.close()


@pytest.mark.long
def test_a_paste_that_is_not_a_game_is_refused_and_breaks_nothing(
    browser: Any,
    server: int,
) -> None:
    """Each hostile paste in turn on one page: each refused with a message; then a reload
    still gives a page to work on."""
    page = Page(browser, server, "/?lang=en")
    for value in HOSTILE[3:]:
        page.page.locator("#io-text").fill(json.dumps(value))
        page.page.locator("#io-open").click()
        status = page.page.locator("#io-status")
        page.page.wait_for_function(
            "() => document.querySelector('#io-status').textContent.startsWith('Could not')",
            timeout=10_000,
        )
        assert status.inner_text().startswith("Could not open it: "), value
        page.page.evaluate("document.querySelector('#io-status').textContent = ''")
    _works_after_a_reload(page)
    page.close()


@pytest.mark.long
def test_markup_in_names_is_shown_as_text(browser: Any, server: int) -> None:
    name = "<img src=x onerror=alert(3)>"
    game = {"mode": "military", "players": [{"name": name, "city": []}]}
    game["players"][0]["city"] = [{"row": 0, "col": 0, "card": CARD}]  # type: ignore[index]
    page = Page(browser, server, f"/?lang=en#g={_link(game)}")
    dialogs: list[str] = []
    page.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    problems = page.page.locator("#problems")
    problems.get_by_text("<svg onload=alert(1)>").wait_for(timeout=10_000)  # a problem's words
    assert "<img src=x onerror=alert(2)>" in problems.inner_text()
    assert page.page.locator("#player-name, input").evaluate_all(
        f"(inputs) => inputs.some((i) => i.value === {json.dumps(name)})"
    )
    assert page.page.locator("#score-rows img, #grid img, #grid svg *[onload]").count() == 0
    assert page.page.evaluate("document.body.innerHTML.includes('<img src=x')") is False
    page.page.wait_for_timeout(300)
    assert dialogs == []
    page.errors = [e for e in page.errors if "status of 422" not in e]  # the game's problems
    page.close()


@pytest.mark.long
def test_the_refusal_is_said_in_portuguese(browser: Any, server: int) -> None:
    page = Page(browser, server, "/?lang=pt-BR")
    page.page.locator("#io-text").fill(json.dumps({"players": [{"name": "x", "city": "zz"}]}))
    page.page.locator("#io-open").click()
    status = page.page.locator("#io-status").inner_text()
    assert "jogador 1: `city` deve ser uma lista" in status
    assert "must be a list" not in status
    page.close()


def _spread(cols: int) -> dict[str, Any]:
    card = {"style": "gothic", "type": "building", "facility": "base", "points": 1, "stars": 0}
    card |= {"sides": ["top"]}
    city = [{"row": 0, "col": 0, "card": card}, {"row": -1000, "col": cols - 1, "card": card}]
    return {"mode": "military", "players": [{"name": "Far", "city": city}]}


@pytest.mark.long
def test_a_city_spread_over_2000_columns_is_refused_not_four_million_cells(
    browser: Any,
    server: int,
) -> None:
    """Rows -1,000 and 1,000 are a game of the format: drawn, they were four million buttons
    and the tab hung (the game kept in the storage hung every later visit too)."""
    far = _spread(1000)
    far["players"][0]["city"][0]["row"] = 1000
    page = Page(browser, server, f"/?lang=en#g={_link(far)}")
    said = page.page.locator("#notice-text").inner_text()
    assert said.startswith("The share link could not be opened: player 1: the city spreads")
    page.page.locator("#io-text").fill(json.dumps(far))
    page.page.locator("#io-open").click()
    status = page.page.locator("#io-status").inner_text()
    assert "player 1: the city spreads over more than 160 rows or columns" in status
    _works_after_a_reload(page)
    page.close()
    portuguese = Page(browser, server, "/?lang=pt-BR")
    portuguese.page.locator("#io-text").fill(json.dumps(far))
    portuguese.page.locator("#io-open").click()
    status = portuguese.page.locator("#io-status").inner_text()
    assert "jogador 1: a cidade se espalha por mais de 160 linhas ou colunas" in status
    portuguese.close()


@pytest.mark.long
def test_a_city_spread_over_160_columns_is_drawn(browser: Any, server: int) -> None:
    wide = _spread(160)
    wide["players"][0]["city"][1]["row"] = 0  # type: ignore[index]
    page = Page(browser, server, f"/?lang=en#g={_link(wide)}")
    assert page.page.locator("#grid .cell").count() == 3 * 162
    page.errors = [e for e in page.errors if "status of 422" not in e]
    page.close()
