"""The report's types: what :mod:`neweden.scoring.report` builds, what the batch runner, the
HTTP service, the text table and the picture read by attribute, and what the OpenAPI
document describes. Each is encoded directly with ``msgspec.json``: a Struct's field order is
its key order, and a field that is ``None`` is written as ``null`` (only ``audit``, left out
of the lean report, is ever omitted). ``neweden.score`` gives the same report as a plain dict
(``msgspec.to_builtins``).

The audit trail (``detail``) is made of TypedDicts: plain dicts, built once in the order of
their keys, which ``neweden.score`` hands over as they are instead of converting a Struct per
card (the audit's cost is its output). The OpenAPI document lists their properties in that
order too (:mod:`neweden.http.api_types`).

The classes the OpenAPI document names keep the names it has always used (``Report``,
``PlayerReport``, ``Score``, ``Military``, ``ProblemItem``). Each field carries its
description (``described``, :mod:`neweden.format.descriptions`); a class the document
describes otherwise than its docstring, or that has none, says so in ``schema_description``
(a docstring would put the description before the properties, where the document has always
had it after them). Every Struct is ``gc=False``: a report is a tree, it holds no cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Literal, TypedDict

import msgspec

from neweden.format.descriptions import described
from neweden.format.model import Mode
from neweden.format.problems import Problem, ProblemsError
from neweden.rules.advice import Advice
from neweden.rules.majority import MajoritySource

__all__ = [
    "CITY_FIGURES_SHOWN",
    "ERRORS_WORDS",
    "WARNINGS_WORDS",
    "Advice",
    "AuditBases",
    "AuditCard",
    "AuditEpiphany",
    "AuditMilitary",
    "AuditRanking",
    "AuditRequirement",
    "AuditStars",
    "CardPlacement",
    "Compared",
    "GameAudit",
    "GameErrors",
    "GameWarnings",
    "MajoritySource",
    "Military",
    "PlacementError",
    "PlayerAudit",
    "PlayerReport",
    "ProblemItem",
    "Report",
    "Score",
    "ShownFigures",
    "TowerSpan",
    "Unreadable",
]

if TYPE_CHECKING:
    #: A cell, `[row, col]`: a list of two at run time, so that `msgspec.to_builtins` gives
    #: the lists the report's dict has always held (it keeps tuples as tuples) ...
    Cell = list[int]
else:
    #: ... and a pair in the schemas (which the JSON, the same either way, follows).
    Cell = tuple[int, int]

#: What a cell is, in the descriptions.
_CELL = "a cell as [row, col] (row grows downward)"
#: What the lists of problems are, in the descriptions (of the report and of /v1/validate).
ERRORS_WORDS = "the errors: each makes `valid` false"
WARNINGS_WORDS = "the warnings: they never change `valid`"


class ProblemItem(msgspec.Struct, gc=False):
    """An error or warning: a stable code, a sentence, a JSON Pointer, the cells involved."""

    code: Annotated[str, described("a stable snake_case identifier (docs/report.md lists them)")]
    message: Annotated[str, described("a sentence with the numbers, in the answer's language")]
    path: Annotated[str, described("a JSON Pointer into the game sent (empty for the whole game)")]
    cells: Annotated[
        list[Cell], described("the cells of the cards involved, each [row, col]; empty when none")
    ]


#: The errors and the warnings of a game that belong to no single player, as the report and
#: a validation (/v1/validate) list them.
GameErrors = Annotated[
    list[ProblemItem], described("the errors that belong to no single player; " + ERRORS_WORDS)
]
GameWarnings = Annotated[
    list[ProblemItem],
    described("the warnings that belong to no single player; " + WARNINGS_WORDS),
]


#: The report's own format tag (its `format` key).
REPORT_FORMAT: Final = "new-eden/report@1"


# A player's military points, by part (D1-D5), and their sum.
class Military(msgspec.Struct, gc=False):
    schema_description: ClassVar[str] = (
        "The Military part (Military and Elitist games): the points of each kind of "
        "underground facility."
    )

    labs: Annotated[int, described("3 points a research lab")]
    shelters: Annotated[int, described("each group of k adjacent shelters scores k·min(k, 4)")]
    medical: Annotated[int, described("2 points for every distinct card next to a medical center")]
    towers: Annotated[int, described("with two towers or more: columns spanned times rows spanned")]
    bases: Annotated[
        int,
        described("the points of the bases' majority table for the player's place by bases"),
    ]
    total: Annotated[int, described("the sum of the military parts")]


# A player's points, by part, and their sum.
class Score(msgspec.Struct, gc=False):
    schema_description: ClassVar[str] = "One player's points, part by part; `total` is their sum."

    requirements: Annotated[
        int,
        described(
            "the Populist part: each scored card's points when the player has the stars it "
            "needs, else 1, plus 15 for each star above three; 0 in a military game"
        ),
    ]
    military: Annotated[Military | None, described("the Military part; null in a populist game")]
    epiphanies: Annotated[int, described("the points of the epiphanies")]
    ten_cards: Annotated[int, described("5 with 10 or more scored cards, else 0")]
    bonuses: Annotated[int, described("the sum of the declared bonuses")]
    total: Annotated[int, described("the sum of the parts; the ranking's first criterion")]


# --- the audit trail (`detail`) --------------------------------------------------------------


class AuditCard(TypedDict):
    """One card of the input: where it is, whether it was kept, what it earned and why."""

    index: Annotated[int, described("the card's index in the player's city as given")]
    cell: Annotated[Cell, described(_CELL)]
    scored: Annotated[
        bool, described("kept in the geometry (false: left out, as a card on a taken cell)")
    ]
    stars_required: Annotated[
        int | None, described("the stars the card needs; null when unresolved")
    ]
    points: Annotated[int | None, described("the printed points; null when unresolved")]
    populist_points: Annotated[
        int | None,
        described(
            "what it earned in the Populist part; null when it is not scored and in a military game"
        ),
    ]
    why: Annotated[str, described("in words: why it earned that")]


class AuditRequirement(TypedDict):
    """One requirement in play, met or not, and why in words with the numbers; `declared`:
    scored as the table declared it (a card the catalog cannot check against a city)."""

    id: Annotated[str, described("the requirement's catalog id")]
    met: Annotated[
        bool,
        described(
            "whether the player's city meets it (or, declared, whether the table declared it met)"
        ),
    ]
    why: Annotated[str, described("in words, with the numbers")]
    declared: Annotated[
        bool,
        described(
            "true when it is scored as the table declared it (the catalog cannot check it "
            "against a city)"
        ),
    ]


class AuditStars(TypedDict):
    """Where a player's stars come from."""

    requirements: Annotated[int, described("stars from the requirements met")]
    epiphanies: Annotated[
        int, described("whole stars from activated 1/3-star epiphanies, three for a star")
    ]
    total: Annotated[int, described("the player's stars")]


