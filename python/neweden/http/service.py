"""The HTTP service (docs/http.md): Starlette on uvicorn, msgspec for every body.

Every CPU-bound step (decoding, scoring, rendering, batches) runs on a worker thread with a
time budget, so no request holds the event loop: `/healthz` and the other requests go on while
one is at work, and a request over its budget is a 503. Only the body of a single game, lone
city, placement question or standings request of at most 16 KiB is handled on the loop
itself: a thread hop costs more than that, and no such body was found to take more than a
few milliseconds; the games posted to `/v1/score` meanwhile are scored together
(:mod:`neweden.http.together`). Bodies are refused early: by
Content-Length, or while reading, never by reading a huge body whole; a body that does not
arrive in time is a 408.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from neweden._malloc import mallopt
from neweden._version import __version__
from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.catalog.files import load_catalog
from neweden.format.decode import decode_game
from neweden.format.problems import GameDecodeError
from neweden.http import docs_page, page
from neweden.http.answers import (
    HEADERS,
    Refused,
    decode_problem,
    encode,
    json_answer,
    problem_answer,
    read_body,
    unavailable,
)
from neweden.http.api_types import openapi
from neweden.http.batch_answer import answer_batch
from neweden.http.catalog_answer import catalog_answer
from neweden.http.middleware import Languages, Preflight
from neweden.http.review import review_routes
from neweden.http.standings_answer import answer_standings
from neweden.http.together import Together
from neweden.i18n import _, current
from neweden.present.render import render
from neweden.runners.review import ReviewFolder
from neweden.scoring.placing import answer_request
from neweden.scoring.report import score_report as score  # a Report, encoded directly
from neweden.scoring.validation import validate

__all__ = ["QUIET", "create_app"]

MAX_BODY = 1024 * 1024
MAX_BATCH_BODY = 32 * 1024 * 1024
#: The work a request may take (queueing for a thread included) before it is a 503.
WORK_TIMEOUT_SECONDS = float(os.environ.get("NEWEDEN_WORK_TIMEOUT", "10"))
#: Threads at work at once; requests beyond wait for one (within their budget).
#: A single game or city up to this size is scored on the event loop, where a thread hop
#: costs more than the work (docs/http.md). 0 puts every request on the threads.
INLINE_BYTES = int(os.environ.get("NEWEDEN_INLINE_BYTES", str(16 * 1024)))
WORK_THREADS = int(os.environ.get("NEWEDEN_WORK_THREADS", "4"))

T = TypeVar("T")


class QuietLog:
    """Logs the first line of a kind, then at most one each `interval` seconds saying how
    many were left out: a flood of failures writes a few lines, not megabytes."""

    def __init__(self, logger: logging.Logger, interval: float = 60.0) -> None:
        self.logger = logger
        self.interval = interval
        self.seen: dict[str, tuple[float, int]] = {}

    def __call__(self, kind: str, line: str, *, exc_info: BaseException | None = None) -> None:
        now = time.monotonic()
        last, left_out = self.seen.get(kind, (None, 0))
        if last is not None and now - last < self.interval:
            self.seen[kind] = (last, left_out + 1)
            return
        if left_out:
            line += f" ({left_out:,} more like it in the last {self.interval:.0f} s not logged)"
        self.logger.error(line, exc_info=exc_info)
        self.seen[kind] = (now, 0)


QUIET = QuietLog(logging.getLogger("neweden.serve"))


def quiet_loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Errors the event loop reports by itself (a failed accept while file descriptors are
    exhausted: once a traceback each time) are logged once a minute per kind, in a line."""

    def handler(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        message = context.get("message", "an error")
        QUIET(f"loop|{message}|{type(exc).__name__}", f"event loop: {message}: {exc!r}")

    loop.set_exception_handler(handler)


class _Work:
    """CPU-bound work off the event loop: a few worker threads and a time budget per request
    (waiting for a thread included). A running thread cannot be stopped: the work of a request
    given up on ends on its thread, and while every thread is held so, a request is a 503 at
    once instead of waiting its whole budget."""

    def __init__(self, threads: int, budget: float, inline: int) -> None:
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="neweden-work")
        self.inline = inline
        self.threads = threads
        self.budget = budget
        self.given_up = 0  # threads still at the work of a request given up on

    async def run(self, fn: Callable[[], T], size: int | None = None) -> T:
        """`fn()` on a worker thread (inline when `size`, the body's, is at most
        INLINE_BYTES); :class:`Refused` (503) past the budget, or at once while every
        thread is held by work given up on."""
        if size is not None and size <= self.inline:
            return fn()
        if self.given_up >= self.threads:
            raise unavailable(_("the service is busy with slow requests; try again"))
        # a thread does not get the request's context variables by itself: its language
        future = self.pool.submit(contextvars.copy_context().run, fn)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.budget)
        except asyncio.TimeoutError:  # cancelled if it was waiting; else it runs on
            if future.running():
                self.given_up += 1
                loop = asyncio.get_running_loop()
                future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._freed))
            budget = f"{self.budget:g}"
            raise unavailable(
                _(
                    "the request needed more than {seconds} s of work and was given up",
                    seconds=budget,
                )
            ) from None

    def _freed(self) -> None:
        self.given_up -= 1


