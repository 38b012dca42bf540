"""`rotated_without_epiphany`, the most frequent warning of a transcribed table, is made as the
report lists it and put straight into its player's warnings (`_place_rotated`). Where it
lands must be where the general placement of problems puts a warning: under its player, in
document order among the player's other warnings, whatever their paths."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN, resolve_extras
from neweden.format import codes
from neweden.format.decode import decode_game
from neweden.format.model import Game, Player
from neweden.format.problems import Problem
from neweden.i18n import speaking
from neweden.rules.warnings import ROTATED_PATH, rotated_cards, rotated_sentence, rotating_players
from neweden.scoring.problems import _assembled
from neweden.scoring.types import PlayerReport, Report, Score

#: Paths other warnings of a player take (p filled in), around and between a city's cards.
_OTHER_PATHS = (
    "/players/{p}",
    "/players/{p}/city",
    "/players/{p}/city/{i}",
    "/players/{p}/city/{i}/card/style",
    "/players/{p}/city/{i}/rotated",
    "/players/{p}/city/{i}/rotation",
    "/players/{p}/epiphanies/{i}",
    "/players/{p}/name",
)

others = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from(_OTHER_PATHS),
        st.integers(0, 12),
        st.sampled_from([codes.SIMILAR_NAMES, codes.UNKNOWN_EFFECT, codes.ONE_PLAYER_BASES]),
    ),
    max_size=6,
)
rotated = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.integers(0, 12) | st.integers(60, 70),  # (paths made ahead up to 63, then each)
        st.integers(-5, 5),
        st.integers(-5, 5),
    ),
    max_size=10,
    unique_by=lambda card: card[:2],
).map(sorted)  # as the packing lists them: player by player, in city order


def _players(n: int) -> list[PlayerReport]:
    score = Score(0, None, 0, 0, 0, 0)
    return [PlayerReport(f"P{p}", True, 0, 0, None, None, None, score, 1, [], []) for p in range(n)]


def _game(n: int) -> Game:
    return Game(mode="military", players=[Player(name=f"P{p}", city=[]) for p in range(n)])


def _report(warnings: list[Problem], cards: list[tuple[int, int, int, int]], n: int) -> Report:
    game = _game(n)
    return _assembled(
        game, BUILTIN, _players(n), [], warnings, msgspec.UNSET, source=None, rotated=cards
    )


@settings(max_examples=300, deadline=None)
@given(others=others, cards=rotated, lang=st.sampled_from(["en", "pt-BR"]))
def test_a_rotated_card_warning_lands_where_the_general_placement_puts_it(
    others: list[tuple[int, str, int, str]], cards: list[tuple[int, int, int, int]], lang: str
) -> None:
    with speaking(lang):
        warnings = [
            Problem(code=code, message=f"m{k}", path=path.format(p=p, i=i))
            for k, (p, path, i, code) in enumerate(others)
        ]
        said = rotated_sentence()
        as_problems = [
            Problem(
                code=codes.ROTATED_WITHOUT_EPIPHANY,
                message=said((index, row, col)),
                path=ROTATED_PATH % (p, index),
                cells=((row, col),),
            )
            for p, index, row, col in cards
        ]
        # the general placement of every warning, the rotated cards' as problems among them
        general = _report([*warnings, *as_problems], [], 4)
        straight = _report(warnings, cards, 4)
    assert msgspec.json.encode(straight) == msgspec.json.encode(general)
    assert msgspec.to_builtins(straight) == msgspec.to_builtins(general)


def test_only_the_cards_of_players_without_a_rotate_effect_are_told() -> None:
    cards = [(0, 0, 1, 1), (0, 4, 2, 2), (1, 1, 0, 0), (2, 3, 5, 5)]
    assert rotated_cards(cards, [False, True, False]) == [(0, 0, 1, 1), (0, 4, 2, 2), (2, 3, 5, 5)]
    # a chunk's cities, the game's first at 5: its players are read from there
    chunk = [True] * 5 + [True, False, True]
    assert rotated_cards(cards, chunk, 5) == [(1, 1, 0, 0)]


def test_a_player_rotates_with_an_activated_rotate_effect_only() -> None:
    game = decode_game(
        msgspec.json.encode(
            {
                "mode": "military",
                "players": [
                    {"name": name, "city": [], "epiphanies": [{"points": 2, **epiphany}]}
                    for name, epiphany in [
                        ("held", {"state": "held", "effect": "rotate"}),
                        ("used", {"state": "activated", "effect": "rotate"}),
                        ("other", {"state": "activated", "effect": "third_star"}),
                    ]
                ],
            }
        )
    )
    specs = resolve_extras(game, BUILTIN).epiphanies
    assert rotating_players(game, specs) == [False, True, False]


def test_the_warning_reads_as_the_report_has_always_said_it() -> None:
    report = _report([], [(1, 2, -3, 7)], 2)
    (item,) = report.players[1].warnings
    assert msgspec.to_builtins(item) == {
        "code": "rotated_without_epiphany",
        "message": "card 2 at row -3, column 7 is rotated, but the player lists no activated "
        "epiphany with the rotate effect (the game turns cards only through one)",
        "path": "/players/1/city/2/rotated",
        "cells": [[-3, 7]],
    }
    assert report.players[0].warnings == []
    assert report.warnings == []


def test_problems_of_one_place_keep_their_order_however_their_paths_are_written() -> None:
    """Problems are sorted by the place of their paths only: two paths of one place written
    differently (a player's number with a leading zero, a first token that is not empty)
    keep the order they were found in, and a path into no player beside one into a player
    compares nothing else."""
    from neweden.scoring.problems import _in_order

    def made(*paths: str) -> list[Problem]:
        return [
            Problem(code=codes.SIMILAR_NAMES, message=f"m{k}", path=p) for k, p in enumerate(paths)
        ]

    for paths in (
        ("/players/01/city/2", "/players/1/city/2"),
        ("/players/1/city/2", "/players/01/city/2"),
        ("x/players/1/x", "/players/1/x"),
        ("/players/1/x", "x/players/1/x"),
    ):
        assert [problem.message for _place, problem in _in_order(made(*paths))] == ["m0", "m1"]
