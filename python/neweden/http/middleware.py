"""The service's ASGI middleware: the language of each request, and a preflight answered
when the service allows no other origin."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders, QueryParams
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from neweden.http.answers import HEADERS, problem_answer
from neweden.i18n import DEFAULT_LANGUAGE, LANGUAGES, _, from_accept_language, language, speaking

__all__ = ["Languages", "Preflight"]


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
    return problem_answer(
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
                    status_code=204, headers={**HEADERS, "allow": "GET, POST, OPTIONS"}
                )
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)
