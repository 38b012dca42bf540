"""A player's stars and total (RULES §4): each written once, in arithmetic only, so the same
line serves one player (ints) and whole columns of players at once (numpy arrays,
:mod:`neweden.scoring.table`)."""

from __future__ import annotations

from typing import Any

__all__ = ["player_stars", "player_total"]


def player_stars(met: Any, epiphany_stars: Any) -> Any:
    """The stars a player has (Populist and Elitist): one a requirement card met, plus the
    stars of their epiphanies (a 1/3-star group counts once it is whole).

    Example: ``player_stars(2, 1)`` is 3."""
    return met + epiphany_stars


def player_total(
    requirements: Any, military: Any, epiphanies: Any, ten_cards: Any, bonuses: Any
) -> Any:
    """A player's total: the Populist part (the points the stars unlock), the Military part
    (D1-D5), the epiphanies' points, the ten-card bonus and the bonuses as given.

    Example: ``player_total(40, 0, 5, 3, 2)`` is 50."""
    return requirements + military + epiphanies + ten_cards + bonuses
