"""The answers every route shares: JSON with the API's headers, RFC 9457 problem answers,
and a request's body read with its limits (a refusal is a :class:`Refused` holding its answer).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import anyio
import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from neweden.format import codes
from neweden.format.problems import GameDecodeError, Problem, is_index
from neweden.i18n import N_, _, ngettext, number

__all__ = [
    "HEADERS",
    "READ_TIMEOUT_SECONDS",
    "TITLES",
    "Refused",
    "decode_problem",
    "encode",
    "json_answer",
    "problem_answer",
    "read_body",
    "unavailable",
]

READ_TIMEOUT_SECONDS = float(os.environ.get("NEWEDEN_READ_TIMEOUT", "10"))
_JSON = re.compile(r"^application/(?:json|[a-z0-9.+-]+\+json)$")
encode = msgspec.json.Encoder().encode

#: On every answer of the API (the SVG included): no type sniffing, and nothing an answer
#: opened in a browser may load, run or be framed by. The API page (`/docs`) has its own
#: policy, :data:`neweden.http.docs_page.DOCS_HEADERS`.
HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
}


def json_answer(value: Any, status: int = 200) -> Response:
    return Response(
        encode(value), status_code=status, media_type="application/json", headers=HEADERS
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


def problem_answer(
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
        encode(body), status_code=status, media_type="application/problem+json", headers=HEADERS
    )


def envelope_problem(exc: msgspec.DecodeError, shape: str) -> Response:
    """The answer to a body that does not decode as the envelope `shape` (`{"games": [...]}`):
    422 when it is JSON of another shape, 400 when it is not JSON."""
    if isinstance(exc, msgspec.ValidationError):  # (a DecodeError too: asked first)
        return problem_answer(
            422,
            "Unprocessable Content",
            _("the body must be {shape}: {reason}", shape=shape, reason=exc),
            [Problem(code=codes.BAD_TYPE, message=str(exc), path="")],
        )
    return problem_answer(
        400,
        "Bad Request",
        _("the body is not JSON: {reason}", reason=exc),
        [Problem(code=codes.BAD_JSON, message=str(exc), path="")],
    )


class Refused(Exception):
    def __init__(self, response: Response) -> None:
        self.response = response


async def read_body(request: Request, limit: int, *, json: bool = True) -> bytes:
    """The request's body, refused early: 415 for a content type that is not JSON (unless
    `json` is false: a photo), 413 over `limit` (from Content-Length, or while reading), 408
    when it does not arrive in time."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if json and not _JSON.match(media):
        raise Refused(
            problem_answer(
                415,
                "Unsupported Media Type",
                _(
                    "the body must be application/json, not {media}",
                    media=media or _("unnamed"),
                ),
            )
        )
    declared = request.headers.get("content-length")
    if declared is not None and _over(declared, limit):
        raise Refused(
            problem_answer(
                413,
                "Content Too Large",
                _(
                    "the body is {size} bytes; the limit is {limit}",
                    size=_size(declared),
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
                    raise Refused(
                        problem_answer(
                            413,
                            "Content Too Large",
                            _("the body is over the limit of {limit} bytes", limit=number(limit)),
                        )
                    )
                chunks.append(chunk)
    except ClientDisconnect:  # gone mid-body: nobody reads the answer, nothing to log
        raise Refused(
            problem_answer(400, "Bad Request", _("the client left before the body ended"))
        ) from None
    except TimeoutError:
        raise Refused(
            problem_answer(
                408,
                "Request Timeout",
                _(
                    "the body did not arrive within {seconds} s",
                    seconds=round(READ_TIMEOUT_SECONDS),
                ),
            )
        ) from None
    return b"".join(chunks)


def unavailable(detail: str) -> Refused:
    response = problem_answer(503, "Service Unavailable", detail)
    response.headers["retry-after"] = "1"
    return Refused(response)


def decode_problem(err: GameDecodeError) -> Response:
    not_json = any(p.code == codes.BAD_JSON for p in err.problems)
    if not_json:
        return problem_answer(400, "Bad Request", _("the body is not JSON"), err.problems)
    return problem_answer(
        422,
        "Unprocessable Content",
        ngettext(
            "the body is JSON but not a game: {count} problem(s)",
            "the body is JSON but not a game: {count} problem(s)",
            len(err.problems),
            count=len(err.problems),
        ),
        err.problems,
    )


def _over(declared: str, limit: int) -> bool:
    """Whether a Content-Length says more than `limit` bytes: ASCII digits only (str.isdigit
    is true of "¹"), compared by their count first (int() refuses more than 4,300 digits)."""
    if not is_index(declared):
        return False
    digits = declared.lstrip("0")
    return len(digits) > len(str(limit)) or int(digits or "0") > limit


def _size(declared: str) -> str:
    """A Content-Length said in a message: the number, or its digits as given past 18."""
    digits = declared.lstrip("0") or "0"
    return number(int(digits)) if len(digits) <= 18 else digits
