"""The rule problems of a game that come from the geometry and from the whole table
(RULES §3, FORMAT §3.1): overlap, disconnected, copy_limit, duplicate_name."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.model import Game
from neweden.format.problems import Problem, join
from neweden.geometry.figures import CityFigures
from neweden.geometry.sides import OPPOSITE, STEP

__all__ = [
    "ATOMIC_WASTE",
    "copy_limit",
    "copy_limit_problems",
    "duplicate_name_problems",
    "geometry_problems",
]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _why_apart(
    part: Sequence[ResolvedCard], component: Sequence[int], cards: Sequence[ResolvedCard]
) -> str:
    """Why one component is not joined to the rest: the first contact with another part,
    told side by side (preferring a contact with the project)."""
    at = {(c.row, c.col): c for c, k in zip(cards, component, strict=True) if k >= 0}
    mine = component[part[0].index]
    contacts = []
    for card in part:
        for side, (dr, dc) in STEP.items():
            other = at.get((card.row + dr, card.col + dc))
            if other is not None and component[other.index] != mine:
                contacts.append((card, side, other))
    if not contacts:
        return "no card of it touches another card of the city"
    card, side, other = contacts[0]
    assert card.spec is not None
    assert other.spec is not None
    mine_icon = side in card.spec.sides_as_placed(card.rotated)
    their_icon = OPPOSITE[side] in other.spec.sides_as_placed(other.rotated)
    where = (
        f"card {card.index} at row {card.row}, column {card.col}: its {side} side meets card "
        f"{other.index} at row {other.row}, column {other.col}"
    )
    if mine_icon and their_icon:
        return f"{where}, but the two share neither style nor type"
    if mine_icon:
        return f"{where}, whose {OPPOSITE[side]} side has no icon (a wall)"
    if their_icon:
        return f"{where}, but card {card.index} has no icon on that side (a wall)"
    return f"{where}, and neither has an icon there"


def geometry_problems(
    base: str, cards: Sequence[ResolvedCard], figures: CityFigures
) -> list[Problem]:
    """`overlap`: one per card left out on a taken cell. `disconnected`: one per component
    other than the project, at its first card, naming all its cells."""
    if figures.components <= 1 and max(figures.overlapped_by, default=-1) < 0:
        return []  # the common case: nothing to tell
    problems = []
    for card, holder in zip(cards, figures.overlapped_by, strict=True):
        if holder >= 0:
            problems.append(
                Problem(
                    code="overlap",
                    message=f"card {card.index} is on row {card.row}, column {card.col}, "
                    f"the cell of card {holder}; it is left out of the city and the score",
                    path=join(base, card.index),
                    cells=((card.row, card.col),),
                )
            )
    project_size = sum(1 for c in figures.component if c == figures.project)
    for part in range(figures.components):
        if part == figures.project:
            continue
        members = [c for c, k in zip(cards, figures.component, strict=True) if k == part]
        cells = tuple((c.row, c.col) for c in members)
        where = ", ".join(f"({r}, {c})" for r, c in cells)
        problems.append(
            Problem(
                code="disconnected",
                message=f"{len(members)} card(s) at {where} are not joined to the project "
                f"({project_size} cards) by complete connections; "
                f"{_why_apart(members, figures.component, cards)}. They are scored as placed",
                path=join(base, members[0].index),
                cells=cells,
            )
        )
    return problems


#: One Atomic Waste card per player at set-up and one shuffled into the Idea Pile (RULES §1).
ATOMIC_WASTE = "atomic-waste"


def copy_limit(spec: CardSpec, players: int | None) -> int:
    """How many copies of a catalog card a game of `players` players may show: Atomic Waste
    at most players + 1 (and never more than the box holds), any other its box's count;
    with the players unknown (a lone city), the box's count."""
    if spec.id == ATOMIC_WASTE and players is not None:
        return min(spec.copies, players + 1)
    return spec.copies


def _limit_words(spec: CardSpec, players: int | None, limit: int) -> str:
    if spec.id == ATOMIC_WASTE and limit < spec.copies:
        return f"a {players}-player game has {limit} (one per player and one in the Idea Pile)"
    return f"the box holds {limit}"


def copy_limit_problems(
    cities: Sequence[Sequence[ResolvedCard]],
    bases: Sequence[str],
    players: int | None,
) -> list[Problem]:
    """Each catalog card id at most its number of copies in the whole game (see
    :func:`copy_limit`), counted over players in order and cards in city order; one error
    per copy beyond the limit, under the player who placed it. Inline cards have no identity
    and are not counted. `players` is the game's player count, None when it is not known (a
    lone city: the box's count holds)."""
    seen: Counter[str] = Counter()
    problems = []
    for p, cards in enumerate(cities):
        for card in cards:
            spec = card.spec
            if spec is None or spec.id is None:
                continue
            seen[spec.id] += 1
            n = seen[spec.id]
            limit = copy_limit(spec, players)
            if n > limit:
                problems.append(
                    Problem(
                        code="copy_limit",
                        message=f'the card "{spec.id}" appears a {_ordinal(n)} time in '
                        f"the game; {_limit_words(spec, players, limit)}. It is still scored",
                        path=join(bases[p], card.index, "card"),
                        cells=((card.row, card.col),),
                    )
                )
    return problems


def duplicate_name_problems(game: Game) -> list[Problem]:
    """Player names are unique: every later player with a name already used is an error."""
    if len({player.name for player in game.players}) == len(game.players):
        return []
    first_seen: dict[str, int] = {}
    problems = []
    for p, player in enumerate(game.players):
        if player.name in first_seen:
            problems.append(
                Problem(
                    code="duplicate_name",
                    message=f'player {p} is named "{player.name}" like player '
                    f"{first_seen[player.name]}; names must be unique",
                    path=join("", "players", p, "name"),
                )
            )
        else:
            first_seen[player.name] = p
    return problems
