"""RULES §5: the manual's final-scoring example, every part the manual describes."""

from __future__ import annotations

from typing import Any

import pytest

import neweden
from neweden.cli.main import example_game
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return neweden.score(example_game())


@pytest.fixture(scope="module")
def sarah(report: dict[str, Any]) -> dict[str, Any]:
    player: dict[str, Any] = report["players"][0]
    assert player["name"] == "Sarah"
    return player


def test_the_built_in_example_is_the_one_in_examples() -> None:
    assert example_game() == (EXAMPLES / "final-scoring-example.json").read_bytes()


def test_manual_final_example_totals_78(sarah: dict[str, Any]) -> None:
    score = sarah["score"]
    assert (score["requirements"], score["military"]["total"], score["epiphanies"]) == (44, 20, 9)
    assert score["ten_cards"] == 5
    assert score["total"] == 78


def test_manual_final_example_requirements(sarah: dict[str, Any]) -> None:
    assert sarah["cards"] == 10
    assert sarah["open_connections"] == 6
    assert sarah["requirements_met"] == ["A1", "B1"]  # C1 not: 6 open connections > 4
    assert sarah["stars"] == 2
    c1 = next(r for r in sarah["audit"]["requirements"] if r["id"] == "C1")
    assert c1["met"] is False
    assert sarah["audit"]["stars"] == {"requirements": 2, "epiphanies": 0, "total": 2}


def test_manual_final_example_two_three_star_cards_score_one_point(sarah: dict[str, Any]) -> None:
    cards = sarah["audit"]["cards"]
    three = [c for c in cards if c["stars_required"] == 3]
    assert len(three) == 2
    assert all(c["populist_points"] == 1 and c["points"] > 1 for c in three)
    activated = [c for c in cards if c["stars_required"] <= 2]
    assert sum(c["populist_points"] for c in activated) == 42
    assert all(c["populist_points"] == c["points"] for c in activated)


def test_manual_final_example_military(sarah: dict[str, Any]) -> None:
    military = sarah["score"]["military"]
    assert military == {
        "labs": 3,
        "shelters": 5,
        "medical": 10,
        "towers": 2,
        "bases": 0,
        "total": 20,
    }
    audit = sarah["audit"]["military"]
    assert audit["labs"] == 1
    # Two shelters side by side at 2 points each, one alone at 1.
    assert sorted(len(g) for g in audit["shelter_groups"]) == [1, 2]
    # Towers 2 high by 1 wide.
    span = audit["tower_span"]
    assert span["to"][0] - span["from"][0] + 1 == 2
    assert span["to"][1] - span["from"][1] + 1 == 1
    assert len(audit["medical_cards"]) == 5
    # One base, fewer than every opponent: the fewest score nothing.
    assert audit["bases"] == 1
    assert audit["bases_place"] == 3


def test_manual_final_example_epiphanies(sarah: dict[str, Any]) -> None:
    lines = sarah["audit"]["epiphanies"]
    assert [line["scored"] for line in lines] == [5, 2, 2, 0, 0]
    # The two 1/3 stars do not make a whole star: they score as validated.
    assert [line["state"] for line in lines[1:3]] == ["activated", "activated"]


def test_manual_final_example_report_shape(report: dict[str, Any]) -> None:
    assert report["format"] == "new-eden/report@1"
    assert report["valid"] is True
    assert report["catalog"] == "builtin"
    assert report["meta"]["source"].startswith("the final-scoring example")
    assert [w["code"] for w in report["warnings"]] == ["default_majority_table"]
    assert [p["place"] for p in report["players"]] == [1, 3, 2]
