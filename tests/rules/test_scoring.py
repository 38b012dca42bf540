"""RULES §3-§4 as the report scores them: one test per rule, named after it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import neweden
from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog
from neweden.rules.majority import base_majority
from neweden.rules.requirements import card_points, cards_points
from neweden.scoring.report import score_inputs
from tests.games import card, game, line, player

STYLES = ["ex_a", "ex_b", "ex_c", "ex_d", "ex_e"]


def solo(mode: str, city: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    report: dict[str, Any] = neweden.score(game(mode, player("P", city, **extra)))
    first: dict[str, Any] = report["players"][0]
    return first


def five_styles_row(n: int = 5, **kwargs: Any) -> list[dict[str, Any]]:
    """n cards in a row sharing a type, with styles cycling through five."""
    cards = line(n, type="ex_plaza", **kwargs)
    for i, c in enumerate(cards):
        c["card"]["style"] = STYLES[i % 5]
    return cards


# --- 4a Populist ------------------------------------------------------------------------------


def test_rule_4a_a1_needs_five_distinct_styles() -> None:
    assert "A1" in solo("populist", five_styles_row(5))["requirements_met"]
    assert "A1" not in solo("populist", five_styles_row(4))["requirements_met"]


def test_rule_4a_a1_wild_cards_count_for_no_style() -> None:
    city = five_styles_row(4)
    city.append({"row": 0, "col": 4, "card": "atomic-waste"})
    assert "A1" not in solo("populist", city)["requirements_met"]


def test_rule_4a_b1_a_row_of_six_cards_not_contiguous() -> None:
    assert "B1" in solo("populist", line(6))["requirements_met"]
    assert "B1" not in solo("populist", line(5))["requirements_met"]
    # Six cards in row 0 with a gap, joined below: still B1.
    city = [card(0, c, "b") for c in (0, 1, 2, 4, 5, 6)] + [
        card(1, c, "t" + ("r" if c < 6 else "") + ("l" if c > 0 else "")) for c in range(7)
    ]
    report = solo("populist", city)
    assert report["legal"]
    assert "B1" in report["requirements_met"]


def test_rule_4a_c1_at_most_four_open_connections() -> None:
    four_open = [card(0, 0, "rtb"), card(0, 1, "ltb")]
    assert "C1" in solo("populist", four_open)["requirements_met"]
    five_open = [card(0, 0, "rtb"), card(0, 1, "ltbr")]
    assert "C1" not in solo("populist", five_open)["requirements_met"]


def test_rule_4a_1_stars_are_requirements_met() -> None:
    report = solo("populist", five_styles_row(6))  # A1, B1, C1 (0 open)
    assert report["requirements_met"] == ["A1", "B1", "C1"]
    assert report["stars"] == 3


def test_rule_4a_1_three_third_star_epiphanies_make_a_star() -> None:
    third = {"points": 2, "state": "activated", "effect": "third_star"}
    report = solo("populist", line(2), epiphanies=[third, third, third])
    assert report["stars"] == 1 + 1  # C1 (0 open) + one whole star
    assert report["score"]["epiphanies"] == 0


def test_rule_4a_2_fifteen_points_a_star_above_three() -> None:
    third = {"points": 2, "state": "activated", "effect": "third_star"}
    city = five_styles_row(6, points=2)
    report = solo("populist", city, epiphanies=[third] * 6)
    assert report["stars"] == 5
    assert report["score"]["requirements"] == 6 * 2 + 15 * 2


def test_rule_4a_3_cards_above_the_stars_score_one_point() -> None:
    city = line(2, points=7)
    city[1]["card"]["stars"] = 2
    report = solo("populist", city)  # C1 only: 1 star
    assert report["stars"] == 1
    assert report["score"]["requirements"] == 7 + 1


@given(
    st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 3)), max_size=16),
    st.integers(0, 8),
)
def test_rule_4a_3_each_card_of_a_city_at_once_as_one_by_one(
    cards: list[tuple[int, int]], stars: int
) -> None:
    """The audit's card lines read cards_points, the score card_points: the same rule."""
    points, needs = [p for p, _ in cards], [n for _, n in cards]
    assert cards_points(points, needs, stars) == [
        card_points(p, n, stars) for p, n in zip(points, needs, strict=True)
    ]


