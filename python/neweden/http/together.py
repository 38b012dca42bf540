"""The games posted to `/v1/score` while the event loop is busy, scored together.

A game of at most INLINE_BYTES is scored on the event loop (a thread hop costs more than
the work). Under load, several such requests have their bodies read by the time the loop
gets to the first of them: each waits here instead, and one callback, run by the loop once
they have all had their turn, scores them with one call of
:func:`~neweden.scoring.report.score_inputs` for each language and detail among them (most
often one): one native read, one pass of the core, one collector pause, and, for 16 games
or more of a lean report, their players scored together over columns
(:func:`~neweden.scoring.core._together`). Each request gets the report its game gets
alone (tests/scoring's property tests hold every path to the same report), in its own
language and with its own `detail`. A request with nothing else ready on the loop is scored
at once: a lone client waits for nothing (under asyncio's loop; under uvloop, whose ready
queue cannot be read, each request waits a callback).

Measured (docs/http.md, "Games posted at once"): under 8 connections a callback scores 1 to
8 games, under 32 connections 1 to 32; `/v1/score` ran at 83-87% of the decode-only rate
under 8 connections and 89-95% under 32, against 66-73% with each game scored alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Final

from neweden.catalog.catalog import Catalog
from neweden.i18n import current, speaking
from neweden.scoring.report import score_inputs, score_report
from neweden.scoring.types import Report

__all__ = ["MOST_AT_ONCE", "Together"]

#: The most games one callback scores: more waiting are scored by the next callback, after
#: the requests of these have been answered (the loop serves them first).
MOST_AT_ONCE: Final = 32

#: What a game's report depends on besides the game: the language of its messages and
#: whether it carries the audit. The games waiting with one such key are scored in one call.
_Key = tuple[str, bool]
_Waiting = list[tuple[bytes, "asyncio.Future[Report]"]]
#: How a bug met while scoring games together is told (neweden.http.service.QUIET's call:
#: a kind, a line, the exception), before each game is scored alone again.
BugLog = Callable[..., None]


def _others_ready(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether something else is ready to run on `loop` before a callback scheduled now
    (the requests whose bodies have been read among them). asyncio's loop keeps that queue
    as `_ready` (CPython 3.7 to 3.13); a loop without one (uvloop's, which uvicorn takes when
    it is installed) is taken to be busy: each game waits a callback, even a lone
    client's."""
    ready = getattr(loop, "_ready", None)
    return ready is None or len(ready) > 0


class Together:
    """The `/v1/score` games of one catalog waiting for their event loop, scored together
    (an app served by several loops at once keeps the games of each apart: a future is
    settled on its own loop)."""

    def __init__(self, catalog: Catalog, log: BugLog) -> None:
        self.catalog = catalog
        self.log = log
        #: by loop, the games waiting for its callback (an entry only while some wait)
        self.waiting: dict[asyncio.AbstractEventLoop, dict[_Key, _Waiting]] = {}

    async def score(self, body: bytes, detail: bool) -> Report:
        """The report of the game `body` in the current language; GameDecodeError for a body
        that is not a readable game (or the error a bug raised while scoring it, that game's
        only). Scored at once when nothing else is ready to run on the loop (no other
        request could join it: a lone client's requests wait for nothing), else with the
        games of the requests that are."""
        loop = asyncio.get_running_loop()
        waiting = self.waiting.get(loop)
        if waiting is None:
            if not _others_ready(loop):
                return score_report(body, catalog=self.catalog, detail=detail)
            waiting = self.waiting[loop] = {}
            loop.call_soon(self.flush, loop)  # a callback is due whenever a game waits
        future: asyncio.Future[Report] = loop.create_future()
        waiting.setdefault((current(), detail), []).append((body, future))
        return await future

    def flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Score the games waiting on `loop`, at most MOST_AT_ONCE (the rest next time),
        and settle their futures. The games are taken from the loop's own entry, which
        stays while this runs: a game put there meanwhile waits for the callback due."""
        waiting = self.waiting[loop]
        left = MOST_AT_ONCE
        taken: list[tuple[_Key, _Waiting]] = []
        for key in list(waiting):
            games = waiting.pop(key)
            taken.append((key, games[:left]))
            if len(games) > left:
                waiting[key] = games[left:]
            left -= len(taken[-1][1])
            if left == 0:
                break
        try:
            for (lang, detail), games in taken:
                with speaking(lang):
                    found = self._scored([body for body, _ in games], detail)
                for (_, future), one in zip(games, found, strict=True):
                    if future.done():  # cancelled: its client went away
                        continue
                    if isinstance(one, BaseException):
                        future.set_exception(one)
                    else:
                        future.set_result(one)
        finally:
            for key, games in taken:  # (an interrupt: the games not scored wait again)
                unsettled = [(body, future) for body, future in games if not future.done()]
                if unsettled:
                    waiting[key] = [*unsettled, *waiting.get(key, [])]
            if waiting:  # after the wake-ups of the requests answered: they go first
                loop.call_soon(self.flush, loop)
            else:
                del self.waiting[loop]

    def _scored(self, bodies: list[bytes], detail: bool) -> list[Report | BaseException]:
        """The report of each game, or why there is none: a GameDecodeError; a bug met while
        scoring them together is logged and each game scored alone, so that only the
        request whose game meets it again fails (a 500, logged too)."""
        if len(bodies) == 1:
            return [self._alone(bodies[0], detail)]
        try:
            found: list[Any] = score_inputs(bodies, catalog=self.catalog, detail=detail)
        except Exception as exc:
            line = f"scoring {len(bodies)} games together: {type(exc).__name__}: {exc}"
            self.log(f"together|{type(exc).__name__}", line[:500], exc_info=exc)
            return [self._alone(body, detail) for body in bodies]
        return found

    def _alone(self, body: bytes, detail: bool) -> Report | BaseException:
        try:
            return score_report(body, catalog=self.catalog, detail=detail)
        except Exception as err:  # GameDecodeError, or the bug
            return err
