"""RULES §2-§3 and D1-D4, one test per rule, on the native core and the reference alike.

The manual's Military examples (RULES §5) are cities here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format.sides import ALL_SIDES
from neweden.geometry import reference
from neweden.geometry.compact import pack_cities
from neweden.geometry.figures import CityFigures
from neweden.geometry.native import analyse_city

Analyse = Callable[[list[ResolvedCard]], CityFigures]
SIDE_LETTERS = {"t": "top", "r": "right", "b": "bottom", "l": "left"}


def native(city: list[ResolvedCard]) -> CityFigures:
    return analyse_city(pack_cities([city]))


@pytest.fixture(params=[native, reference.analyse_city], ids=["native", "reference"])
def analyse(request: pytest.FixtureRequest) -> Analyse:
    fn: Analyse = request.param
    return fn


class City(list[ResolvedCard]):
    def card(
        self,
        row: int,
        col: int,
        sides: str = "trbl",
        *,
        style: str = "ex_gothic",
        type: str = "ex_plaza",
        facility: str = "lab",
        rotated: bool = False,
    ) -> City:
        icons = frozenset(SIDE_LETTERS[s] for s in sides)
        spec = CardSpec(False, style, type, facility, 1, 0, icons)
        self.append(ResolvedCard(len(self), row, col, rotated, spec))
        return self

    def wild(self, row: int, col: int) -> City:
        spec = CardSpec(True, None, None, None, 0, 0, ALL_SIDES)
        self.append(ResolvedCard(len(self), row, col, False, spec))
        return self

    def unknown(self, row: int, col: int) -> City:
        self.append(ResolvedCard(len(self), row, col, False, None))
        return self


# --- RULES §2: the grid -------------------------------------------------------------------------


def test_rule_2_adjacent_means_orthogonal_neighbours(analyse: Analyse) -> None:
    diagonal = City().card(0, 0, "rb").card(1, 1, "tl")
    figures = analyse(diagonal)
    assert figures.connections == ()
    assert figures.components == 2


def test_rule_2_facing_icons_right_of_left_card_with_left_of_right_card(analyse: Analyse) -> None:
    assert analyse(City().card(0, 0, "r").card(0, 1, "l")).connections == ((0, 1),)
    assert analyse(City().card(0, 0, "b").card(1, 0, "t")).connections == ((0, 1),)
    # Row grows downward: the upper card's bottom icon meets the lower card's top icon.
    assert analyse(City().card(1, 0, "b").card(0, 0, "t")).connections == ()


def test_rule_2_complete_connection_needs_an_icon_on_both_sides(analyse: Analyse) -> None:
    figures = analyse(City().card(0, 0, "r").card(0, 1, "t"))
    assert figures.connections == ()
    assert figures.open_connections == 2


def test_rule_2_compatible_by_shared_style(analyse: Analyse) -> None:
    city = (
        City().card(0, 0, "r", style="ex_a", type="ex_x").card(0, 1, "l", style="ex_a", type="ex_y")
    )
    assert analyse(city).connections == ((0, 1),)


def test_rule_2_compatible_by_shared_type(analyse: Analyse) -> None:
    city = (
        City().card(0, 0, "r", style="ex_a", type="ex_x").card(0, 1, "l", style="ex_b", type="ex_x")
    )
    assert analyse(city).connections == ((0, 1),)


def test_rule_2_incompatible_icons_are_open(analyse: Analyse) -> None:
    city = (
        City().card(0, 0, "r", style="ex_a", type="ex_x").card(0, 1, "l", style="ex_b", type="ex_y")
    )
    figures = analyse(city)
    assert figures.connections == ()
    assert figures.open_connections == 2


def test_rule_2_wild_card_joins_any_card(analyse: Analyse) -> None:
    city = (
        City()
        .card(0, 0, "r", style="ex_a", type="ex_x")
        .wild(0, 1)
        .card(0, 2, "l", style="ex_b", type="ex_y")
    )
    figures = analyse(city)
    assert figures.connections == ((0, 1), (1, 2))
    assert figures.open_connections == 2  # the wild card's top and bottom


def test_rule_2_open_connection_faces_empty_wall_or_incompatible(analyse: Analyse) -> None:
    # card 0: right icon meets card 1 (complete); bottom faces an empty cell; left faces the
    # wall of card 2 (no icon there).
    city = City().card(0, 1, "rbl").card(0, 2, "l").card(0, 0, "t")
    figures = analyse(city)
    assert figures.open_connections == 3  # 0's bottom, 0's left, 2's top


def test_rule_2_rotated_card_swaps_top_bottom_and_left_right(analyse: Analyse) -> None:
    upright = City().card(0, 0, "r").card(0, 1, "r")
    assert analyse(upright).connections == ()
    turned = City().card(0, 0, "r").card(0, 1, "r", rotated=True)
    assert analyse(turned).connections == ((0, 1),)


# --- RULES §3: legality -------------------------------------------------------------------------


def test_rule_3_1_no_two_cards_on_one_cell(analyse: Analyse) -> None:
    city = City().card(0, 0, "r", facility="base").card(0, 0, "l", facility="base").card(0, 1, "l")
    figures = analyse(city)
    assert not figures.legal
    assert figures.included == (True, False, True)
    assert figures.overlapped_by == (-1, 0, -1)
    assert figures.bases == 1  # the card left out scores nothing


def test_rule_3_2_cards_form_one_connected_project(analyse: Analyse) -> None:
    legal = City().card(0, 0, "r").card(0, 1, "lb").card(1, 1, "t")
    assert analyse(legal).legal
    walled = City().card(0, 0, "r").card(0, 1, "b").card(1, 1, "t")
    figures = analyse(walled)
    assert not figures.legal
    assert figures.components == 2


def test_rule_3_one_card_is_legal_and_no_card_is_legal(analyse: Analyse) -> None:
    assert analyse(City().card(3, 3, "t")).legal
    empty = analyse(City())
    assert empty.legal
    assert empty.components == 0
    assert empty.project == -1


def test_rule_3_3_unresolved_card_is_left_out(analyse: Analyse) -> None:
    figures = analyse(City().card(0, 0, "r").unknown(0, 1))
    assert not figures.legal
    assert figures.included == (True, False)
    assert figures.open_connections == 1


def test_rule_3_project_is_the_largest_component(analyse: Analyse) -> None:
    city = City().card(0, 0, "t").card(5, 5, "r").card(5, 6, "l")
    figures = analyse(city)
    assert figures.component == (0, 1, 1)
    assert figures.project == 1


def test_rule_3_project_tie_goes_to_the_earliest_card(analyse: Analyse) -> None:
    city = City().card(9, 9, "t").card(0, 0, "t")
    assert analyse(city).project == 0


def test_rule_3_disconnected_cards_are_scored_as_placed(analyse: Analyse) -> None:
    city = City().card(0, 0, "t", facility="lab").card(7, 7, "t", facility="lab")
    figures = analyse(city)
    assert not figures.legal
    assert figures.labs == 2


def test_rule_3_walls_between_adjacent_cards_are_fine(analyse: Analyse) -> None:
    # A 2x2 square joined around three sides; the fourth pair of neighbours faces walls.
    city = City().card(0, 0, "r").card(0, 1, "lb").card(1, 1, "tl").card(1, 0, "r")
    figures = analyse(city)
    assert figures.legal
    assert figures.open_connections == 0


# --- Military D1-D4 ----------------------------------------------------------------------


def test_rule_d1_research_labs_count(analyse: Analyse) -> None:
    city = City().card(0, 0, facility="lab").card(0, 1, facility="lab").card(0, 2, facility="base")
    assert analyse(city).labs == 2


def test_rule_d2_manual_three_shelters_in_a_column_and_one_alone_score_10(analyse: Analyse) -> None:
    city = (
        City()
        .card(0, 0, facility="shelter")
        .card(1, 0, facility="shelter")
        .card(2, 0, facility="shelter")
        .card(1, 1, facility="lab")
        .card(1, 2, facility="shelter")
    )
    figures = analyse(city)
    assert figures.shelter_groups == ((0, 1, 2), (4,))
    assert figures.shelter_points == 10


def test_rule_d2_groups_by_orthogonal_adjacency_ignoring_icons(analyse: Analyse) -> None:
    # An L and a square count like a line; walls do not split a group.
    square = City()
    for r, c in [(0, 0), (0, 1), (1, 0), (1, 1)]:
        square.card(r, c, "t", facility="shelter")
    assert analyse(square).shelter_points == 16
    five = City()
    for r, c in [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]:
        five.card(r, c, "t", facility="shelter")
    assert analyse(five).shelter_points == 5 * 4  # min(k, 4) per shelter


def test_rule_d3_manual_three_medical_centers_score_10(analyse: Analyse) -> None:
    city = (
        City()
        .card(1, 0, facility="medical")  # left: next to A only
        .card(0, 0, facility="lab")  # A
        .card(1, 2, facility="medical")  # middle: B, C, D
        .card(0, 2, facility="lab")  # B
        .card(1, 3, facility="lab")  # C
        .card(2, 2, facility="lab")  # D
        .card(3, 2, facility="medical")  # right: D again and E
        .card(3, 3, facility="lab")  # E
    )
    figures = analyse(city)
    assert figures.medical_cards == (1, 3, 4, 5, 7)
    assert figures.medical_points == 10


def test_rule_d3_medical_center_next_to_a_medical_center_counts(analyse: Analyse) -> None:
    city = City().card(0, 0, facility="medical").card(0, 1, facility="medical")
    assert analyse(city).medical_points == 4


def test_rule_d4_manual_three_towers_span_4_columns_3_rows_score_12(analyse: Analyse) -> None:
    city = (
        City()
        .card(0, 0, facility="tower", style="ex_gothic")
        .card(2, 1, facility="tower", style="ex_futurist")
        .card(1, 3, facility="tower", style="ex_renaissance")
    )
    figures = analyse(city)
    assert figures.tower_span == (0, 0, 2, 3)
    assert figures.tower_points == 12


def test_rule_d4_manual_two_towers_one_above_the_other_score_2(analyse: Analyse) -> None:
    city = City().card(-4, 7, facility="tower").card(-3, 7, facility="tower")
    assert analyse(city).tower_points == 2


def test_rule_d4_fewer_than_two_towers_score_0(analyse: Analyse) -> None:
    figures = analyse(City().card(0, 0, facility="tower"))
    assert figures.towers == 1
    assert figures.tower_points == 0


def test_rule_d5_bases_are_counted_for_the_majority(analyse: Analyse) -> None:
    city = City().card(0, 0, facility="base").card(0, 1, facility="base").wild(0, 2)
    assert analyse(city).bases == 2


# --- the binding ------------------------------------------------------------------------


def test_the_binding_refuses_arrays_no_city_gives() -> None:
    import numpy as np

    from neweden import _core

    table = np.zeros((1, 9), dtype=np.int32)  # a common card with no icon
    offsets = np.array([0, 1], dtype=np.int64)
    with pytest.raises(ValueError, match="card 0"):
        _core.score_rows(table, offsets)
    with pytest.raises(ValueError, match="offsets"):
        _core.score_rows(table, np.array([0, 2], dtype=np.int64))
    with pytest.raises(ValueError, match="details"):
        _core.score_rows(table, offsets, 1, 3)