def test_rule_4a_3_the_audit_says_what_each_card_earned() -> None:
    city = line(3, points=7)
    city[1]["card"]["stars"] = 2
    city[2]["card"]["stars"] = 1
    audit = solo("populist", city)["audit"]  # C1 only: 1 star
    assert [c["populist_points"] for c in audit["cards"]] == [7, 1, 7]


def test_rule_4a_populist_scores_no_military() -> None:
    report = solo("populist", line(3))
    assert report["score"]["military"] is None


def test_rule_4a_military_has_no_stars_and_warns_about_requirements() -> None:
    doc = game("military", player("P", line(3)))
    doc["requirements"] = ["A1"]
    report = neweden.score(doc)
    assert report["players"][0]["stars"] is None
    assert report["players"][0]["requirements_met"] is None
    assert report["players"][0]["score"]["requirements"] == 0
    assert [w["code"] for w in report["warnings"]] == ["game_not_ended", "requirements_ignored"]


def test_rule_4a_elitist_adds_populist_and_military() -> None:
    city = line(3, facility="lab", points=2)
    pop = solo("populist", city)["score"]
    elit = solo("elitist", city)["score"]
    mil = solo("military", city)["score"]
    assert elit["requirements"] == pop["requirements"]
    assert elit["military"] == mil["military"]
    assert elit["total"] == pop["total"] + mil["military"]["total"]


def test_rule_4a_unknown_requirement_is_an_error_and_not_met() -> None:
    doc = game("populist", player("P", line(3)), requirements=["A1", "EX-Z9", "C1"])
    report = neweden.score(doc)
    assert [e["code"] for e in report["errors"]] == ["unknown_requirement"]
    assert report["errors"][0]["path"] == "/requirements/1"
    assert report["players"][0]["legal"] is True
    assert report["valid"] is False


# --- 4a Military -------------------------------------------------------------------------------


def test_rule_d1_labs_score_three_each() -> None:
    assert solo("military", line(4, facility="lab"))["score"]["military"]["labs"] == 12


def test_rule_d2_shelters_score_k_times_min_k_4() -> None:
    assert solo("military", line(5, facility="shelter"))["score"]["military"]["shelters"] == 20


def test_rule_d3_medical_scores_two_per_distinct_neighbour() -> None:
    city = line(3)
    city[1]["card"]["facility"] = "medical"
    assert solo("military", city)["score"]["military"]["medical"] == 4


def test_rule_d4_towers_span_columns_times_rows() -> None:
    city = line(4)
    city[0]["card"]["facility"] = "tower"
    city[3]["card"]["facility"] = "tower"
    assert solo("military", city)["score"]["military"]["towers"] == 4


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ((2, 2), [5, 5]),
        ((2, 1, 1), [7, 0, 0]),
        ((3, 2, 1), [7, 3, 0]),
        ((2, 2, 1, 0), [10, 10, 3, 0]),
        ((1, 1, 1), [7, 7, 7]),
        ((0, 0), [0, 0]),
    ],
)
def test_rule_d5_majority_worked_examples(counts: tuple[int, ...], points: list[int]) -> None:
    table = {2: [5, 0], 3: [7, 3, 0], 4: [10, 6, 3, 0]}[len(counts)]
    assert base_majority(list(counts), table)[0] == points
    players = [
        player(f"P{i}", line(max(k, 1), facility="base") if k else line(1, facility="lab"))
        for i, k in enumerate(counts)
    ]
    report = neweden.score(game("military", *players))
    assert [p["score"]["military"]["bases"] for p in report["players"]] == points
    assert [w["code"] for w in report["warnings"]] == ["default_majority_table", "game_not_ended"]


def test_rule_d5_one_player_bases_score_zero_with_a_warning() -> None:
    report = neweden.score(game("military", player("P", line(2, facility="base"))))
    assert report["players"][0]["score"]["military"]["bases"] == 0
    assert [w["code"] for w in report["players"][0]["warnings"]] == ["one_player_bases"]
    # No base, nothing lost: no warning.
    report = neweden.score(game("military", player("P", line(2, facility="lab"))))
    assert report["players"][0]["warnings"] == []


