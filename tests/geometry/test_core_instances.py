"""The core makes a pass's figures as the package's named tuples itself (`figures`,
`city_figures` of `_core.score_games` and `JsonPacker.score`): instances as
`tuple.__new__` makes them, tracked by the garbage collector, equal to those made from
plain tuples, and no reference leaked or lost over many passes."""

from __future__ import annotations

import gc
import pickle
import random
import sys
from typing import Any, NamedTuple

import msgspec
import pytest

from neweden import _core
from neweden.geometry.compact import pack_flat
from neweden.geometry.figures import CityFigures, ScoreFigures
from neweden.geometry.native import JsonGames, score_games
from neweden.geometry.synth import city_json, grow_city


def _table(seed: int) -> tuple[list[int], list[int], list[int]]:
    rng = random.Random(seed)
    cities = [grow_city(rng, n) for n in (1, 3, 9, 16)]
    cities.append([*cities[2], cities[2][0]])  # a card on a taken cell: an illegal city
    flat, offsets, _styles, _types = pack_flat(cities)
    return flat, offsets, [0, 2, len(cities)]


def test_figures_are_made_as_the_named_tuples() -> None:
    flat, offsets, games = _table(3)
    made, _over, listed, _array = _core.score_games(
        flat, offsets, games, 14, 1, False, ScoreFigures, CityFigures
    )
    plain, _over, plain_listed, _array = _core.score_games(flat, offsets, games, 14, 1, False)
    assert [type(f) for f in made] == [ScoreFigures] * len(plain)
    assert made == [ScoreFigures(*f) for f in plain]
    assert listed
    assert {k: type(f) for k, f in listed.items()} == dict.fromkeys(listed, CityFigures)
    assert listed == {k: CityFigures(*f) for k, f in plain_listed.items()}
    fig = made[0]
    assert gc.is_tracked(fig)
    assert fig.legal is True
    assert fig._replace(cards=99).cards == 99
    assert pickle.loads(pickle.dumps(fig)) == fig
    assert hash(fig) == hash(tuple(fig))


def test_figures_made_by_the_packer_are_the_named_tuples() -> None:
    rng = random.Random(4)
    games = []
    for _ in range(4):
        players = [{"name": f"P{p}", "city": city_json(grow_city(rng, 8))} for p in range(2)]
        games.append(msgspec.json.encode({"mode": "military", "players": players}))
    packer = JsonGames()
    assert all(packer.add(game) for game in games)
    figures, _over, _listed, _array = packer.score(14, 1, True)
    assert [type(f) for f in figures] == [ScoreFigures] * 8
    packed = packer.packed()
    again = score_games(list(packed.flat), packed.offsets, packed.first_city, 14, 1)[0]
    assert figures == again


def test_no_reference_is_leaked_or_lost_over_many_passes() -> None:
    flat, offsets, games = _table(5)
    first = _core.score_games(flat, offsets, games, 14, 1, False, ScoreFigures, CityFigures)
    gc.collect()
    before = sys.getrefcount(ScoreFigures), sys.getrefcount(CityFigures), sys.getrefcount(True)
    for _ in range(3000):
        _core.score_games(flat, offsets, games, 14, 1, False, ScoreFigures, CityFigures)
    gc.collect()
    after = sys.getrefcount(ScoreFigures), sys.getrefcount(CityFigures), sys.getrefcount(True)
    assert after[:2] == before[:2]
    assert abs(after[2] - before[2]) < 100  # (True is shared by everything alive)
    assert first == _core.score_games(flat, offsets, games, 14, 1, False, ScoreFigures, CityFigures)


class _Wider(tuple[Any, ...]):  # its instances have a dict: not a tuple's layout
    pass


class _Named(NamedTuple):
    a: int


@pytest.mark.parametrize("odd", [int, list, _Wider, 5])
def test_only_tuple_types_laid_out_as_tuples_are_made(odd: Any) -> None:
    flat, offsets, games = _table(6)
    with pytest.raises(TypeError, match="a tuple type"):
        _core.score_games(flat, offsets, games, 14, 0, False, odd)
    assert type(_core.score_games(flat, offsets, games, 14, 0, False, _Named)[0][0]) is _Named
