"""Property: the every-problem pass agrees with msgspec's fast path on any input.

Whatever msgspec rejects yields at least one problem; whatever the fast path accepts yields
none. Games are the examples with random mutations: a value replaced by any JSON value, a
field removed, an unknown field added.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.mixes import mistaken_games
from neweden.format.checks import CROSS_CHECKS, decoded_is_sound
from neweden.format.decode import decode_game, find_problems
from neweden.format.model import Game, LoneCity
from neweden.format.problems import DECODE_CODES, GameDecodeError
from tests.conftest import load_example
from tests.strategies import json_paths

BASES = [load_example("format-example.json"), load_example("military-two-players.json")]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.sampled_from([0, 2, 3, 5, 1000, 1001, -1001, 10**18])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "top", "gothic", "A1", "atomic-waste", "held", "military", "x" * 101])
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


@st.composite
def mutated_games(draw: st.DrawFn) -> Any:
    game: Any = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 4]))):
        paths = json_paths(game)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if not path:
            if action == "replace":
                game = draw(json_values)
            continue
        parent = game
        for key in path[:-1]:
            parent = parent[key]
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["sides", "wild", "card", "points", "x", "rotated"]))] = (
                draw(json_values)
            )
    return game


def _fast_path_accepts(raw: bytes) -> bool:
    try:
        doc = msgspec.json.decode(raw, type=Game)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return False
    return decoded_is_sound(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_games())
def test_every_problem_pass_agrees_with_msgspec(game: Any) -> None:
    raw = json.dumps(game).encode()
    found = find_problems(raw, Game)
    assert all(p.code in DECODE_CODES for p in found)
    assert all(p.path == "" or p.path.startswith("/") for p in found)
    if _fast_path_accepts(raw):
        assert found == [], found
    else:
        assert found, "msgspec rejected the game but the every-problem pass found nothing"


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_value_is_a_game_or_has_problems(value: Any) -> None:
    raw = json.dumps(value).encode()
    assert bool(find_problems(raw, Game)) != _fast_path_accepts(raw)


def _walked_whole(raw: bytes, repeated_keys: bool) -> list[Any]:
    """find_problems with every city entry walked field by field (the game format's checks
    given explicitly: no entry is taken as sound without its walk)."""
    return find_problems(raw, Game, checks=CROSS_CHECKS, repeated_keys=repeated_keys)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_games(), st.booleans())
def test_a_city_entry_taken_as_sound_hides_no_problem(game: Any, repeated_keys: bool) -> None:
    """The every-problem pass skips the walk of a city entry that decodes and passes the
    checks (placements_are_sound, a run of entries at a time): the problems are the same as
    with every entry walked."""
    raw = json.dumps(game).encode()
    found = find_problems(raw, Game, repeated_keys=repeated_keys)
    assert found == _walked_whole(raw, repeated_keys)


def test_the_mistaken_mix_lists_the_same_problems_with_sound_entries_skipped() -> None:
    """Transcriptions with mistakes (bench.mixes: typos, bad values, unknown fields among
    sound cards); and a key given twice, in an entry or in its card, whose earlier value
    msgspec does not see: the pass that checks every value walks every entry."""
    games = [g for g in mistaken_games(1500, 5) if not _fast_path_accepts(g)]
    assert len(games) > 20
    for raw in games:
        assert find_problems(raw, Game) == _walked_whole(raw, False)
    for entry, where in [
        (b'{"row": "x", "col": 0, "row": 0, "card": "atomic-waste"}', "/row"),
        (b'{"row": 0, "col": 0, "card": {"wild": true, "name": 5, "name": "w"}}', "/card/name"),
    ]:
        raw = b'{"mode": "military", "players": [{"name": "A", "city": [' + entry + b"]}]}"
        found = find_problems(raw, Game, repeated_keys=True)
        assert [p.path for p in found] == ["/players/0/city/0" + where]
        assert found == _walked_whole(raw, True)
        with pytest.raises(GameDecodeError) as refused:
            decode_game(raw)
        assert [p.path for p in refused.value.problems] == ["/players/0/city/0" + where]


def _run_ends(start: int, stop: int, found: set[int]) -> set[int]:
    """The last entry of every run Walk.items tests in a city of `stop` entries."""
    if stop - start > 2:
        found.add(stop - 1)
        middle = (start + stop) // 2
        _run_ends(start, middle, found)
        _run_ends(middle, stop, found)
    return found


@pytest.mark.parametrize(
    "bad",
    [
        [40],  # one typo among 77 cards
        [0, 76],
        sorted(_run_ends(0, 77, set())),  # each run the walk tests fails on its last entry
        list(range(77)),  # every card
        list(range(0, 77, 5)),
    ],
)
def test_a_long_city_with_bad_entries_lists_every_problem(bad: list[int]) -> None:
    """Cities of 77 entries (the most a city holds), bad entries placed where the runs of
    entries tested at once begin, end and split: the same problems as with every entry
    walked, in document order, for a game and for a lone city."""
    game = load_example("military-two-players.json")
    base = game["players"][0]["city"]
    city = [dict(base[i % len(base)], row=i // 9, col=i % 9) for i in range(77)]
    for i in bad:
        city[i] = dict(city[i], x=1) if i % 2 else {**city[i], "card": {"style": "gothic"}}
    players = [dict(game["players"][0], name=f"P{k}", city=city) for k in range(2)]
    raw = json.dumps(dict(game, players=players)).encode()
    found = find_problems(raw, Game)
    assert found == _walked_whole(raw, False)
    named = {p.path.split("/")[4] for p in found if p.path.startswith("/players/")}
    assert str(bad[0]) in named
    assert named <= {str(i) for i in bad}  # (at most 100 problems are listed)
    lone = json.dumps({"city": city}).encode()
    assert find_problems(lone, LoneCity) == find_problems(lone, LoneCity, checks=CROSS_CHECKS)