def test_rule_d5_bases_of_an_illegal_city_count() -> None:
    walled = [card(0, 0, "t", facility="base"), card(0, 1, "t", facility="base")]
    report = neweden.score(
        game("military", player("A", walled), player("B", line(1, facility="base")))
    )
    assert report["players"][0]["legal"] is False
    assert [p["score"]["military"]["bases"] for p in report["players"]] == [5, 0]


# --- 4b Epiphanies ------------------------------------------------------------------------------


def test_rule_4b_held_validated_activated() -> None:
    eps = [
        {"points": 5, "state": "held"},
        {"points": 5, "state": "validated"},
        {"points": 2, "state": "validated"},
        {"points": 2, "state": "activated", "effect": "rotate"},
    ]
    assert solo("military", line(2), epiphanies=eps)["score"]["epiphanies"] == 7


def test_rule_4b_activated_five_point_is_an_error_scoring_zero() -> None:
    eps = [{"points": 5, "state": "activated", "effect": "third_star"}]
    report = neweden.score(game("populist", player("P", line(2), epiphanies=eps)))
    p = report["players"][0]
    assert p["score"]["epiphanies"] == 0
    assert [(e["code"], e["path"]) for e in p["errors"]] == [
        ("activated_five_point", "/players/0/epiphanies/0")
    ]
    assert p["legal"] is True
    assert report["valid"] is False


def test_rule_4b_third_star_icons_left_over_score_as_validated() -> None:
    third = {"points": 2, "state": "activated", "effect": "third_star"}
    report = solo("populist", line(2), epiphanies=[third] * 5)
    assert report["stars"] == 1 + 1
    assert report["score"]["epiphanies"] == 4  # two icons left over


def test_rule_4b_unknown_epiphany_id_is_an_error() -> None:
    eps = [{"card": "EX-E1", "state": "validated"}]
    report = neweden.score(game("military", player("P", line(2), epiphanies=eps)))
    p = report["players"][0]
    assert [e["code"] for e in p["errors"]] == ["unknown_epiphany"]
    assert p["score"]["epiphanies"] == 0


# --- 4c, 4d, 4e ---------------------------------------------------------------------------------


def test_rule_4c_ten_cards_score_five() -> None:
    assert solo("military", line(10))["score"]["ten_cards"] == 5
    assert solo("military", line(9))["score"]["ten_cards"] == 0


def test_rule_4d_bonuses_are_added() -> None:
    bonuses = [{"name": "Photographer", "points": 3}, {"name": "EX-Company", "points": 4}]
    report = solo("military", line(2), bonuses=bonuses)
    assert report["score"]["bonuses"] == 7
    assert report["score"]["total"] == 2 * 3 + 7


def places(*players: dict[str, Any], mode: str = "military", **extra: Any) -> list[int]:
    report = neweden.score(game(mode, *players, **extra))
    return [p["place"] for p in report["players"]]


def test_rule_4e_highest_total_wins() -> None:
    assert places(player("A", line(2)), player("B", line(3))) == [2, 1]


def test_rule_4e_1_tie_broken_by_requirements_met() -> None:
    # Same total: A meets C1 (1 star, 1 point a card, 2 cards + ...) - built so totals tie.
    a = line(2, points=1)  # C1 met, 2 points
    b = [card(0, 0, "rtb", points=1), card(0, 1, "l", points=1)]  # C1 met too
    assert places(player("A", a), player("B", b), mode="populist") == [1, 1]
    b = [card(0, 0, "rtbl", points=1), card(0, 1, "ltb", points=1)]  # 5 open: C1 not met
    report = neweden.score(game("populist", player("A", a), player("B", b)))
    assert [p["score"]["total"] for p in report["players"]] == [2, 2]
    assert [p["place"] for p in report["players"]] == [1, 2]
    assert report["players"][1]["audit"]["ranking"]["decided_by"] == "requirements_met"


def test_rule_4e_2_tie_broken_by_military_bases() -> None:
    a = line(2, facility="base")
    b = line(2, facility="lab")
    b[0]["card"]["facility"] = "shelter"
    b[1]["card"]["facility"] = "shelter"
    # A: bases 2 vs B's 0 -> A scores 5 (D5); B: shelters 4. Make totals equal with a bonus.
    report = neweden.score(
        game("military", player("A", a), player("B", b, bonuses=[{"name": "x", "points": 1}]))
    )
    assert [p["score"]["total"] for p in report["players"]] == [5, 5]
    assert [p["place"] for p in report["players"]] == [1, 2]
    assert report["players"][1]["audit"]["ranking"]["decided_by"] == "bases"