class AuditEpiphany(TypedDict):
    """One declared epiphany: what it scored and, with a catalog condition, whether the final
    city meets it and whether identical ones can each have their own cards."""

    index: Annotated[int, described("the epiphany's index in the player's list")]
    state: Annotated[str, described("held, validated or activated, as declared")]
    points: Annotated[int, described("its printed points")]
    effect: Annotated[str | None, described("its effect, if any")]
    scored: Annotated[int, described("the points it scored")]
    note: Annotated[str, described("in words: why it scored that")]
    condition_met: Annotated[
        bool | None,
        described("with a catalog condition: whether the final city meets it; else null"),
    ]
    disjoint_sets: Annotated[
        str | None,
        described(
            "for identical epiphanies with a condition: whether each can have its own cards "
            "(yes, no or unknown); else null"
        ),
    ]


#: The cells at the two ends of the longest tower row (`from` is a keyword: the functional
#: form).
TowerSpan = TypedDict(
    "TowerSpan",
    {
        "from": Annotated[Cell, described("one end: " + _CELL)],
        "to": Annotated[Cell, described("the other end: " + _CELL)],
    },
)
TowerSpan.__doc__ = "The cells at the two ends of the longest tower row."


class AuditMilitary(TypedDict):
    """The cells and counts behind every military part."""

    labs: Annotated[int, described("the number of research labs")]
    shelter_groups: Annotated[
        list[list[Cell]], described("each group of adjacent shelters, a list of cells")
    ]
    shelter_group_points: Annotated[list[int], described("the points of each group, k·min(k, 4)")]
    medical_cards: Annotated[
        list[Cell], described("the cells of the cards next to a medical center")
    ]
    towers: Annotated[int, described("the number of towers")]
    tower_span: Annotated[
        TowerSpan | None,
        described("the cells at the two ends of the towers' span; null with fewer than two towers"),
    ]
    bases: Annotated[int, described("the number of military bases")]
    bases_place: Annotated[
        int | None, described("the player's place by bases; null in a one-player game")
    ]


