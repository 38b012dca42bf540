"""The ranking (RULES §4e): total, then six tie-breakers, competition places (1, 1, 3)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

__all__ = [
    "CRITERIA",
    "Standing",
    "competition",
    "first_player_recency",
    "first_seat",
    "rank",
    "recency",
]


class Standing(NamedTuple):
    """What the ranking compares of one player, the criteria in order, each "more is better"
    (the last: more recently first player); None: the criterion does not apply."""

    total: int
    requirements_met: int | None
    bases: int | None
    cards: int
    three_star_cards: int
    two_star_cards: int
    first_player: int | None  # larger is more recent; None without a known first player

    def key(self) -> tuple[int, ...]:
        """The criteria in order, a criterion that does not apply as 0."""
        return tuple([0 if v is None else v for v in self])


#: The criteria in order: the names of Standing's fields.
CRITERIA = Standing._fields


def first_seat(named: object, names: Iterable[str]) -> int | None:
    """The seat of the game's `first_player` (the first player of that name), None when none
    is named or no player has that name (then the last tie-breaker is skipped)."""
    if not isinstance(named, str):
        return None
    for seat, name in enumerate(names):
        if name == named:
            return seat
    return None


def first_player_recency(players: int, first: int) -> list[int]:
    """Larger for who was first player more recently: the current first player f, then
    f-1, f-2, ... (mod n), since the token passes clockwise (RULES §4e.6)."""
    return [recency(players, first, seat) for seat in range(players)]


def recency(players: Any, first: Any, seat: Any) -> Any:
    """:func:`first_player_recency` of one seat. Written in arithmetic only, so the same line
    serves one game (ints) and whole columns of seats at once (numpy arrays,
    :mod:`neweden.scoring.table`)."""
    return players - (first - seat) % players


def rank(
    standings: Sequence[Standing], *, explained: bool = True
) -> tuple[list[int], list[str | None]]:
    """Each player's place (competition ranking) and, when `explained`, the criterion that
    set them apart from the player ranked just above (None for the first place, for a tie,
    and for everyone when not explained)."""
    if len(standings) == 1:
        return [1], [None]  # alone: first, nothing compared
    keys = [s.key() for s in standings]
    order, places = competition(keys)
    decided: list[str | None] = [None] * len(keys)
    if explained:
        for above, i in itertools.pairwise(order):
            if places[i] != places[above]:
                decided[i] = _deciding(keys[above], keys[i])
    return places, decided


def competition(keys: Sequence[tuple[int, ...]]) -> tuple[list[int], list[int]]:
    """Competition ranking (1, 1, 3) of keys where more is better: the indexes from the
    first place down (equal keys in their given order) and each index's place. The games'
    places and the standings across rounds (:mod:`neweden.scoring.standings`) both use it."""
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    places = [0] * len(keys)
    for position, i in enumerate(order):
        above = order[position - 1] if position else None
        same = above is not None and keys[i] == keys[above]
        places[i] = places[above] if same and above is not None else position + 1
    return order, places


def _deciding(above: tuple[int, ...], below: tuple[int, ...]) -> str:
    """The first criterion on which two different keys differ."""
    for criterion, a, b in zip(CRITERIA, above, below, strict=True):
        if a != b:
            return criterion
    raise AssertionError("the keys are equal")  # rank() asks only of different keys