def test_rule_4e_3_tie_broken_by_more_cards() -> None:
    a = line(3, points=0)
    b = line(2, points=0)
    report = neweden.score(
        game("military", player("A", [*a]), player("B", b, bonuses=[{"name": "x", "points": 3}]))
    )
    assert [p["score"]["total"] for p in report["players"]] == [9, 9]
    assert [p["place"] for p in report["players"]] == [1, 2]
    assert report["players"][1]["audit"]["ranking"]["decided_by"] == "cards"


def test_rule_4e_4_and_5_tie_broken_by_three_then_two_star_cards() -> None:
    a, b = line(2), line(2)
    a[0]["card"]["stars"] = 3
    assert places(player("A", a), player("B", b)) == [1, 2]
    a[0]["card"]["stars"], b[0]["card"]["stars"] = 2, 1
    report = neweden.score(game("military", player("A", a), player("B", b)))
    assert [p["place"] for p in report["players"]] == [1, 2]
    assert report["players"][1]["audit"]["ranking"]["decided_by"] == "two_star_cards"


def test_rule_4e_6_first_player_most_recently() -> None:
    same = [player(n, line(2)) for n in ("A", "B", "C")]
    # C is first player now; before C it was B (the token passed clockwise from B to C).
    assert places(*same, first_player="C") == [3, 2, 1]
    assert places(*same, first_player="A") == [1, 3, 2]
    assert places(*same) == [1, 1, 1]


def test_rule_4e_unknown_first_player_is_skipped_with_a_warning() -> None:
    report = neweden.score(
        game("military", player("A", line(2)), player("B", line(2)), first_player="Zed")
    )
    assert [p["place"] for p in report["players"]] == [1, 1]
    assert "unknown_first_player" in [w["code"] for w in report["warnings"]]


def test_rule_4e_competition_places_1_1_3() -> None:
    assert places(player("A", line(3)), player("B", line(3)), player("C", line(2))) == [1, 1, 3]


# --- RULES §3 in the report ---------------------------------------------------------------------


def test_rule_3_1_overlap_card_left_out_one_error_each() -> None:
    city = [*line(2), card(0, 0, "r", facility="base"), card(0, 1, "l", facility="base")]
    report = neweden.score(game("military", player("P", city), player("Q", line(1))))
    p = report["players"][0]
    assert p["legal"] is False
    assert p["cards"] == 2
    assert [(e["code"], e["path"], e["cells"]) for e in p["errors"]] == [
        ("overlap", "/players/0/city/2", [[0, 0]]),
        ("overlap", "/players/0/city/3", [[0, 1]]),
    ]
    assert p["score"]["military"]["labs"] == 6  # the bases on taken cells score nothing


def test_rule_3_2_disconnected_one_error_per_other_component() -> None:
    city = [*line(3), card(5, 5, "t"), card(9, 0, "r"), card(9, 1, "l")]
    p = neweden.score(game("military", player("P", city)))["players"][0]
    assert p["legal"] is False
    assert p["cards"] == 6  # scored as placed
    assert [(e["code"], e["path"], e["cells"]) for e in p["errors"]] == [
        ("disconnected", "/players/0/city/3", [[5, 5]]),
        ("disconnected", "/players/0/city/4", [[9, 0], [9, 1]]),
    ]


def test_rule_3_3_unknown_card_is_left_out() -> None:
    city = [*line(2), {"row": 0, "col": 2, "card": "EX-nowhere"}]
    p = neweden.score(game("military", player("P", city)))["players"][0]
    assert p["legal"] is False
    assert p["cards"] == 2
    assert [(e["code"], e["path"]) for e in p["errors"]] == [
        ("unknown_card", "/players/0/city/2/card")
    ]


