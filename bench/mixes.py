"""The mix of games heavy with mistakes: raw transcriptions before anyone fixed them.

About 40% of the games are invalid; an invalid game carries 1 to 40 problems (about 40% one,
the median two, a long tail with a dozen or more): cards apart from the city (alone or as a
group), cards on taken cells, copies over the limit, typos in a card, an activated 5-point
epiphany, an epiphany effect that does not exist. Most games, valid or not, also carry a
warning (an unknown first player, requirements in a Military game, a card turned without the
epiphany that allows it). The games themselves are the bench's realistic mix
(:func:`bench.conftest.realistic_game`).
"""

from __future__ import annotations

import json
import random
from typing import Any

from bench.conftest import realistic_game

__all__ = ["mistaken_games", "problems_wanted"]


def problems_wanted(rng: random.Random) -> int:
    """How many problems an invalid game gets: 1 (40%), 2 (20%), 3-5 (20%), 6-40 (20%)."""
    r = rng.random()
    if r < 0.4:
        return 1
    if r < 0.6:
        return 2
    if r < 0.8:
        return rng.randint(3, 5)
    return rng.randint(6, 40)


def _apart(city: list[dict[str, Any]], rng: random.Random, group: bool) -> None:
    """A card (or the last two or three cards) moved away from the rest."""
    if len(city) < 2:
        city.append({"row": 60, "col": 60, "card": {"wild": True}})
        return
    shift = rng.randint(30, 90)
    for placed in city[-rng.randint(2, 3) :] if group else [rng.choice(city[1:])]:
        placed["row"] += shift


def _taken(city: list[dict[str, Any]], rng: random.Random) -> None:
    """A card put again on a taken cell."""
    city.append({**rng.choice(city)})


def _copies(city: list[dict[str, Any]], rng: random.Random) -> None:
    """Atomic Waste beyond its five copies, far from the city."""
    base = rng.randint(100, 200)
    city.extend({"row": base, "col": base + i, "card": "atomic-waste"} for i in range(6))


def _typo(city: list[dict[str, Any]], rng: random.Random) -> None:
    """A card whose facility or id was mistyped."""
    placed = rng.choice(city)
    card = placed["card"]
    if isinstance(card, dict) and "facility" in card and rng.random() < 0.25:
        placed["card"] = {**card, "facility": card["facility"][:-1] + "x"}
    else:
        placed["card"] = rng.choice(["atomic-wast", "new-edem", "atomicwaste"])


def _epiphany(player: dict[str, Any], rng: random.Random) -> None:
    """A 5-point epiphany said activated, or an effect that does not exist."""
    wrong: dict[str, Any] = (
        {"points": 5, "state": "activated"}
        if rng.random() < 0.5
        else {"points": 2, "state": "validated", "effect": rng.choice(["third-star", "rotat"])}
    )
    player.setdefault("epiphanies", []).append(wrong)


def _mistake(player: dict[str, Any], rng: random.Random) -> None:
    city = player["city"]
    kind = rng.random()
    if kind < 0.35:
        _apart(city, rng, group=False)
    elif kind < 0.5:
        _apart(city, rng, group=True)
    elif kind < 0.7:
        _taken(city, rng)
    elif kind < 0.78:
        _copies(city, rng)
    elif kind < 0.9:
        _typo(city, rng)
    else:
        _epiphany(player, rng)


def _warn(doc: dict[str, Any], rng: random.Random) -> None:
    """A warning the game carries: most games carry one."""
    r = rng.random()
    if r < 0.3:
        doc["first_player"] = "Nobody"
    elif r < 0.55 and doc["mode"] == "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    elif r < 0.8:
        placed = rng.choice(doc["players"][0]["city"])
        placed["rotated"] = True


def mistaken_games(n: int, seed: int, invalid: float = 0.4) -> list[bytes]:
    """`n` games of the mix, as JSON bytes; about `invalid` of them with mistakes."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc = realistic_game(rng)
        if rng.random() < invalid:
            for _ in range(problems_wanted(rng)):
                _mistake(rng.choice(doc["players"]), rng)
        if rng.random() < 0.75:
            _warn(doc, rng)
        out.append(json.dumps(doc).encode())
    return out
