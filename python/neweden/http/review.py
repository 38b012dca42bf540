"""The API of a folder under review (`neweden review DIR`, docs/review.md): the queue of its
games, each game read and saved by its id (a save names the version it edited with
`If-Match`; a save over a newer one is a 412 with that version), the versions saves
replaced and their restoring, and a game's photo (served with the type its bytes say and
`nosniff`). Every path is below the folder (neweden.runners.review refuses the others)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from neweden.http import page
from neweden.http.answers import HEADERS, Refused, json_answer, problem_answer, read_body
from neweden.i18n import N_, _
from neweden.runners.review import MAX_PHOTO_BYTES, ReviewError, ReviewFolder, Stale, etag

__all__ = ["review_routes"]

#: A game saved is at most this large (a game of the format is at most 1 MiB as JSON).
MAX_SAVE_BYTES = 1024 * 1024
_TITLES = {
    400: N_("Bad Request"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    409: N_("Conflict"),
    412: N_("Precondition Failed"),
    413: N_("Content Too Large"),
    415: N_("Unsupported Media Type"),
    422: N_("Unprocessable Content"),
    428: N_("Precondition Required"),
    500: N_("Internal Server Error"),
}

_Handler = Callable[[Request], Awaitable[Response]]


def _refused(error: ReviewError) -> Response:
    """A ReviewError as a problem answer; a stale save's with the version saved."""
    extra: dict[str, str] = {}
    errors: list[dict[str, str]] = []
    if isinstance(error, Stale):
        extra["etag"] = error.etag
        errors.append({"version": error.current.decode("utf-8", "replace"), "etag": error.etag})
    answer = problem_answer(error.status, _TITLES.get(error.status, "Error"), error.message, errors)
    answer.headers.update(extra)
    return answer


def _guarded(handler: _Handler) -> _Handler:
    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except ReviewError as error:
            return _refused(error)
        except Refused as refused:
            return refused.response
        except OSError as error:  # (what the system will not let be read or written)
            reason = error.strerror or str(error)
            return _refused(
                ReviewError(
                    500, _("the folder could not be read or written: {reason}", reason=reason)
                )
            )

    return guarded


def review_routes(folder: ReviewFolder) -> list[Route]:
    """The routes of `/v1/review/...` over `folder`."""

    async def queue(_: Request) -> Response:
        items = [dataclasses.asdict(item) for item in folder.queue()]
        counts = {
            "games": len(items),
            "unreadable": sum(1 for i in items if i["valid"] is None),
            "invalid": sum(1 for i in items if i["valid"] is False),
            "valid": sum(1 for i in items if i["valid"]),
            "fixed": sum(1 for i in items if i["valid"] and i["saved"]),
        }
        return json_answer({"folder": folder.root.name, "counts": counts, "games": items})

    async def game(request: Request) -> Response:
        game_id = request.query_params.get("id", "")
        if request.method == "GET":
            data = folder.read(game_id)
            return Response(
                data, media_type="application/json", headers={**HEADERS, "etag": etag(data)}
            )
        body = await read_body(request, MAX_SAVE_BYTES)
        saved = folder.save(game_id, body, request.headers.get("if-match"))
        return _with_etag(json_answer({"id": game_id, "etag": saved}), saved)

    async def history(request: Request) -> Response:
        return json_answer({"versions": folder.history(request.query_params.get("id", ""))})

    async def restore(request: Request) -> Response:
        params = request.query_params
        saved = folder.restore(
            params.get("id", ""), params.get("version", ""), request.headers.get("if-match")
        )
        return _with_etag(json_answer({"id": params.get("id", ""), "etag": saved}), saved)

    async def photo(request: Request) -> Response:
        game_id = request.query_params.get("id", "")
        if request.method == "PUT":  # a photo picked for the game: written next to it
            data = await read_body(request, MAX_PHOTO_BYTES, json=False)
            name = folder.put_photo(game_id, data, request.headers.get("if-match"))
            return json_answer({"id": game_id, "photo": name})
        data, media = folder.photo(game_id)
        headers = {**HEADERS, "cache-control": "no-cache", "content-length": str(len(data))}
        return Response(data, media_type=media, headers=headers)

    return [
        Route("/v1/review/queue", _guarded(queue), methods=["GET"]),
        Route("/v1/review/game", _guarded(game), methods=["GET", "PUT"]),
        Route("/v1/review/history", _guarded(history), methods=["GET"]),
        Route("/v1/review/restore", _guarded(restore), methods=["POST"]),
        Route("/v1/review/photo", _guarded(photo), methods=["GET", "PUT"]),
        Route("/review", page.review_page, methods=["GET"]),
    ]


def _with_etag(answer: Response, tag: str) -> Response:
    """`answer` with the ETag of the version it saved."""
    answer.headers["etag"] = tag
    return answer
