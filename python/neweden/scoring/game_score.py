"""A game scored by its own rules: its players, its problems, its audit trail (a game
alone, a game of a batch not scored in a chunk, the reference twin)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import msgspec

from neweden.catalog.catalog import (
    Catalog,
    ResolvedCard,
    ResolvedExtras,
    resolve_city,
    unknown_card,
)
from neweden.format.decode import decode_game_bytes
from neweden.format.model import Game, Placement
from neweden.format.modes import MODES as _MODES
from neweden.format.problems import Problem, join
from neweden.format.vocabulary import Attribute
from neweden.geometry.compact import (
    COL,
    POINTS,
    ROW,
    STARS,
    CityRows,
    GameCards,
    PackedGames,
)
from neweden.geometry.figures import CityFigures, ScoreFigures
from neweden.rules.advice import third_star_advice
from neweden.rules.conditions import CityContext, Test
from neweden.rules.epiphanies import EpiphanyResult, score_epiphanies
from neweden.rules.epiphany_conditions import SearchBudget
from neweden.rules.legality import (
    geometry_problems,
)
from neweden.rules.majority import MajoritySource, base_majority, majority_source
from neweden.rules.military import military_points
from neweden.rules.names import GameNames, NamesMemo
from neweden.rules.ranking import Standing, first_player_recency, first_seat, rank
from neweden.rules.requirements import (
    RequirementJudge,
    RequirementResult,
    checked,
    declared_requirements,
    declared_result,
    disagreements,
    populist_points,
    requirement_judges,
    requirement_tests,
)
from neweden.rules.ten_cards import ten_cards_points
from neweden.rules.totals import player_stars, player_total
from neweden.rules.warnings import game_warnings, rotated_cards, rotating_players, third_stars
from neweden.scoring.audit import (
    _NO_CONDITION,
    _card_lines,
    _Cells,
    _epiphany_conditions,
    _epiphany_lines,
    _military_audit,
    _ranking,
    _stars,
    _usual_only,
)
from neweden.scoring.core import Core, _new
from neweden.scoring.problems import (
    _activated_five_point,
    _assembled,
    _city_path,
    _unknown_first_player,
    majority_warnings,
    table_problems,
)
from neweden.scoring.types import (
    CITY_FIGURES_SHOWN,
    AuditRanking,
    GameAudit,
    Military,
    PlayerAudit,
    PlayerReport,
    Report,
    Score,
)

#: The figures a player's entry shows, read of their city's ScoreFigures (a tuple: the list
#: holds two names or more).
_shown = operator.attrgetter(*CITY_FIGURES_SHOWN)


def _names(packed: PackedGames) -> dict[Attribute, Sequence[str]]:
    """The style and type names of a batch, as its table numbers them."""
    return {"style": packed.styles, "type": packed.types}


def _game_names(
    packed: PackedGames,
    g: int,
    names: dict[Attribute, Sequence[str]],
    alone: bool,
    quiet: NamesMemo,
) -> GameNames:
    """The names game g's cards show (`names`: the batch's, :func:`_names`), to check
    (`quiet`: the batch's checks of sets of names met before)."""
    span = (packed.first_city[g], packed.first_city[g + 1])
    return GameNames(packed.flat, packed.offsets, span, names, alone=alone, memo=quiet)


def _game_score(
    packed: PackedGames,
    g: int,
    game: Game,
    extras: ResolvedExtras,
    catalog: Catalog,
    *,
    core: Core,
    sources: Sequence[bytes | None] | None,
    listed: dict[int, CityFigures],
) -> _GameScore:
    """Game g's rules over its rows of the packed table, with the per-card figures the
    batch's pass listed of its cities."""
    first, stop = packed.first_city[g], packed.first_city[g + 1]
    rows = CityRows(packed.flat, packed.offsets, first)
    source = sources[g] if sources is not None else None
    score = _GameScore(game, extras, packed.cards[g], catalog, core, rows, source)
    if listed:
        score.cards.known({p: listed[k] for p, k in enumerate(range(first, stop)) if k in listed})
    return score


class _Majority(NamedTuple):
    """D5 across the game: every player's bases, the table used, each one's points and
    place."""

    bases: list[int]
    table: tuple[int, ...]
    source: MajoritySource
    points: list[int]
    places: list[int]


class _Scored(NamedTuple):
    """One player's score before ranking: the report entry, what the ranking compares, and
    what the audit explains."""

    entry: PlayerReport
    standing: Standing
    results: list[Any]
    epiphanies: EpiphanyResult
    met: list[str] | None


class _CityCards:
    """A game's cards and their per-card figures, made only when something needs them (a
    problem to tell, a filtering condition, the audit): the cities of a game read lean are
    decoded the exact way the first time; the per-card figures of illegal cities (and of all
    for an audit) come with the score figures, from the same pass of the core."""

    __slots__ = (
        "_card_problems",
        "_cities",
        "_exact",
        "_full",
        "catalog",
        "core",
        "game",
        "source",
    )

    def __init__(self, game: Game, catalog: Catalog, core: Core, source: bytes | None) -> None:
        self.game, self.catalog, self.core = game, catalog, core
        #: the document of a game decoded lean (its cities as JSON)
        self.source = source
        self._exact: Game | None = None if source is not None else game
        self._cities: dict[int, list[ResolvedCard]] = {}
        self._card_problems: dict[int, list[Problem]] = {}
        self._full: dict[int, CityFigures] = {}

    def placements(self, p: int) -> list[Placement]:
        """Player p's placements as decoded (a lean game decoded the exact way for it)."""
        game = self._exact
        if game is None:
            assert self.source is not None
            game = self._exact = decode_game_bytes(self.source)
        return game.players[p].city

    def city(self, p: int) -> list[ResolvedCard]:
        """Player p's cards resolved (and the problems of resolving them kept)."""
        found = self._cities.get(p)
        if found is None:
            found, problems = resolve_city(self.placements(p), self.catalog, _city_path(p))
            self._cities[p] = found
            self._card_problems[p] = problems
        return found

    def cities(self) -> list[list[ResolvedCard]]:
        return [self.city(p) for p in range(len(self.game.players))]

    def card_problems(self) -> list[Problem]:
        self.cities()
        return [problem for p in sorted(self._card_problems) for problem in self._card_problems[p]]

    def known(self, figures: dict[int, CityFigures]) -> None:
        """The per-card figures of some players' cities, from the pass that scored them."""
        self._full.update(figures)

    def full(self, p: int) -> CityFigures:
        """The per-card figures of player p's city."""
        found = self._full.get(p)
        if found is None:
            found = self._full[p] = self.core([self.city(p)])[0]
        return found

    def all_full(self) -> None:
        """The per-card figures of every city (an audit reads them all), in one pass."""
        missing = [p for p in range(len(self.game.players)) if p not in self._full]
        if missing:
            found = self.core([self.city(p) for p in missing])
            self._full.update(zip(missing, found, strict=True))

    def kept(self, p: int) -> list[ResolvedCard]:
        return [c for c, inside in zip(self.city(p), self.full(p).included, strict=True) if inside]


class _GameScore:
    """One game's rules: its problems, each player's score, the ranking and the audit, over
    its cities' figures; its cards (:class:`_CityCards`) looked at only when needed."""

    __slots__ = ("_judges", "_tests", "cards", "catalog", "core", "extras", "game", "info", "rows")

    def __init__(
        self,
        game: Game,
        extras: ResolvedExtras,
        cards: GameCards,
        catalog: Catalog,
        core: Core,
        rows: CityRows,
        source: bytes | None = None,
    ) -> None:
        self.game = game
        self.info = cards
        self.catalog = catalog
        self.core = core
        self.rows = rows
        #: its requirement and epiphany ids looked up
        self.extras = extras
        #: its cards, resolved and analysed when something needs them
        self.cards = _CityCards(game, catalog, core, source)
        self._tests: list[tuple[str, Test]] | None = None
        self._judges: list[RequirementJudge] | None = None

    def placements(self, p: int) -> list[Placement]:
        """Player p's placements as decoded (a game read lean decoded the exact way)."""
        return self.cards.placements(p)

    def card_problems(self) -> list[Problem]:
        """The problems of resolving the game's cards (unknown ids, undeclared names): of a
        catalog whose styles and types are open, only its ids, found where the packing left
        them (the cities are not decoded again)."""
        catalog = self.catalog
        if catalog.styles is not None or catalog.types is not None:
            return self.cards.card_problems()  # (each inline card's names checked too)
        return [
            unknown_card(card_id, catalog, join(_city_path(p), i, "card"), row, col)
            for card_id, (p, i, row, col) in zip(self.info.ids, self.info.id_places, strict=True)
            if catalog.card(card_id) is None
        ]

    # --- the report ---------------------------------------------------------------------------

    def report(
        self,
        figures: Sequence[ScoreFigures],
        over_box: dict[str, int],
        shown: GameNames | None,
        detail: bool,
    ) -> Report:
        """The game's report, its players scored one by one (a chunk's games' players are
        scored over columns: :class:`_ChunkReports`). `shown`: the game's names (None: the
        batch's names can have no problem)."""
        game = self.game
        n = len(game.players)
        if detail:  # the audit reads every city's per-card figures (the pass lists them)
            self.cards.all_full()
        errors, warnings = self.problems(figures, shown)
        bases = [fig.bases for fig in figures]
        table, source = majority_warnings(game, self.catalog, bases[0], warnings)
        first = self.first_player(warnings)
        thirds = third_stars(game, self.extras.epiphanies)
        most = max([fig.cards for fig in figures], default=0)
        warnings.extend(game_warnings(game, over_box, most, self.extras.requirements, thirds))
        audit: GameAudit | msgspec.UnsetType = msgspec.UNSET
        # D5 across every player, legal or not; each player's score; the ranking
        points, places = base_majority(bases, table)
        majority = _Majority(bases, table, source, points, places)
        recency = first_player_recency(n, first) if first is not None else [None] * n
        city = CityContext((), None, self.catalog)  # each player's in turn
        budget = SearchBudget() if detail else None  # the epiphany searches of the game
        each = [
            self.player(p, figures[p], majority, recency[p], city, errors, detail) for p in range(n)
        ]
        ranked, decided = rank([s.standing for s in each], explained=detail)
        for p, one in enumerate(each):
            one.entry.place = ranked[p]
            if detail:
                ranking = _ranking(ranked[p], decided[p], one.standing)
                assert budget is not None
                one.entry.audit = self.audit(p, one, majority, figures[p], budget, ranking)
        if detail:
            audit = self.game_audit(majority, first)
        entries = [s.entry for s in each]
        d5 = majority_source(game, self.catalog)
        rotated = self.info.rotated
        if rotated:
            rotated = rotated_cards(rotated, rotating_players(game, self.extras.epiphanies))
        return _assembled(
            game, self.catalog, entries, errors, warnings, audit, source=d5, rotated=rotated
        )

    def problems(
        self, figures: Sequence[ScoreFigures], shown: GameNames | None
    ) -> tuple[list[Problem], list[Problem]]:
        """:func:`table_problems` of the game, read from its own rows and figures."""
        illegal = [p for p, fig in enumerate(figures) if not fig.legal]
        empty = [p for p in range(len(figures)) if not self.rows.cards(p)]
        return table_problems(
            self.game,
            self.extras,
            self.info,
            self.catalog,
            illegal=illegal,
            empty=empty,
            shown=shown,
            odd_effects=True,
            score=lambda: self,
            geometry=self.geometry,
        )

    def geometry(self, p: int) -> list[Problem]:
        """`overlap` and `disconnected` of player p's city (an illegal one)."""
        return geometry_problems(_city_path(p), self.rows.placed(p), self.cards.full(p))

    def first_player(self, warnings: list[Problem]) -> int | None:
        """The index of `first_player` (the last tie-breaker), or None."""
        named = self.game.first_player
        if not isinstance(named, str):
            return None
        seat = first_seat(named, [player.name for player in self.game.players])
        if seat is not None:
            return seat
        warnings.append(_unknown_first_player(named))
        return None

    def player(
        self,
        p: int,
        fig: ScoreFigures,
        majority: _Majority,
        recency: int | None,
        city: CityContext,
        errors: list[Problem],
        detail: bool,
    ) -> _Scored:
        """Player p's score (RULES §4a-§4d): requirements and stars, military, epiphanies,
        ten cards, bonuses."""
        game, extras = self.game, self.extras
        player = game.players[p]
        mode = _MODES[game.mode]
        epiphanies = score_epiphanies(player.epiphanies, extras.epiphanies[p], explained=detail)
        if epiphanies.activated_five_point:
            errors.extend(_activated_five_point(p, k) for k in epiphanies.activated_five_point)
        stars: int | None = None
        met: list[str] | None = None
        declared: list[str] | None = None
        requirement_points = 0
        results: list[Any] = []
        if mode.populist:
            met, declared, results = self.requirements_met(p, fig, city, errors, detail)
            stars = player_stars(len(met), epiphanies.stars)
            requirement_points = populist_points(fig, stars)
        mil = Military(*military_points(fig, majority.points[p])) if mode.military else None
        ten = ten_cards_points(fig.cards)
        bonus = sum([b.points for b in player.bonuses]) if player.bonuses else 0
        military = mil.total if mil else 0
        total = player_total(requirement_points, military, epiphanies.points, ten, bonus)
        standing = _new(
            Standing,
            (
                total,
                len(met) if met is not None else None,  # requirements met
                fig.bases if mode.military else None,
                fig.cards,
                fig.cards_3_stars,
                fig.cards_2_stars,
                recency,  # first player
            ),
        )
        entry = PlayerReport(
            player.name,
            True,
            *_shown(fig),
            stars,
            met,
            declared,
            Score(requirement_points, mil, epiphanies.points, ten, bonus, total),
            0,
            [],
            [],
        )
        return _new(_Scored, (entry, standing, results, epiphanies, met))

    def requirements_met(
        self, p: int, fig: ScoreFigures, city: CityContext, errors: list[Problem], detail: bool
    ) -> tuple[list[str], list[str], list[Any]]:
        """The requirement cards player p met (the city judged, or the table's declaration
        read and checked: RULES §4a), those scored as declared, and with `detail` each
        card's result."""
        city.show(functools.partial(self.cards.kept, p), fig)
        results: list[Any] = []
        if detail:
            results = [judge(city) for judge in self.judges()]
            met = [r.id for r in results if r.met]
        else:
            met = [req_id for req_id, test in self.tests() if test(city)]
        if not self.game.declares():
            return met, [], results
        return self.declared(p, city, met, results, errors, detail)

    def declared(
        self,
        p: int,
        city: CityContext,
        met: list[str],
        results: list[RequirementResult],
        errors: list[Problem],
        detail: bool,
    ) -> tuple[list[str], list[str], list[RequirementResult]]:
        """Player p's requirements met with what the table declared (RULES §4a): the cards
        the city cannot judge, as declared (`requirements_declared`); a declared card the
        city does not meet, `requirement_disagrees` (the score follows the city). Returns
        the met ids in play order, those scored as declared, and the audit's results with
        the declared cards' words."""
        ids, specs = self.game.requirement_ids(), self.extras.requirements
        said = declared_requirements(self.game, p, specs)
        if said.checked:  # judged with words, to say what the city shows
            wanted = {req_id for _k, req_id in said.checked}
            judged = results or [
                judge(city)
                for req_id, judge in zip(ids, self.judges(), strict=True)
                if req_id in wanted
            ]
            errors.extend(disagreements(p, said, judged))
        chosen = set(met) | set(said.met)
        if detail:
            results = [
                r if checked(spec) else declared_result(r.id, r.id in said.met)
                for r, spec in zip(results, specs, strict=True)
            ]
        return [i for i in ids if i in chosen], said.met, results

    def judges(self) -> list[RequirementJudge]:
        """The requirement judges of the game (the audit's words), made once."""
        found = self._judges
        if found is None:
            found = self._judges = requirement_judges(
                self.game.requirement_ids(), self.extras.requirements
            )
        return found

    def tests(self) -> list[tuple[str, Test]]:
        """The requirement tests of the game, compiled once."""
        found = self._tests
        if found is None:
            found = self._tests = requirement_tests(
                self.game.requirement_ids(), self.extras.requirements
            )
        return found

    def audit(
        self,
        p: int,
        scored: _Scored,
        majority: _Majority,
        fig: ScoreFigures,
        budget: SearchBudget,
        ranking: AuditRanking,
    ) -> PlayerAudit:
        """How every point of player p came about (the report's audit trail)."""
        player, specs = self.game.players[p], self.extras.epiphanies[p]
        stars = scored.entry.stars
        n = len(self.game.players)
        if specs and any(spec is not None and spec.condition is not None for spec in specs):
            conditions = _epiphany_conditions(
                player.epiphanies, specs, self.cards.kept(p), fig, self.catalog, self.core, budget
            )
        else:
            conditions = [_NO_CONDITION] * len(player.epiphanies)
        advice = (
            third_star_advice(
                player.epiphanies, specs, fig, len(scored.met), scored.epiphanies.stars
            )
            if scored.met is not None
            else []
        )
        full = self.cards.full(p)
        rows, cols, needs, points = self.rows.columns(p, ROW, COL, STARS, POINTS)
        cells = _new(_Cells, (rows, cols))
        military = _MODES[self.game.mode].military
        usual_only = _usual_only(full, needs, self.core)
        return {
            "cards": _card_lines(
                cells, needs, points, full.included, usual_only, stars, city=(p, self.rows)
            ),
            "requirements": [
                {"id": r.id, "met": r.met, "why": r.why, "declared": r.declared}
                for r in scored.results
            ]
            if stars is not None
            else None,
            "stars": _stars(stars, scored.epiphanies.stars),
            "epiphanies": _epiphany_lines(scored.epiphanies, conditions),
            "military": _military_audit(cells, full, majority.places[p] if n > 1 else None)
            if military
            else None,
            "components": full.components,
            "advice": advice,
            "ranking": ranking,
        }

    def game_audit(self, majority: _Majority, first: int | None) -> GameAudit:
        """The game's part of the audit: D5 and the first player."""
        named = self.game.players[first].name if first is not None else None
        if not _MODES[self.game.mode].military:
            return {
                "majority_table": None,
                "majority_table_is_default": None,
                "bases": None,
                "first_player": named,
            }
        return {
            "majority_table": list(majority.table),
            "majority_table_is_default": majority.source == "default",
            "bases": [
                {"player": player.name, "bases": count, "place": place, "points": points}
                for player, count, place, points in zip(
                    self.game.players, majority.bases, majority.places, majority.points, strict=True
                )
            ],
            "first_player": named,
        }