class Compared(TypedDict):
    """The values the ranking compares, in the order it compares them."""

    total: Annotated[int, described("the total")]
    requirements_met: Annotated[
        int | None, described("the number of requirements met; null in a military game")
    ]
    bases: Annotated[int | None, described("the number of bases; null in a populist game")]
    cards: Annotated[int, described("the number of scored cards")]
    three_star_cards: Annotated[int, described("scored cards that need 3 stars")]
    two_star_cards: Annotated[int, described("scored cards that need 2 stars")]
    first_player_recency: Annotated[
        int | None,
        described(
            "larger for who was first player more recently; null without a known first player"
        ),
    ]


class AuditRanking(TypedDict):
    """A player's place and the tie-breaker that set them apart from the one above."""

    place: Annotated[int, described("the player's place")]
    decided_by: Annotated[
        str | None,
        described(
            "the tie-breaker that set the player apart from the one just above: total, "
            "requirements_met, bases, cards, three_star_cards, two_star_cards or first_player; "
            "null for a first place or a tie"
        ),
    ]
    compared: Annotated[Compared, described("the values the ranking compared")]


class PlayerAudit(TypedDict):
    """How every point of one player came about."""

    cards: Annotated[list[AuditCard], described("one entry per card of the input, in its order")]
    requirements: Annotated[
        list[AuditRequirement] | None,
        described("each requirement in play, met or not and why; null in a military game"),
    ]
    stars: Annotated[
        AuditStars | None,
        described("where the player's stars come from; null in a military game"),
    ]
    epiphanies: Annotated[
        list[AuditEpiphany], described("each declared epiphany and what it scored")
    ]
    military: Annotated[
        AuditMilitary | None,
        described("the cells and counts behind each military part; null in a populist game"),
    ]
    components: Annotated[int, described("the number of connected parts of the city")]
    advice: Annotated[
        list[Advice], described("choices that would have scored more for the same city")
    ]
    ranking: Annotated[AuditRanking, described("the player's place and what set them apart")]


class AuditBases(TypedDict):
    """One player's military bases, their place and their D5 points."""

    player: Annotated[str, described("the player's name")]
    bases: Annotated[int, described("their number of bases")]
    place: Annotated[int, described("their place by bases")]
    points: Annotated[int, described("the points the majority table gives them")]


class GameAudit(TypedDict):
    """The game's part of the audit trail: the majority table used and the first player."""

    majority_table: Annotated[
        list[int] | None,
        described("the bases' majority table used for this player count; null in a populist game"),
    ]
    majority_table_is_default: Annotated[
        bool | None, described("true when it is the built-in default table")
    ]
    bases: Annotated[
        list[AuditBases] | None,
        described("every player's bases, place and points; null in a populist game"),
    ]
    first_player: Annotated[str | None, described("the first player's name, when known")]


# --- the report --------------------------------------------------------------------------------


# One player's part of the report; `audit` only in the detailed report.
#: The figures of a player's city (:class:`~neweden.geometry.figures.ScoreFigures`' fields)
#: that their entry shows: PlayerReport's fields right after `legal`, in this order. Every
#: path that makes an entry (a game scored alone, a chunk's columns) reads this list.
CITY_FIGURES_SHOWN: Final = ("cards", "open_connections")
#: One city's CITY_FIGURES_SHOWN, in that order: an int each.
ShownFigures = tuple[int, int]


