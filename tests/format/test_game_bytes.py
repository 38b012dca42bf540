"""A game given as a mapping: a dict of JSON's own types is encoded as it is, any other
mapping is copied first (`_plain`, which tells each value JSON cannot carry). Both ways
give the same bytes, or the same problems, for any mapping."""

from __future__ import annotations

import copy
import enum
import math
from collections import OrderedDict
from decimal import Decimal
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neweden.format import game_bytes as gb
from neweden.format.problems import GameDecodeError
from neweden.format.untyped import CUT_DEPTH
from tests.conftest import load_example
from tests.strategies import json_paths


class _Seat(enum.IntEnum):
    FIRST = 1


class _Plain(enum.Enum):
    ONE = 1


def _outcome(make: Any, game: Any) -> tuple[str, Any]:
    """What a way of making a mapping's bytes gives: the bytes, or the problems it raised."""
    try:
        return "bytes", make(game)
    except GameDecodeError as err:
        return "problems", [(p.code, p.path, p.message) for p in err.problems]


_ODD: list[Any] = [
    float("nan"),
    float("inf"),
    -0.0,
    2**64,
    -(2**63) - 1,
    Decimal("1.5"),
    b"x",
    frozenset({1}),
    _Seat.FIRST,
    _Plain.ONE,
    "\ud800",  # a lone surrogate: no UTF-8 for it
    object(),
]

#: Python values, JSON's own and not: the ones JSON cannot carry, subclasses, tuples, int
#: keys, ordered dicts.
python_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(_ODD),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=4) | st.integers(0, 3), inner, max_size=3)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3).map(OrderedDict)
    ),
    max_leaves=10,
)

#: JSON's own values only: the fast way's games.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=10,
)


@st.composite
def mapped_games(draw: st.DrawFn) -> Any:
    """The format example with a value here and there replaced by any Python value."""
    game: Any = copy.deepcopy(load_example("format-example.json"))
    for _ in range(draw(st.sampled_from([1, 1, 2, 3]))):
        path = draw(st.sampled_from(json_paths(game)[1:]))
        value = draw(json_values | python_values)
        node = game
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return game


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mapped_games())
def test_a_mapping_gives_the_same_bytes_or_problems_encoded_as_it_is_or_copied(game: Any) -> None:
    assert _outcome(gb._mapping_bytes, game) == _outcome(gb._copied_bytes, game)


@pytest.mark.parametrize("kinds", ["lists", "dicts", "both"])
@pytest.mark.parametrize("deepest", range(CUT_DEPTH - 2, CUT_DEPTH + 3))
def test_a_mapping_nested_near_the_cut_gives_the_same_either_way(deepest: int, kinds: str) -> None:
    # the game is level 1, `meta` level 2: containers inside it down to level `deepest`
    nested: Any = [] if kinds == "lists" else {"leaf": 1} if kinds == "dicts" else [1]
    for level in range(deepest - 3):
        wrap_in_list = kinds == "lists" or (kinds == "both" and level % 2 == 0)
        nested = [nested, 2] if wrap_in_list else {"k": nested, "n": None}
    game = {"mode": "military", "players": [], "meta": {"deep": nested}}
    assert gb._only_json(game) is (deepest <= CUT_DEPTH)  # past the cut, _plain empties it
    assert _outcome(gb._mapping_bytes, game) == _outcome(gb._copied_bytes, game)


@pytest.mark.parametrize("odd", _ODD, ids=lambda odd: type(odd).__name__ + str(_ODD.index(odd)))
def test_a_dict_with_an_odd_value_gives_the_same_either_way(odd: Any) -> None:
    game = copy.deepcopy(load_example("format-example.json"))
    game["meta"]["x"] = odd
    # -0.0, an int however large and any str are JSON's types: msgspec tells the rest (no
    # UTF-8 for a lone surrogate) and the copy says it again, as its problem
    json_own = type(odd) in (int, str) or (type(odd) is float and math.isfinite(odd))
    assert gb._only_json(game) is json_own
    assert _outcome(gb._mapping_bytes, game) == _outcome(gb._copied_bytes, game)


def test_a_dict_of_json_values_is_encoded_without_the_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dict itself is what is encoded (a copy would be another object). (msgspec's
    encoder is watched: the module is compiled, a patch of its own `_plain` is not reached.)"""
    game = load_example("format-example.json")
    expected = gb._copied_bytes(game)
    encoded: list[Any] = []
    encode = msgspec.json.encode

    def watched(value: Any) -> bytes:
        encoded.append(value)
        return encode(value)

    monkeypatch.setattr(msgspec.json, "encode", watched)
    assert gb.game_bytes(game) == expected
    assert len(encoded) == 1
    assert encoded[0] is game


def test_a_value_nested_past_reading_is_read_cut_never_a_recursion_error() -> None:
    from neweden.format.untyped import shallow_value

    deep = b'{"a": 1, "b": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    value = shallow_value(deep)
    assert value["a"] == 1
    level, node = 1, value["b"]
    while node:
        level, node = level + 1, node[0]
    assert level == CUT_DEPTH  # the list at the cut, emptied
    assert shallow_value(b'{"a": [[1]]}') == {"a": [[1]]}
    with pytest.raises(msgspec.ValidationError):
        shallow_value(b"[1e999]")  # a number msgspec does not hold, said as msgspec says it


@pytest.mark.parametrize("key", ["¹", "٣", "²³"])
def test_a_key_of_digits_that_are_not_ascii_is_a_key_not_an_index(key: str) -> None:
    """A key of superscript or other script's digits (str.isdigit is true for them, int()
    refuses some) is told where it is, in document order like any key, not read as an array
    index (a dict game holding one once raised ValueError)."""
    from neweden.format.problems import pointer_order

    assert pointer_order(f"/format/{key}/0") == ((1, "format"), (1, key), (0, 0))
    game = load_example("final-scoring-example.json")
    game["format"] = OrderedDict({key: {0: None}})
    with pytest.raises(GameDecodeError) as refused:
        gb.game_bytes(game)
    assert refused.value.problems
    assert all(p.path.startswith("/format") for p in refused.value.problems)


def test_a_message_calls_a_key_of_other_digits_a_key_and_an_index_an_item() -> None:
    from neweden.format.walk import field_label

    assert field_label("/meta/¹") == "`¹`"
    assert field_label("/meta/01") == "`01`"  # (RFC 6901: an index has no leading zero)
    assert field_label("/players/0/city/2") == "item 2 of `city`"
    assert field_label("/players/0/city/0") == "item 0 of `city`"
    assert field_label("/players/10") == "item 10 of `players`"
