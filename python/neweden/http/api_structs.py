"""The HTTP API's own request and answer types, those that are neither the game format's
(:mod:`neweden.format.model`) nor the report's (:mod:`neweden.scoring.types`): for the OpenAPI
document (:mod:`neweden.http.api_types`), each field described where it is declared
(:mod:`neweden.format.descriptions`)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from neweden.format.descriptions import described
from neweden.format.model import CardRef, Game
from neweden.scoring.types import (
    ERRORS_WORDS,
    WARNINGS_WORDS,
    CardPlacement,
    GameErrors,
    GameWarnings,
    ProblemItem,
)

__all__ = [
    "BatchAnswer",
    "BatchRequest",
    "Health",
    "PlacementRequest",
    "PlacementsAnswer",
    "PlayerValidation",
    "ProblemDetails",
    "Validation",
]


class PlayerValidation(msgspec.Struct):
    schema_description: ClassVar[str] = "One player's city: whether it is legal, and its problems."

    name: Annotated[str | None, described("the player's name; null for a lone city")]
    legal: Annotated[
        bool, described("false exactly when one of the player's errors is in their city")
    ]
    cards: Annotated[int, described("the cards kept in the geometry")]
    open_connections: Annotated[
        int, described("the icons that are not half of a complete connection")
    ]
    errors: Annotated[list[ProblemItem], described("this player's errors; " + ERRORS_WORDS)]
    warnings: Annotated[list[ProblemItem], described("this player's warnings; " + WARNINGS_WORDS)]


class Validation(msgspec.Struct):
    schema_description: ClassVar[str] = (
        "Whether a game (or a lone city) is valid, and every problem found; no score."
    )

    valid: Annotated[bool, described("true when the game has no error at all")]
    players: Annotated[
        list[PlayerValidation],
        described("one entry per player; a lone city is one player named null"),
    ]
    errors: GameErrors
    warnings: GameWarnings


class BatchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """At most 1,000 games."""

    games: Annotated[
        list[Any], described("the games to score, at most 1,000 (each as for /v1/score)")
    ]


class BatchAnswer(msgspec.Struct):
    """The results in order: a report, or `{"valid": false, "errors"}` for an unreadable
    entry (the schema says which, see openapi())."""

    results: Annotated[
        list[Any],
        described(
            "one entry per game, in order: its report, or {valid: false, errors} when it is "
            "not a readable game"
        ),
    ]


class ProblemDetails(msgspec.Struct):
    """RFC 9457 problem details, with every problem found."""

    type: Annotated[str, described("about:blank")]
    title: Annotated[str, described("the HTTP status in words, in the answer's language")]
    status: Annotated[int, described("the HTTP status")]
    detail: Annotated[str, described("what is wrong, in the answer's language")]
    errors: Annotated[
        list[ProblemItem],
        described("every problem found (for a body that is not a game: every decode problem)"),
    ]


class PlacementRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A game, one of its players and a card: where can the card go?"""

    game: Annotated[Game, described("the game, as for /v1/score")]
    player: Annotated[str, described("the name of the player whose city gets the card")]
    card: Annotated[CardRef, described("the card: a catalog id, or an inline card as in a city")]
    best: Annotated[bool, described("only the best placement")] = False


class PlacementsAnswer(msgspec.Struct):
    """Every legal placement of the card, the best first."""

    placements: Annotated[
        list[CardPlacement],
        described(
            "every legal placement: by total, highest first, then row, column, upright first"
        ),
    ]


class Health(msgspec.Struct):
    schema_description: ClassVar[str] = "The service is up; its version."

    status: Annotated[Literal["ok"], described("ok")]
    version: Annotated[str, described("the version of neweden")]