def _game_endpoint(
    answer: Callable[[Request, bytes], Awaitable[Response]], limit: int = MAX_BODY
) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that takes a JSON body: read with the limits, then `answer`; a body that
    is not a readable game becomes its problem answer (400 or 422)."""

    async def endpoint(request: Request) -> Response:
        try:
            body = await read_body(request, limit)
            return await answer(request, body)
        except Refused as refused:
            return refused.response
        except GameDecodeError as err:
            return decode_problem(err)
        except Exception as exc:  # a bug: one line a minute, not a traceback a request
            QUIET(
                f"500|{request.url.path}|{type(exc).__name__}",
                f"{request.method} {request.url.path}: {type(exc).__name__}: {exc}"[:500],
                exc_info=exc,
            )
            return problem_answer(
                500, "Internal Server Error", _("the request failed; it is logged")
            )

    return endpoint


class _Endpoints:
    """What each route answers, over one catalog and one pool of work threads."""

    def __init__(self, catalog: Catalog, work: _Work) -> None:
        self.catalog = catalog
        self.work = work
        self.document = encode(openapi(__version__))
        self.catalog_bodies: dict[str, bytes] = {}  # by language, made at the first GET /v1/catalog
        self.together = Together(catalog, QUIET)

    async def score_one(self, request: Request, body: bytes) -> Response:
        detail = request.query_params.get("detail", "false").lower() in ("true", "1", "yes")
        if len(body) <= self.work.inline:  # on the loop, with the games posted meanwhile
            return json_answer(await self.together.score(body, detail))
        job = partial(score, body, catalog=self.catalog, detail=detail)
        return json_answer(await self.work.run(job, len(body)))

    async def validate_one(self, _: Request, body: bytes) -> Response:
        job = partial(validate, body, catalog=self.catalog)
        return json_answer(await self.work.run(job, len(body)))

    async def score_batch(self, _: Request, body: bytes) -> Response:
        return await self.work.run(partial(answer_batch, body, self.catalog))

    async def standings_one(self, _: Request, body: bytes) -> Response:
        return await self.work.run(partial(answer_standings, body), len(body))

    async def placements_one(self, _: Request, body: bytes) -> Response:
        job = partial(answer_request, body, self.catalog)
        return json_answer(await self.work.run(job, len(body)))

    async def render_one(self, request: Request, body: bytes) -> Response:
        player = request.query_params.get("player")
        overlays = [o for o in request.query_params.get("overlay", "").split(",") if o]
        job = partial(render, body, player=player, catalog=self.catalog, overlays=overlays)
        try:
            picture = await self.work.run(job)
        except ValueError as err:  # a player not in the game, an unknown overlay
            return problem_answer(422, "Unprocessable Content", str(err))
        return Response(picture, media_type="image/svg+xml", headers=HEADERS)

    async def bench_decode(self, _: Request, body: bytes) -> Response:
        await self.work.run(partial(decode_game, body), len(body))
        return json_answer({"decoded": True})

    async def health(self, _: Request) -> Response:
        return json_answer({"status": "ok", "version": __version__})

    async def openapi_json(self, _: Request) -> Response:
        return Response(self.document, media_type="application/json", headers=HEADERS)

    async def catalog_one(self, _: Request) -> Response:
        # made once a language: the catalog does not change, and a large catalog file's
        # answer is megabytes of JSON to make again each request
        lang = current()
        body = self.catalog_bodies.get(lang)
        if body is None:
            body = self.catalog_bodies[lang] = encode(catalog_answer(self.catalog))
        return Response(body, media_type="application/json", headers=HEADERS)

    def routes(self, bench_endpoints: bool) -> list[BaseRoute]:
        routes: list[BaseRoute] = [
            Route("/v1/score", _game_endpoint(self.score_one), methods=["POST"]),
            Route("/v1/validate", _game_endpoint(self.validate_one), methods=["POST"]),
            Route(
                "/v1/score/batch",
                _game_endpoint(self.score_batch, MAX_BATCH_BODY),
                methods=["POST"],
            ),
            Route(
                "/v1/standings",
                _game_endpoint(self.standings_one, MAX_BATCH_BODY),
                methods=["POST"],
            ),
            Route("/v1/render", _game_endpoint(self.render_one), methods=["POST"]),
            Route("/v1/placements", _game_endpoint(self.placements_one), methods=["POST"]),
            Route("/healthz", self.health, methods=["GET"]),
            Route("/openapi.json", self.openapi_json, methods=["GET"]),
            Route("/docs", docs_page.docs, methods=["GET"]),
            Route("/docs/neweden.js", docs_page.docs_script, methods=["GET"]),
            Route("/docs/assets/{name}", docs_page.docs_asset, methods=["GET"]),
            Route("/v1/catalog", self.catalog_one, methods=["GET"]),
            Route("/", page.page, methods=["GET"]),
            Route("/results", page.results_page, methods=["GET"]),
            Route("/web/messages.json", page.messages, methods=["GET"]),
            Route("/web/colours.json", page.colours, methods=["GET"]),
            Route("/web/{version}/{name}", page.asset, methods=["GET"]),
        ]
        if bench_endpoints:
            routes.append(
                Route("/bench/decode", _game_endpoint(self.bench_decode), methods=["POST"])
            )
        return routes


async def _not_found(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    titles = {404: "Not Found", 405: "Method Not Allowed"}
    response = problem_answer(
        exc.status_code,
        titles.get(exc.status_code, "Error"),
        f"{request.method} {request.url.path}: {_(exc.detail)}",  # Starlette's: a title
    )
    response.headers.update(exc.headers or {})  # 405 says what is allowed (`Allow`)
    return response


#: The names this computer answers to on its own: the Hosts a review accepts by default.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def create_app(
    *,
    catalog: Catalog | None = None,
    cors_origins: Sequence[str] = (),
    bench_endpoints: bool = False,
    review: ReviewFolder | None = None,
    review_hosts: Sequence[str] = LOCAL_HOSTS,
) -> Starlette:
    """The application. `cors_origins`: the browser origins allowed to call it (`*`: any);
    none, and a preflight is a 204 allowing no origin. `bench_endpoints` adds `POST
    /bench/decode` (decodes a game into the same types and answers a constant): the
    baseline of the load benchmark."""
    work = _Work(WORK_THREADS, WORK_TIMEOUT_SECONDS, INLINE_BYTES)
    endpoints = _Endpoints(catalog or BUILTIN, work)
    middleware = [Middleware(Languages)]
    if cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["content-type", "accept-language"],
            )
        )
    else:
        middleware.append(Middleware(Preflight))

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        quiet_loop_errors(asyncio.get_running_loop())
        gc.collect()
        gc.freeze()  # start-up objects out of the collector's way: shorter p99 tails
        yield
        work.pool.shutdown(wait=False, cancel_futures=True)

    routes = endpoints.routes(bench_endpoints)
    if review is not None:  # neweden review DIR: the folder's API too, for its own hosts
        routes.extend(review_routes(review))
        # the Host a request names must be one the service listens as: a web page whose
        # name was made to point here (DNS rebinding) cannot read or change the folder
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(review_hosts)))
    return Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: _not_found},
    )


def cors_origins_from(value: str | None) -> list[str]:
    """The origins of `NEWEDEN_CORS_ORIGIN`: separated by spaces or commas (an origin holds
    neither)."""
    return [o for o in re.split(r"[\s,]+", value or "") if o]


#: The size from which glibc maps a block afresh and gives it back when freed (its default).
MMAP_THRESHOLD = 128 * 1024


def _fixed_mmap_threshold() -> bool:
    """A serving process maps every block of MMAP_THRESHOLD or more afresh and gives it back
    when freed, always. glibc starts so, but raises the threshold each time it frees such a
    block: the large, short-lived buffers of requests (bodies, decoded documents, their
    problems) then come from the arenas of the threads, which they leave in pieces. Measured
    (docs/hardening.md, round three): a server answering a 30 KB invalid game grew about
    100 bytes of resident set a request, without end; with the threshold fixed, 16."""
    return mallopt(mmap_threshold=MMAP_THRESHOLD)


def app_from_environment() -> Starlette:
    """The app as `neweden serve` starts it in each uvicorn worker (settings by variables)."""
    _fixed_mmap_threshold()
    path = os.environ.get("NEWEDEN_CATALOG")
    catalog = load_catalog(path) if path else None
    folder = os.environ.get("NEWEDEN_REVIEW")
    return create_app(
        catalog=catalog,
        cors_origins=cors_origins_from(os.environ.get("NEWEDEN_CORS_ORIGIN")),
        bench_endpoints=os.environ.get("NEWEDEN_BENCH_ENDPOINTS") == "1",
        review=ReviewFolder(folder, catalog or BUILTIN) if folder else None,
        review_hosts=(os.environ.get("NEWEDEN_REVIEW_HOSTS") or " ".join(LOCAL_HOSTS)).split(),
    )
