"""The answer to `POST /v1/score/batch`: the envelope checked and counted before it is
decoded, each game's report or its decode problems, at most so many problems listed in one
answer."""

from __future__ import annotations

import msgspec
from starlette.responses import Response

from neweden.catalog.catalog import Catalog
from neweden.format import codes
from neweden.format.jsonscan import count_commas
from neweden.format.problems import Problem
from neweden.format.untyped import shallow_value
from neweden.http.answers import envelope_problem, json_answer, problem_answer
from neweden.i18n import _, ngettext, number
from neweden.runners.results import Scored, scored
from neweden.scoring.types import ProblemItem, Report

__all__ = ["MAX_BATCH_GAMES", "MAX_LISTED_PER_RESPONSE", "answer_batch"]

MAX_BATCH_GAMES = 1000
#: Decode problems listed in one batch answer (each game lists at most 100 and a count).
MAX_LISTED_PER_RESPONSE = 10_000
#: A batch body with this many commas has its entries counted before it is decoded.
MANY_COMMAS = 100_000


class _Envelope(msgspec.Struct, forbid_unknown_fields=True):
    games: list[msgspec.Raw]


def _too_many_games(count: int) -> Response:
    return problem_answer(
        413,
        "Content Too Large",
        _(
            "the batch has {count} games; the limit is {limit}",
            count=number(count),
            limit=number(MAX_BATCH_GAMES),
        ),
    )


#: The batch's envelope, each game as its JSON text. Read by :func:`shallow_value`: a body
#: with a game nested past what msgspec follows has its containers past CUT_DEPTH emptied,
#: as the decoder does to tell a game's problems (a game so deep is invalid however it is
#: read; the others are not that deep, and read as they are).
_envelope = msgspec.json.Decoder(_Envelope).decode


def answer_batch(body: bytes, catalog: Catalog) -> Response:
    """The answer to `/v1/score/batch` (on a worker thread): the envelope, then each game."""
    # Counted before decoding when there could be many: 16.7 million tiny entries fit in
    # 32 MiB. Fewer commas than MANY_COMMAS cost little to make and are counted after.
    if body.count(b",") >= MANY_COMMAS:
        entries = count_commas(body).level2 + 1
        if entries > MAX_BATCH_GAMES:
            return _too_many_games(entries)
    try:
        envelope = shallow_value(body, _envelope)
    except msgspec.DecodeError as exc:
        return envelope_problem(exc, '{"games": [...]}')
    # The envelope decoded, so every key is "games" (perhaps escaped): more than one is a
    # comma between keys. Scanned unless the plain name is there once and nothing escaped.
    plain = body.count(b'"games"') == 1 and b"\\u" not in body
    keys = 1 if plain else count_commas(body).level1 + 1
    if keys > 1:
        message = _("the body gives `games` {keys} times; give it once", keys=keys)
        return problem_answer(
            422,
            "Unprocessable Content",
            message,
            [Problem(code=codes.BAD_VALUE, message=message, path="")],
        )
    games = [bytes(raw) for raw in envelope.games]
    if len(games) > MAX_BATCH_GAMES:
        return _too_many_games(len(games))
    results = scored(games, [None] * len(games), catalog, False)
    return json_answer({"results": _cap_listed(results)})


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
        message = ngettext(
            "{count} problem(s), not listed: at most {most} are listed in one answer",
            "{count} problem(s), not listed: at most {most} are listed in one answer",
            len(errors),
            count=number(len(errors)),
            most=number(MAX_LISTED_PER_RESPONSE),
        )
        result.errors = [ProblemItem(codes.TOO_LARGE, message, "", [])]
        budget = 0
    return results
