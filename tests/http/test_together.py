"""The games posted to /v1/score at once, scored together (neweden.http.together): each
request gets the report its game gets alone, in its language and with its detail, whatever
the others hold; a lone request is scored at once; a bug fails only its own request."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from bench.mixes import mistaken_games
from neweden.catalog.catalog import BUILTIN
from neweden.format.problems import GameDecodeError
from neweden.http import together
from neweden.http.together import MOST_AT_ONCE, Together
from neweden.i18n import speaking
from neweden.scoring.report import score_report
from tests.games import problem_games

#: Games of every kind: the heavy mix (about 40% invalid, some not readable games), the
#: report's problem games, a body that is not JSON and one that is JSON but not a game.
BODIES = [
    *mistaken_games(40, 50),
    *[json.dumps(g).encode() for g in problem_games(12, 50)],
    b'{"mode": ',
    b'{"mode": "x", "players": []}',
]


def _no_bug(*told: Any, **also: Any) -> None:
    raise AssertionError(f"a bug was logged: {told}")


def _alone(body: bytes, lang: str, detail: bool) -> bytes | list[tuple[str, str]]:
    """What the game alone gets: its report's JSON, or its decode problems (code, message)."""
    with speaking(lang):
        try:
            return msgspec.json.encode(score_report(body, detail=detail))
        except GameDecodeError as err:
            return [(p.code, p.message) for p in err.problems]


def _got(outcome: Any) -> bytes | list[tuple[str, str]]:
    if isinstance(outcome, GameDecodeError):
        return [(p.code, p.message) for p in outcome.problems]
    assert not isinstance(outcome, BaseException), outcome
    return msgspec.json.encode(outcome)


def _posted_at_once(scorer: Together, asked: list[tuple[bytes, str, bool]]) -> list[Any]:
    """Each (body, language, detail) asked of `scorer` by its own task, the tasks started
    together as a server's requests whose bodies were read in one turn of the loop: the
    outcome of each, a report or the exception its request gets."""

    return asyncio.run(_all_asked(scorer, asked))


async def _all_asked(scorer: Together, asked: list[tuple[bytes, str, bool]]) -> list[Any]:
    """The outcomes of :func:`_posted_at_once`, on the running loop (a game left waiting
    for more than 60 s: a TimeoutError)."""

    async def one(body: bytes, lang: str, detail: bool) -> Any:
        with speaking(lang):
            return await scorer.score(body, detail)

    gathered = asyncio.gather(*[one(*a) for a in asked], return_exceptions=True)
    return await asyncio.wait_for(gathered, 60)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, bool]]:
    """The calls of score_inputs from here on: (games, language, detail) each."""
    from neweden.i18n import current

    calls: list[tuple[int, str, bool]] = []
    real: Callable[..., Any] = together.score_inputs

    def counted(bodies: list[bytes], **kwargs: Any) -> Any:
        calls.append((len(bodies), current(), kwargs["detail"]))
        return real(bodies, **kwargs)

    monkeypatch.setattr(together, "score_inputs", counted)
    return calls


def test_games_posted_at_once_get_each_the_report_it_gets_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counting(monkeypatch)
    bodies = [*BODIES[: MOST_AT_ONCE - 2], *BODIES[-2:]]  # (the last two: no game)
    asked = [(body, ("en", "pt-BR")[k % 2], k % 3 == 0) for k, body in enumerate(bodies)]
    outcomes = _posted_at_once(Together(BUILTIN, _no_bug), asked)
    assert [_got(o) for o in outcomes] == [_alone(*a) for a in asked]
    # scored together: one call for each language and detail
    groups = {(lang, detail): 0 for _, lang, detail in asked}
    for _, lang, detail in asked:
        groups[(lang, detail)] += 1
    assert sorted(calls) == sorted((n, lang, detail) for (lang, detail), n in groups.items())


def test_a_decode_error_is_the_one_of_its_own_game() -> None:
    asked = [(b'{"mode": ', "en", False), (BODIES[0], "en", False), (b"[]", "pt-BR", False)]
    first, second, third = _posted_at_once(Together(BUILTIN, _no_bug), asked)
    assert isinstance(first, GameDecodeError)
    assert isinstance(third, GameDecodeError)
    assert _got(first) == _alone(*asked[0])
    assert _got(third) == _alone(*asked[2])
    assert _got(second) == _alone(*asked[1])


def test_a_lone_request_is_scored_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    scorer = Together(BUILTIN, _no_bug)

    async def lone() -> Any:
        asked = scorer.score(BODIES[1], False)  # nothing else ready on the loop
        try:
            asked.send(None)  # its first step: done, not waiting for a callback of the loop
        except StopIteration as done:
            return done.value
        asked.close()
        raise AssertionError("a lone request waited for the loop")

    report = asyncio.run(lone())
    assert (_got(report), calls) == (_alone(BODIES[1], "en", False), [])


def test_more_than_most_at_once_are_scored_a_call_at_a_time_the_first_answered_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counting(monkeypatch)
    many = (BODIES * 2)[: MOST_AT_ONCE * 2 + 5]
    order: list[int] = []  # the requests in the order they resume with their report
    scorer = Together(BUILTIN, _no_bug)

    async def one(k: int) -> Any:
        report = await scorer.score(many[k], False)
        order.append(k)
        return report

    async def all_of_them() -> list[Any]:
        return await asyncio.gather(*[one(k) for k in range(len(many))], return_exceptions=True)

    outcomes = asyncio.run(all_of_them())
    assert [n for n, _, _ in calls] == [MOST_AT_ONCE, MOST_AT_ONCE, 5]
    assert order == sorted(order)  # each call's requests answered before the next call
    assert [_got(o) for o in outcomes] == [_alone(b, "en", False) for b in many]


