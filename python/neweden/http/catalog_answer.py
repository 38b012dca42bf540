"""`GET /v1/catalog`: what the service's catalog holds (`serve --catalog`, else the built-in
one), for clients that complete catalog ids (the web page's card form) or list requirements:
each card with its printed fields, each requirement and epiphany, the closed vocabularies."""

from __future__ import annotations

from typing import Annotated, TypeVar

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.format.descriptions import described
from neweden.format.model import MAX_PLAYERS
from neweden.format.sides import SIDES
from neweden.i18n import _
from neweden.rules.majority import majority_table

__all__ = ["CatalogAnswer", "catalog_answer"]


class CatalogCard(msgspec.Struct):
    """A card of the catalog: a city names it by its id."""

    id: Annotated[str, described("the id a city gives as `card`")]
    name: Annotated[str | None, described("the printed name; null when none")]
    wild: Annotated[bool, described("true for a wild card: all four sides, fits any style or type")]
    style: Annotated[str | None, described("the architectural style; null for a wild card")]
    type: Annotated[str | None, described("the location type; null for a wild card")]
    facility: Annotated[
        str | None,
        described("the underground facility: lab, shelter, medical, tower or base; null when none"),
    ]
    points: Annotated[int, described("the printed points")]
    stars: Annotated[int, described("the stars the card needs to score its points")]
    sides: Annotated[
        list[str], described("the icons on the upright card (top, right, bottom, left order)")
    ]
    copies: Annotated[int, described("how many copies a city may hold")]


class CatalogRequirement(msgspec.Struct):
    """A requirement card: a game names it in `requirements`."""

    id: Annotated[str, described("the id a game gives in `requirements`")]
    deck: Annotated[str, described("the deck it belongs to (A, B or C)")]
    text: Annotated[str, described("the card's text, as the catalog gives it")]


class CatalogEpiphany(msgspec.Struct):
    """An epiphany card: a player's epiphany names it by `card`."""

    id: Annotated[str, described("the id a player's epiphany gives as `card`")]
    points: Annotated[int, described("its printed points: 2 or 5")]
    effect: Annotated[
        str | None,
        described("its effect (third_star, rotate, move or the catalog's own); null when none"),
    ]
    text: Annotated[str, described("the card's text, as the catalog gives it")]


class CatalogAnswer(msgspec.Struct):
    """The catalog the service scores with (`serve --catalog`, else the built-in one)."""

    name: Annotated[
        str,
        described("the catalog's name as reports give it: builtin, or the file's name and hash"),
    ]
    cards: Annotated[list[CatalogCard], described("every card with an id, sorted by id")]
    requirements: Annotated[
        list[CatalogRequirement], described("every requirement card, sorted by id")
    ]
    epiphanies: Annotated[list[CatalogEpiphany], described("every epiphany card, sorted by id")]
    styles: Annotated[
        list[str] | None,
        described("the styles a card may have; null when any identifier is accepted"),
    ]
    types: Annotated[
        list[str] | None,
        described("the types a card may have; null when any identifier is accepted"),
    ]
    effects: Annotated[
        list[str],
        described("epiphany effects the catalog declares besides third_star, rotate and move"),
    ]
    majority_tables: Annotated[
        dict[str, list[int]],
        described(
            "the D5 card's values a game scores with when it gives none of its own, by player "
            'count ("2", "3", "4"): the catalog\'s, else the built-in default'
        ),
    ] = msgspec.field(default_factory=dict)
    majority_default: Annotated[
        dict[str, bool],
        described("by player count, whether that table is the built-in default, not the catalog's"),
    ] = msgspec.field(default_factory=dict)


_Words = TypeVar("_Words", str, str | None)


def _builtin(words: _Words, builtin: object, field: str) -> _Words:
    """`words` in the current language when they are the built-in entry's own (its name or
    text, marked for translation); a catalog file's words as written."""
    if words and getattr(builtin, field, None) == words:
        return _(words)
    return words


def catalog_answer(catalog: Catalog) -> CatalogAnswer:
    """The answer of `GET /v1/catalog` for `catalog` (ids sorted), in the current language:
    the built-in cards' names and texts translated (a catalog file's, as written)."""
    cards = [
        CatalogCard(
            id=card_id,
            name=_builtin(spec.name, BUILTIN.cards.get(card_id), "name"),
            wild=spec.wild,
            style=spec.style,
            type=spec.type,
            facility=spec.facility,
            points=spec.points,
            stars=spec.stars,
            sides=[side for side in SIDES if side in spec.sides],
            copies=spec.copies,
        )
        for card_id, spec in sorted(catalog.cards.items())
    ]
    requirements = [
        CatalogRequirement(
            id=r.id, deck=r.deck, text=_builtin(r.text, BUILTIN.requirements.get(r.id), "text")
        )
        for _id, r in sorted(catalog.requirements.items())
    ]
    tables = {n: majority_table(catalog.majority_table, n) for n in range(2, MAX_PLAYERS + 1)}
    epiphanies = [
        CatalogEpiphany(
            id=e.id,
            points=e.points,
            effect=e.effect,
            text=_builtin(e.text, BUILTIN.epiphanies.get(e.id), "text"),
        )
        for _id, e in sorted(catalog.epiphanies.items())
    ]
    return CatalogAnswer(
        name=catalog.name,
        cards=cards,
        requirements=requirements,
        epiphanies=epiphanies,
        styles=sorted(catalog.styles) if catalog.styles is not None else None,
        types=sorted(catalog.types) if catalog.types is not None else None,
        effects=sorted(catalog.effects),
        majority_tables={str(n): list(tables[n][0]) for n in tables},
        majority_default={str(n): tables[n][1] for n in tables},
    )
