"""Property: the score report over the native core equals the one over the reference."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.decode import decode_game
from neweden.report import reference_geometry, score_game
from neweden.synth import city_json, grow_city

EFFECTS = ["third_star", "rotate", "move"]


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = []
    for i in range(draw(st.integers(1, 4))):
        city = city_json(
            grow_city(rng, draw(st.integers(0, 15)), styles=6, types=4), wild_id="atomic-waste"
        )
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
