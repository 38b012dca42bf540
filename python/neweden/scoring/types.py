"""The report's types: what :mod:`neweden.scoring.report` builds, what the batch runner, the
HTTP service, the text table and the picture read by attribute, and what the OpenAPI
document describes. Each is encoded directly with ``msgspec.json``: a Struct's field order is
its key order, and a field that is ``None`` is written as ``null`` (only ``audit``, left out
of the lean report, is ever omitted). ``neweden.score`` gives the same report as a plain dict
(``msgspec.to_builtins``).

The classes the OpenAPI document names keep the names it has always used (``Report``,
``PlayerReport``, ``Score``, ``Military``, ``ProblemItem``); their descriptions are comments,
not docstrings, so that the document says what it said before. Every Struct is ``gc=False``:
a report is a tree, it holds no cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import msgspec

from neweden.format.model import Mode

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


class AuditCard(msgspec.Struct, gc=False):
    """One card of the input: where it is, whether it was kept, what it earned and why."""

    index: int
    cell: Cell
    scored: bool
    stars_required: int | None
    points: int | None
    populist_points: int | None
    why: str


class AuditRequirement(msgspec.Struct, gc=False):
    """One requirement in play, met or not, and why in words with the numbers."""

    id: str
    met: bool
    why: str


class AuditStars(msgspec.Struct, gc=False):
    """Where a player's stars come from."""

    requirements: int
    epiphanies: int
    total: int


class AuditEpiphany(msgspec.Struct, gc=False):
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


class TowerSpan(msgspec.Struct, kw_only=True, gc=False):
    """The cells at the two ends of the longest tower row."""

    from_: Cell = msgspec.field(name="from")
    to: Cell


class AuditMilitary(msgspec.Struct, gc=False):
    """The cells and counts behind every military part."""

    labs: int
    shelter_groups: list[list[Cell]]
    shelter_group_points: list[int]
    medical_cards: list[Cell]
    towers: int
    tower_span: TowerSpan | None
    bases: int
    bases_place: int | None


class Advice(msgspec.Struct, gc=False):
    """A choice that would have scored more for the same city."""

    code: str
    message: str
    stars_from_epiphanies: int
    gain: int


class Compared(msgspec.Struct, gc=False):
    """The values the ranking compares, in the order it compares them."""

    total: int
    requirements_met: int | None
    bases: int | None
    cards: int
    three_star_cards: int
    two_star_cards: int
    first_player_recency: int | None


class AuditRanking(msgspec.Struct, gc=False):
    """A player's place and the tie-breaker that set them apart from the one above."""

    place: int
    decided_by: str | None
    compared: Compared


class PlayerAudit(msgspec.Struct, gc=False):
    """How every point of one player came about."""

    cards: list[AuditCard]
    requirements: list[AuditRequirement] | None
    stars: AuditStars | None
    epiphanies: list[AuditEpiphany]
    military: AuditMilitary | None
    components: int
    advice: list[Advice]
    ranking: AuditRanking


class AuditBases(msgspec.Struct, gc=False):
    """One player's military bases, their place and their D5 points."""

    player: str
    bases: int
    place: int
    points: int


class GameAudit(msgspec.Struct, gc=False):
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
    meta: dict[str, Any] | None
    players: list[PlayerReport]
    errors: list[ProblemItem]
    warnings: list[ProblemItem]
    audit: GameAudit | msgspec.UnsetType = msgspec.UNSET


class Unreadable(msgspec.Struct, gc=False):
    # What a batch says of an entry that is not a readable game.
    valid: Literal[False]
    errors: list[ProblemItem]
