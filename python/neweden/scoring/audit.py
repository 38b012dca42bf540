"""The audit trail of a detailed report: how every point came about (requirements,
epiphanies, the cards, the Military part, the ranking)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import NamedTuple

from neweden.catalog.catalog import (
    Catalog,
    EpiphanySpec,
    ResolvedCard,
)
from neweden.format.model import EpiphanyEntry
from neweden.geometry.compact import (
    FLAGS,
    UNRESOLVED,
    CityRows,
)
from neweden.geometry.figures import CityFigures, ScoreFigures
from neweden.i18n import _, current, ngettext
from neweden.rules.conditions import CityContext, evaluate
from neweden.rules.epiphanies import EpiphanyResult
from neweden.rules.epiphany_conditions import SearchBudget, disjoint_sets
from neweden.rules.military import shelter_group_points
from neweden.rules.ranking import Standing
from neweden.rules.requirements import (
    card_points,
    cards_points,
)
from neweden.scoring.core import Core
from neweden.scoring.types import (
    AuditCard,
    AuditEpiphany,
    AuditMilitary,
    AuditRanking,
    AuditStars,
    Compared,
)

#: Whether the final city meets an epiphany's condition, and whether identical ones can each
#: have their own cards (None, None: no known condition).
_Condition = tuple[bool | None, str | None]
_NO_CONDITION: _Condition = (None, None)


def _ranking(place: int, decided_by: str | None, standing: Standing) -> AuditRanking:
    total, met, bases, cards, three, two, recency = standing
    compared: Compared = {
        "total": total,
        "requirements_met": met,
        "bases": bases,
        "cards": cards,
        "three_star_cards": three,
        "two_star_cards": two,
        "first_player_recency": recency,
    }
    return {"place": place, "decided_by": decided_by, "compared": compared}


def _epiphany_conditions(
    entries: Sequence[EpiphanyEntry],
    specs: Sequence[EpiphanySpec | None],
    cards: Sequence[ResolvedCard],
    fig: ScoreFigures,
    catalog: Catalog,
    core: Core,
    budget: SearchBudget,
) -> list[_Condition]:
    """Information only (RULES §4b): whether the final city meets each declared epiphany's
    known condition, and whether identical ones can each have their own cards (the
    searches of a game share one `budget`)."""
    counted = ("validated", "activated")
    copies: dict[str, int] = {}
    for entry, spec in zip(entries, specs, strict=True):
        if spec is not None and spec.id and entry.state in counted:
            copies[spec.id] = copies.get(spec.id, 0) + 1
    answers: dict[str, str] = {}
    met: dict[str, bool] = {}  # each catalog id's condition evaluated once
    city = CityContext(cards, fig, catalog)
    out: list[_Condition] = []
    for entry, spec in zip(entries, specs, strict=True):
        if spec is None or spec.condition is None:
            out.append(_NO_CONDITION)
            continue
        if spec.id not in met:
            met[spec.id] = evaluate(spec.condition, city)
        disjoint: str | None = None
        if entry.state in counted and copies.get(spec.id, 0) > 1:
            if spec.id not in answers:
                answers[spec.id] = disjoint_sets(
                    spec.condition,
                    copies[spec.id],
                    cards,
                    catalog,
                    lambda subset: core.scores([subset])[0],
                    budget,
                )
            disjoint = answers[spec.id]
        out.append((met[spec.id], disjoint))
    return out


@functools.lru_cache(maxsize=256)
def _card_why(known: bool, scored: bool, need: int, stars: int | None, lang: str) -> str:
    """What a card earned in Populist, and why, in a few words (`known`: its id resolved;
    `need`: its star requirement), in `lang` (the current language, which it is made in).
    The same few sentences recur: each is made once."""
    if not known:
        return _("unknown id: left out")
    if not scored:
        return _("on a taken cell: left out")
    if stars is None:
        return _("scored for its facility only (no Populist part in this mode)")
    if need <= stars:
        return ngettext(
            "activated: needs {need} star(s), the player has {stars}",
            "activated: needs {need} star(s), the player has {stars}",
            need,
            need=need,
            stars=stars,
        )
    return _("1 point: needs {need} stars, the player has {stars}", need=need, stars=stars)


class _Cells(NamedTuple):
    """The row and the column of each card of a city, in card order."""

    rows: Sequence[int]
    cols: Sequence[int]

    def __call__(self, i: int) -> list[int]:
        """Card i's cell, `[row, col]` (a new list each time: the report shares none)."""
        return [self.rows[i], self.cols[i]]


