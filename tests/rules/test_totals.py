"""The rules written once for one player and for columns of players: stars, the total, D5
for a player alone."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from neweden.rules.majority import base_majority
from neweden.rules.totals import player_stars, player_total

_SMALL = st.integers(0, 1_000)


@given(st.lists(st.tuples(_SMALL, _SMALL, _SMALL, _SMALL, _SMALL), min_size=1, max_size=20))
def test_the_total_of_a_column_is_the_total_of_each_player(parts: list[tuple[int, ...]]) -> None:
    columns = [np.array(column, dtype=np.int64) for column in zip(*parts, strict=True)]
    assert player_total(*columns).tolist() == [player_total(*one) for one in parts]
    assert player_total(40, 0, 5, 3, 2) == 50


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=20))
def test_stars_of_a_column_are_the_stars_of_each_player(parts: list[tuple[int, int]]) -> None:
    met, epiphany = (np.array(c, dtype=np.int64) for c in zip(*parts, strict=True))
    assert player_stars(met, epiphany).tolist() == [player_stars(m, e) for m, e in parts]


def test_rule_d5_a_player_alone_has_no_majority_to_win() -> None:
    assert base_majority([4], (7, 3)) == ([0], [1])
    assert base_majority([], (7, 3)) == ([], [])
    assert base_majority([3, 1, 3], (5, 3, 1)) == ([5, 0, 5], [1, 3, 1])


@given(st.lists(st.integers(0, 12), min_size=1, max_size=20))
def test_rule_4b_the_groups_of_three_for_one_player_and_for_columns(icons: list[int]) -> None:
    """A 1/3-star icon is left over after the whole groups of three (the last ones listed
    are): the same rule for one player's icons and for columns of many."""
    from neweden.rules.epiphanies import left_over, third_star_stars

    column = np.array(icons, dtype=np.int64)
    assert third_star_stars(column).tolist() == [third_star_stars(n) for n in icons]
    for rank in range(1, 13):
        ranks = np.full(len(icons), rank, dtype=np.int64)
        assert left_over(ranks, column).tolist() == [left_over(rank, n) for n in icons]
    assert [left_over(k, 7) for k in range(1, 8)] == [False] * 6 + [True]
