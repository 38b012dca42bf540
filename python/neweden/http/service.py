"""The HTTP service (docs/http.md): Starlette on uvicorn, msgspec for every body.

Every CPU-bound step (decoding, scoring, rendering, batches) runs on a worker thread with a
time budget, so no request holds the event loop: `/healthz` and the other requests go on while
one is at work, and a request over its budget is a 503. Only a single game of at most 16 KiB
is scored on the loop itself: a thread hop costs more than that, and no such body was found
to take more than a few milliseconds. Bodies are refused early: by
Content-Length, or while reading, never by reading a huge body whole; a body that does not
arrive in time is a 408.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import importlib.util
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import anyio
import msgspec
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders, QueryParams
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from neweden._malloc import mallopt
from neweden._version import __version__
from neweden.catalog.catalog import BUILTIN, Catalog
from neweden.catalog.files import load_catalog
from neweden.format import codes
from neweden.format.decode import decode_game
from neweden.format.jsonscan import count_commas
from neweden.format.problems import GameDecodeError, Problem
from neweden.http import page
from neweden.http.api_types import openapi
from neweden.http.catalog_answer import catalog_answer
from neweden.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    _,
    from_accept_language,
    language,
    number,
    speaking,
)
from neweden.present.render import render
from neweden.runners.results import Scored, scored
from neweden.scoring.placements import answer_request
from neweden.scoring.report import score_report as score  # a Report, encoded directly
from neweden.scoring.types import ProblemItem, Report
from neweden.scoring.validation import validate

__all__ = ["create_app"]

MAX_BODY = 1024 * 1024
MAX_BATCH_BODY = 32 * 1024 * 1024
MAX_BATCH_GAMES = 1000
#: Decode problems listed in one batch answer (each game lists at most 100 and a count).
MAX_LISTED_PER_RESPONSE = 10_000
#: A batch body with this many commas has its entries counted before it is decoded.
MANY_COMMAS = 100_000
READ_TIMEOUT_SECONDS = float(os.environ.get("NEWEDEN_READ_TIMEOUT", "10"))
#: The work a request may take (queueing for a thread included) before it is a 503.
WORK_TIMEOUT_SECONDS = float(os.environ.get("NEWEDEN_WORK_TIMEOUT", "10"))
#: Threads at work at once; requests beyond wait for one (within their budget).
#: A single game or city up to this size is scored on the event loop: a thread hop cost a
#: quarter of `/v1/score`'s rate, and the worst body this small found takes about 3 ms
#: (docs/http.md). 0 puts every request on the threads.
INLINE_BYTES = int(os.environ.get("NEWEDEN_INLINE_BYTES", str(16 * 1024)))
WORK_THREADS = int(os.environ.get("NEWEDEN_WORK_THREADS", "4"))

T = TypeVar("T")
_JSON = re.compile(r"^application/(?:json|[a-z0-9.+-]+\+json)$")
_encode = msgspec.json.Encoder().encode


class _Envelope(msgspec.Struct, forbid_unknown_fields=True):
    games: list[msgspec.Raw]


#: On every answer of the API (the SVG included): no type sniffing, and nothing an answer
#: opened in a browser may load, run or be framed by. The API page (`/docs`) has its own
#: policy, :data:`_DOCS_HEADERS`.
_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
}
#: The API page: its scripts, styles and pictures from this server only (Swagger UI sets
#: inline styles; its icons are data: URLs), its calls (try it out) to this server only, and
#: never framed.
_DOCS_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; script-src 'self'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


def _json(value: Any, status: int = 200) -> Response:
    return Response(
        _encode(value), status_code=status, media_type="application/json", headers=_HEADERS
    )


#: The titles of the problem answers (RFC 9457), translated when an answer is made.
TITLES = (
    N_("Bad Request"),
    N_("Request Timeout"),
    N_("Content Too Large"),
    N_("Unsupported Media Type"),
    N_("Unprocessable Content"),
    N_("Internal Server Error"),
    N_("Service Unavailable"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Error"),
)


def _problem(
    status: int, title: str, detail: str, errors: Sequence[Problem | dict[str, Any]] = ()
) -> Response:
    """A problem answer; `title` (one of TITLES) in the request's language, `detail` as
    given (translated by the caller)."""
    body = {
        "type": "about:blank",
        "title": _(title),
        "status": status,
        "detail": detail,
        "errors": [e.to_dict() if isinstance(e, Problem) else e for e in errors],
    }
    return Response(
        _encode(body), status_code=status, media_type="application/problem+json", headers=_HEADERS
    )


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused early: 415 for a content type that is not JSON, 413 over
    `limit` (from Content-Length, or while reading), 408 when it does not arrive in time."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not _JSON.match(media):
        raise _Refused(
            _problem(
                415,
                "Unsupported Media Type",
                _(
                    "the body must be application/json, not {media}",
                    media=media or _("unnamed"),
                ),
            )
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _Refused(
            _problem(
                413,
                "Content Too Large",
                _(
                    "the body is {size} bytes; the limit is {limit}",
                    size=number(int(declared)),
                    limit=number(limit),
                ),
            )
        )
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(READ_TIMEOUT_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise _Refused(
                        _problem(
                            413,
                            "Content Too Large",
                            _("the body is over the limit of {limit} bytes", limit=number(limit)),
                        )
                    )
                chunks.append(chunk)
    except ClientDisconnect:  # gone mid-body: nobody reads the answer, nothing to log
        raise _Refused(
            _problem(400, "Bad Request", _("the client left before the body ended"))
        ) from None
    except TimeoutError:
        raise _Refused(
            _problem(
                408,
                "Request Timeout",
                _(
                    "the body did not arrive within {seconds} s",
                    seconds=round(READ_TIMEOUT_SECONDS),
                ),
            )
        ) from None
    return b"".join(chunks)


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


def _unavailable(detail: str) -> _Refused:
    response = _problem(503, "Service Unavailable", detail)
    response.headers["retry-after"] = "1"
    return _Refused(response)


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
        INLINE_BYTES); :class:`_Refused` (503) past the budget, or at once while every
        thread is held by work given up on."""
        if size is not None and size <= self.inline:
            return fn()
        if self.given_up >= self.threads:
            raise _unavailable(_("the service is busy with slow requests; try again"))
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
            raise _unavailable(
                _(
                    "the request needed more than {seconds} s of work and was given up",
                    seconds=budget,
                )
            ) from None

    def _freed(self) -> None:
        self.given_up -= 1


