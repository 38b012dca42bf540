"""Every legal placement of a card and what each scores, for a 12-card city of a 4-player
elitist game: `neweden.placements` (one native call for the candidates, the rules over them
at once) against a baseline that places the card at each candidate and scores the game with
`neweden.score`, in the same run. Twenty seeded games, a random card each."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import neweden
from bench.conftest import each
from neweden.catalog.catalog import ResolvedCard
from neweden.format.decode import decode_game
from neweden.geometry.synth import _random_card, city_json, grow_city

GROUP = "placements of a card: 12-card city, 4 players"
CELLS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def placement_questions() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Twenty seeded questions: a 4-player elitist game of 12-card cities, and a card."""
    rng = random.Random(22)
    out = []
    for _ in range(20):
        players = [
            {"name": f"P{i}", "city": city_json(grow_city(rng, 12, tries=2000))} for i in range(4)
        ]
        game = {"mode": "elitist", "requirements": ["A1", "B1", "C1"], "players": players}
        (entry,) = city_json([ResolvedCard(0, 0, 0, False, _random_card(rng, 5, 6))])
        out.append((game, entry["card"]))
    return out


@pytest.fixture(scope="module")
def questions() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return placement_questions()


def _brute_force(game: dict[str, Any], card: dict[str, Any]) -> list[tuple[int, int, bool, int]]:
    city = game["players"][0]["city"]
    taken = {(e["row"], e["col"]) for e in city}
    cells = sorted({(r + dr, c + dc) for r, c in taken for dr, dc in CELLS} - taken)
    found = []
    for row, col in cells:
        for rotated in (False, True):
            placed = copy.deepcopy(game)
            placed["players"][0]["city"].append(
                {"row": row, "col": col, "card": card, "rotated": rotated}
            )
            me = neweden.score(json.dumps(placed).encode(), detail=False)["players"][0]
            if me["legal"]:
                found.append((row, col, rotated, me["score"]["total"]))
    return found


@pytest.mark.usefixtures("frozen")
def test_placements_brute_force_baseline(benchmark: Any, questions: list[Any]) -> None:
    benchmark.group = GROUP
    benchmark.name = "baseline: place and score each candidate with neweden.score"
    benchmark.extra_info["items"] = len(questions)
    benchmark(each(lambda q: _brute_force(*q), questions))


@pytest.mark.usefixtures("frozen")
def test_placements_of_a_game_as_bytes(benchmark: Any, questions: list[Any]) -> None:
    asked = [(json.dumps(g).encode(), card) for g, card in questions]
    benchmark.group = GROUP
    benchmark.name = "neweden.placements, the game as JSON bytes"
    benchmark.extra_info["items"] = len(asked)
    found = [neweden.placements(g, player="P0", card=c) for g, c in asked]
    assert sum(len(f) for f in found) > 0
    benchmark(each(lambda q: neweden.placements(q[0], player="P0", card=q[1]), asked))


@pytest.mark.usefixtures("frozen")
def test_placements_of_a_decoded_game(benchmark: Any, questions: list[Any]) -> None:
    asked = [(decode_game(json.dumps(g)), card) for g, card in questions]
    benchmark.group = GROUP
    benchmark.name = "neweden.placements, the game decoded once (an app asking many cards)"
    benchmark.extra_info["items"] = len(asked)
    benchmark(each(lambda q: neweden.placements(q[0], player="P0", card=q[1]), asked))
