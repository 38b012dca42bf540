"""The audit trail adds up; every warning and message kind of the explanations work."""

from __future__ import annotations

from typing import Any

import pytest

import neweden
from neweden.cli.main import example_game
from tests.games import card, game, line, player

THIRD = {"points": 2, "state": "validated", "effect": "third_star"}


def messages(report: dict[str, Any], code: str) -> list[str]:
    found = [p for p in report["errors"] + report["warnings"] if p["code"] == code]
    for pl in report["players"]:
        found += [p for p in pl["errors"] + pl["warnings"] if p["code"] == code]
    return [p["message"] for p in found]


def test_the_trail_adds_up_to_every_total_of_the_manual_example() -> None:
    report = neweden.score(example_game())
    for p in report["players"]:
        audit, score = p["audit"], p["score"]
        stars = p["stars"]
        populist = sum(c["populist_points"] for c in audit["cards"] if c["scored"])
        assert score["requirements"] == populist + 15 * max(0, stars - 3)
        m = audit["military"]
        groups = [len(g) * min(len(g), 4) for g in m["shelter_groups"]]
        assert m["shelter_group_points"] == groups
        span = m["tower_span"]
        towers = 0
        if m["towers"] >= 2:
            towers = (span["to"][0] - span["from"][0] + 1) * (span["to"][1] - span["from"][1] + 1)
        bases = next(b["points"] for b in report["audit"]["bases"] if b["player"] == p["name"])
        assert score["military"] == {
            "labs": 3 * m["labs"],
            "shelters": sum(groups),
            "medical": 2 * len(m["medical_cards"]),
            "towers": towers,
            "bases": bases,
            "total": score["military"]["total"],
        }
        assert sum(line["scored"] for line in audit["epiphanies"]) == score["epiphanies"]
        parts = score["requirements"] + score["military"]["total"] + score["epiphanies"]
        assert score["total"] == parts + score["ten_cards"] + score["bonuses"]
        assert all(c["why"] for c in audit["cards"])


def test_requirements_say_why_in_words() -> None:
    sarah = neweden.score(example_game())["players"][0]
    assert [r["why"] for r in sarah["audit"]["requirements"]] == [
        "A1 met: 5 distinct styles; at least 5 (the styles of the game) needed",
        "B1 met: 7 cards in the fullest row; more than 5 needed",
        "C1 not met: 6 open connections; at most 4 allowed",
    ]


def test_every_player_base_count_in_the_trail() -> None:
    report = neweden.score(example_game())
    assert report["audit"]["bases"] == [
        {"player": "Sarah", "bases": 1, "place": 3, "points": 0},
        {"player": "Bruno", "bases": 2, "place": 2, "points": 3},
        {"player": "Carla", "bases": 3, "place": 1, "points": 7},
    ]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (card(1, 0, "t", style="ex_x", type="ex_y"), "share neither style nor type"),
        (card(1, 0, "l"), "no icon on that side"),
        (card(0, 3, "l"), "whose right side has no icon (a wall)"),
        (card(7, 7, "t"), "no card of it touches another card of the city"),
    ],
)
def test_disconnected_cards_are_told_side_by_side(extra: dict[str, Any], said: str) -> None:
    city = [*line(3), extra]
    city[0]["card"]["sides"] = ["right", "bottom"]  # (0,0) offers a bottom icon
    report = neweden.score(game("military", player("P", city)))
    (message,) = messages(report, "disconnected")
    assert said in message
    assert "card 3" in message or "(7, 7)" in message


def test_did_you_mean_for_fields_values_and_ids() -> None:
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.decode_game({"mode": "populsit", "players": [{"name": "A", "citty": []}]})
    text = [p.message for p in info.value.problems]
    assert any('did you mean "populist"' in t for t in text)
    assert any('did you mean "city"' in t for t in text)
    doc = game(
        "populist",
        player("A", [{"row": 0, "col": 0, "card": "new-edem"}]),
        requirements=["A1", "B1", "C11"],
    )
    report = neweden.score(doc)
    assert 'did you mean "new-eden"' in messages(report, "unknown_card")[0]
    assert 'did you mean "C1"' in messages(report, "unknown_requirement")[0]


def test_style_count_over_box() -> None:
    cities = [line(8, style="ex_gothic", type=f"ex_t{i}") for i in range(2)]
    report = neweden.score(game("military", player("A", cities[0]), player("B", cities[1])))
    assert messages(report, "style_count_over_box") == [
        'the game shows 16 common cards of the style "ex_gothic"; the box holds 14 of each style'
    ]


def test_game_not_ended_and_ended() -> None:
    assert messages(neweden.score(game("military", player("A", line(9)))), "game_not_ended")
    assert not messages(neweden.score(game("military", player("A", line(10)))), "game_not_ended")


def test_requirements_mismatch() -> None:
    report = neweden.score(game("populist", player("A", line(2)), requirements=["A1", "B1"]))
    assert "decks A, B" in messages(report, "requirements_mismatch")[0]
    ok = neweden.score(game("populist", player("A", line(2))))
    assert not messages(ok, "requirements_mismatch")


def test_rotated_without_epiphany() -> None:
    city = [card(0, 0, "r"), card(0, 1, "r", rotated=True)]
    report = neweden.score(game("military", player("A", city)))
    p = report["players"][0]
    assert [
        (w["path"], w["cells"]) for w in p["warnings"] if w["code"] == "rotated_without_epiphany"
    ] == [("/players/0/city/1/rotated", [[0, 1]])]
    eps = [{"points": 2, "state": "activated", "effect": "rotate"}]
    report = neweden.score(game("military", player("A", city, epiphanies=eps)))
    assert not messages(report, "rotated_without_epiphany")


def test_third_star_in_military() -> None:
    eps = [{**THIRD, "state": "activated"}] * 3
    report = neweden.score(game("military", player("A", line(2), epiphanies=eps)))
    assert messages(report, "third_star_in_military")


def test_advice_to_activate_more_third_stars() -> None:
    city = line(6, points=9, stars=3)  # B1 and C1: 2 stars, the cards need 3
    p = neweden.score(game("populist", player("P", city, epiphanies=[THIRD] * 3)))["players"][0]
    assert p["score"]["total"] == 6 + 6
    assert p["audit"]["advice"] == [
        {
            "code": "third_star_choice",
            "message": "activating 3 more 1/3-star epiphanies (1 whole star(s) instead of 0) "
            "would have scored 42 more points",
            "stars_from_epiphanies": 1,
            "gain": 42,
        }
    ]


def test_advice_to_validate_instead() -> None:
    city = line(6, points=1, stars=0)  # the star buys nothing
    activated = [{**THIRD, "state": "activated"}] * 3
    p = neweden.score(game("populist", player("P", city, epiphanies=activated)))["players"][0]
    (advice,) = p["audit"]["advice"]
    assert advice["gain"] == 6
    assert advice["message"].startswith("validating instead 3 more")


def test_no_advice_when_the_choice_was_best() -> None:
    sarah = neweden.score(example_game())["players"][0]
    assert sarah["audit"]["advice"] == []