def _decode_problem(err: GameDecodeError) -> Response:
    not_json = any(p.code == codes.BAD_JSON for p in err.problems)
    if not_json:
        return _problem(400, "Bad Request", _("the body is not JSON"), err.problems)
    return _problem(
        422,
        "Unprocessable Content",
        _("the body is JSON but not a game: {count} problem(s)", count=len(err.problems)),
        err.problems,
    )


def _game_endpoint(
    answer: Callable[[Request, bytes], Awaitable[Response]], limit: int = MAX_BODY
) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that takes a JSON body: read with the limits, then `answer`; a body that
    is not a readable game becomes its problem answer (400 or 422)."""

    async def endpoint(request: Request) -> Response:
        try:
            body = await _body(request, limit)
            return await answer(request, body)
        except _Refused as refused:
            return refused.response
        except GameDecodeError as err:
            return _decode_problem(err)
        except Exception as exc:  # a bug: one line a minute, not a traceback a request
            QUIET(
                f"500|{request.url.path}|{type(exc).__name__}",
                f"{request.method} {request.url.path}: {type(exc).__name__}: {exc}"[:500],
                exc_info=exc,
            )
            return _problem(500, "Internal Server Error", _("the request failed; it is logged"))

    return endpoint


class _Endpoints:
    """What each route answers, over one catalog and one pool of work threads."""

    def __init__(self, catalog: Catalog, work: _Work) -> None:
        self.catalog = catalog
        self.work = work
        self.document = _encode(openapi(__version__))
        self.catalog_body: bytes | None = None  # made at the first GET /v1/catalog

    async def score_one(self, request: Request, body: bytes) -> Response:
        detail = request.query_params.get("detail", "false").lower() in ("true", "1", "yes")
        job = partial(score, body, catalog=self.catalog, detail=detail)
        return _json(await self.work.run(job, len(body)))

    async def validate_one(self, _: Request, body: bytes) -> Response:
        job = partial(validate, body, catalog=self.catalog)
        return _json(await self.work.run(job, len(body)))

    async def score_batch(self, _: Request, body: bytes) -> Response:
        return await self.work.run(partial(_answer_batch, body, self.catalog))

    async def placements_one(self, _: Request, body: bytes) -> Response:
        job = partial(answer_request, body, self.catalog)
        return _json(await self.work.run(job, len(body)))

    async def render_one(self, request: Request, body: bytes) -> Response:
        player = request.query_params.get("player")
        overlays = [o for o in request.query_params.get("overlay", "").split(",") if o]
        job = partial(render, body, player=player, catalog=self.catalog, overlays=overlays)
        try:
            picture = await self.work.run(job)
        except ValueError as err:  # a player not in the game, an unknown overlay
            return _problem(422, "Unprocessable Content", str(err))
        return Response(picture, media_type="image/svg+xml", headers=_HEADERS)

    async def bench_decode(self, _: Request, body: bytes) -> Response:
        await self.work.run(partial(decode_game, body), len(body))
        return _json({"decoded": True})

    async def health(self, _: Request) -> Response:
        return _json({"status": "ok", "version": __version__})

    async def openapi_json(self, _: Request) -> Response:
        return Response(self.document, media_type="application/json", headers=_HEADERS)

    async def docs(self, _: Request) -> HTMLResponse:
        page = _DOCS_PAGE if _swagger_assets() is not None else _DOCS_PAGE_WITHOUT_UI
        return HTMLResponse(page, headers=_DOCS_HEADERS)

    async def docs_script(self, _: Request) -> Response:
        return Response(_DOCS_SCRIPT, media_type="text/javascript", headers=_DOCS_HEADERS)

    async def docs_asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        assets = _swagger_assets()
        if assets is None or name not in _DOCS_ASSETS:
            raise HTTPException(404, "Not Found")
        return FileResponse(assets / name, headers=_DOCS_HEADERS)

    async def catalog_one(self, _: Request) -> Response:
        # made once: the catalog does not change, and a catalog file of 4 MiB is some 19,000
        # cards, 4.6 MB of JSON and 25-50 ms of the event loop to make again each request
        if self.catalog_body is None:
            self.catalog_body = _encode(catalog_answer(self.catalog))
        return Response(self.catalog_body, media_type="application/json", headers=_HEADERS)

    def routes(self, bench_endpoints: bool) -> list[BaseRoute]:
        routes: list[BaseRoute] = [
            Route("/v1/score", _game_endpoint(self.score_one), methods=["POST"]),
            Route("/v1/validate", _game_endpoint(self.validate_one), methods=["POST"]),
            Route(
                "/v1/score/batch",
                _game_endpoint(self.score_batch, MAX_BATCH_BODY),
                methods=["POST"],
            ),
            Route("/v1/render", _game_endpoint(self.render_one), methods=["POST"]),
            Route("/v1/placements", _game_endpoint(self.placements_one), methods=["POST"]),
            Route("/healthz", self.health, methods=["GET"]),
            Route("/openapi.json", self.openapi_json, methods=["GET"]),
            Route("/docs", self.docs, methods=["GET"]),
            Route("/docs/neweden.js", self.docs_script, methods=["GET"]),
            Route("/docs/assets/{name}", self.docs_asset, methods=["GET"]),
            Route("/v1/catalog", self.catalog_one, methods=["GET"]),
            Route("/", page.page, methods=["GET"]),
            Route("/web/messages.json", page.messages, methods=["GET"]),
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
    response = _problem(
        exc.status_code,
        titles.get(exc.status_code, "Error"),
        f"{request.method} {request.url.path}: {_(exc.detail)}",  # Starlette's: a title
    )
    response.headers.update(exc.headers or {})  # 405 says what is allowed (`Allow`)
    return response


#: Answers whose words are English whatever the request asks (the API's description).
_ENGLISH_ONLY = ("/openapi.json", "/docs")


class Languages:
    """The language of each request (ASGI middleware): `?lang=` when given (a language
    neweden does not speak is a 400 naming those it does), else the best of
    `Accept-Language` (q-values weigh), else English. The request is answered inside
    ``with speaking(lang)`` (work threads get it through :class:`_Work`), and every answer
    says `Content-Language` and `Vary: Accept-Language`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        heard = from_accept_language(headers.get(b"accept-language", b"").decode("latin-1"))
        asked = QueryParams(scope.get("query_string", b"").decode("latin-1")).get("lang")
        lang = heard if asked is None else language(asked)
        path = scope.get("path", "")
        if lang is None and path == "/":  # the web page: its own words fall back by themselves
            lang = heard
        english = path.startswith(_ENGLISH_ONLY)
        said = DEFAULT_LANGUAGE if english and lang is not None else lang or heard

        async def send_said(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = MutableHeaders(scope=message)
                answer["content-language"] = said
                answer.add_vary_header("Accept-Language")
            await send(message)

        with speaking(lang or heard):
            if lang is None:
                await _unknown_language(asked or "")(scope, receive, send_said)
            else:
                await self.app(scope, receive, send_said)


def _unknown_language(asked: str) -> Response:
    return _problem(
        400,
        "Bad Request",
        _(
            'unknown language "{asked}" in ?lang=; neweden speaks {languages}',
            asked=asked,
            languages=", ".join(LANGUAGES),
        ),
    )


class Preflight:
    """ASGI middleware for a service without CORS: a preflight (OPTIONS with `Origin` and
    `Access-Control-Request-Method`) is a 204 that allows no other origin, not a 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "OPTIONS":
            headers = dict(scope["headers"])
            if b"origin" in headers and b"access-control-request-method" in headers:
                answer = Response(
                    status_code=204, headers={**_HEADERS, "allow": "GET, POST, OPTIONS"}
                )
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    *,
    catalog: Catalog | None = None,
    cors_origins: Sequence[str] = (),
    bench_endpoints: bool = False,
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

    return Starlette(
        routes=endpoints.routes(bench_endpoints),
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: _not_found},
    )


def _too_many_games(count: int) -> Response:
    return _problem(
        413,
        "Content Too Large",
        _(
            "the batch has {count} games; the limit is {limit}",
            count=number(count),
            limit=number(MAX_BATCH_GAMES),
        ),
    )


def _answer_batch(body: bytes, catalog: Catalog) -> Response:
    """The answer to `/v1/score/batch` (on a worker thread): the envelope, then each game."""
    # Counted before decoding when there could be many: 16.7 million tiny entries fit in
    # 32 MiB. Fewer commas than MANY_COMMAS cost little to make and are counted after.
    if body.count(b",") >= MANY_COMMAS:
        entries = count_commas(body).level2 + 1
        if entries > MAX_BATCH_GAMES:
            return _too_many_games(entries)
    try:
        envelope = msgspec.json.decode(body, type=_Envelope)
    # ValidationError is a DecodeError: the narrower one first.
    except msgspec.ValidationError as exc:
        return _problem(
            422,
            "Unprocessable Content",
            _('the body must be {{"games": [...]}}: {reason}', reason=exc),
            [Problem(code=codes.BAD_TYPE, message=str(exc), path="")],
        )
    except msgspec.DecodeError as exc:
        return _problem(
            400,
            "Bad Request",
            _("the body is not JSON: {reason}", reason=exc),
            [Problem(code=codes.BAD_JSON, message=str(exc), path="")],
        )
    # The envelope decoded, so every key is "games" (perhaps escaped): more than one is a
    # comma between keys. Scanned unless the plain name is there once and nothing escaped.
    plain = body.count(b'"games"') == 1 and b"\\u" not in body
    keys = 1 if plain else count_commas(body).level1 + 1
    if keys > 1:
        message = _("the body gives `games` {keys} times; give it once", keys=keys)
        return _problem(
            422,
            "Unprocessable Content",
            message,
            [Problem(code=codes.BAD_VALUE, message=message, path="")],
        )
    games = [bytes(raw) for raw in envelope.games]
    if len(games) > MAX_BATCH_GAMES:
        return _too_many_games(len(games))
    results = scored(games, [None] * len(games), catalog, False)
    return _json({"results": _cap_listed(results)})


def _cap_listed(results: list[Scored]) -> list[Scored]:
    """At most MAX_LISTED_PER_RESPONSE decode problems listed over a batch's unreadable
    entries; each entry past them lists one `too_large` saying how many it holds."""
    budget = MAX_LISTED_PER_RESPONSE
    for result in results:
        if isinstance(result, Report):  # its problems are the rules', bounded
            continue
        errors = result.errors
        if len(errors) <= budget:
            budget -= len(errors)
            continue
        message = _(
            "{count} problem(s), not listed: at most {most} are listed in one answer",
            count=number(len(errors)),
            most=number(MAX_LISTED_PER_RESPONSE),
        )
        result.errors = [ProblemItem(codes.TOO_LARGE, message, "", [])]
        budget = 0
    return results


#: The files of Swagger UI the API page loads (of the swagger-ui-py package's folder).
_DOCS_ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png")


def _swagger_assets() -> Path | None:
    """The folder of Swagger UI's files in the swagger-ui-py package (the `serve` extra),
    found without importing the package (which would import jinja2 and PyYAML); None when
    it is not installed."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "static"
    return folder if (folder / _DOCS_ASSETS[0]).is_file() else None


_DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>neweden API</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/neweden.js"></script></body></html>
"""

_DOCS_PAGE_WITHOUT_UI = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>neweden API</title></head>
<body><p>The interactive page needs the swagger-ui-py package (pip install
'neweden[serve]'); the API is described at <a href="/openapi.json">/openapi.json</a>
and in docs/http.md.</p></body></html>
"""

#: The page's own script, a file of this server (the page's policy allows no inline script).
_DOCS_SCRIPT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#api",
  deepLinking: true,
  displayOperationId: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""


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
    return create_app(
        catalog=load_catalog(path) if path else None,
        cors_origins=cors_origins_from(os.environ.get("NEWEDEN_CORS_ORIGIN")),
        bench_endpoints=os.environ.get("NEWEDEN_BENCH_ENDPOINTS") == "1",
    )