class PlayerReport(msgspec.Struct, gc=False):
    schema_description: ClassVar[str] = "One player's result, in the order of the game's players."

    name: Annotated[str, described("the player's name")]
    legal: Annotated[
        bool,
        described(
            "false exactly when one of the player's errors is in their city (overlap, "
            "disconnected, unknown card, copy limit, unknown style or type)"
        ),
    ]
    cards: Annotated[
        int, described("the cards scored (neither left out on a taken cell nor unresolved)")
    ]
    open_connections: Annotated[
        int,
        described(
            "the icons that are not half of a complete connection: facing an empty cell, a "
            "wall or an incompatible card"
        ),
    ]
    stars: Annotated[
        int | None,
        described(
            "requirements met plus one star for every three activated 1/3-star epiphanies; "
            "null in a military game"
        ),
    ]
    requirements_met: Annotated[
        list[str] | None,
        described("the ids of the requirements met, in the game's order; null in a military game"),
    ]
    requirements_declared: Annotated[
        list[str] | None,
        described(
            "the ids of requirements_met scored as the table declared them (cards the catalog "
            "cannot check against a city), not checked; null in a military game"
        ),
    ]
    score: Annotated[Score, described("the player's points, part by part")]
    place: Annotated[
        int,
        described(
            "the player's place, competition ranking (1, 1, 3); given to every player, legal or not"
        ),
    ]
    errors: Annotated[list[ProblemItem], described("this player's errors; " + ERRORS_WORDS)]
    warnings: Annotated[list[ProblemItem], described("this player's warnings; " + WARNINGS_WORDS)]
    audit: (
        Annotated[
            PlayerAudit,
            described("with ?detail=true only: how every point of this player came about"),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


class Report(msgspec.Struct, gc=False):
    """The report of one game (FORMAT §3); `?detail=true` adds `audit` (docs/report.md)."""

    schema_description: ClassVar[str] = (
        "The report of one game: whether it is valid, and each player's score, place, errors "
        "and warnings. `?detail=true` adds `audit`, how every point came about "
        "(docs/report.md)."
    )

    format: Annotated[
        Literal["new-eden/report@1"], described("the report's format: new-eden/report@1")
    ]
    neweden: Annotated[str, described("the version of neweden that scored the game")]
    catalog: Annotated[str, described("the catalog used: builtin, or the name of a catalog file's")]
    valid: Annotated[bool, described("true when the game has no error at all")]
    mode: Annotated[Mode, described("the game mode")]
    majority_table: Annotated[
        MajoritySource | None,
        described(
            "where the D5 table came from: game (its majority_table), catalog or default (the "
            "built-in one); null in a populist game"
        ),
    ]
    meta: Annotated[dict[str, Any] | None, described("the game's meta, as given (null when none)")]
    players: Annotated[list[PlayerReport], described("one entry per player, in the game's order")]
    errors: GameErrors
    warnings: GameWarnings
    audit: (
        Annotated[
            GameAudit, described("with ?detail=true only: the game's part of the audit trail")
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


# What a batch says of an entry that is not a readable game.
class Unreadable(msgspec.Struct, gc=False):
    schema_description: ClassVar[str] = (
        "A batch entry that is not a readable game: every decode problem."
    )

    valid: Annotated[Literal[False], described("always false")]
    errors: Annotated[list[ProblemItem], described("every decode problem of the entry")]


class CardPlacement(msgspec.Struct, gc=False):
    """One legal placement of the card, and what the player has after it."""

    row: Annotated[int, described("the cell's row")]
    col: Annotated[int, described("the cell's column")]
    rotated: Annotated[
        bool,
        described(
            "the card turned 180° (whether the player may turn it is the caller's to decide: "
            "an activated epiphany with the rotate effect)"
        ),
    ]
    open_connections: Annotated[int, described("the city's open connections after the placement")]
    total: Annotated[
        int,
        described(
            "the player's total after it, in the whole game (the others unchanged, the D5 "
            "majorities recomputed)"
        ),
    ]
    delta: Annotated[int, described("total after minus total before")]


class PlacementError(ProblemsError):
    """The question cannot be answered: no such player, a card that is not a card, a
    requirement whose condition reads the cards. `problems` says what and where (JSON
    Pointers into the question: `/player`, `/card...`, `/game/requirements/N`)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.line() for p in problems))
        self.problems = problems
