"""`GET /v1/catalog`: what the service's catalog holds (`serve --catalog`, else the built-in
one), for clients that complete catalog ids (the web page's card form) or list requirements:
each card with its printed fields, each requirement and epiphany, the closed vocabularies."""

from __future__ import annotations

import msgspec

from neweden.catalog.catalog import Catalog
from neweden.format.sides import SIDES

__all__ = ["CatalogAnswer", "catalog_answer"]


class CatalogCard(msgspec.Struct):
    """One card of the catalog, as printed."""

    id: str
    name: str | None
    wild: bool
    style: str | None
    type: str | None
    facility: str | None
    points: int
    stars: int
    sides: list[str]
    copies: int


class CatalogRequirement(msgspec.Struct):
    """One requirement card."""

    id: str
    deck: str
    text: str


class CatalogEpiphany(msgspec.Struct):
    """One epiphany card."""

    id: str
    points: int
    effect: str | None
    text: str


class CatalogAnswer(msgspec.Struct):
    """The catalog the service scores with: its name, its cards, requirements and
    epiphanies by id, and its vocabularies."""

    name: str
    cards: list[CatalogCard]
    requirements: list[CatalogRequirement]
    epiphanies: list[CatalogEpiphany]
    styles: list[str] | None
    types: list[str] | None
    effects: list[str]


def catalog_answer(catalog: Catalog) -> CatalogAnswer:
    """The answer of `GET /v1/catalog` for `catalog` (ids sorted)."""
    cards = [
        CatalogCard(
            id=card_id,
            name=spec.name,
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
        CatalogRequirement(id=r.id, deck=r.deck, text=r.text)
        for _, r in sorted(catalog.requirements.items())
    ]
    epiphanies = [
        CatalogEpiphany(id=e.id, points=e.points, effect=e.effect, text=e.text)
        for _, e in sorted(catalog.epiphanies.items())
    ]
    return CatalogAnswer(
        name=catalog.name,
        cards=cards,
        requirements=requirements,
        epiphanies=epiphanies,
        styles=sorted(catalog.styles) if catalog.styles is not None else None,
        types=sorted(catalog.types) if catalog.types is not None else None,
        effects=sorted(catalog.effects),
    )
