"""The ten-card bonus (RULES §4c): a city of ten or more cards scores 5 more points."""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt

__all__ = ["TEN_CARDS", "TEN_CARDS_POINTS", "ten_cards_points"]

TEN_CARDS = 10
TEN_CARDS_POINTS = 5


@overload
def ten_cards_points(cards: int) -> int: ...
@overload
def ten_cards_points(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]: ...
def ten_cards_points(cards: Any) -> Any:
    """The bonus of a city of `cards` kept cards: an int, or (the same arithmetic) a column of
    cities at once (:mod:`neweden.scoring.table`)."""
    return (cards >= TEN_CARDS) * TEN_CARDS_POINTS
