"""A game scored alone (`neweden.score`) reuses its thread's packer, cleared for each game
(report.read_alone): each game's report is the one a fresh packer gives it (a batch of
one through `score_inputs`), whatever was scored before it in the thread, in other threads at
the same time, or by another catalog; a game the lean readers refuse leaves nothing behind."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest

import neweden
from neweden.catalog.files import parse_catalog
from neweden.scoring import report
from tests.games import problem_games
from tests.lean import Outcome, lean, outcome_of, padded, taken_lean

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
        padded(json.dumps(aliased, ensure_ascii=False).encode()),  # (an escape: read exactly)
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


def _packer() -> object:
    """The packer the calling thread holds for games alone (None: none yet)."""
    held = getattr(report._ALONE, "packer", None)
    return None if held is None else held[1]


def test_a_game_alone_holds_the_packer_of_its_thread_and_catalog() -> None:
    """The packer is made once a thread and catalog (what makes a game alone cheaper than a
    batch of one); another catalog gets its own; a name folded renumbers its table (the
    aliases' branch of `packed_scored`) and the next game's is as read again."""
    doc = padded(json.dumps(problem_games(1)[0]).encode())
    neweden.score(doc, detail=False)
    first = _packer()
    assert first is not None
    neweden.score(doc, detail=False)
    assert _packer() is first
    aliased = _docs()[12]
    assert "gótico".encode() in aliased
    assert taken_lean(aliased)
    assert lean(aliased, False) == _fresh(aliased, False)
    assert _packer() is first
    assert first._aliases  # type: ignore[attr-defined]
    assert lean(doc, False) == _fresh(doc, False)
    assert not first._aliases  # type: ignore[attr-defined]
    other = parse_catalog(json.dumps(CATALOG).encode(), "catalog.json")
    neweden.score(doc, detail=False, catalog=other)
    assert _packer() is not first
    seen: list[object] = []
    worker = threading.Thread(target=lambda: (neweden.score(doc), seen.append(_packer())))
    worker.start()
    worker.join()
    assert seen[0] is not None
    assert seen[0] is not _packer()


def test_a_game_scored_while_the_thread_reads_another_gets_its_own_packer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game scored in the middle of another's reading, on the same thread (a signal
    handler, a hook the reader calls): each gets its own report. (With one packer a thread
    shared by both, the inner game cleared and refilled the outer's table: the outer game
    got the inner one's figures.)"""
    docs = _docs()
    outer, inner = docs[0], docs[3]
    want_outer, want_inner = _fresh(outer, False), _fresh(inner, False)
    assert want_outer != want_inner
    got: list[Outcome] = []
    calls: list[bytes] = []
    read = report.decode_lean

    def reading(head: bytes) -> Any:
        calls.append(head)
        if len(calls) == 1:  # the first game read: score another one in the middle
            got.append(lean(inner, False))
        return read(head)

    neweden.score(docs[1], detail=False)  # the thread holds a packer
    assert _packer() is not None
    monkeypatch.setattr(report, "decode_lean", reading)
    assert lean(outer, False) == want_outer
    assert got == [want_inner]
