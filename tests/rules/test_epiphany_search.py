"""The search behind `disjoint_sets` (identical epiphanies, each with its own cards) is
bounded: its answers agree with a brute force where it decides, its work is bounded by a
budget a game (beyond: "unknown", never a guess), and a picture does not pay for it.

Work is measured in Python calls (a deterministic count, not a time): a trace function
counts them and stops the test past a bound."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import ResolvedCard
from neweden.catalog.files import parse_catalog
from neweden.geometry.figures import ScoreFigures
from neweden.geometry.synth import grow_city
from neweden.present.render import render
from neweden.rules.conditions import CityContext, evaluate
from neweden.rules.epiphany_conditions import MAX_EVALUATIONS, SearchBudget, disjoint_sets
from neweden.scoring import audit
from neweden.scoring.report import native_geometry
from tests.games import game, line, player


class TooMuchWork(Exception):
    pass


@contextmanager
def at_most_calls(limit: int) -> Iterator[None]:
    """Fails (TooMuchWork) once the code inside makes more than `limit` Python calls."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        count += 1
        if count > limit:
            raise TooMuchWork(f"more than {limit:,} Python calls")

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(previous)


def catalog_of(condition: Any) -> Any:
    entry = {"points": 2, "effect": "third_star", "example": True, "condition": condition}
    return parse_catalog(json.dumps({"epiphanies": {"EX-e": entry}}).encode(), "e.json")


def declared(copies: int) -> list[dict[str, str]]:
    return [{"card": "EX-e", "state": "validated"}] * copies


def issue_game() -> dict[str, Any]:
    """The issue's reproduction: 4 players, each with a 14-card row and the epiphany
    declared validated 4 times (4 disjoint sets of 4 cards need 16 cards)."""
    return game("populist", *[player(f"P{i}", line(14), epiphanies=declared(4)) for i in range(4)])


COUNT_4 = {">=": [{"count": {}}, 4]}


def test_the_issue_four_copies_on_fourteen_cards_is_decided_with_bounded_work() -> None:
    catalog = catalog_of(COUNT_4)
    with at_most_calls(2_000_000):
        report = neweden.score(issue_game(), catalog=catalog)
    answers = [e["disjoint_sets"] for p in report["players"] for e in p["audit"]["epiphanies"]]
    assert answers == ["no"] * 16