def test_a_bug_met_together_fails_only_the_request_whose_game_meets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = BODIES[3]

    def broken_together(bodies: list[bytes], **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the batch")

    real = together.score_report

    def broken_alone(body: bytes, **kwargs: Any) -> Any:
        if body is bad:
            raise RuntimeError("a bug in this game")
        return real(body, **kwargs)

    monkeypatch.setattr(together, "score_inputs", broken_together)
    monkeypatch.setattr(together, "score_report", broken_alone)
    asked = [(body, "en", False) for body in BODIES[:8]]
    logged: list[tuple[str, str, Any]] = []

    def log(kind: str, line: str, *, exc_info: BaseException) -> None:
        logged.append((kind, line, exc_info))

    outcomes = _posted_at_once(Together(BUILTIN, log), asked)
    (kind, line, error), *more = logged  # the group's bug told once
    assert (kind, line, more) == (
        "together|RuntimeError",
        "scoring 8 games together: RuntimeError: a bug in the batch",
        [],
    )
    assert isinstance(error, RuntimeError)
    assert isinstance(outcomes[3], RuntimeError)
    assert str(outcomes[3]) == "a bug in this game"
    assert [_got(o) for k, o in enumerate(outcomes) if k != 3] == [
        _alone(*a) for k, a in enumerate(asked) if k != 3
    ]


def test_a_request_given_up_on_leaves_the_others_their_reports() -> None:
    scorer = Together(BUILTIN, _no_bug)

    async def run() -> list[Any]:
        tasks = [asyncio.ensure_future(scorer.score(body, False)) for body in BODIES[:6]]
        await asyncio.sleep(0)  # each task waits with its game
        waiting = scorer.waiting[asyncio.get_running_loop()]
        assert sum(len(games) for games in waiting.values()) == 6
        tasks[2].cancel()  # its client went away
        return await asyncio.gather(*tasks, return_exceptions=True)

    loop = asyncio.new_event_loop()
    unhandled: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    try:
        outcomes = loop.run_until_complete(run())
    finally:
        loop.close()
    assert isinstance(outcomes[2], asyncio.CancelledError)
    assert [_got(o) for k, o in enumerate(outcomes) if k != 2] == [
        _alone(b, "en", False) for k, b in enumerate(BODIES[:6]) if k != 2
    ]
    assert unhandled == []  # no future left with an exception no one read


def test_an_app_served_by_two_loops_at_once_answers_each_on_its_own_loop() -> None:
    """One app (one Together) on two event loops, each in its thread (two test clients, or
    two servers mounting it): loop B's games, posted while loop A's wait for A's callback,
    wait for B's own (settled from A's thread, B's were never woken)."""
    import threading

    scorer = Together(BUILTIN, _no_bug)
    bodies = BODIES[:12]
    a_waits, b_waits = threading.Event(), threading.Event()
    found: dict[str, list[Any]] = {}

    def serve(name: str) -> None:
        async def posted() -> list[Any]:
            tasks = [asyncio.ensure_future(scorer.score(b, False)) for b in bodies]
            # after the tasks' first steps (their games waiting), before A's callback
            asyncio.get_running_loop().call_soon(hold if name == "A" else b_waits.set)
            return await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)

        found[name] = asyncio.run(posted())

    def hold() -> None:  # loop A stops here until loop B's games wait too
        a_waits.set()
        b_waits.wait(60)

    a = threading.Thread(target=serve, args=("A",), daemon=True)
    a.start()
    assert a_waits.wait(60)
    b = threading.Thread(target=serve, args=("B",), daemon=True)
    b.start()
    a.join(90)
    b.join(10)  # (settled from A's thread, B's loop slept until its 60 s timer)
    assert not a.is_alive()
    assert not b.is_alive(), "loop B's requests were not woken"
    expected = [_alone(b, "en", False) for b in bodies]
    assert [_got(o) for o in found["A"]] == expected
    assert [_got(o) for o in found["B"]] == expected
    assert scorer.waiting == {}


def test_games_not_scored_when_an_interrupt_stops_the_loop_are_scored_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = together.score_inputs
    interrupted: list[int] = []

    def interrupting(bodies: list[bytes], **kwargs: Any) -> Any:
        if not interrupted:
            interrupted.append(len(bodies))
            raise KeyboardInterrupt
        return real(bodies, **kwargs)

    monkeypatch.setattr(together, "score_inputs", interrupting)
    scorer = Together(BUILTIN, _no_bug)
    asked = [(body, ("en", "pt-BR")[k % 2], False) for k, body in enumerate(BODIES[:10])]

    loop = asyncio.new_event_loop()
    try:
        everything = loop.create_task(_all_asked(scorer, asked))
        with pytest.raises(KeyboardInterrupt):
            loop.run_until_complete(everything)
        outcomes = loop.run_until_complete(everything)  # the loop run again
    finally:
        loop.close()
    assert interrupted == [5]  # the first group's call
    assert [_got(o) for o in outcomes] == [_alone(*a) for a in asked]
