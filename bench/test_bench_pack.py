"""Building the score table, per city: from decoded games straight to the table
(`pack_games`), against resolving every card to a CardSpec and packing those (the
baseline: what the per-city path does)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.conftest import realistic_cities
from neweden.catalog.catalog import BUILTIN, resolve_city
from neweden.format.model import Game, InlineCard, Placement, Player
from neweden.geometry.compact import pack_games, pack_table

GROUP = "packing per city"


@pytest.fixture(scope="module")
def decoded_cities() -> list[list[Placement]]:
    """The realistic cities as the decoder gives them: placements of inline cards."""
    out = []
    for city in realistic_cities(2_000, seed=9):
        placements = []
        for card in city:
            spec = card.spec
            assert spec is not None
            inline = (
                InlineCard(wild=True)
                if spec.wild
                else InlineCard(
                    style=spec.style,
                    type=spec.type,
                    facility=spec.facility,
                    points=spec.points,
                    stars=spec.stars,
                    sides=sorted(spec.sides),
                )
            )
            placements.append(
                Placement(row=card.row, col=card.col, card=inline, rotated=card.rotated)
            )
        out.append(placements)
    return out


@pytest.mark.usefixtures("frozen")
def test_resolve_then_pack_baseline(benchmark: Any, decoded_cities: list[list[Placement]]) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(decoded_cities)
    benchmark(lambda: pack_table([resolve_city(c, BUILTIN, "")[0] for c in decoded_cities]))


@pytest.mark.usefixtures("frozen")
def test_pack_games(benchmark: Any, decoded_cities: list[list[Placement]]) -> None:
    benchmark.group = GROUP
    benchmark.extra_info["items"] = len(decoded_cities)
    games = [
        Game(mode="military", players=[Player(name="P", city=city)]) for city in decoded_cities
    ]
    benchmark(pack_games, games, BUILTIN)