def test_the_picture_does_not_compute_the_epiphany_information(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A picture draws no epiphany line: it must not search (nor check conditions). (The
    audit's own functions are compiled: what they call of Python modules is patched.)"""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("render computed the audit's epiphany information")

    monkeypatch.setattr(audit, "evaluate", refuse)
    monkeypatch.setattr(audit, "disjoint_sets", refuse)
    picture = render(issue_game(), catalog=catalog_of(COUNT_4))
    assert picture.count('class="card"') == 4 * 14


def geometry(subset: Sequence[ResolvedCard]) -> ScoreFigures:
    return native_geometry.scores([subset])[0]


def brute_force(condition: Any, copies: int, cards: Sequence[ResolvedCard], catalog: Any) -> str:
    """Every subset meeting the condition, then any `copies` pairwise disjoint ones."""
    n = len(cards)
    meeting = []
    for mask in range(1 << n):
        subset = [cards[i] for i in range(n) if mask >> i & 1]
        if evaluate(condition, CityContext(subset, geometry(subset), catalog)):
            meeting.append(mask)

    def pick(wanted: int, start: int, used: int) -> bool:
        if wanted == 0:
            return True
        return any(
            meeting[j] & used == 0 and pick(wanted - 1, j + 1, used | meeting[j])
            for j in range(start, len(meeting))
        )

    if 0 in meeting:  # the empty set meets it: every copy can
        return "yes"
    return "yes" if pick(copies, 0, 0) else "no"


CONDITIONS: list[Any] = [
    COUNT_4,
    {">=": [{"count": {}}, 2]},
    {">=": [{"count": {"facility": ["lab", "tower"]}}, 1]},
    {"==": [{"count": {}}, 2]},
    {"and": [{">=": [{"distinct": "style"}, 2]}, {">=": [{"count": {"stars": [2, 3]}}, 1]}]},
    {">=": [{"adjacent": [{}, {}]}, 1]},
    {"or": [{">=": [{"largest_group": {"by": "type"}}, 2]}, {">=": [{"count": {}}, 3]}]},
    {"<=": [{"open_connections": {}}, 1]},
    {">=": [{"complete_connections": {}}, 2]},
    {"not": {"<": [{"row_cards": {}}, 2]}},
    {"not": {">=": [{"count": {}}, 1]}},
    False,
]


@pytest.mark.parametrize("condition", CONDITIONS, ids=[json.dumps(c) for c in CONDITIONS])
def test_the_answers_agree_with_a_brute_force(condition: Any) -> None:
    catalog = catalog_of(condition)
    rng = random.Random(json.dumps(condition))
    for _ in range(6):
        cards = grow_city(rng, rng.randint(1, 7), styles=3, types=2)
        for copies in (2, 3):
            expected = brute_force(condition, copies, cards, catalog)
            found = disjoint_sets(condition, copies, cards, catalog, geometry)
            assert found == expected, (copies, [(c.row, c.col, c.spec) for c in cards])


def many_terms(k: int) -> Any:
    """`count >= 4` and k always-true terms: k + 1 value terms an evaluation."""
    return {"and": [*[{">=": [{"count": {}}, 0]}] * k, COUNT_4]}


def test_past_the_budget_the_answer_is_unknown() -> None:
    """Two copies over a 14-card row: the 1,471 subsets of up to 4 cards are evaluated,
    49 value terms each, past the budget of a game: the answer is not guessed."""
    condition = many_terms(48)
    catalog = catalog_of(condition)  # a condition a catalog accepts
    cards = [ResolvedCard(i, 0, i, False, COMMON) for i in range(14)]
    assert MAX_EVALUATIONS < 1_471 * 49
    budget = SearchBudget()
    assert disjoint_sets(condition, 2, cards, catalog, geometry, budget) == "unknown"
    assert budget.evaluations < 0
    # the same search with a larger budget is decided
    larger = SearchBudget(evaluations=2 * MAX_EVALUATIONS)
    assert disjoint_sets(condition, 2, cards, catalog, geometry, larger) == "yes"


def test_the_budget_is_shared_by_the_searches_of_a_game() -> None:
    """Four players each asking a question costing 60% of a game's budget: the first is
    answered, the others are "unknown", and the whole game's work stays bounded."""
    condition = many_terms(26)
    assert 0.5 < 1_471 * 27 / MAX_EVALUATIONS < 1
    players = [player(f"P{i}", line(14), epiphanies=declared(2)) for i in range(4)]
    with at_most_calls(5_000_000):
        report = neweden.score(game("populist", *players), catalog=catalog_of(condition))
    answers = [p["audit"]["epiphanies"][0]["disjoint_sets"] for p in report["players"]]
    assert answers == ["yes", "unknown", "unknown", "unknown"]


COMMON = neweden.CardSpec(False, "g", "p", "lab", 1, 0, frozenset())


def test_more_copies_than_cards_can_hold_is_no_at_once() -> None:
    catalog = catalog_of(COUNT_4)
    cards = [ResolvedCard(i, 0, i, False, COMMON) for i in range(14)]
    with at_most_calls(200_000):
        assert disjoint_sets(COUNT_4, 4, cards, catalog, geometry) == "no"
        assert disjoint_sets(COUNT_4, 3, cards, catalog, geometry) == "yes"


def test_an_epiphany_held_many_times_is_evaluated_once_a_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`condition_met` of 40 copies of one id: one evaluation of the condition a player
    (a condition of 256 values over 77 cards costs milliseconds; 160 of them, a second)."""
    calls: list[Any] = []

    def counted(condition: Any, city: CityContext) -> bool:
        calls.append(condition)
        return evaluate(condition, city)

    monkeypatch.setattr(audit, "evaluate", counted)
    players = [player(f"P{i}", line(14), epiphanies=declared(40)) for i in range(2)]
    report = neweden.score(game("military", *players), catalog=catalog_of(COUNT_4))
    lines = [e for p in report["players"] for e in p["audit"]["epiphanies"]]
    assert [e["condition_met"] for e in lines] == [True] * 80
    assert len(calls) == 2