def _card_lines(
    cells: _Cells,
    needs: Sequence[int],
    points: Sequence[int],
    included: Sequence[bool],
    usual_only: bool,
    stars: int | None,
    *,
    city: tuple[int, CityRows],
) -> list[AuditCard]:
    """The audit's line of each card of `city`, (p, table): city p of `table` (its cells,
    star requirements and points given). In most cities every card is known and kept, with
    a star requirement of 0-3 (`usual_only`): their sentences are looked up by that
    requirement, their lines made in one go; any other city's card by card
    (:func:`_card_line`)."""
    lang = current()
    if not usual_only:
        p, table = city
        (flags,) = table.columns(p, FLAGS)
        return [
            _card_line(i, cells(i), flags[i], needs[i], points[i], inside, stars=stars, lang=lang)
            for i, inside in enumerate(included)
        ]
    usual = _usual_whys(stars, lang)
    earned = cards_points(points, needs, stars) if stars is not None else itertools.repeat(None)
    return [
        {
            "index": i,
            "cell": [row, col],
            "scored": True,
            "stars_required": need,
            "points": worth,
            "populist_points": got,
            "why": usual[need],
        }
        for i, row, col, need, worth, got in zip(
            itertools.count(), cells.rows, cells.cols, needs, points, earned
        )
    ]


def _usual_only(full: CityFigures, needs: Sequence[int], core: Core) -> bool:
    """Whether every card of a city is known and kept (a legal city) with a star requirement
    of 0-3: the native core refuses any other requirement of a known card; after the twin,
    the requirements are read (it tallies a -1 of a catalog built in Python as a 3)."""
    if not full.legal:
        return False
    return core.stars_checked or not needs or (min(needs) >= 0 and max(needs) <= 3)


@functools.lru_cache(maxsize=64)
def _usual_whys(stars: int | None, lang: str) -> tuple[str, ...]:
    """The sentence of a card known and kept, by its star requirement 0-3."""
    return tuple([_card_why(True, True, need, stars, lang) for need in range(4)])


def _card_line(
    index: int,
    cell: list[int],
    flags: int,
    need: int,
    points: int,
    scored: bool,
    *,
    stars: int | None,
    lang: str,
) -> AuditCard:
    known = not flags & UNRESOLVED
    return {
        "index": index,
        "cell": cell,
        "scored": scored,
        "stars_required": need if known else None,
        "points": points if known else None,
        "populist_points": card_points(points, need, stars)
        if scored and stars is not None
        else None,
        "why": _card_why(known, scored, need, stars, lang),
    }


def _stars(stars: int | None, from_epiphanies: int) -> AuditStars | None:
    if stars is None:
        return None
    return {"requirements": stars - from_epiphanies, "epiphanies": from_epiphanies, "total": stars}


def _epiphany_lines(
    epiphanies: EpiphanyResult, conditions: Sequence[_Condition]
) -> list[AuditEpiphany]:
    lines: list[AuditEpiphany] = []
    if not epiphanies.lines:
        return lines
    for number, state, points, effect, scored, note in epiphanies.lines:
        met, disjoint = conditions[number]
        lines.append(
            {
                "index": number,
                "state": state,
                "points": points,
                "effect": effect,
                "scored": scored,
                "note": note,
                "condition_met": met,
                "disjoint_sets": disjoint,
            }
        )
    return lines


def _military_audit(cells: _Cells, fig: CityFigures, bases_place: int | None) -> AuditMilitary:
    span = fig.tower_span
    groups = fig.shelter_groups
    rows, cols = cells
    return {
        "labs": fig.labs,
        "shelter_groups": [[[rows[i], cols[i]] for i in group] for group in groups],
        "shelter_group_points": [shelter_group_points(len(g)) for g in groups],
        "medical_cards": [[rows[i], cols[i]] for i in fig.medical_cards],
        "towers": fig.towers,
        "tower_span": None
        if span is None
        else {"from": [span[0], span[1]], "to": [span[2], span[3]]},
        "bases": fig.bases,
        "bases_place": bases_place,
    }
