"""A game scored alone (`neweden.score`) reuses its thread's packer, cleared for each game
(report._alone_packer): each game's report is the one a fresh packer gives it (a batch of
one through `score_inputs`), whatever was scored before it in the thread, in other threads at
the same time, or by another catalog; a game the lean readers refuse leaves nothing behind."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN
from neweden.catalog.files import parse_catalog
from neweden.scoring import report
from tests.games import problem_games
from tests.lean import Outcome, lean, outcome_of, padded

CATALOG = {
    "format": "new-eden/catalog@1",
    "cards": {
        "EX-TOWER": {
            "example": True,
            "style": "ex_amber",
            "type": "ex_harbor",
            "facility": "tower",
            "points": 3,
            "stars": 1,
            "sides": ["left", "right"],
        }
    },
}


def _docs() -> list[bytes]:
    """Games with names of their own, Portuguese aliases folded (their table renumbered),
    catalog ids, documents msgspec refuses after the strict reader took the cities, and
    documents that are no game: each padded to be read lean."""
    docs = [padded(json.dumps(g).encode()) for g in problem_games(24, seed=38)]
    aliased = json.loads(docs[1])
    for player in aliased["players"]:
        for placed in player["city"]:
            if isinstance(placed["card"], dict):
                placed["card"]["style"] = "gótico"  # gothic, as players write it
    by_id = {
        "mode": "military",
        "players": [{"name": "A", "city": [{"row": 0, "col": 0, "card": "EX-TOWER"}]}],
    }
    refused_head = json.loads(docs[2])
    refused_head["first_player"] = 7  # the cities read, the rest refused
    return [
        *docs[:12],
        padded(json.dumps(aliased).encode()),
        padded(json.dumps(by_id).encode()),
        padded(json.dumps(refused_head).encode()),
        padded(b'{"mode": "military", "players": []}'),
        padded(b'{"mode": "military", "players": [{"name": "A", "city": [1]}]}'),
        *docs[12:],
    ]


def _fresh(doc: bytes, detail: bool, catalog: Any = None) -> Outcome:
    """The game's outcome through a fresh packer (a batch of one)."""
    (found,) = report.score_inputs([doc], detail=detail, catalog=catalog)
    return outcome_of(found)


@pytest.mark.parametrize("detail", [False, True])
def test_a_game_alone_is_scored_as_by_a_fresh_packer_whatever_came_before(detail: bool) -> None:
    docs = _docs()
    catalog = parse_catalog(json.dumps(CATALOG).encode(), "catalog.json")
    fresh = [_fresh(doc, detail) for doc in docs]
    assert {kind for kind, _ in fresh} == {"ok", "error"}  # both kinds, in turn
    for _ in range(2):  # the second round after every kind of game
        assert [lean(doc, detail) for doc in docs] == fresh
    by_catalog = [_fresh(doc, detail, catalog) for doc in docs]
    assert by_catalog != fresh  # EX-TOWER is a card of the catalog only
    mixed = [lean(doc, detail, catalog if i % 2 else None) for i, doc in enumerate(docs)]
    assert mixed == [by_catalog[i] if i % 2 else fresh[i] for i in range(len(docs))]


def test_threads_scoring_games_alone_at_once_each_get_their_reports() -> None:
    docs = _docs()
    fresh = [_fresh(doc, False) for doc in docs]
    found: dict[int, list[Outcome]] = {}
    start = threading.Barrier(4)

    def run(k: int, order: Sequence[int]) -> None:
        start.wait()
        found[k] = [lean(docs[i], False) for _round in range(5) for i in order]

    orders = [list(range(len(docs))), list(reversed(range(len(docs))))] * 2
    threads = [threading.Thread(target=run, args=(k, order)) for k, order in enumerate(orders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k, order in enumerate(orders):
        assert found[k] == [fresh[i] for _round in range(5) for i in order]


def test_a_game_alone_holds_the_packer_of_its_thread_and_catalog() -> None:
    """The packer is made once a thread and catalog (what makes a game alone cheaper than a
    batch of one), and another catalog gets its own."""
    doc = padded(json.dumps(problem_games(1)[0]).encode())
    neweden.score(doc, detail=False)
    first = report._alone_packer(BUILTIN)
    neweden.score(doc, detail=False)
    assert report._alone_packer(BUILTIN) is first
    other = parse_catalog(json.dumps(CATALOG).encode(), "catalog.json")
    assert report._alone_packer(other) is not first
    seen: list[object] = []
    worker = threading.Thread(target=lambda: seen.append(report._alone_packer(BUILTIN)))
    worker.start()
    worker.join()
    assert seen[0] is not report._alone_packer(BUILTIN)
