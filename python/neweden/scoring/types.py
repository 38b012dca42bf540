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
``PlayerReport``, ``Score``, ``Military``, ``ProblemItem``); their descriptions are comments,
not docstrings, so that the document says what it said before. Every Struct is ``gc=False``:
a report is a tree, it holds no cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict

import msgspec

from neweden.format.model import Mode
from neweden.rules.advice import Advice
from neweden.rules.military import MajoritySource

__all__ = [
    "Advice",
    "AuditBases",
    "AuditCard",
    "AuditEpiphany",
    "AuditMilitary",
    "AuditRanking",
    "AuditRequirement",
    "AuditStars",
    "Compared",
    "GameAudit",
    "MajoritySource",
    "Military",
    "PlayerAudit",
    "PlayerReport",
    "ProblemItem",
    "Report",
    "Score",
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


class ProblemItem(msgspec.Struct, gc=False):
    """An error or warning: a stable code, a sentence, a JSON Pointer, the cells involved."""

    code: str
    message: str
    path: str
    cells: list[Cell]


#: The report's own format tag (its `format` key).
REPORT_FORMAT: Final = "new-eden/report@1"


# A player's military points, by part (D1-D5), and their sum.
class Military(msgspec.Struct, gc=False):
    labs: int
    shelters: int
    medical: int
    towers: int
    bases: int
    total: int


# A player's points, by part, and their sum.
class Score(msgspec.Struct, gc=False):
    requirements: int
    military: Military | None
    epiphanies: int
    ten_cards: int
    bonuses: int
    total: int


# --- the audit trail (`detail`) --------------------------------------------------------------


class AuditCard(TypedDict):
    """One card of the input: where it is, whether it was kept, what it earned and why."""

    index: int
    cell: Cell
    scored: bool
    stars_required: int | None
    points: int | None
    populist_points: int | None
    why: str


class AuditRequirement(TypedDict):
    """One requirement in play, met or not, and why in words with the numbers; `declared`:
    scored as the table declared it (a card the catalog cannot check against a city)."""

    id: str
    met: bool
    why: str
    declared: bool


class AuditStars(TypedDict):
    """Where a player's stars come from."""

    requirements: int
    epiphanies: int
    total: int


class AuditEpiphany(TypedDict):
    """One declared epiphany: what it scored and, with a catalog condition, whether the final
    city meets it and whether identical ones can each have their own cards."""

    index: int
    state: str
    points: int
    effect: str | None
    scored: int
    note: str
    condition_met: bool | None
    disjoint_sets: str | None  # "yes", "no" or "unknown"


#: The cells at the two ends of the longest tower row (`from` is a keyword: the functional
#: form).
TowerSpan = TypedDict("TowerSpan", {"from": Cell, "to": Cell})
TowerSpan.__doc__ = "The cells at the two ends of the longest tower row."


class AuditMilitary(TypedDict):
    """The cells and counts behind every military part."""

    labs: int
    shelter_groups: list[list[Cell]]
    shelter_group_points: list[int]
    medical_cards: list[Cell]
    towers: int
    tower_span: TowerSpan | None
    bases: int
    bases_place: int | None


class Compared(TypedDict):
    """The values the ranking compares, in the order it compares them."""

    total: int
    requirements_met: int | None
    bases: int | None
    cards: int
    three_star_cards: int
    two_star_cards: int
    first_player_recency: int | None


class AuditRanking(TypedDict):
    """A player's place and the tie-breaker that set them apart from the one above."""

    place: int
    decided_by: str | None
    compared: Compared


class PlayerAudit(TypedDict):
    """How every point of one player came about."""

    cards: list[AuditCard]
    requirements: list[AuditRequirement] | None
    stars: AuditStars | None
    epiphanies: list[AuditEpiphany]
    military: AuditMilitary | None
    components: int
    advice: list[Advice]
    ranking: AuditRanking


class AuditBases(TypedDict):
    """One player's military bases, their place and their D5 points."""

    player: str
    bases: int
    place: int
    points: int


class GameAudit(TypedDict):
    """The game's part of the audit trail: the majority table used and the first player."""

    majority_table: list[int] | None
    majority_table_is_default: bool | None
    bases: list[AuditBases] | None
    first_player: str | None


# --- the report --------------------------------------------------------------------------------


# One player's part of the report; `audit` only in the detailed report.
class PlayerReport(msgspec.Struct, gc=False):
    name: str
    legal: bool
    cards: int
    open_connections: int
    stars: int | None
    requirements_met: list[str] | None
    requirements_declared: list[str] | None
    score: Score
    place: int
    errors: list[ProblemItem]
    warnings: list[ProblemItem]
    audit: PlayerAudit | msgspec.UnsetType = msgspec.UNSET


class Report(msgspec.Struct, gc=False):
    """The report of one game (FORMAT §3); `?detail=true` adds `audit` (docs/report.md)."""

    format: Literal["new-eden/report@1"]
    neweden: str
    catalog: str
    valid: bool
    mode: Mode
    majority_table: MajoritySource | None
    meta: dict[str, Any] | None
    players: list[PlayerReport]
    errors: list[ProblemItem]
    warnings: list[ProblemItem]
    audit: GameAudit | msgspec.UnsetType = msgspec.UNSET


class Unreadable(msgspec.Struct, gc=False):
    # What a batch says of an entry that is not a readable game.
    valid: Literal[False]
    errors: list[ProblemItem]
