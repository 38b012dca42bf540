"""The pure-Python twin of the native core: the same figures, written to be read.

This is the independent second implementation the property tests compare the C++ core
with; it works on the resolved cards of the model, not on the compact arrays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .catalog import CardSpec, ResolvedCard
from .figures import CityFigures, ScoreFigures
from .sides import OPPOSITE, SIDES, STEP

__all__ = ["analyse_city", "compatible", "score_figures", "style_counts"]

# side -> (row step, col step, the side of the neighbour that faces it)
FACING = {side: (*STEP[side], OPPOSITE[side]) for side in SIDES}


def compatible(a: CardSpec, b: CardSpec) -> bool:
    """Two cards can join when either is wild, or they share a style or a location type."""
    return a.wild or b.wild or a.style == b.style or a.type == b.type


def analyse_city(cards: Sequence[ResolvedCard]) -> CityFigures:
    n = len(cards)
    # RULES §3: the first card on a cell stays; later ones and unknown ids are left out.
    on_cell: dict[tuple[int, int], int] = {}
    overlapped_by = [-1] * n
    for i, card in enumerate(cards):
        if card.spec is None:
            continue
        cell = (card.row, card.col)
        if cell in on_cell:
            overlapped_by[i] = on_cell[cell]
        else:
            on_cell[cell] = i
    kept = sorted(on_cell.values())
    included = [False] * n
    for i in kept:
        included[i] = True

    def spec(i: int) -> CardSpec:
        found = cards[i].spec
        assert found is not None
        return found

    icons = {i: spec(i).sides_as_placed(cards[i].rotated) for i in kept}

    def next_to(i: int, side: str) -> int | None:
        drow, dcol, _ = FACING[side]
        return on_cell.get((cards[i].row + drow, cards[i].col + dcol))

    # RULES §2: connections.
    connections: set[tuple[int, int]] = set()
    open_connections = 0
    for i in kept:
        for side in icons[i]:
            j = next_to(i, side)
            if j is not None and FACING[side][2] in icons[j] and compatible(spec(i), spec(j)):
                connections.add((min(i, j), max(i, j)))
            else:
                open_connections += 1

    # Components over complete connections, numbered by their first card.
    linked: dict[int, set[int]] = {i: set() for i in kept}
    for a, b in connections:
        linked[a].add(b)
        linked[b].add(a)
    component = [-1] * n
    sizes: list[int] = []
    for i in kept:
        if component[i] >= 0:
            continue
        todo = [i]
        component[i] = len(sizes)
        size = 0
        while todo:
            k = todo.pop()
            size += 1
            for j in linked[k]:
                if component[j] < 0:
                    component[j] = len(sizes)
                    todo.append(j)
        sizes.append(size)
    project = -1
    for c, size in enumerate(sizes):
        if project < 0 or size > sizes[project]:
            project = c
    legal = all(c.spec is not None for c in cards) and max(overlapped_by, default=-1) < 0
    legal = legal and len(sizes) <= 1

    # Military: orthogonal neighbours, whatever the icons.
    def facility(i: int) -> str | None:
        return spec(i).facility

    def neighbours(i: int) -> list[int]:
        return [j for side in FACING if (j := next_to(i, side)) is not None]

    labs = sum(1 for i in kept if facility(i) == "lab")
    bases = sum(1 for i in kept if facility(i) == "base")

    shelters = [i for i in kept if facility(i) == "shelter"]
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for first in shelters:
        if first in seen:
            continue
        group = {first}
        todo = [first]
        while todo:
            k = todo.pop()
            for j in neighbours(k):
                if facility(j) == "shelter" and j not in group:
                    group.add(j)
                    todo.append(j)
        seen |= group
        groups.append(tuple(sorted(group)))
    shelter_points = sum(len(g) * min(len(g), 4) for g in groups)

    medical = sorted({j for i in kept if facility(i) == "medical" for j in neighbours(i)})

    towers = [i for i in kept if facility(i) == "tower"]
    span: tuple[int, int, int, int] | None = None
    tower_points = 0
    if towers:
        rows = [cards[i].row for i in towers]
        cols = [cards[i].col for i in towers]
        span = (min(rows), min(cols), max(rows), max(cols))
        if len(towers) >= 2:
            tower_points = (span[3] - span[1] + 1) * (span[2] - span[0] + 1)

    return CityFigures(
        included=tuple(included),
        overlapped_by=tuple(overlapped_by),
        component=tuple(component),
        components=len(sizes),
        project=project,
        legal=legal,
        connections=tuple(sorted(connections)),
        open_connections=open_connections,
        labs=labs,
        shelter_groups=tuple(groups),
        shelter_points=shelter_points,
        medical_cards=tuple(medical),
        medical_points=2 * len(medical),
        towers=len(towers),
        tower_span=span,
        tower_points=tower_points,
        bases=bases,
    )


def score_figures(cards: Sequence[ResolvedCard]) -> ScoreFigures:
    """What the scoring rules read of the city: the counts of :func:`analyse_city` and
    tallies of the cards it keeps."""
    fig = analyse_city(cards)
    kept = [card for card, inside in zip(cards, fig.included, strict=True) if inside]
    specs = [card.spec for card in kept if card.spec is not None]
    by_stars = [[0, 0] for _ in range(4)]
    for spec in specs:
        by_stars[spec.stars][0] += 1
        by_stars[spec.stars][1] += spec.points
    rows = Counter(card.row for card in kept)
    cols = Counter(card.col for card in kept)
    return ScoreFigures(
        legal=fig.legal,
        cards=len(kept),
        open_connections=fig.open_connections,
        complete_connections=len(fig.connections),
        components=fig.components,
        labs=fig.labs,
        shelter_points=fig.shelter_points,
        medical_points=fig.medical_points,
        towers=fig.towers,
        tower_points=fig.tower_points,
        bases=fig.bases,
        cards_0_stars=by_stars[0][0],
        cards_1_star=by_stars[1][0],
        cards_2_stars=by_stars[2][0],
        cards_3_stars=by_stars[3][0],
        points_0_stars=by_stars[0][1],
        points_1_star=by_stars[1][1],
        points_2_stars=by_stars[2][1],
        points_3_stars=by_stars[3][1],
        row_cards=max(rows.values(), default=0),
        column_cards=max(cols.values(), default=0),
        styles=len({spec.style for spec in specs if not spec.wild}),
    )


def style_counts(cities: Sequence[Sequence[ResolvedCard]]) -> Counter[str]:
    """The common cards of a game's cities by style, every card counted (kept or not)."""
    return Counter(
        c.spec.style
        for city in cities
        for c in city
        if c.spec is not None and not c.spec.wild and c.spec.style is not None
    )