def test_rule_3_4_copy_limit_counted_across_the_game() -> None:
    # Four players may show 5 Atomic Waste (one each and one from the Idea Pile) and 2 New Eden.
    waste = [{"row": 0, "col": c, "card": "atomic-waste"} for c in range(4)]
    eden = [{"row": 1, "col": c, "card": "new-eden"} for c in range(3)]
    report = neweden.score(
        game(
            "military",
            player("A", waste),
            player("B", waste[:2] + eden),
            player("C", []),
            player("D", []),
        )
    )
    a, b = report["players"][:2]
    assert a["legal"] is True
    assert [(e["code"], e["path"]) for e in b["errors"]] == [
        ("copy_limit", "/players/1/city/1/card"),  # the 6th atomic-waste
        ("copy_limit", "/players/1/city/4/card"),  # the 3rd new-eden
    ]
    assert b["legal"] is False
    assert b["cards"] == 5  # still scored as placed


def test_rule_3_4_copy_limit_counts_a_card_listed_under_two_ids() -> None:
    """A catalog built in Python may list one card under two ids (the same CardSpec): its
    copies are counted together, whichever id each is given by, once a copy over the
    limit is found in the game (here New Eden's third). Alone and in a chunk."""
    sides = frozenset({"right", "top"})
    lab = CardSpec(False, "ex_gothic", "ex_plaza", "lab", 3, 1, sides, "EX Lab", "EX-LAB", copies=2)
    catalog = Catalog(
        "EX-alias", {**BUILTIN.cards, "EX-LAB": lab, "EX-LAB2": lab}, BUILTIN.requirements
    )

    def city(ids: list[str]) -> list[dict[str, Any]]:
        return [{"row": 0, "col": c, "card": i} for c, i in enumerate(ids)]

    doc = game(
        "military",
        player("A", city(["new-eden", "new-eden", "new-eden", "EX-LAB", "EX-LAB"])),
        player("B", city(["EX-LAB2"])),
    )
    for batch in ([doc], [doc] * 20):
        report = score_inputs(batch, catalog=catalog)[0]
        assert not isinstance(report, Exception)
        found = [
            (e.code, e.path) for p in report.players for e in p.errors if e.code == "copy_limit"
        ]
        assert found == [
            ("copy_limit", "/players/0/city/2/card"),  # the 3rd new-eden
            ("copy_limit", "/players/1/city/0/card"),  # the 3rd copy of EX Lab
        ]


def test_rule_3_empty_city_is_legal_with_a_warning() -> None:
    p = neweden.score(game("military", player("P", [])))["players"][0]
    assert p["legal"] is True
    assert [w["code"] for w in p["warnings"]] == ["empty_city"]
    assert p["score"]["total"] == 0


def test_duplicate_name_is_an_error_that_leaves_the_city_legal() -> None:
    report = neweden.score(game("military", player("A", line(2)), player("A", line(2))))
    assert report["valid"] is False
    second = report["players"][1]
    assert [(e["code"], e["path"]) for e in second["errors"]] == [
        ("duplicate_name", "/players/1/name")
    ]
    assert second["legal"] is True


def test_every_problem_is_listed_once_where_its_path_says() -> None:
    doc = game(
        "populist",
        player("A", [*line(2), card(0, 0, "r")]),
        player("A", line(2), epiphanies=[{"points": 5, "state": "activated"}]),
        requirements=["A1", "EX-Z1", "C1"],
        first_player="Nobody",
    )
    report = neweden.score(doc)
    assert [e["path"] for e in report["errors"]] == ["/requirements/1"]
    # game_not_ended (the root), the unknown first player, and decks A and C only.
    assert [w["path"] for w in report["warnings"]] == ["", "/first_player", "/requirements"]
    assert [e["code"] for e in report["players"][0]["errors"]] == ["overlap"]
    assert [e["code"] for e in report["players"][1]["errors"]] == [
        "activated_five_point",
        "duplicate_name",
    ]
    assert [p["legal"] for p in report["players"]] == [False, True]


def test_lean_report_has_no_audit_and_the_format_keys() -> None:
    report = neweden.score(game("military", player("A", line(2))), detail=False)
    assert "audit" not in report
    assert "audit" not in report["players"][0]
    assert set(report) == {
        "format",
        "neweden",
        "catalog",
        "valid",
        "mode",
        "majority_table",
        "meta",
        "players",
        "errors",
        "warnings",
    }
    assert report["meta"] is None
    assert report["majority_table"] == "default"
    assert set(report["players"][0]) == {
        "name",
        "legal",
        "cards",
        "open_connections",
        "stars",
        "requirements_met",
        "requirements_declared",
        "score",
        "place",
        "errors",
        "warnings",
    }
