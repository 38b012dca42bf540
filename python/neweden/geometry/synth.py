"""Synthetic cities for tests and benchmarks: grown by legal placement, like real tables.

Every card is invented (no printed card is known to this project): styles and types are
`ex_` names from :data:`STYLES` and :data:`TYPES`, at least three edits apart from each other
(so no two of them look like one name mistyped, RULES §1 `similar_names`).
"""

from __future__ import annotations

import random
from typing import Any

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.model import FACILITIES
from neweden.format.sides import ALL_SIDES, OPPOSITE, SIDES, STEP

__all__ = ["STYLES", "TYPES", "city_json", "grow_city"]

#: Invented style and type names; a city takes the first `styles` / `types` of them.
STYLES = ("ex_amber", "ex_cobalt", "ex_crimson", "ex_jade", "ex_onyx", "ex_ivory", "ex_saffron")
TYPES = ("ex_harbor", "ex_meadow", "ex_quarry", "ex_citadel", "ex_bazaar", "ex_lagoon", "ex_summit")


def _random_card(rng: random.Random, styles: int, types: int) -> CardSpec:
    if rng.random() < 0.1:
        return CardSpec(True, None, None, None, 0, 0, ALL_SIDES)
    count = rng.choice((1, 2, 2, 3, 3, 4))
    return CardSpec(
        False,
        STYLES[rng.randrange(styles)],
        TYPES[rng.randrange(types)],
        rng.choice(FACILITIES),
        rng.randrange(8),
        rng.randrange(4),
        frozenset(rng.sample(SIDES, count)),
    )


def grow_city(
    rng: random.Random, cards: int, *, styles: int = 5, types: int = 6, tries: int = 400
) -> list[ResolvedCard]:
    """A city of up to `cards` cards, each placed where it completes a connection with the
    city (so the city is legal), rotated now and then. Stops early if no card fits."""
    first = _random_card(rng, styles, types)
    city = [ResolvedCard(0, rng.randrange(-20, 20), rng.randrange(-20, 20), False, first)]
    taken = {(city[0].row, city[0].col): city[0]}
    for _ in range(tries):
        if len(city) >= cards:
            break
        anchor = rng.choice(city)
        assert anchor.spec is not None
        anchor_sides = anchor.spec.sides_as_placed(anchor.rotated)
        side = rng.choice(sorted(anchor_sides))
        drow, dcol = STEP[side]
        cell = (anchor.row + drow, anchor.col + dcol)
        if cell in taken:
            continue
        spec = _random_card(rng, styles, types)
        rotated = rng.random() < 0.15 and not spec.wild
        if OPPOSITE[side] not in spec.sides_as_placed(rotated):
            continue
        joins = spec.wild or anchor.spec.wild or spec.style == anchor.spec.style
        if not (joins or spec.type == anchor.spec.type):
            continue
        card = ResolvedCard(len(city), cell[0], cell[1], rotated, spec)
        city.append(card)
        taken[cell] = card
    return city


def city_json(
    cards: list[ResolvedCard], *, wild_id: str | None = None, unknown_id: str = "EX-missing"
) -> list[dict[str, Any]]:
    """A city as the game format writes it (FORMAT §1): common cards inline, wild cards
    inline (`{"wild": true}`) or by `wild_id`, unresolved cards by `unknown_id`."""
    out = []
    for c in cards:
        spec = c.spec
        body: Any
        if spec is None:
            body = unknown_id
        elif spec.wild:
            body = {"wild": True} if wild_id is None else wild_id
        else:
            body = {
                "style": spec.style,
                "type": spec.type,
                "facility": spec.facility,
                "points": spec.points,
                "stars": spec.stars,
                "sides": sorted(spec.sides),
            }
        entry: dict[str, Any] = {"row": c.row, "col": c.col, "card": body}
        if c.rotated:
            entry["rotated"] = True
        out.append(entry)
    return out
