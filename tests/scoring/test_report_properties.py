"""Property: the score report over the native core equals the one over the reference."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.format.decode import decode_game
from neweden.geometry.synth import city_json, grow_city
from neweden.scoring.report import reference_geometry, score_game

EFFECTS = ["third_star", "rotate", "move"]


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = []
    for i in range(draw(st.integers(1, 4))):
        city = city_json(
            grow_city(rng, draw(st.integers(0, 15)), styles=5, types=6), wild_id="atomic-waste"
        )
        if city and draw(st.integers(0, 9)) == 0:  # a transcriber's typo: one more name
            card = city[-1]["card"]
            if isinstance(card, dict) and "style" in card:
                city[-1] = {**city[-1], "card": {**card, "style": card["style"] + "x"}}
        if city and draw(st.booleans()):  # a card on a taken cell
            city.append({**city[0], "card": city[-1]["card"]})
        epiphanies = [
            {
                "points": draw(st.sampled_from([2, 5])),
                "state": draw(st.sampled_from(["held", "validated", "activated"])),
                "effect": draw(st.sampled_from(EFFECTS)),
            }
            for _ in range(draw(st.integers(0, 6)))
        ]
        players.append(
            {
                "name": f"P{i}",
                "city": city,
                "epiphanies": epiphanies,
                "bonuses": [{"name": "b", "points": draw(st.integers(0, 5))}],
            }
        )
    mode = draw(st.sampled_from(["populist", "military", "elitist"]))
    doc: dict[str, Any] = {"mode": mode, "players": players}
    if mode != "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    if draw(st.booleans()):
        doc["first_player"] = f"P{draw(st.integers(0, len(players)))}"
    return doc


@settings(max_examples=150, deadline=None)
@given(games())
def test_native_and_reference_reports_agree(doc: dict[str, Any]) -> None:
    decoded = decode_game(doc)
    native = score_game(decoded)
    twin = score_game(decoded, geometry=reference_geometry)
    assert native == twin
    assert neweden.score(doc) == native


@settings(max_examples=150, deadline=None)
@given(games())
def test_too_many_styles_exactly_when_the_game_shows_more_than_the_box(doc: dict[str, Any]) -> None:
    styles = {
        entry["card"]["style"]
        for player in doc["players"]
        for entry in player["city"]
        if isinstance(entry["card"], dict) and "style" in entry["card"]
    }
    report = neweden.score(doc, detail=False)
    codes = [e["code"] for e in report["errors"]]
    assert ("too_many_styles" in codes) == (len(styles) > 5)
    assert "too_many_types" not in codes  # generated games keep to the box's 6 types


def test_points_beyond_the_bound_are_refused_where_they_stand() -> None:
    """Points are bounded (a card at most MAX_POINTS, a bonus within MAX_BONUS_POINTS either
    way): a card of 2**62 points, common or wild, is `too_large` at its `points`, so no
    total can overflow the core's int32 table."""
    huge = 2**62
    rng = random.Random(3)
    city = city_json(grow_city(rng, 6, styles=3, types=2))
    city[0] = {**city[0], "card": {**city[0]["card"], "wild": True}}
    for key in ("style", "type", "facility", "sides"):
        city[0]["card"].pop(key, None)
    city[0]["card"]["points"] = huge
    city[1] = {**city[1], "card": {**city[1]["card"], "points": huge + 1, "stars": 0}}
    doc = {
        "mode": "populist",
        "requirements": ["A1", "B1", "C1"],
        "players": [{"name": "big", "city": city, "bonuses": [{"name": "b", "points": -huge}]}],
    }
    with pytest.raises(neweden.GameDecodeError) as info:
        decode_game(doc)
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("too_large", "/players/0/city/0/card/points"),
        ("too_large", "/players/0/city/1/card/points"),
        ("too_large", "/players/0/bonuses/0/points"),
    ]
    (line,) = neweden.score_many([doc], jobs=1)
    assert line["valid"] is False
