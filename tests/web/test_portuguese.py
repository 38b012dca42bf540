"""Portuguese as the manual speaks it (issue 39), in a real browser and over HTTP: no English
word left in the Portuguese page (every visible text, placeholder, label and title of the
page with the manual's example, every section open, a card selected, an audit shown);
real plurals (1 ponto, 2 pontos; 0 estrela, 2 estrelas); a project *válido*; the wild
cards and the built-in requirement cards in Portuguese from GET /v1/catalog."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from neweden.i18n import LOCALE_DIR
from tests.web.test_page import Page, cell, get, in_a_browser

pytest.importorskip("starlette", reason="the serve extra")

#: A word: letters, digits and _ together (an identifier such as ex_type_3 is one word).
_WORD = re.compile(r"[^\W\d_][\w]*")
#: The words of the page that are the same in both languages although English messages use
#: them: none yet (a proper name would go here).
_ALLOWED: set[str] = set()


def _english_words() -> set[str]:
    """The words the English messages use that no Portuguese message uses."""
    with open(LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "neweden.po", "rb") as handle:
        catalog = read_po(handle)
    english: set[str] = set()
    portuguese: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= {w.lower() for w in _WORD.findall(re.sub(r"\{\w+\}", " ", text))}
        for text in texts:
            portuguese |= {w.lower() for w in _WORD.findall(re.sub(r"\{\w+\}", " ", text or ""))}
    return english - portuguese


_SEEN = """() => document.body.innerText + " " + [...document.querySelectorAll(
  "[placeholder], [aria-label], [title]")].map((e) => [e.placeholder || "",
  e.getAttribute("aria-label") || "", e.title || ""].join(" ")).join(" ")"""


@pytest.mark.long
@in_a_browser
def test_no_english_word_is_left_in_the_portuguese_page(browser: Any, server: int) -> None:
    page = Page(browser, server, "/?lang=pt-BR&example=final")
    page.wait_total("Sarah", "78")
    for section in ("#settings", "#extras", "#saved-games"):
        page.page.locator(f"{section} > summary").click()
    page.page.locator("#score-rows tr[data-player='Sarah'] button.link").click()
    page.page.locator("#grid .card").first.click()
    page.page.locator("#picture:not([hidden])").wait_for(timeout=10_000)
    seen = page.page.evaluate(_SEEN)
    english = _english_words()
    left = sorted({w for w in _WORD.findall(seen) if w.lower() in english} - _ALLOWED)
    assert left == []
    assert "Válido" in page.page.locator("#score thead").inner_text()
    assert "Legal" not in seen
    page.close()


@pytest.mark.long
@in_a_browser
@pytest.mark.parametrize(
    ("lang", "one", "more"),
    [
        ("pt-BR", "1 ponto, 0 estrela", "2 pontos, 2 estrelas"),
        ("en", "1 point, 0 stars", "2 points, 2 stars"),
    ],
)
def test_a_card_says_its_points_and_stars_with_real_plurals(
    browser: Any, server: int, lang: str, one: str, more: str
) -> None:
    page = Page(browser, server, f"/?lang={lang}")
    cell(page, 0, 0).click()  # the card to place: 1 point, 0 stars
    assert one in (cell(page, 0, 0).get_attribute("aria-label") or "")
    page.page.locator('#c-points .chip[data-value="2"]').click()
    page.page.locator('#c-stars .chip[data-value="2"]').click()
    assert more in (cell(page, 0, 0).get_attribute("aria-label") or "")
    page.close()


def test_the_built_in_cards_are_named_in_the_answers_language(server: int) -> None:
    english = json.loads(get(server, "/v1/catalog?lang=en")[2])
    portuguese = json.loads(get(server, "/v1/catalog?lang=pt-BR")[2])
    names = {c["id"]: c["name"] for c in portuguese["cards"]}
    assert names == {"atomic-waste": "Lixo Atômico", "new-eden": "Novo Éden"}
    assert {c["id"]: c["name"] for c in english["cards"]} == {
        "atomic-waste": "Atomic Waste",
        "new-eden": "New Eden",
    }
    texts = {r["id"]: r["text"] for r in portuguese["requirements"]}
    assert texts["A1"] == "O projeto tem cartas dos 5 estilos arquitetônicos."
    assert english["requirements"][0]["text"] == "The city has cards of all 5 architectural styles."
    # the rest of the answer is the same in both languages
    for answer in (english, portuguese):
        for card in answer["cards"]:
            del card["name"]
        for requirement in answer["requirements"]:
            del requirement["text"]
    assert english == portuguese


def test_a_catalog_files_words_are_never_translated() -> None:
    """Only the built-in cards' own words are: a file's text that happens to be a message of
    the page ("Table", "none") stays as written."""
    from neweden.catalog.catalog import BUILTIN, Catalog, RequirementSpec
    from neweden.http.catalog_answer import catalog_answer
    from neweden.i18n import speaking

    mine = Catalog(
        name="mine",
        cards=dict(BUILTIN.cards),
        requirements={
            **BUILTIN.requirements,
            "A7": RequirementSpec("A7", "A", "Table"),
            "B7": RequirementSpec("B7", "B", "none"),
        },
    )
    with speaking("pt-BR"):
        answer = catalog_answer(mine)
    texts = {r.id: r.text for r in answer.requirements}
    assert (texts["A7"], texts["B7"]) == ("Table", "none")
    assert texts["A1"] == "O projeto tem cartas dos 5 estilos arquitetônicos."
