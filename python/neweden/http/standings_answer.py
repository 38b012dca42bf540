"""The answer to `POST /v1/standings` (docs/standings.md): the standings over the results of
a batch answer (`POST /v1/score/batch`'s `results`, or `validate --out` lines), with the
tournament points and the aliases the request gives."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec
from starlette.responses import Response

from neweden.format import codes
from neweden.format.descriptions import described
from neweden.format.jsonscan import count_commas
from neweden.format.problems import Problem
from neweden.format.untyped import CUT_DEPTH
from neweden.http.answers import envelope_problem, json_answer, problem_answer
from neweden.http.batch_answer import MANY_COMMAS
from neweden.i18n import _, number
from neweden.scoring.standings import read_result, standings
from neweden.scoring.standings_options import (
    MAX_PLAYERS,
    StandingsError,
    aliases_from_mapping,
    points_from,
)

__all__ = ["MAX_RESULTS", "StandingsRequest", "answer_standings"]

#: The results one request ranks: an event's games, many times over.
MAX_RESULTS = 20_000
#: The other list items a body may have besides its results (points, aliases), for the
#: count made before decoding; the results are counted again, exactly, once decoded.
MARGIN = 10_000


class StandingsRequest(msgspec.Struct, forbid_unknown_fields=True):
    schema_description: ClassVar[str] = (
        "The results of an event's games and how to rank them (docs/standings.md)."
    )

    results: Annotated[
        list[Any],
        described(
            "the reports of the games: the `results` of a POST /v1/score/batch answer as it "
            "is, or `validate --out` lines; the event and round come from each report's meta"
        ),
    ]
    points: (
        Annotated[
            list[int] | dict[str, list[int]],
            described(
                "tournament points by place: one list for every player count (a game of n "
                'uses the first n), or lists by player count, {"3": [3, 2, 1]}; default: '
                f"n, n-1, …, 1 (players 2 to {MAX_PLAYERS})"
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET
    aliases: (
        Annotated[
            dict[str, str],
            described('other spellings of players\' names: {"Ana S.": "Ana Souza"}'),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


def _refused(message: str, path: str = "") -> Response:
    return problem_answer(
        422,
        "Unprocessable Content",
        message,
        [Problem(code=codes.BAD_VALUE, message=message, path=path)],
    )


def _escaped(key: str) -> str:
    """A key as a JSON Pointer token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def _specs(points: list[int] | dict[str, list[int]]) -> list[str]:
    """The request's points as `--points` says them."""
    if isinstance(points, list):
        return [",".join(str(v) for v in points)]
    return [f"{n}:{','.join(str(v) for v in values)}" for n, values in points.items()]


def _too_many(count: int) -> Response:
    return problem_answer(
        413,
        "Content Too Large",
        _(
            "the body has {count} results; the limit is {limit}",
            count=number(count),
            limit=number(MAX_RESULTS),
        ),
    )


def _too_deep() -> Response:
    """The answer to a body nested past what can be read (no report or result is)."""
    reason = _("it is nested more than {limit} levels deep", limit=CUT_DEPTH)
    return problem_answer(
        422,
        "Unprocessable Content",
        _("the body must be {shape}: {reason}", shape='{"results": [...]}', reason=reason),
        [Problem(code=codes.TOO_LARGE, message=reason, path="")],
    )


def answer_standings(body: bytes) -> Response:
    """The answer to `/v1/standings` (on a worker thread): the results counted before they
    are decoded when there could be many (a result is a few hundred bytes; 32 MiB of `0,`
    would be 16 million)."""
    if body.count(b",") >= MANY_COMMAS:
        # the items of the body's lists, `results` and a few of `points` and `aliases`: an
        # upper bound; beyond a margin for those, too many results for certain
        entries = count_commas(body).level2 + 1
        if entries > MAX_RESULTS + MARGIN:
            return _too_many(entries)
    try:
        request = msgspec.json.decode(body, type=StandingsRequest)
    except msgspec.DecodeError as exc:
        return envelope_problem(exc, '{"results": [...]}')
    except RecursionError:  # deeper than any report or result: refused, not cut
        return _too_deep()
    if len(request.results) > MAX_RESULTS:
        return _too_many(len(request.results))
    specs = [] if isinstance(request.points, msgspec.UnsetType) else _specs(request.points)
    try:
        points = points_from(specs, "points")
    except StandingsError as err:
        return _refused(str(err), "/points")
    try:
        given = request.aliases or {}
        aliases = aliases_from_mapping(
            list(given.items()), [f"/aliases/{_escaped(k)}" for k in given]
        )
    except StandingsError as err:
        return _refused(str(err), "/aliases")
    results = [
        read_result(doc, {"path": f"/results/{i}", "line": None})
        for i, doc in enumerate(request.results)
    ]
    try:
        return json_answer(standings(results, points, aliases))
    except StandingsError as err:  # a game's player count without points
        return _refused(str(err), "/points")
