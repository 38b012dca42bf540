"""The public functions answer the same whether the report path runs as Python or compiled
(docs/architecture.md, "The build": a compiled function checks its arguments against their
annotations). What a caller may pass as Python reads it (a truthy `detail`, a player that
is not a str, a Game built by hand with tuples) reaches the compiled modules as they take
it; CI runs these against the compiled install, an editable install against the `.py`
files."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

import msgspec
import numpy as np
import pytest

import neweden
from neweden.format.decode import as_declared
from neweden.format.model import Bonus, Game

EXAMPLE = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()


@pytest.mark.parametrize("truthy", [1, "yes", np.bool_(True)])
@pytest.mark.parametrize("falsy", [0, None, "", np.bool_(False)])
def test_detail_is_read_as_python_reads_a_truth_value(truthy: Any, falsy: Any) -> None:
    game = neweden.decode_game(EXAMPLE)
    for given in (EXAMPLE, game):
        assert neweden.score(given, detail=truthy) == neweden.score(given, detail=True)
        assert neweden.score(given, detail=falsy) == neweden.score(given, detail=False)
    for given_detail, meant in ((truthy, True), (falsy, False)):
        many = list(neweden.score_many([EXAMPLE], jobs=1, detail=given_detail))
        assert many == list(neweden.score_many([EXAMPLE], jobs=1, detail=meant))


@pytest.mark.parametrize("player", [5, None, b"Sarah", 1.5])
def test_a_player_that_is_not_a_str_is_no_player_of_the_game(player: Any) -> None:
    with pytest.raises(neweden.PlacementError) as caught:
        neweden.placements(EXAMPLE, player=player, card="atomic-waste")
    (problem,) = caught.value.problems
    assert (problem.code, problem.path) == ("not_found", "/player")
    assert f'called "{player}"' in problem.message


def _with_tuples(game: Game) -> Game:
    """The game built by hand with tuples where its fields declare lists."""
    players = tuple(
        msgspec.structs.replace(
            p,
            city=tuple(p.city),
            epiphanies=tuple(p.epiphanies),
            bonuses=tuple(p.bonuses),
        )
        for p in game.players
    )
    return msgspec.structs.replace(game, players=players)  # type: ignore[arg-type]


def test_a_game_built_by_hand_with_tuples_is_scored_and_placed_as_with_lists() -> None:
    game = neweden.decode_game(EXAMPLE)
    built = _with_tuples(game)
    assert isinstance(built.players, tuple)
    for detail in (False, True):
        assert neweden.score(built, detail=detail) == neweden.score(game, detail=detail)
    name = game.players[0].name
    card = "atomic-waste"
    assert neweden.placements(built, player=name, card=card) == neweden.placements(
        game, player=name, card=card
    )


def test_a_value_of_another_type_than_its_field_s_is_named() -> None:
    """A hand-built game the rules refuse (as the compiled ones refuse a float for an int)
    and whose types are not its fields' is a TypeError that says which value."""
    game = neweden.decode_game(EXAMPLE)
    player = msgspec.structs.replace(game.players[1], bonuses=[Bonus(name="x", points=1.5)])  # type: ignore[arg-type]
    odd = msgspec.structs.replace(game, players=[game.players[0], player])

    def refuse(_: Game) -> None:
        raise TypeError("int object expected; got float")

    with pytest.raises(TypeError, match=r"players\[1\]\.bonuses\[0\]\.points"):
        as_declared(odd, refuse)
