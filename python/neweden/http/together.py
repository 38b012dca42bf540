"""The games posted to `/v1/score` while the event loop is busy, scored together.

A game of at most INLINE_BYTES is scored on the event loop (a thread hop costs more than
the work). Under load, several such requests have their bodies read by the time the loop
gets to the first of them: each waits here instead, and one callback, run by the loop once
they have all had their turn, scores all of them in one call,
:func:`~neweden.scoring.report.score_inputs`: one native read, one pass of the core, one
collector pause, and from CHUNK_FROM games their players scored together over columns.
Each request gets the report its game gets alone (tests/scoring's property tests hold every
path to the same report), in its own language and with its own `detail`. A request with
nothing else ready on the loop is scored at once: a lone client waits for nothing.

Measured (docs/http.md, "Games posted at once"): under 8 connections a call scores 1 to 8
games, under 32 connections 1 to 32; `/v1/score` then runs at 80-90% of the decode-only
rate under 8 connections and 85-99% under 32, where each game scored alone gave 68-73%.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from neweden.catalog.catalog import Catalog
from neweden.i18n import current, speaking
from neweden.scoring.report import score_inputs, score_report
from neweden.scoring.types import Report

__all__ = ["MOST_AT_ONCE", "Together"]

#: The most games scored in one call: more waiting are scored by the next callback, after
#: the requests of these have been answered (the loop serves them first).
MOST_AT_ONCE: Final = 32

#: The games waiting, by what their report depends on besides the game: the language of
#: its messages and whether it carries the audit.
_Key = tuple[str, bool]
_Waiting = list[tuple[bytes, "asyncio.Future[Report]"]]


def _others_ready(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether something else is ready to run on `loop` before a callback scheduled now
    (the requests whose bodies have been read among them). asyncio's loop keeps that queue
    as `_ready` (CPython 3.7 to 3.13); a loop without one is taken to be busy (its requests
    are gathered: the same reports, a callback later)."""
    ready = getattr(loop, "_ready", None)
    return ready is None or len(ready) > 0


class Together:
    """The `/v1/score` games of one catalog waiting for the loop, scored together."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.waiting: dict[_Key, _Waiting] = {}

    async def score(self, body: bytes, detail: bool) -> Report:
        """The report of the game `body` in the current language; GameDecodeError for a body
        that is not a readable game (or the error a bug raised while scoring it, that game's
        only). Scored at once when nothing else is ready to run on the loop (no other
        request could join it: a lone client's requests wait for nothing), else with the
        games of the requests that are."""
        loop = asyncio.get_running_loop()
        if not self.waiting and not _others_ready(loop):
            return score_report(body, catalog=self.catalog, detail=detail)
        future: asyncio.Future[Report] = loop.create_future()
        if not self.waiting:  # a callback is due whenever a game waits
            loop.call_soon(self.flush)
        self.waiting.setdefault((current(), detail), []).append((body, future))
        return await future

    def flush(self) -> None:
        """Score the games waiting, at most MOST_AT_ONCE (the rest next time), and settle
        their futures."""
        left = MOST_AT_ONCE
        taken: list[tuple[_Key, _Waiting]] = []
        for key in list(self.waiting):
            games = self.waiting.pop(key)
            taken.append((key, games[:left]))
            if len(games) > left:
                self.waiting[key] = games[left:]
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
            for _, games in taken:  # (only after a failure of this function's own)
                for _, future in games:
                    if not future.done():
                        future.set_exception(RuntimeError("the game was not scored"))
            if self.waiting:  # after the wake-ups of the requests answered: they go first
                asyncio.get_running_loop().call_soon(self.flush)

    def _scored(self, bodies: list[bytes], detail: bool) -> list[Report | BaseException]:
        """The report of each game, or why there is none: a GameDecodeError; a bug met while
        scoring them together has each scored alone, so that only its own request fails."""
        if len(bodies) == 1:
            return [self._alone(bodies[0], detail)]
        try:
            found: list[Any] = score_inputs(bodies, catalog=self.catalog, detail=detail)
        except Exception:  # (a bug: the request whose game raises it again is a logged 500)
            return [self._alone(body, detail) for body in bodies]
        return found

    def _alone(self, body: bytes, detail: bool) -> Report | BaseException:
        try:
            return score_report(body, catalog=self.catalog, detail=detail)
        except Exception as err:  # GameDecodeError, or the bug
            return err
