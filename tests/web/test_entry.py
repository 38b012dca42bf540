"""Entering a city at table speed (issue 39, "Fast entry"), in a real browser: the same
realistic 10-card city entered by taps alone on a 390 by 844 phone, by mouse clicks on a
desktop and by the quick-entry line, each action counted (a tap, a click, a key press) and
the count held under the issue's targets (80 on the phone, 70 on the desktop); the city
read back from the page's own JSON equal to the one entered, card by card. The quick-entry
line read word by word in both languages. docs/web.md reports the counts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from tests.web.test_page import Page, cell, in_a_browser

pytest.importorskip("starlette", reason="the serve extra")

#: A realistic city: three rows read off a photo, four styles, two types, every facility,
#: 0 to 7 points, 0 to 3 stars, one to four icons. (row, col, style, type, facility,
#: points, stars, sides)
CITY = [
    (0, 0, "gothic", "building", "shelter", 3, 0, "rb"),
    (0, 1, "gothic", "green_area", "lab", 5, 1, "rbl"),
    (0, 2, "futurist", "green_area", "medical", 2, 0, "bl"),
    (1, 0, "sustainable", "building", "tower", 4, 2, "tr"),
    (1, 1, "sustainable", "building", "shelter", 1, 0, "trbl"),
    (1, 2, "futurist", "building", "base", 6, 3, "tbl"),
    (2, 0, "renaissance", "green_area", "lab", 2, 1, "tr"),
    (2, 1, "renaissance", "green_area", "medical", 3, 0, "trl"),
    (2, 2, "gothic", "green_area", "shelter", 0, 0, "tl"),
    (2, 3, "gothic", "building", "tower", 7, 2, "l"),
]
SIDES = {"t": "top", "r": "right", "b": "bottom", "l": "left"}
#: The card to place on a new page: what a card placed has before it is edited.
DRAFT = ("gothic", "building", "shelter", 1, 0, "trbl")
#: The quick-entry lines of the city, one a card, as docs/web.md explains them: what is not
#: said is the last card's style and type and the card to place's facility, points, stars
#: and icons; Shift+Enter after the last card of a row.
LINES = [
    "3 rb",
    "gr l 5 1 rbl",
    "f m 2 bl",
    "s b t 4 2 tr",
    "1",
    "f ba 6 3 tbl",
    "r g l 2 1 tr",
    "m 3 trl",
    "g 0 tl",
    "b t 7 2 l",
]
ROW_ENDS = {2, 5}  # the cards after which Shift+Enter goes to the next row


def _card(style: str, kind: str, facility: str, points: int, stars: int, sides: str) -> Any:
    """A card as the page writes it (`sides`: letters of t, r, b and l)."""
    return {
        "style": style,
        "type": kind,
        "facility": facility,
        "points": points,
        "stars": stars,
        "sides": [SIDES[s] for s in "trbl" if s in sides],
    }


def wanted() -> dict[tuple[int, int], dict[str, Any]]:
    return {(r, c): _card(*card) for r, c, *card in CITY}


def entered(page: Page, name: str | None = None) -> dict[tuple[int, int], dict[str, Any]]:
    """The city of the one player (named `name`) as the page would download it (its
    one-line JSON)."""
    page.page.locator("#io-line").click()
    game = json.loads(page.page.locator("#io-text").input_value())
    (player,) = game["players"]
    assert name is None or player["name"] == name
    return {(p["row"], p["col"]): p["card"] for p in player["city"]}


@dataclass
class Counted:
    """A page driven by taps (or clicks) and key presses, each one counted."""

    page: Page
    touch: bool
    actions: int = 0

    def press(self, selector: str) -> None:
        target = self.page.page.locator(selector)
        if self.touch:
            target.tap()
        else:
            target.click()
        self.actions += 1

    def chip(self, group: str, value: object) -> None:
        self.press(f'#c-{group} .chip[data-value="{value}"]')

    def type(self, text: str) -> None:
        self.page.page.keyboard.type(text)
        self.actions += len(text)

    def key(self, *keys: str) -> None:
        self.page.page.keyboard.press("+".join(keys))
        self.actions += len(keys)


def _by_taps(counted: Counted) -> None:
    """The city by taps: each card's cell, then only the chips and icons where the card
    differs from what the form shows (the last card's style and type, the card to place's
    facility, points, stars and icons)."""
    style, kind, facility, points, stars, sides = DRAFT
    for row, col, *card in CITY:
        counted.press(f'#grid [data-row="{row}"][data-col="{col}"]')
        counted.page.page.locator(
            f'#grid .card.selected[data-row="{row}"][data-col="{col}"]'
        ).wait_for(timeout=10_000)
        new_style, new_kind, new_facility, new_points, new_stars, new_sides = card
        if new_style != style:
            counted.chip("style", new_style)
        if new_kind != kind:
            counted.chip("type", new_kind)
        if new_facility != facility:
            counted.chip("facility", new_facility)
        if new_points != points:
            counted.chip("points", new_points)
        if new_stars != stars:
            counted.chip("stars", new_stars)
        for letter, side in SIDES.items():
            if (letter in new_sides) != (letter in sides):
                counted.press(f"#f-icon-{side}")
        style, kind = new_style, new_kind  # the next card keeps them


def _name(counted: Counted, name: str) -> None:
    """The player named: the field tapped, its words selected and the name typed (the field
    is left by the tap on the grid's first cell, counted there)."""
    counted.press("#p-name")
    counted.key("Control", "a")
    counted.type(name)


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize(
    ("device", "most"),
    [("phone", 80), ("desktop", 70)],
)
def test_a_ten_card_city_by_taps_under_the_target(
    browser: Any, server: int, device: str, most: int, lang: str
) -> None:
    """The realistic city entered by taps on a phone (clicks on a desktop): every card
    there as entered, in at most 80 taps and key presses on the phone, 70 on the desktop."""
    if device == "phone":
        context: dict[str, Any] = {
            "viewport": {"width": 390, "height": 844},
            "has_touch": True,
            "is_mobile": True,
        }
    else:
        context = {"viewport": {"width": 1280, "height": 900}}
    page = Page(browser, server, f"/?lang={lang}", **context)
    counted = Counted(page, touch=device == "phone")
    _name(counted, "Ana")
    _by_taps(counted)
    print(f"{device} ({lang}): {counted.actions} taps and key presses")
    assert entered(page, "Ana") == wanted()
    assert counted.actions <= most
    page.close()


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_a_ten_card_city_by_the_quick_entry_line(browser: Any, server: int, lang: str) -> None:
    """The realistic city typed in the quick-entry line: one line a card, Enter after each
    (Shift+Enter at the end of a row): every card there as typed. The key presses are
    counted and reported (docs/web.md): typing is the desktop's fast way, not a way of
    fewer presses than taps."""
    page = Page(browser, server, f"/?lang={lang}", viewport={"width": 1280, "height": 900})
    counted = Counted(page, touch=False)
    counted.press("#quick")
    for k, line in enumerate(LINES):
        counted.type(line)
        if k in ROW_ENDS:
            counted.key("Shift", "Enter")
        else:
            counted.key("Enter")
        page.page.locator("#grid .card").nth(k).wait_for(timeout=10_000)
    print(f"quick-entry line ({lang}): {counted.actions} key presses and clicks")
    assert entered(page) == wanted()
    assert counted.actions <= 96  # docs/web.md: above the 70 of taps, and no more than now
    page.close()


#: What the line reads, in each language: the line, then the card (the card to place being
#: DRAFT) or the start of the error.
_READ = [
    ("en", "g b lab 5 2 trb", ("gothic", "building", "lab", 5, 2, "trb")),
    ("en", "lab 5** t", ("gothic", "building", "lab", 5, 2, "t")),
    ("en", "gr sh 0", ("gothic", "green_area", "shelter", 0, 0, "trbl")),
    ("en", "s b ba 4 1 rl", ("sustainable", "building", "base", 4, 1, "rl")),
    ("en", "Praça plaza_x 2", ("praca", "plaza_x", "shelter", 2, 0, "trbl")),
    ("pt-BR", "got con lab 5 2 cdb", ("gothic", "building", "lab", 5, 2, "trb")),
    ("pt-BR", "sust área ab 3 e", ("sustainable", "green_area", "shelter", 3, 0, "l")),
    ("pt-BR", "ren a torre 1 1 cd", ("renaissance", "green_area", "tower", 1, 1, "tr")),
    ("en", "g b lab 5 7", "the stars go from 0 to 3"),
    ("en", "g b lab 5 2 1", "at most two numbers"),
    ("en", "g b x 1", "“x” is not a facility"),
    ("en", "g b lab 5 2 tr tr", "“tr”: the icons are given twice"),
    ("en", "g 5 t?", "“t?” is neither a name"),
    ("en", "1 2 _x", "“_x” is neither a name"),
    ("en", "1 2 日本", "“日本” is neither a name"),
    ("en", "g b 5 tt", "“tt”: the icons are given twice"),
    ("en", "military g b 3", ("gothic", "building", "base", 3, 0, "trbl")),
    ("en", "g b research 3 l", ("gothic", "building", "lab", 3, 0, "l")),
    ("pt-BR", "go\u0301tico con 2", ("gothic", "building", "shelter", 2, 0, "trbl")),
    ("pt-BR", "g b lab 5 7", "as estrelas vão de 0 a 3"),
]


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_quick_entry_line_reads_each_word_by_its_form(
    browser: Any, server: int, lang: str
) -> None:
    """Each line of _READ in the page's language, typed in turn in one page: before Enter,
    the line shows the card it reads as or what is wrong; Enter puts that card on the
    outlined cell (an error puts nothing); Undo takes it away again."""
    page = Page(browser, server, f"/?lang={lang}")
    for language, line, read in _READ:
        if language != lang:
            continue
        page.page.locator("#quick").fill(line)
        status = page.page.locator("#quick-status").inner_text()
        page.page.locator("#quick").press("Enter")
        if isinstance(read, str):
            assert status.startswith(read), line
            assert page.page.locator("#grid .card").count() == 0, line
            continue
        page.page.locator("#grid .card").first.wait_for(timeout=10_000)
        assert entered(page)[(0, 0)] == _card(*read), line
        page.page.locator("#undo").click()  # the card and the card to place as before
        page.page.locator("#grid .card").first.wait_for(state="detached", timeout=10_000)
    page.close()


#: What Tab makes of a line, in each language.
_COMPLETED = [
    ("en", "fut", "futurist "),
    ("en", "g gr", "g green_area "),
    ("en", "military", "military_base "),
    ("en", "5 2 t", "5 2 t"),  # an icon after a number: nothing to complete
    ("pt-BR", "con", "construcao "),
    ("pt-BR", "g c lab", "g c lab"),  # whole already
]


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_tab_completes_a_name(browser: Any, server: int, lang: str) -> None:
    page = Page(browser, server, f"/?lang={lang}")
    for language, typed, whole in _COMPLETED:
        if language == lang:
            page.page.locator("#quick").fill(typed)
            page.page.locator("#quick").press("Tab")
            assert page.page.locator("#quick").input_value() == whole, typed
    page.close()


def _quick(page: Page, line: str, *keys: str) -> None:
    field = page.page.locator("#quick")
    field.fill(line)
    for key in keys or ("Enter",):
        field.press(key)


def _outlined(page: Page) -> tuple[int, int]:
    cell = page.page.locator("#grid .cell.cursor")
    return int(cell.get_attribute("data-row") or ""), int(cell.get_attribute("data-col") or "")


@pytest.mark.long
@in_a_browser
def test_the_quick_entry_lines_cursor_goes_along_rows_and_past_the_city(
    browser: Any, server: int
) -> None:
    """Enter goes right, even past the cells drawn (a skipped cell: the grid grows to the
    cursor, outlined, and the next card lands there, the live score having come between);
    Shift+Enter goes to the next row under where the row began, though Alt+Right skipped a
    cell; the cursor stops two cells past the city; a card put ends a Move."""
    page = Page(browser, server, "/?lang=en")
    _quick(page, "g b 1")
    _quick(page, "")  # skip (0, 1)
    assert _outlined(page) == (0, 2)
    page.wait_total("Player 1", "1")  # the live score drawn the grid again: the cursor stays
    _quick(page, "g b 2")
    _quick(page, "g b 3", "Alt+ArrowRight", "Enter")  # (0, 3) skipped: the card on (0, 4)
    _quick(page, "g b 4", "Shift+Enter")
    assert _outlined(page) == (1, 0)
    assert set(entered(page)) == {(0, 0), (0, 2), (0, 4), (0, 5)}
    page.page.locator("#quick").focus()  # (a row begins where the cursor is)
    for _ in range(5):
        page.page.locator("#quick").press("Alt+ArrowLeft")
    assert _outlined(page) == (1, -2)  # two cells past the city at most
    page.page.locator("#quick").press("Alt+ArrowRight")
    page.page.locator("#quick").press("Alt+ArrowRight")
    cell(page, 0, 0).click()  # selected, then Move: the next cell chosen would take it
    page.page.locator("#t-move").click()
    page.page.locator("#quick").focus()
    _quick(page, "f b 5")
    assert page.page.locator("#t-move").get_attribute("aria-pressed") == "false"
    cell(page, 1, 1).click()  # a card placed there, not (0, 0) moved
    city = entered(page)
    assert (0, 0) in city
    assert (1, 1) in city
    page.close()


@pytest.mark.long
@in_a_browser
def test_a_card_edited_keeps_what_the_form_does_not_change(browser: Any, server: int) -> None:
    """A pasted card that lacks fields, edited by a chip, keeps lacking them and does not
    blank the next card's style and type; undo brings back the next card's names with the
    card they came from; a chip tapped right after a name typed in "other…" of its own group
    wins; a line typed while the card to place is wild makes a printed card with four icons."""
    page = Page(browser, server, "/?lang=en")
    game = {"mode": "populist", "requirements": ["A1", "B1", "C1"]}
    game["players"] = [{"name": "Ana", "city": [{"row": 0, "col": 0, "card": {"points": 3}}]}]
    page.page.locator("#io-text").fill(json.dumps(game))
    page.page.locator("#io-open").click()
    page.page.locator("#grid .card[data-row='0'][data-col='0']").wait_for()
    cell(page, 0, 0).click()
    page.page.locator('#c-stars .chip[data-value="2"]').click()
    assert entered(page)[(0, 0)] == {"points": 3, "stars": 2}
    cell(page, 0, 1).click()  # the card to place: gothic building still
    assert entered(page)[(0, 1)]["style"] == "gothic"
    page.page.locator('#c-style .chip[data-value="futurist"]').click()
    page.page.locator("#undo").click()
    cell(page, 1, 1).click()
    assert entered(page)[(1, 1)]["style"] == "gothic"  # undone: not futurist
    page.page.locator("#f-style").fill("praca")  # typed, then a chip of the same group
    page.page.locator('#c-style .chip[data-value="futurist"]').click()
    assert entered(page)[(1, 1)]["style"] == "futurist"
    page.page.locator("#t-new").click()
    page.page.locator("#f-wild").check()
    _quick(page, "5 2")  # on the outlined cell, (1, 1): in place of its card
    card = entered(page)[(1, 1)]
    assert card["sides"] == ["top", "right", "bottom", "left"]
    assert (card["points"], card["stars"]) == (5, 2)
    # the service refuses the pasted card (it has no style, type, facility nor icons): the
    # browser logs its answers, 422, and nothing else
    page.context.close()  # (a 422 may still arrive until the page is closed)
    assert {e for e in page.errors if "422" not in e} == set()
