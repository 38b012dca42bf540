"""The page on a phone first (issue 39, "The phone first"), in a real browser with touch:
on a 360-pixel phone nothing is wider than the screen and nothing scrolls sideways but the
grid (panned) and a picture tapped larger; the score table is a block a player with every
figure named and in sight; the grid has its row and column numbers, aligned with its
cells, and zooms with its buttons, to fit the screen and with a pinch of two fingers; every
tap target is at least 44 pixels high."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_page import Page, in_a_browser

pytest.importorskip("starlette", reason="the serve extra")

PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "has_touch": True,
    "is_mobile": True,
}

#: The elements that scroll sideways, by id, and those of them the page means to.
_SCROLLERS = """() => [...document.querySelectorAll('*')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1
    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
  .map((e) => e.id || e.className || e.tagName)"""
#: Elements past the right edge of the window, outside the boxes that pan.
_PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => !e.closest('#grid-wrap, #picture-wrap') && e.getClientRects().length
    && e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((e) => e.id || e.className || e.tagName)"""


def _example(browser: Any, server: int, lang: str) -> Page:
    page = Page(browser, server, f"/?lang={lang}&example=final", **PHONE)
    page.wait_total("Sarah", "78")
    return page


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_360_pixel_phone_scrolls_nothing_sideways_but_the_grid(
    browser: Any, server: int, lang: str
) -> None:
    """The manual's example with every section open, an audit shown and the picture tapped
    larger: the page is as wide as the phone, nothing sticks out past its right edge, and
    only the grid's box and the enlarged picture's scroll sideways (they pan)."""
    page = _example(browser, server, lang)
    page.page.locator("#score-rows tr[data-player='Sarah'] button.link").tap()
    for section in ("#settings", "#extras", "#saved-games"):
        page.page.locator(f"{section} > summary").tap()
    page.page.locator("#picture:not([hidden])").wait_for(timeout=10_000)
    assert page.page.evaluate(_PAST_THE_EDGE) == []
    assert page.page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert set(page.page.evaluate(_SCROLLERS)) <= {"grid-wrap"}
    page.page.locator("#picture").tap()  # larger: it pans in its box
    wrap = page.page.locator("#picture-wrap")
    assert "zoomed" in (wrap.get_attribute("class") or "")
    assert page.page.evaluate(_SCROLLERS) in (["grid-wrap", "picture-wrap"], ["picture-wrap"])
    page.page.locator("#picture").tap()  # and back
    assert "zoomed" not in (wrap.get_attribute("class") or "")
    page.close()


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_score_table_is_a_block_a_player_every_figure_named(
    browser: Any, server: int, lang: str
) -> None:
    """Each player's row is a block within the phone's width, its nine figures each in sight
    under its column's name (the name the table's header gives it on a wide screen)."""
    page = _example(browser, server, lang)
    header = page.page.locator("#score thead th").all_inner_texts()
    for player in ("Sarah", "Bruno", "Carla"):
        row = page.page.locator(f"#score-rows tr[data-player='{player}']")
        cells = row.locator("td")
        labels = [cells.nth(k).get_attribute("data-label") for k in range(cells.count())]
        assert labels == header[1:]
        for k in range(cells.count()):
            box = cells.nth(k).bounding_box()
            assert box is not None
            assert box["width"] > 0
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= 360
            # the column's name shown above the figure (the cell's ::before)
            shown = page.page.evaluate(
                "(td) => getComputedStyle(td, '::before').content", cells.nth(k).element_handle()
            )
            assert shown == f'"{labels[k]}"'
    page.close()


def _cells_x(page: Page, row: int) -> dict[int, float]:
    found: dict[int, float] = page.page.evaluate(
        """(row) => Object.fromEntries([...document.querySelectorAll(`#grid [data-row="${row}"]`)]
          .map((c) => { const b = c.getBoundingClientRect();
                        return [c.dataset.col, b.left + b.width / 2]; }))""",
        row,
    )
    return {int(k): v for k, v in found.items()}


@pytest.mark.long
@in_a_browser
def test_the_rulers_number_the_rows_and_columns_of_the_grid(browser: Any, server: int) -> None:
    """The numbers above the grid are its columns, each centred over its column; those beside
    it its rows, each level with its row (the messages say "row 0, column 2")."""
    page = _example(browser, server, "en")
    cols = page.page.locator("#ruler-cols span")
    rows = page.page.locator("#ruler-rows span")
    grid_cols = sorted(
        {
            int(c)
            for c in page.page.locator("#grid .cell").evaluate_all(
                "(cells) => cells.map((c) => c.dataset.col)"
            )
        }
    )
    grid_rows = sorted(
        {
            int(r)
            for r in page.page.locator("#grid .cell").evaluate_all(
                "(cells) => cells.map((c) => c.dataset.row)"
            )
        }
    )
    assert [int(x) for x in cols.all_inner_texts()] == grid_cols
    assert [int(x) for x in rows.all_inner_texts()] == grid_rows
    centres = _cells_x(page, grid_rows[0])
    for k, col in enumerate(grid_cols):
        box = cols.nth(k).bounding_box()
        assert box is not None
        assert abs(box["x"] + box["width"] / 2 - centres[col]) < 1
    _rows_level(page, rows, grid_rows)
    for _ in range(3):  # zoomed out: the cells stay square, the rows level with their numbers
        page.page.locator("#zoom-out").tap()
    cell = page.page.locator("#grid .cell").first.bounding_box()
    assert cell is not None
    assert abs(cell["width"] - cell["height"]) < 1
    _rows_level(page, rows, grid_rows)
    page.close()


def pinch(page: Page, x: float, y: float, spans: tuple[float, ...]) -> None:
    """Two fingers put down around (x, y) `spans[0]` pixels apart, moved to each next span,
    then lifted (touch events through the browser's DevTools protocol)."""
    cdp = page.context.new_cdp_session(page.page)

    def touch(kind: str, apart: float) -> None:
        points = [{"x": x - apart / 2, "y": y, "id": 1}, {"x": x + apart / 2, "y": y, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", spans[0])
    for apart in spans[1:]:
        touch("touchMove", apart)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _rows_level(page: Page, rows: Any, grid_rows: list[int]) -> None:
    """Each row number is level with its row of cells."""
    for k, row in enumerate(grid_rows):
        box = rows.nth(k).bounding_box()
        cell = page.page.locator(f'#grid [data-row="{row}"]').first.bounding_box()
        assert box is not None
        assert cell is not None
        assert abs(box["y"] + box["height"] / 2 - (cell["y"] + cell["height"] / 2)) < 1


def _cell_width(page: Page) -> float:
    box = page.page.locator("#grid .cell").first.bounding_box()
    assert box is not None
    return float(box["width"])


@pytest.mark.long
@in_a_browser
def test_the_grid_zooms_with_its_buttons_and_fits_the_screen(browser: Any, server: int) -> None:
    """Larger cells, smaller cells (1.25 times each), the whole grid fitted in the phone's
    width (the example's grid is wider than it), and the size kept after a reload."""
    page = _example(browser, server, "en")
    usual = _cell_width(page)
    page.page.locator("#zoom-in").tap()
    assert _cell_width(page) == pytest.approx(usual * 1.25, abs=0.5)
    page.page.locator("#zoom-out").tap()
    page.page.locator("#zoom-out").tap()
    assert _cell_width(page) == pytest.approx(usual / 1.25, abs=0.5)
    wrap = page.page.locator("#grid-wrap")
    assert (
        page.page.evaluate("() => document.getElementById('grid-wrap').scrollWidth")
        > (wrap.evaluate("(w) => w.clientWidth"))
        or _cell_width(page) < usual
    )  # (smaller cells may already fit)
    page.page.locator("#zoom-fit").tap()
    assert wrap.evaluate("(w) => w.scrollWidth <= w.clientWidth")
    fitted = _cell_width(page)
    page.page.reload()
    page.page.wait_for_selector("body[data-ready]", timeout=20_000)
    assert _cell_width(page) == pytest.approx(fitted, abs=0.5)
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_pinch_of_two_fingers_zooms_the_grid(browser: Any, server: int) -> None:
    """Two fingers put on the grid and moved apart make its cells larger, in proportion."""
    page = _example(browser, server, "en")
    usual = _cell_width(page)
    page.page.evaluate("() => document.getElementById('grid').scrollIntoView({block: 'center'})")
    box = page.page.locator("#grid").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert 0 < y < 740
    pinch(page, x, y, (60, 80, 100, 120))
    assert _cell_width(page) == pytest.approx(usual * 2, rel=0.05)  # 60 -> 120 pixels apart
    page.close()


#: Each visible thing a finger taps whose height is under 44 pixels (a checkbox is tapped
#: through its label).
_SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input:not([type=checkbox]), summary, label.inline, .file')]
  .filter((e) => e.getClientRects().length && !e.closest('[hidden]')
    && e.getBoundingClientRect().height < 44)
  .map((e) => `${e.id || e.className || e.tagName}: ${e.getBoundingClientRect().height}`)"""


@pytest.mark.long
@in_a_browser
def test_every_tap_target_is_at_least_44_pixels(browser: Any, server: int) -> None:
    page = _example(browser, server, "pt-BR")
    page.page.locator("#score-rows tr[data-player='Sarah'] button.link").tap()
    for section in ("#settings", "#extras", "#saved-games"):
        page.page.locator(f"{section} > summary").tap()
    assert page.page.evaluate(_SMALL_TARGETS) == []
    page.close()
