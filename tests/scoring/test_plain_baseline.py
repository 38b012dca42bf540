"""The plain baseline of issue 38 (bench/plain.py) scores the bench's games as neweden does.

bench/plain.py is the fair baseline the benchmarks compare neweden with: a standalone
scorer of the standard library only. Its figures mean something only while it scores the
same games the same way, so on a few hundred games of each bench mix (the realistic one with
an illegal city in about 40% of the games, and the one heavy with mistakes), and of a third
made here of the rules those two seldom reach (:func:`seldom_games`): every game neweden
reads, plain.py reads; the players' names and `legal` flags agree on all of them;
totals and places agree on every game neweden scores as valid, and on the others too (an
illegal city is scored as RULES §3 says, by both).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import neweden
from bench import plain
from bench.conftest import realistic_game, transcribed_games
from bench.mixes import mistaken_games

GAMES = 400
SEED = 38

#: What the realistic games seldom or never show: 1/3-star groups (stars above three),
#: 5-point epiphanies said activated with the 1/3-star effect, wild cards by id (the copy
#: limits), a named first player and two players with the same city and epiphanies (the
#: last tie-breaker), the game's own D5 table, bonuses.
_SELDOM_EPIPHANIES = [
    *[{"points": 2, "state": "activated", "effect": "third_star"}] * 6,
    {"points": 5, "state": "activated", "effect": "third_star"},
    {"points": 2, "state": "activated", "effect": "rotate"},
    {"points": 2, "state": "validated", "effect": "third_star"},
    {"points": 5, "state": "validated"},
    {"points": 2, "state": "held"},
]


def seldom_games(n: int, seed: int) -> list[bytes]:
    """The realistic games with what they seldom show (:data:`_SELDOM_EPIPHANIES`)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc = realistic_game(rng)
        players = doc["players"]
        wild_ids = rng.random() < 0.5
        for player in players:
            if wild_ids:
                for placed in player["city"]:
                    if placed["card"] == {"wild": True}:
                        placed["card"] = rng.choice(["atomic-waste", "atomic-waste", "new-eden"])
            player["epiphanies"] = rng.choices(_SELDOM_EPIPHANIES, k=rng.randint(0, 12))
            if rng.random() < 0.3:
                player["bonuses"] = [{"name": "Photographer", "points": rng.randint(0, 6)}]
        if len(players) < 4 and rng.random() < 0.4:
            players.append({**players[-1], "name": "Twin"})
        if rng.random() < 0.7:
            doc["first_player"] = rng.choice(players)["name"]
        if doc["mode"] != "populist" and len(players) > 1 and rng.random() < 0.3:
            doc["majority_table"] = sorted(rng.choices(range(12), k=len(players)), reverse=True)
        out.append(json.dumps(doc).encode())
    return out


MIXES: dict[str, Callable[[int, int], list[bytes]]] = {
    "transcribed": transcribed_games,
    "mistaken": mistaken_games,
    "seldom": seldom_games,
}

Pair = tuple[dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module", params=list(MIXES))
def scored(request: pytest.FixtureRequest) -> tuple[list[Pair], int]:
    """(neweden's lean report, plain.py's result) of each game of the mix neweden reads, and
    how many games neweden refused (plain.py must refuse them as well, or may read them)."""
    pairs = []
    refused = 0
    for data in MIXES[request.param](GAMES, SEED):
        try:
            report = neweden.score(data, detail=False)
        except neweden.GameDecodeError:
            refused += 1
            continue
        pairs.append((report, plain.score(data)))  # it reads every game neweden reads
    return pairs, refused


def _players(report: dict[str, Any], mine: dict[str, Any]) -> list[tuple[Any, Any]]:
    theirs = [(p["name"], p["legal"], p["score"]["total"], p["place"]) for p in report["players"]]
    ours = [(p["name"], p["legal"], p["total"], p["place"]) for p in mine["players"]]
    return list(zip(theirs, ours, strict=True))


def test_the_mix_has_both_kinds(scored: tuple[list[Pair], int]) -> None:
    """The comparison is not empty on either side: both mixes hold valid and invalid games
    (and the mix heavy with mistakes some neweden does not read)."""
    pairs, refused = scored
    valid = sum(report["valid"] for report, _ in pairs)
    assert valid > GAMES // 8
    assert len(pairs) - valid > GAMES // 8
    assert len(pairs) + refused == GAMES


def test_legal_flags_agree(scored: tuple[list[Pair], int]) -> None:
    pairs, _ = scored
    for report, mine in pairs:
        for theirs, ours in _players(report, mine):
            assert ours[:2] == theirs[:2]
        assert mine["valid"] == all(p["legal"] for p in report["players"])


def test_valid_games_score_the_same(scored: tuple[list[Pair], int]) -> None:
    pairs, _ = scored
    compared = 0
    for report, mine in pairs:
        if report["valid"]:
            compared += 1
            for theirs, ours in _players(report, mine):
                assert ours == theirs
    assert compared > GAMES // 8


def test_invalid_games_score_the_same(scored: tuple[list[Pair], int]) -> None:
    """Beyond what the baseline needs: an illegal city is scored by both as RULES §3 says
    (a card on a taken cell or with an unknown id left out, a disconnected card scored as
    placed), and a game invalid for another reason (an activated 5-point epiphany) too."""
    pairs, _ = scored
    for report, mine in pairs:
        if not report["valid"]:
            for theirs, ours in _players(report, mine):
                assert ours == theirs
