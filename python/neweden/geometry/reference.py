"""The pure-Python twin of the native core: the same figures, written to be read.

This is the independent second implementation the property tests compare the C++ core
with; it works on the resolved cards of the model, not on the compact arrays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.sides import OPPOSITE, SIDES, STEP
from neweden.geometry.figures import CityFigures, ScoreFigures

__all__ = ["analyse_city", "compatible", "score_figures", "style_counts"]

# side -> (row step, col step, the side of the neighbour that faces it)
FACING = {side: (*STEP[side], OPPOSITE[side]) for side in SIDES}


def compatible(a: CardSpec, b: CardSpec) -> bool:
    """Two cards can join when either is wild, or they share a style or a location type."""
    return a.wild or b.wild or a.style == b.style or a.type == b.type


class _Placed:
    """The cards on their cells (RULES §3): the first card on a cell stays; later ones and
    unknown ids are left out, a later one naming the card that holds its cell."""

    def __init__(self, cards: Sequence[ResolvedCard]) -> None:
        self.cards = cards
        self.on_cell: dict[tuple[int, int], int] = {}
        self.overlapped_by = [-1] * len(cards)
        for i, card in enumerate(cards):
            if card.spec is None:
                continue
            cell = (card.row, card.col)
            if cell in self.on_cell:
                self.overlapped_by[i] = self.on_cell[cell]
            else:
                self.on_cell[cell] = i
        self.kept = sorted(self.on_cell.values())

    def spec(self, i: int) -> CardSpec:
        found = self.cards[i].spec
        assert found is not None
        return found

    def next_to(self, i: int, side: str) -> int | None:
        drow, dcol, _ = FACING[side]
        return self.on_cell.get((self.cards[i].row + drow, self.cards[i].col + dcol))

    def neighbours(self, i: int) -> list[int]:
        """The cards orthogonally next to card i, whatever the icons (Military)."""
        return [j for side in FACING if (j := self.next_to(i, side)) is not None]

    def with_facility(self, facility: str) -> list[int]:
        return [i for i in self.kept if self.spec(i).facility == facility]


def _connections(city: _Placed) -> tuple[set[tuple[int, int]], int]:
    """RULES §2: the complete connections (a, b), a < b, and the open-connection count."""
    icons = {i: city.spec(i).sides_as_placed(city.cards[i].rotated) for i in city.kept}
    connections: set[tuple[int, int]] = set()
    open_connections = 0
    for i in city.kept:
        for side in icons[i]:
            j = city.next_to(i, side)
            if (
                j is not None
                and FACING[side][2] in icons[j]
                and compatible(city.spec(i), city.spec(j))
            ):
                connections.add((min(i, j), max(i, j)))
            else:
                open_connections += 1
    return connections, open_connections


def _components(city: _Placed, connections: set[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Each card's component over complete connections (numbered by first card, -1 when
    left out), and each component's size."""
    linked: dict[int, set[int]] = {i: set() for i in city.kept}
    for a, b in connections:
        linked[a].add(b)
        linked[b].add(a)
    component = [-1] * len(city.cards)
    sizes: list[int] = []
    for i in city.kept:
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
    return component, sizes


def _shelter_groups(city: _Placed) -> list[tuple[int, ...]]:
    """D2: shelters grouped by orthogonal adjacency, by first card, cards ascending."""
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for first in city.with_facility("shelter"):
        if first in seen:
            continue
        group = {first}
        todo = [first]
        while todo:
            k = todo.pop()
            for j in city.neighbours(k):
                if city.spec(j).facility == "shelter" and j not in group:
                    group.add(j)
                    todo.append(j)
        seen |= group
        groups.append(tuple(sorted(group)))
    return groups


def _tower_span(city: _Placed) -> tuple[int, tuple[int, int, int, int] | None, int]:
    """D4: the towers, the rectangle they span, and its points (0 below two towers)."""
    towers = city.with_facility("tower")
    if not towers:
        return 0, None, 0
    rows = [city.cards[i].row for i in towers]
    cols = [city.cards[i].col for i in towers]
    span = (min(rows), min(cols), max(rows), max(cols))
    points = (span[3] - span[1] + 1) * (span[2] - span[0] + 1) if len(towers) >= 2 else 0
    return len(towers), span, points


def _contacts(city: _Placed, component: list[int], components: int) -> list[tuple[int, int, int]]:
    """Each component's first contact with a card of another component: its cards in
    order, each one's sides in order (top, right, bottom, left); (-1, -1, -1) when none."""
    found = [(-1, -1, -1)] * components
    for i in city.kept:
        mine = component[i]
        if found[mine][0] >= 0:
            continue
        for side_number, side in enumerate(SIDES):
            j = city.next_to(i, side)
            if j is not None and component[j] != mine:
                found[mine] = (i, side_number, j)
                break
    return found


def analyse_city(cards: Sequence[ResolvedCard]) -> CityFigures:
    city = _Placed(cards)
    connections, open_connections = _connections(city)
    component, sizes = _components(city, connections)
    project = -1
    for c, size in enumerate(sizes):
        if project < 0 or size > sizes[project]:
            project = c
    legal = all(c.spec is not None for c in cards) and max(city.overlapped_by, default=-1) < 0
    legal = legal and len(sizes) <= 1
    groups = _shelter_groups(city)
    medical = sorted({j for i in city.with_facility("medical") for j in city.neighbours(i)})
    towers, span, tower_points = _tower_span(city)
    included = [False] * len(cards)
    for i in city.kept:
        included[i] = True
    return CityFigures(
        included=tuple(included),
        overlapped_by=tuple(city.overlapped_by),
        component=tuple(component),
        components=len(sizes),
        project=project,
        legal=legal,
        connections=tuple(sorted(connections)),
        open_connections=open_connections,
        labs=len(city.with_facility("lab")),
        shelter_groups=tuple(groups),
        shelter_points=sum(len(g) * min(len(g), 4) for g in groups),
        medical_cards=tuple(medical),
        medical_points=2 * len(medical),
        towers=towers,
        tower_span=span,
        tower_points=tower_points,
        bases=len(city.with_facility("base")),
        contacts=tuple(_contacts(city, component, len(sizes))),
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
