"""The compact city: the arrays the native core reads, and the side bits it shares."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import neweden
from neweden import _core
from neweden.catalog.catalog import BUILTIN, resolve_city
from neweden.geometry.compact import SIDE_BITS, UNRESOLVED, WILD, pack_cities
from tests.conftest import load_example


def test_side_bits_are_the_cores() -> None:
    assert SIDE_BITS == {
        "top": _core.TOP,
        "right": _core.RIGHT,
        "bottom": _core.BOTTOM,
        "left": _core.LEFT,
    }


@pytest.mark.parametrize("mask", range(16))
@pytest.mark.parametrize("rotated", [False, True])
def test_rotation_in_python_and_in_the_core_agree(mask: int, rotated: bool) -> None:
    sides = frozenset(s for s, bit in SIDE_BITS.items() if mask & bit)
    spec = neweden.CardSpec(False, "a", "b", "lab", 0, 0, sides)
    placed = sum(SIDE_BITS[s] for s in spec.sides_as_placed(rotated))
    assert placed == _core.rotate_sides(mask, rotated)


def test_pack_the_format_example(format_example: dict[str, Any]) -> None:
    game = neweden.decode_game(format_example)
    cards, problems = resolve_city(game.players[0].city, BUILTIN, "/players/0/city")
    assert problems == []
    packed = pack_cities([cards])
    assert len(packed) == 1
    assert packed.offsets.tolist() == [0, 3]
    assert packed.row.tolist() == [0, 0, 1]
    assert packed.col.tolist() == [0, 1, 1]
    assert packed.flags.tolist() == [WILD, 0, 0]
    assert packed.styles == ("gothic",)
    assert packed.types == ("building", "plaza")
    assert packed.style.tolist() == [-1, 0, 0]
    assert packed.type.tolist() == [-1, 0, 1]
    assert packed.facility.tolist() == [-1, 2, 0]  # medical, lab
    # atomic-waste: all sides; medical: left|right|bottom; the rotated lab: bottom -> top.
    assert packed.sides.tolist() == [15, 8 | 2 | 4, 1]
    assert packed.row.dtype == np.int32
    assert packed.sides.dtype == np.uint8


def test_a_batch_is_one_set_of_arrays_with_offsets() -> None:
    game = neweden.decode_game(load_example("military-two-players.json"))
    cities = [resolve_city(p.city, BUILTIN, "")[0] for p in game.players]
    packed = pack_cities([*cities, []])
    assert packed.offsets.tolist() == [0, 8, 13, 13]
    assert len(packed) == 3
    second = packed.city(1)
    assert second.row.tolist() == [-1, -1, 0, 1, 0]
    assert second.flags.tolist() == [0, 0, WILD, WILD, 0]
    assert len(packed.city(2).row) == 0
    assert pack_cities([]).offsets.tolist() == [0]


def test_an_unknown_id_is_an_unresolved_row(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][0]["card"] = "EX-not-a-card"
    game = neweden.decode_game(format_example)
    cards, problems = resolve_city(game.players[0].city, BUILTIN, "/players/0/city")
    assert [(p.code, p.path, p.cells) for p in problems] == [
        ("unknown_card", "/players/0/city/0/card", ((0, 0),))
    ]
    assert cards[0].spec is None
    assert pack_cities([cards]).flags.tolist() == [UNRESOLVED, 0, 0]
