"""Property: a batch's lean reports, their players scored together over columns
(:mod:`neweden.scoring.chunk`), are byte for byte those of each game scored alone, and those
of the reference twin, on generated games: legal and illegal, every mode, ties, requirement
lists of their own (unknown ids too), epiphanies at their corners, first players named or
not."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN, Catalog, EpiphanySpec, RequirementSpec
from neweden.format.decode import decode_game
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.scoring import chunk, report
from neweden.scoring.report import reference_geometry, score_inputs, score_reports

EFFECTS = ["third_star", "third_star", "rotate", None]
#: requirement lists a game may play: the built-in ones, an unknown id, an invented one
REQUIREMENTS = [
    [],
    ["A1"],
    ["C1", "B1"],
    ["A1", "B1", "C1"],
    ["B1", "EX-NOPE"],
    ["EX-FIGURES", "A1"],
]


def _epiphany(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.integers(0, 7)) == 0:  # by catalog id, known or not
        card = draw(st.sampled_from(["EX-E2", "EX-E5", "EX-NOPE"]))
        return {"card": card, "state": draw(st.sampled_from(["validated", "activated"]))}
    effect = draw(st.sampled_from(EFFECTS))
    return {
        "points": draw(st.sampled_from([2, 2, 5])),
        "state": draw(st.sampled_from(["held", "validated", "activated", "activated"])),
        **({"effect": effect} if effect else {}),
    }


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    rng = random.Random(draw(st.integers(0, 2**32)))
    n = draw(st.integers(1, 4))
    players = []
    for i in range(n):
        city = city_json(grow_city(rng, draw(st.integers(0, 14)), styles=5, types=6))
        roll = draw(st.integers(0, 5))
        if city and roll == 0:  # a card on a taken cell
            city.append({**city[0], "card": city[-1]["card"]})
        elif len(city) > 1 and roll == 1:  # a card far from the rest
            city[-1] = {**city[-1], "row": city[-1]["row"] + 30}
        elif roll == 2 and "style" in city[-1]["card"]:  # a typo: the batch is not quiet
            card = city[-1]["card"]
            city[-1] = {**city[-1], "card": {**card, "style": card["style"][:-1]}}
        players.append(
            {
                "name": f"P{i}",
                "city": city,
                "epiphanies": [_epiphany(draw) for _ in range(draw(st.integers(0, 7)))],
                "bonuses": [{"name": "b", "points": draw(st.integers(-3, 9))}]
                if draw(st.booleans())
                else [],
            }
        )
    if n > 1 and draw(st.booleans()):  # the last player the same as the first: a tie
        players[-1] = {**players[0], "name": f"P{n - 1}"}
    doc: dict[str, Any] = {
        "mode": draw(st.sampled_from(["populist", "military", "elitist"])),
        "players": players,
    }
    if doc["mode"] != "military" or draw(st.booleans()):
        doc["requirements"] = draw(st.sampled_from(REQUIREMENTS))
    if draw(st.booleans()):
        doc["first_player"] = draw(st.sampled_from([f"P{i}" for i in range(n)] + ["nobody"]))
    return doc


#: A catalog of invented cards (ids EX-). Requirements: one read from the figures, one that
#: looks at the cards themselves (a filtering condition: its games are scored alone), one
#: always met. Epiphanies of 2 and 5 points with the 1/3-star effect.
_EXAMPLES = dataclasses.replace(
    BUILTIN,
    requirements={
        **BUILTIN.requirements,
        "EX-CARDS": RequirementSpec(
            "EX-CARDS", "A", "example", {">=": [{"count": {"style": "ex_cobalt"}}, 2]}
        ),
        "EX-FIGURES": RequirementSpec(
            "EX-FIGURES", "B", "example", {">=": [{"open_connections": {}}, 3]}
        ),
        "EX-ALWAYS": RequirementSpec("EX-ALWAYS", "C", "example", {">=": [1, 0]}),
    },
    epiphanies={
        "EX-E2": EpiphanySpec("EX-E2", 2, "third_star"),
        "EX-E5": EpiphanySpec("EX-E5", 5, "third_star"),
    },
)


def _bytes(found: list[Any]) -> list[bytes]:
    return [
        msgspec.json.encode(r) if not isinstance(r, Exception) else repr(r).encode() for r in found
    ]


def _sizes(spy: mock.MagicMock) -> list[int]:
    """The number of games of each chunk scored over columns since the spy was reset."""
    return [len(call.args[0]) for call in spy.call_args_list]


@pytest.fixture
def spy() -> Iterator[mock.MagicMock]:
    """chunk_players watched (so a test shows the path ran)."""
    with mock.patch.object(report, "chunk_players", wraps=chunk.chunk_players) as found:
        yield found


def _agree(docs: list[dict[str, Any]], catalog: Catalog, spy: mock.MagicMock) -> None:
    raws = [msgspec.json.encode(doc) for doc in docs]
    together = _bytes(score_inputs(raws, catalog=catalog))  # read lean (the larger ones)
    decoded = [decode_game(doc) for doc in docs]
    spy.reset_mock()
    exact = _bytes(score_reports(decoded, catalog=catalog))  # decoded the exact way
    assert _sizes(spy) == [len(docs)], "the batch was not scored as a chunk"
    spy.reset_mock()
    alone = _bytes([score_reports([game], catalog=catalog)[0] for game in decoded])
    twin = _bytes(score_reports(decoded, catalog=catalog, geometry=reference_geometry))
    assert not spy.called  # a game alone, and the twin, are scored player by player
    assert together == alone
    assert exact == alone
    assert twin == alone


#: Batches of a few games, scored as chunks (a chunk's arithmetic does not depend on its size;
#: the real threshold has its own test below).
SMALL_CHUNKS = 4


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=SMALL_CHUNKS, max_size=SMALL_CHUNKS + 8))
def test_a_chunk_scores_its_players_as_each_game_alone(docs: list[dict[str, Any]]) -> None:
    with (
        mock.patch.object(report, "chunk_players", wraps=chunk.chunk_players) as spy,
        mock.patch.object(chunk, "CHUNK_FROM", SMALL_CHUNKS),
    ):
        _agree(docs, _EXAMPLES, spy)
        with speaking("pt-BR"):
            _agree(docs, _EXAMPLES, spy)


def test_games_playing_a_condition_on_the_cards_are_scored_alone(spy: mock.MagicMock) -> None:
    rng = random.Random(5)
    docs = []
    for g in range(chunk.CHUNK_FROM):
        players = [
            {"name": f"P{p}", "city": city_json(grow_city(rng, rng.randint(6, 12), styles=3))}
            for p in range(1 + g % 4)
        ]
        ids = ["EX-CARDS", "A1"] if g % 3 == 0 else ["EX-FIGURES", "EX-ALWAYS", "B1"]
        docs.append(
            {"mode": ["populist", "elitist"][g % 2], "players": players, "requirements": ids}
        )
    raws = [msgspec.json.encode(doc) for doc in docs]
    assert min(len(raw) for raw in raws) >= report.LEAN_FROM_BYTES  # all read lean, one chunk
    together = score_inputs(raws, catalog=_EXAMPLES)
    assert _sizes(spy) == [chunk.CHUNK_FROM]
    alone = [score_inputs([raw], catalog=_EXAMPLES)[0] for raw in raws]
    assert _bytes(together) == _bytes(alone)
    met = [p.requirements_met for r in together if not isinstance(r, Exception) for p in r.players]
    assert any(ids and "EX-CARDS" in ids for ids in met)  # the card condition was tested
    assert all(ids is not None and "EX-ALWAYS" in ids for ids in met[1:4])


def test_the_chunk_path_starts_at_chunk_from_games(spy: mock.MagicMock) -> None:
    docs = [{"mode": "military", "players": [{"name": "A", "city": []}]}] * chunk.CHUNK_FROM
    score_reports([decode_game(doc) for doc in docs[:-1]])
    assert not spy.called
    score_reports([decode_game(doc) for doc in docs])
    assert _sizes(spy) == [chunk.CHUNK_FROM]


@pytest.mark.parametrize("many", [2, 6, 7, 9])
def test_a_chunk_reads_the_requirements_met_of_long_lists(many: int, spy: mock.MagicMock) -> None:
    """A game playing more requirements than the chunk lists the met subsets of ahead
    (chunk._LISTED_AHEAD) is read city by city: the same reports either way."""
    conditions = {
        f"EX-R{k}": RequirementSpec(
            f"EX-R{k}", "ABC"[k % 3], "example", {">=": [{"open_connections": {}}, k]}
        )
        for k in range(9)
    }
    catalog = dataclasses.replace(_EXAMPLES, requirements={**_EXAMPLES.requirements, **conditions})
    ids = [f"EX-R{k}" for k in (0, 8, 5, 1, 7, 2, 6, 3, 4)][:many]
    rng = random.Random(many)
    docs = []
    for g in range(SMALL_CHUNKS + 2):
        players = [
            {"name": f"P{p}", "city": city_json(grow_city(rng, rng.randint(4, 12), styles=3))}
            for p in range(1 + g % 3)
        ]
        mode = ["populist", "elitist"][g % 2]
        docs.append({"mode": mode, "players": players, "requirements": ids})
    with mock.patch.object(chunk, "CHUNK_FROM", SMALL_CHUNKS):
        _agree(docs, catalog, spy)
    decoded = [decode_game(d) for d in docs]
    met = [p.requirements_met for r in score_reports(decoded, catalog=catalog) for p in r.players]
    assert any(m and len(m) == many for m in met)  # cities meeting every one
    assert any(m and 0 < len(m) < many for m in met)  # and some


def test_games_that_declare_or_give_their_d5_table_are_scored_alone_in_a_batch(
    spy: mock.MagicMock,
) -> None:
    """Issue 36: a batch mixing games whose players declare the requirements they met, games
    with their own D5 table and plain games: each game's report is the one it gets alone,
    byte for byte, read lean or the exact way, in a chunk, by the twin; the declaring games
    are scored alone (the columns hold no declaration), the others in the chunk."""
    from tests.table_games import table_games

    docs = [
        {k: v for k, v in g.items() if k != "_cities"} for g in table_games(9, 40, declared=True)
    ]
    assert any("majority_table" in d for d in docs)
    assert any("requirements_met" in p for d in docs for p in d["players"])
    _agree(docs, BUILTIN, spy)
    raws = [msgspec.json.encode(doc) for doc in docs]
    spy.reset_mock()
    with speaking("pt-BR"):
        assert _bytes(score_inputs(raws)) == _bytes([score_inputs([raw])[0] for raw in raws])
