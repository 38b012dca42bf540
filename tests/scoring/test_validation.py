"""`neweden.validate` tells a lone city `{"city": [...]}` from a game: an object with `city`
and neither `players` nor `mode` at its top level. A document with either is told a game
without being decoded whole; the answer is the definition's on any document."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neweden
from neweden.scoring.validation import _is_lone_city
from tests.conftest import load_example


def _definition(raw: bytes) -> bool:
    """The rule as FORMAT §5 says it, on the document decoded whole."""
    try:
        doc = msgspec.json.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return False
    return isinstance(doc, dict) and "city" in doc and not {"players", "mode"} & doc.keys()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["city", "players", "mode", "x", "meta"]), inner)
    ),
    max_leaves=8,
)


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    """JSON texts: objects with some of `city`, `players` and `mode` (any values, a key
    given twice, numbers past a float), any other value, and texts cut short."""
    keys = draw(st.lists(st.sampled_from(["city", "players", "mode", "x"]), max_size=5))
    pairs = [f'"{key}": {json.dumps(draw(json_values))}' for key in keys]
    if draw(st.booleans()):
        pairs.append('"big": 1e999')
    an_object = draw(st.integers(0, 4)) > 0
    text = "{" + ", ".join(pairs) + "}" if an_object else json.dumps(draw(json_values))
    raw = text.encode()
    return raw[: draw(st.integers(0, len(raw)))] if draw(st.integers(0, 5)) == 0 else raw


@settings(max_examples=500, deadline=None)
@given(documents())
def test_a_lone_city_is_told_as_the_rule_says(raw: bytes) -> None:
    assert _is_lone_city(raw) is _definition(raw)


@pytest.mark.parametrize(
    ("raw", "lone"),
    [
        (b'{"city": []}', True),
        (b'{"city": [], "players": null}', False),  # a key given, whatever its value
        (b'{"mode": 0, "city": []}', False),
        (b'{"city": [], "x": 1e999}', False),  # no number past a float: a game's problem
        (b"[" * 5000 + b"]" * 5000, False),
        (b'{"city": [}', False),
        (b'{"city": [], "x": "\xff"}', False),  # no UTF-8: not a lone city (nor a game)
        (b'{"pl\\u0061yers": 1, "city": []}', False),  # "players", escaped
        (b'{"\\u006dode": 1, "city": []}', False),  # "mode", escaped
    ],
)
def test_lone_city_cases(raw: bytes, lone: bool) -> None:
    assert _is_lone_city(raw) is lone is _definition(raw)


def test_a_game_is_validated_as_a_game_and_a_lone_city_as_one() -> None:
    game = load_example("format-example.json")
    assert neweden.validate(game)["players"][0]["name"] == game["players"][0]["name"]
    city = {"city": game["players"][0]["city"]}
    assert neweden.validate(city)["players"][0]["name"] is None
