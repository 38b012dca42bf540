"""The score report (FORMAT §3): RULES §4 over the figures of every city.

The rules read numbers only: the :class:`~neweden.geometry.figures.ScoreFigures` of each city,
computed for all the cities of a batch in one call to the native core for the games read lean
and one for those decoded the exact way (a game alone is a batch of one), or by
:mod:`neweden.geometry.reference` for the twin path the tests compare it with.
The cards themselves are resolved and walked only for what needs them: the messages of
errors and warnings, conditions that filter cards, and the audit trail.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import msgspec

from neweden._gc import collector_paused
from neweden._version import __version__
from neweden.catalog.catalog import (
    BUILTIN,
    Catalog,
    EpiphanySpec,
    RequirementsMemo,
    ResolvedCard,
    ResolvedExtras,
    resolve_city,
    resolve_extras,
    resolve_game,
)
from neweden.format import codes
from neweden.format.decode import GameInput, decode_game_bytes, game_bytes
from neweden.format.lean import LeanGame, decode_lean
from neweden.format.model import EpiphanyEntry, Game, Placement
from neweden.format.modes import MODES as _MODES
from neweden.format.problems import GameDecodeError, Problem, join, pointer_order
from neweden.format.vocabulary import Attribute
from neweden.geometry import reference
from neweden.geometry.compact import (
    COL,
    FLAGS,
    POINTS,
    ROW,
    STARS,
    UNRESOLVED,
    CityRows,
    GameCards,
    PackedGames,
    pack_games,
    pack_table,
)
from neweden.geometry.figures import CityFigures, ScoreFigures
from neweden.geometry.native import JsonGames, analyse_table, score_figures
from neweden.geometry.native import score_games as score_games_natively
from neweden.i18n import _, current, ngettext, speaking
from neweden.rules.advice import third_star_advice
from neweden.rules.conditions import CityContext, Test, evaluate
from neweden.rules.epiphanies import EpiphanyResult, score_epiphanies
from neweden.rules.epiphany_conditions import SearchBudget, disjoint_sets
from neweden.rules.legality import (
    copy_limit,
    copy_limit_problems,
    duplicate_name_problems,
    geometry_problems,
)
from neweden.rules.military import (
    MajoritySource,
    base_majority,
    game_majority_table,
    majority_source,
    military_points,
    shelter_group_points,
)
from neweden.rules.names import GameNames, NamesMemo, batch_quiet, effect_warnings, name_problems
from neweden.rules.ranking import Standing, first_player_recency, first_seat, rank
from neweden.rules.requirements import (
    RequirementJudge,
    RequirementResult,
    card_points,
    cards_points,
    checked,
    declarations_ignored,
    declared_requirements,
    declared_result,
    declared_warning,
    disagreements,
    populist_points,
    requirement_judges,
    requirement_tests,
)
from neweden.rules.ten_cards import ten_cards_points
from neweden.rules.totals import player_stars, player_total
from neweden.rules.warnings import CARDS_PER_STYLE, game_warnings, held_effects
from neweden.scoring.chunk import CHUNK_FROM, ChunkPlayers, chunk_players
from neweden.scoring.table import Ints, fits
from neweden.scoring.types import (
    AuditCard,
    AuditEpiphany,
    AuditMilitary,
    AuditRanking,
    AuditStars,
    Compared,
    GameAudit,
    Military,
    PlayerAudit,
    PlayerReport,
    ProblemItem,
    Report,
    Score,
)

__all__ = [
    "REPORT_FORMAT",
    "Core",
    "lean_game",
    "native_geometry",
    "reference_geometry",
    "score",
    "score_game",
    "score_games",
    "score_inputs",
    "score_packed",
    "score_pictured",
    "score_report",
    "score_reports",
]

REPORT_FORMAT: Final = "new-eden/report@1"

Cities = Sequence[Sequence[ResolvedCard]]


#: Per game (only those with one), the styles with more common cards than the box holds.
OverBox = dict[int, dict[str, int]]

#: Which cities get their per-card figures in the same pass as their score figures.
NO_DETAILS, ILLEGAL_DETAILS, ALL_DETAILS = 0, 1, 2


class GameFigures(NamedTuple):
    """What one pass of the core gives for packed games."""

    #: the ScoreFigures of every city, in order
    figures: list[ScoreFigures]
    #: the styles over the box's count in each game (RULES §1)
    over_box: OverBox
    #: the per-card figures of the cities asked (by city index): the illegal ones, or all
    listed: dict[int, CityFigures]
    #: the figures again as a (cities x fields) array, for the rules over a chunk's columns
    #: (None: not given; the chunk makes it)
    columns: Ints | None = None


@dataclass(frozen=True)
class Core:
    """Where the figures come from: the native core or the reference twin. Called with
    resolved cities, it gives their per-card :class:`CityFigures` (audit trails, error
    messages, pictures)."""

    name: str
    #: the figures of packed games in one pass, with the per-card figures of the cities
    #: asked (NO_DETAILS, ILLEGAL_DETAILS, ALL_DETAILS)
    games: Callable[[PackedGames, Sequence[Game], Catalog, int], GameFigures]
    #: the ScoreFigures of resolved cities
    scores: Callable[[Cities], list[ScoreFigures]]
    figures: Callable[[Cities], list[CityFigures]]
    #: whether it refuses a known card whose star requirement is outside 0-3 (the native
    #: core does; the twin scores what a catalog built in Python gives it)
    stars_checked: bool = False

    def __call__(self, cities: Cities) -> list[CityFigures]:
        return self.figures(cities)


_new = tuple.__new__


def _native_games(
    packed: PackedGames, games: Sequence[Game], catalog: Catalog, details: int = NO_DETAILS
) -> GameFigures:
    # Points are bounded by the decoder (MAX_POINTS a card): every total fits the int32 table.
    columns = _together(len(games), details == ALL_DETAILS, catalog)  # a chunk's figures
    if packed.scores is not None:  # read where it was packed
        figures, over, listed, array = packed.scores(CARDS_PER_STYLE, details, columns)
    else:
        figures, over, listed, array = score_games_natively(
            packed.flat, packed.offsets, packed.first_city, CARDS_PER_STYLE, details, columns
        )
    over_box: OverBox = {}
    for g, style, count in over:
        over_box.setdefault(g, {})[packed.styles[style]] = count
    return GameFigures(figures, over_box, listed, array)


def _together(games: int, detail: bool, catalog: Catalog) -> bool:
    """Whether the native core's batch of `games` has its players scored together over
    columns (:mod:`neweden.scoring.chunk`): a lean batch large enough for the chunk to pay,
    of a catalog whose points int64 columns hold."""
    return not detail and games >= CHUNK_FROM and fits(catalog)


def _reference_games(
    packed: PackedGames, games: Sequence[Game], catalog: Catalog, details: int = NO_DETAILS
) -> GameFigures:
    figures: list[ScoreFigures] = []
    over_box: OverBox = {}
    listed: dict[int, CityFigures] = {}
    for g, game in enumerate(games):
        cities = resolve_game(game, catalog).cities
        for city in cities:
            fig = reference.score_figures(city)
            if details == ALL_DETAILS or (details == ILLEGAL_DETAILS and not fig.legal):
                listed[len(figures)] = reference.analyse_city(city)
            figures.append(fig)
        over = {s: n for s, n in reference.style_counts(cities).items() if n > CARDS_PER_STYLE}
        if over:
            over_box[g] = over
    return GameFigures(figures, over_box, listed)


#: The C++ core: one call for all the cities of a batch.
native_geometry = Core(
    "native",
    _native_games,
    lambda cities: score_figures(*pack_table(cities)),
    lambda cities: analyse_table(*pack_table(cities)),
    stars_checked=True,
)
#: The pure-Python twin (:mod:`neweden.geometry.reference`), city by city.
reference_geometry = Core(
    "reference",
    _reference_games,
    lambda cities: [reference.score_figures(city) for city in cities],
    lambda cities: [reference.analyse_city(city) for city in cities],
)


def score(
    game: GameInput | Game,
    *,
    catalog: Catalog | None = None,
    detail: bool = True,
    lang: str | None = None,
) -> dict[str, Any]:
    """The report of FORMAT §3 for one game (bytes, str, a mapping, or a :class:`Game`
    already decoded by :func:`neweden.decode_game`), as a plain dict; its
    messages in `lang` (``"en"`` or
    ``"pt-BR"``; None: the current language, English unless set). Codes, keys and values are
    the same in every language.

    Raises :class:`neweden.GameDecodeError` when the input is not a readable game (its
    problems in `lang`), and :class:`neweden.i18n.UnknownLanguage` (a ValueError) for a
    language neweden does not speak.
    """
    if lang is None:  # the current language: nothing to set
        return _to_dict(score_report(game, catalog=catalog, detail=detail))
    with speaking(lang):
        return _to_dict(score_report(game, catalog=catalog, detail=detail))


#: The smallest document read lean: below, a game of a card or two, the exact decoder costs
#: as little (measured: docs/benchmarks.md, "Cities read natively").
LEAN_FROM_BYTES = 512


def score_report(
    game: GameInput | Game, *, catalog: Catalog | None = None, detail: bool = True
) -> Report:
    """:func:`score`'s report as a :class:`~neweden.scoring.types.Report` (to encode or read
    by attribute)."""
    if isinstance(game, Game):
        return score_reports([game], catalog=catalog, detail=detail)[0]
    raw = game_bytes(game)  # (a LeanGame is a Game: score_reports refuses it)
    if len(raw) < LEAN_FROM_BYTES:  # (what _score_documents would do, without a packer)
        return score_reports([decode_game_bytes(raw)], catalog=catalog, detail=detail)[0]
    found: Report | GameDecodeError
    (found,) = _score_documents([raw], catalog or BUILTIN, detail, native_geometry)
    if isinstance(found, Exception):
        raise found
    return found


def score_inputs(
    games: Sequence[GameInput],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[Report | GameDecodeError | TypeError]:
    """The report of each document (bytes, str or a mapping), or why it is not a readable
    game: :class:`~neweden.format.decode.GameDecodeError`, or TypeError for an input of
    another kind. A document is read lean where it can be (its cities by the native core,
    :mod:`neweden.format.lean`), the others are decoded the exact way; the same reports
    either way. The cities of all of them go through the core in one pass of each kind."""
    out: list[Any] = [_NOT_YET] * len(games)
    raws: list[bytes] = []
    at: list[int] = []
    for i, game in enumerate(games):
        try:
            raws.append(game_bytes(game))
            at.append(i)
        except (GameDecodeError, TypeError) as err:
            out[i] = err
    found = _score_documents(raws, catalog or BUILTIN, detail, geometry or native_geometry)
    for i, one in zip(at, found, strict=True):
        out[i] = one
    assert _NOT_YET not in out  # every place filled: a report or why there is none
    return out


def _score_documents(
    raws: Sequence[bytes], catalog: Catalog, detail: bool, core: Core
) -> list[Any]:
    """:func:`score_inputs` of documents through :func:`game_bytes` already (a byte-order
    mark taken off once: a second one is not a game's)."""
    out: list[Any] = [_NOT_YET] * len(raws)
    lean_at: list[int] = []  # the index, game and document of each game read lean
    lean: list[Game] = []
    sources: list[bytes | None] = []
    exact_at: list[int] = []  # and of each decoded the exact way
    exact: list[Game] = []
    packer: JsonGames | None = None
    with collector_paused():
        if core is native_geometry:  # the cities packed natively, the rest by msgspec
            packer = JsonGames()
            read_lean = packer.read_many(raws, _lean_from(raws, catalog, detail), decode_lean)
        else:
            read_lean = [None] * len(raws)
        for i, (raw, read) in enumerate(zip(raws, read_lean, strict=True)):
            if read is not None:
                lean_at.append(i)
                lean.append(read)
                sources.append(raw)
                continue
            try:
                exact.append(decode_game_bytes(raw))
                exact_at.append(i)
            except GameDecodeError as err:
                out[i] = err
        if packer is not None and lean:
            packed = packer.packed()
            found = core.games(packed, lean, catalog, ALL_DETAILS if detail else ILLEGAL_DETAILS)
            reports = score_packed(
                lean, packed, found, catalog=catalog, detail=detail, core=core, sources=sources
            )
            for i, report in zip(lean_at, reports, strict=True):
                out[i] = report
        if exact:
            made = score_reports(exact, catalog=catalog, detail=detail, geometry=core)
            for i, report in zip(exact_at, made, strict=True):
                out[i] = report
    assert _NOT_YET not in out  # every place filled
    return out


def lean_game(packer: JsonGames, raw: bytes) -> LeanGame | None:
    """A document read lean: its cities packed by the native core's strict reader, the rest
    (the document with each city given as `[]`) decoded by msgspec; None, nothing packed,
    when either refuses it (decode it the exact way: the same report, or the problem). The
    strict reader reads every byte of the cities and only skips past the rest; msgspec reads
    that rest, so every byte is read once and checked once. (:func:`score_inputs` reads a
    batch so, in one call: :meth:`JsonGames.read_many`.)"""
    return packer.read_many([raw], 0, decode_lean)[0]


def _lean_from(raws: Sequence[bytes], catalog: Catalog, detail: bool) -> int:
    """The smallest document of a batch read lean: LEAN_FROM_BYTES, but any size where the
    games read lean are scored together (a chunk: a small game is dearer alone, the exact
    way, than lean in a chunk)."""
    return 0 if _together(len(raws), detail, catalog) else LEAN_FROM_BYTES


#: A place of score_inputs' answer not filled yet (each is, before it returns).
_NOT_YET: Final = object()


_PLAYER_PATH = re.compile(r"^/players/(\d+)(?:/|$)")


def score_game(
    game: Game,
    *,
    catalog: Catalog | None = None,
    detail: bool = True,
    geometry: Core = native_geometry,
) -> dict[str, Any]:
    """The report of a decoded game, as a plain dict; `geometry` computes each city's
    figures."""
    return _to_dict(score_reports([game], catalog=catalog, detail=detail, geometry=geometry)[0])


def score_games(
    games: Sequence[Game],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[dict[str, Any]]:
    """The reports of many decoded games, as plain dicts (see :func:`score_reports`)."""
    found = score_reports(games, catalog=catalog, detail=detail, geometry=geometry)
    return [_to_dict(report) for report in found]


def _to_dict(report: Report) -> dict[str, Any]:
    """A report as the plain dict `neweden.score` gives (the Struct's fields as keys, in
    order; `audit` only when there). The audit is made of plain dicts and lists already
    (:mod:`neweden.scoring.types`): it is not copied, but set aside while the rest is
    converted and put back in its place, the last key of each player and of the report."""
    audit = report.audit
    if audit is msgspec.UNSET:
        return msgspec.to_builtins(report)  # type: ignore[no-any-return]
    players = report.players
    audits = []
    for player in players:
        audits.append(player.audit)
        player.audit = msgspec.UNSET
    report.audit = msgspec.UNSET
    try:
        out: dict[str, Any] = msgspec.to_builtins(report)
    finally:  # the report as it was
        for player, kept in zip(players, audits, strict=True):
            player.audit = kept
        report.audit = audit
    for entry, kept in zip(out["players"], audits, strict=True):
        if kept is not msgspec.UNSET:
            entry["audit"] = kept
    out["audit"] = audit
    return out


def score_reports(
    games: Sequence[Game],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[Report]:
    """The reports of many decoded games, the cities of all of them packed into one table
    and analysed in one native call: the exact half of :func:`score_inputs`, and the path of
    a :class:`~neweden.format.model.Game` given already decoded (a game alone is a batch of
    one). Raises TypeError for a :class:`~neweden.format.lean.LeanGame` (its cities are
    JSON: score its document)."""
    catalog = catalog or BUILTIN
    core = geometry or native_geometry
    for game in games:  # a loop, not any(): this runs for every game scored
        if game.__class__ is LeanGame:
            raise TypeError("a LeanGame holds its cities as JSON: score its document")
    with collector_paused():
        packed = pack_games(games, catalog)
        found = core.games(packed, games, catalog, ALL_DETAILS if detail else ILLEGAL_DETAILS)
        return score_packed(games, packed, found, catalog=catalog, detail=detail, core=core)


def score_pictured(
    game: Game, *, catalog: Catalog | None = None
) -> tuple[Report, list[CityFigures]]:
    """The lean report of a decoded game and the per-card figures of every city, from one
    pass of the core (what a picture draws)."""
    catalog = catalog or BUILTIN
    with collector_paused():
        packed = pack_games([game], catalog)
        found = native_geometry.games(packed, [game], catalog, ALL_DETAILS)
        (report,) = score_packed([game], packed, found, catalog=catalog, detail=False)
    return report, [found.listed[k] for k in range(len(game.players))]


def score_packed(
    games: Sequence[Game],
    packed: PackedGames,
    found: GameFigures,
    *,
    catalog: Catalog,
    detail: bool,
    core: Core = native_geometry,
    sources: Sequence[bytes | None] | None = None,
) -> list[Report]:
    """RULES §4 over packed games and what one pass of the core found of their cities (the
    rules stage of the pipeline); `core` gives the per-card figures that messages and audit
    trails need when that pass did not list them. `sources`: the document of each game
    decoded lean (:mod:`neweden.format.lean`; None for a game decoded the exact way)."""
    batch = _PackedBatch(games, packed, found, catalog, detail, core, sources)
    together = batch.together
    return [
        together.report(g, batch.quiet)
        if together is not None and not together.chunk.alone[g]
        else batch.alone(g)
        for g in range(len(games))
    ]


class _PackedBatch:
    """A batch of :func:`score_packed`: its names' checks and, when its players are scored
    together, its chunk (`together`)."""

    def __init__(
        self,
        games: Sequence[Game],
        packed: PackedGames,
        found: GameFigures,
        catalog: Catalog,
        detail: bool,
        core: Core,
        sources: Sequence[bytes | None] | None,
    ) -> None:
        self.games, self.packed, self.found = games, packed, found
        self.catalog, self.detail, self.core, self.sources = catalog, detail, core, sources
        self.quiet: NamesMemo = {}  # the batch's name checks
        self.names = _names(packed)
        self.told = len(games) == 1 or not batch_quiet(self.names)
        self.extras: list[ResolvedExtras] | None = None
        self.together: _ChunkReports | None = None
        if core is native_geometry and _together(len(games), detail, catalog):
            memo: RequirementsMemo = {}  # (games repeat a few requirement lists)
            self.extras = [resolve_extras(game, catalog, memo) for game in games]
            figures, columns = found.figures, found.columns
            chunk = chunk_players(games, self.extras, figures, packed.first_city, catalog, columns)
            self.together = _ChunkReports(
                games, self.extras, packed, found, chunk, catalog, sources, self.told
            )

    def alone(self, g: int) -> Report:
        """Game g's report from its own rules (a game not scored in the chunk)."""
        game, packed, found = self.games[g], self.packed, self.found
        first, stop = packed.first_city[g], packed.first_city[g + 1]
        alone = len(self.games) == 1
        shown = _game_names(packed, g, self.names, alone, self.quiet) if self.told else None
        ids = self.extras[g] if self.extras is not None else resolve_extras(game, self.catalog)
        score = _game_score(
            packed, g, game, ids, self.catalog, self.core, self.sources, found.listed
        )
        box = found.over_box.get(g, {})
        return score.report(found.figures[first:stop], box, shown, alone, self.detail)


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
        score.known({p: listed[k] for p, k in enumerate(range(first, stop)) if k in listed})
    return score


class _ChunkReports:
    """The lean reports of a chunk's games whose players were scored over columns
    (:func:`~neweden.scoring.chunk.chunk_players`): each game's problems told by the same
    functions as :meth:`_GameScore.report`, in the same order, but each looked for in what
    the chunk found (its facts, the packed rows) and told only where there is one; a game's
    cards (its :class:`_GameScore`) are looked at only when a card rule speaks of them."""

    def __init__(
        self,
        games: Sequence[Game],
        extras: Sequence[ResolvedExtras],
        packed: PackedGames,
        found: GameFigures,
        chunk: ChunkPlayers,
        catalog: Catalog,
        sources: Sequence[bytes | None] | None,
        told: bool,
    ) -> None:
        self.games, self.extras, self.packed, self.chunk = games, extras, packed, chunk
        self.figures, self.over_box, self.listed, _columns = found
        self.catalog, self.sources = catalog, sources
        self.told = told  # a game's names may have a problem
        self.names = _names(packed)
        self.alone = len(games) == 1
        self._majority: dict[tuple[str, int, int], tuple[Problem, ...]] = {}
        # the few games a rule of the whole city speaks of, found once for the chunk: the
        # players of each game whose city is illegal, or empty; the cities with an epiphany
        # declared activated with 5 points; the games with an effect no rule knows
        facts, offsets = chunk.told, packed.offsets
        self.illegal = _players_of(
            packed.first_city, [k for k, f in enumerate(self.figures) if not f.legal]
        )
        self.empty = _players_of(
            packed.first_city, [k for k in range(len(offsets) - 1) if offsets[k] == offsets[k + 1]]
        )
        self.five_point = _players_of(
            packed.first_city, [k for k, five in enumerate(facts.five_point) if five]
        )
        self.odd_effect = _players_of(
            packed.first_city, [k for k, odd in enumerate(facts.odd_effect) if odd]
        )

    def majority(self, game: Game, first_bases: int) -> tuple[Problem, ...]:
        """:func:`majority_warnings` of a game: the same for every game of a mode, a number
        of players and (with one player) of bases, so told once a chunk for each."""
        n = len(game.players)
        key = (game.mode, n, first_bases if n == 1 else 0)
        told = self._majority.get(key)
        if told is None:
            found: list[Problem] = []
            majority_warnings(game, self.catalog, first_bases, found)
            told = self._majority[key] = tuple(found)
        return told

    def score(self, g: int) -> _GameScore:
        """Game g's rules with its cards (a card rule speaks of them)."""
        game, extras, catalog = self.games[g], self.extras[g], self.catalog
        return _game_score(
            self.packed, g, game, extras, catalog, native_geometry, self.sources, self.listed
        )

    def geometry(self, g: int, first: int, p: int) -> list[Problem]:
        """`overlap` and `disconnected` of game g's player p's city (an illegal one; `first`:
        the game's first city), from its per-card figures the chunk's pass listed."""
        found = self.listed.get(first + p)
        if found is None:  # not listed (a pass that lists none): the game's rules find them
            return self.score(g).geometry(p)
        rows = CityRows(self.packed.flat, self.packed.offsets, first)
        return geometry_problems(_city_path(p), rows.of(p), found)

    def report(self, g: int, quiet: NamesMemo) -> Report:
        errors, warnings = self.problems(g, quiet)
        first, stop = self.packed.first_city[g], self.packed.first_city[g + 1]
        players: list[PlayerReport] = self.chunk.entries[first:stop]  # type: ignore[assignment]
        return _assembled(self.games[g], self.catalog, players, errors, warnings, msgspec.UNSET)

    def problems(self, g: int, quiet: NamesMemo) -> tuple[list[Problem], list[Problem]]:
        """Game g's errors and warnings, in the order the rules tell them."""
        game, extras, facts, packed = self.games[g], self.extras[g], self.chunk.told, self.packed
        first = packed.first_city[g]
        info = packed.cards[g]
        shown = _game_names(packed, g, self.names, self.alone, quiet) if self.told else None
        errors, warnings = table_problems(
            game,
            extras,
            info,
            self.catalog,
            self.illegal.get(g, ()),
            self.empty.get(g, ()),
            shown,
            g in self.odd_effect,
            lambda: self.score(g),
            lambda p: self.geometry(g, first, p),
        )
        warnings.extend(self.majority(game, self.figures[first].bases))
        if isinstance(game.first_player, str) and facts.first[g] < 0:
            warnings.append(_unknown_first_player(game.first_player))
        rotated = info.rotated
        # what game_warnings reads of the rotated cards and the 1/3 stars, made only where
        # it reads them (a game with a rotated card left to look at; one without stars)
        rotates: Callable[[int], bool] = _unread
        cell: Callable[[int, int], tuple[int, int]] = _unread
        thirds: Callable[[int], Sequence[int]] = _unread
        if rotated:
            rotates = lambda p: facts.rotates[first + p]  # noqa: E731
            cell = CityRows(packed.flat, packed.offsets, first).cell
        if not _MODES[game.mode].populist:
            thirds = lambda p: facts.thirds[first + p]  # noqa: E731
        warnings.extend(
            game_warnings(
                game,
                self.over_box.get(g, _NO_COUNTS),
                facts.most_cards[g],
                rotated,
                extras.requirements,
                rotates,
                thirds,
                cell,
                self.alone,
            )
        )
        for p in self.five_point.get(g, ()):
            errors.extend([_activated_five_point(p, k) for k in facts.five_point[first + p]])
        return errors, warnings


def _players_of(first_city: Sequence[int], cities: Sequence[int]) -> dict[int, list[int]]:
    """The players, game by game, whose cities are `cities` (indices in the table, in
    order; `first_city`: each game's first, one more at the end)."""
    found: dict[int, list[int]] = {}
    for k in cities:
        g = bisect.bisect_right(first_city, k) - 1
        found.setdefault(g, []).append(k - first_city[g])
    return found


_NO_COUNTS: Final[dict[str, int]] = {}


def _unread(*args: int) -> Any:
    """What game_warnings is given for what it does not read of a game (see problems)."""
    raise AssertionError("game_warnings read what a chunk's game did not give it")


def table_problems(
    game: Game,
    extras: ResolvedExtras,
    info: GameCards,
    catalog: Catalog,
    illegal: Sequence[int],
    empty: Sequence[int],
    shown: GameNames | None,
    odd_effects: bool,
    score: Callable[[], _GameScore],
    geometry: Callable[[int], list[Problem]],
) -> tuple[list[Problem], list[Problem]]:
    """The errors and warnings of a game's cards, cities and names (the rest of the table's
    warnings come after D5's and the first player's), each looked for first in what the
    packing and the core found: `illegal`, the players whose city is illegal; `empty`,
    those whose city has no card; `shown`, the
    game's names (None: the batch's names can have no problem); `odd_effects`, an epiphany
    may have an effect no rule knows; `geometry(p)`, city p's overlap and disconnected (an
    illegal one); `score()`, the game's rules with its cards (unknown ids, names a catalog
    does not declare, copies over the limit)."""
    errors: list[Problem] = list(extras.problems)
    if info.unresolved or catalog.styles is not None or catalog.types is not None:
        errors.extend(score().card_problems())  # unknown ids, undeclared styles or types
    for p in illegal:
        errors.extend(geometry(p))
    if info.ids and _over_copies(info.ids, catalog, len(game.players)):
        errors.extend(score().copies())
    warnings = [_empty_city_warning(p, game.players[p].name) for p in empty]
    errors.extend(duplicate_name_problems(game))
    if shown is not None:
        cities = [p.city for p in game.players] if info.ids else None  # (cards by id)
        name_errors, name_warnings = name_problems(
            [p.name for p in game.players], shown, catalog=catalog, cities=cities
        )
        errors.extend(name_errors)
        warnings.extend(name_warnings)
    if odd_effects:
        warnings.extend(effect_warnings(game, extras.epiphanies, catalog))
    if not _MODES[game.mode].populist:
        if game.requirement_ids():
            warnings.append(_requirements_ignored(current()))
        warnings.extend(declarations_ignored(game))
    elif (said := declared_warning(game, extras.requirements)) is not None:
        warnings.append(said)
    return errors, warnings


def majority_warnings(
    game: Game, catalog: Catalog, first_bases: int, warnings: list[Problem]
) -> tuple[tuple[int, ...], MajoritySource]:
    """D5's warnings (one player's bases: `first_bases`, the first player's; the default
    table), and its table for the game (the game's own, the catalog's or the default) with
    where it comes from."""
    n = len(game.players)
    table, source = game_majority_table(game, catalog)
    military = _MODES[game.mode].military
    if military and n == 1 and first_bases > 0:
        warnings.append(
            Problem(
                code=codes.ONE_PLAYER_BASES,
                message=ngettext(
                    "with one player, the {n} military base(s) have no majority to win and score 0",
                    "with one player, the {n} military base(s) have no majority to win and score 0",
                    first_bases,
                ),
                path=join("", "players", 0),
            )
        )
    elif military and n > 1 and source == "default":
        warnings.append(_default_table_warning(n, table, current()))
    return table, source


def _unknown_first_player(named: str) -> Problem:
    return Problem(
        code=codes.UNKNOWN_FIRST_PLAYER,
        message=_(
            'first_player "{named}" is not a player of this game; the last tie-breaker is skipped',
            named=named,
        ),
        path="/first_player",
    )


def _assembled(
    game: Game,
    catalog: Catalog,
    players: list[PlayerReport],
    errors: list[Problem],
    warnings: list[Problem],
    audit: GameAudit | msgspec.UnsetType,
) -> Report:
    """The report: each problem placed (under its player, or at the top level)."""
    top_errors, top_warnings = _place_problems(players, errors, warnings)
    return Report(
        REPORT_FORMAT,
        __version__,
        catalog.name,
        not errors,
        game.mode,
        majority_source(game, catalog),
        game.meta if isinstance(game.meta, dict) else None,
        players,
        top_errors,
        top_warnings,
        audit,
    )


def _over_copies(ids: Sequence[str], catalog: Catalog, players: int) -> bool:
    """Whether some catalog id appears more often than a game may show (RULES §1)."""
    if len(set(ids)) == len(ids):
        return False  # every card at least once in the box
    return any(
        count > copy_limit(spec, players)
        for card_id, count in Counter(ids).items()
        if (spec := catalog.card(card_id)) is not None
    )


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


class _GameScore:
    """One game's rules. The resolved cards and their per-card figures are made only
    when something needs them (a problem to tell, a filtering condition, the audit); the
    per-card figures of illegal cities (and of all for an audit) come with the score
    figures, from the same pass of the core."""

    __slots__ = (
        "_card_problems",
        "_cities",
        "_exact",
        "_full",
        "_judges",
        "_tests",
        "catalog",
        "core",
        "extras",
        "game",
        "info",
        "rows",
        "source",
    )

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
        #: the document of a game decoded lean (its cities as JSON), decoded again the exact
        #: way the first time a rule needs its cards
        self.source = source
        self.info = cards
        self.catalog = catalog
        self.core = core
        self.rows = rows
        #: its requirement and epiphany ids looked up
        self.extras = extras
        self._cities: dict[int, list[ResolvedCard]] = {}
        self._card_problems: dict[int, list[Problem]] = {}
        self._full: dict[int, CityFigures] = {}
        self._tests: list[tuple[str, Test]] | None = None
        self._exact: Game | None = None if source is not None else game
        self._judges: list[RequirementJudge] | None = None

    # --- cards and figures, when needed ---------------------------------------------------

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

    def kept(self, p: int) -> list[ResolvedCard]:
        return [c for c, inside in zip(self.city(p), self.full(p).included, strict=True) if inside]

    # --- the report ---------------------------------------------------------------------------

    def report(
        self,
        figures: Sequence[ScoreFigures],
        over_box: dict[str, int],
        shown: GameNames | None,
        alone: bool,
        detail: bool,
    ) -> Report:
        """The game's report, its players scored one by one (a chunk's games' players are
        scored over columns: :class:`_ChunkReports`). `shown`: the game's names (None: the
        batch's names can have no problem); `alone`: the game is scored alone, not in a
        batch."""
        game = self.game
        n = len(game.players)
        if detail:  # the audit reads every city's per-card figures (the pass lists them)
            missing = [p for p in range(n) if p not in self._full]
            if missing:
                found = self.core([self.city(p) for p in missing])
                self._full.update(zip(missing, found, strict=True))
        errors, warnings = self.problems(figures, shown)
        bases = [fig.bases for fig in figures]
        table, source = majority_warnings(game, self.catalog, bases[0], warnings)
        first = self.first_player(warnings)
        warnings.extend(
            game_warnings(
                game,
                over_box,
                max([fig.cards for fig in figures], default=0),
                self.info.rotated,
                self.extras.requirements,
                *held_effects(game, self.extras.epiphanies),
                self.rows.cell,
                alone,
            )
        )
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
        return _assembled(game, self.catalog, [s.entry for s in each], errors, warnings, audit)

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
            illegal,
            empty,
            shown,
            True,
            lambda: self,
            self.geometry,
        )

    def geometry(self, p: int) -> list[Problem]:
        """`overlap` and `disconnected` of player p's city (an illegal one)."""
        return geometry_problems(_city_path(p), self.rows.of(p), self.full(p))

    def copies(self) -> list[Problem]:
        """`copy_limit`: catalog cards shown more often than the game may."""
        n = len(self.game.players)
        return copy_limit_problems(self.cities(), [_city_path(p) for p in range(n)], n)

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
            city.show(functools.partial(self.kept, p), fig)
            if detail:
                results = [judge(city) for judge in self.judges()]
                met = [r.id for r in results if r.met]
            else:
                met = [req_id for req_id, test in self.tests() if test(city)]
            declared = []
            if game.declares():  # RULES §4a: what the table declared, read and checked
                met, declared, results = self.declared(p, city, met, results, errors, detail)
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
            fig.cards,
            fig.open_connections,
            stars,
            met,
            declared,
            Score(requirement_points, mil, epiphanies.points, ten, bonus, total),
            0,
            [],
            [],
        )
        return _new(_Scored, (entry, standing, results, epiphanies, met))

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
                player.epiphanies, specs, self.kept(p), fig, self.catalog, self.core, budget
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
        full = self.full(p)
        rows, cols, needs, points = self.rows.columns(p, ROW, COL, STARS, POINTS)
        cells = _new(_Cells, (rows, cols))
        military = _MODES[self.game.mode].military
        usual_only = _usual_only(full, needs, self.core)
        return {
            "cards": _card_lines(
                cells, needs, points, full.included, usual_only, stars, p, self.rows
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


#: Whether the final city meets an epiphany's condition, and whether identical ones can each
#: have their own cards (None, None: no known condition).
_Condition = tuple[bool | None, str | None]
_NO_CONDITION: _Condition = (None, None)


@functools.cache
def _requirements_ignored(lang: str) -> Problem:
    """The warning that a military game's requirement cards are ignored (one Problem per
    language: problems are immutable)."""
    return Problem(
        code=codes.REQUIREMENTS_IGNORED,
        message=_("a military game scores no requirement cards; `requirements` is ignored"),
        path="/requirements",
    )


def _empty_city_warning(p: int, name: str) -> Problem:
    return Problem(
        code=codes.EMPTY_CITY,
        message=_("{name} has no card in the city; it is legal and scores nothing", name=name),
        path=_city_path(p),
    )


def _activated_five_point(p: int, k: int) -> Problem:
    return Problem(
        code=codes.ACTIVATED_FIVE_POINT,
        message=_(
            "epiphany {k} is worth 5 points and cannot be activated; declared activated, it "
            "scores 0",
            k=k,
        ),
        path=f"/players/{p}/epiphanies/{k}",
    )


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


@functools.cache
def _default_table_warning(players: int, table: tuple[int, ...], lang: str) -> Problem:
    """The warning that the D5 table is the built-in default (one Problem per player count
    and language, made in that language: problems are immutable)."""
    return Problem(
        code=codes.DEFAULT_MAJORITY_TABLE,
        message=_(
            "the D5 majority table for {players} players is the built-in default {table}, not "
            "the printed card; give the card's values as the game's \"majority_table\" (for "
            'example "majority_table": {table}) or in a catalog',
            players=players,
            table=list(table),
        ),
        path="",
    )


def _city_path(p: int) -> str:
    return f"/players/{p}/city"


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


def _place_problems(
    players: list[PlayerReport], errors: list[Problem], warnings: list[Problem]
) -> tuple[list[ProblemItem], list[ProblemItem]]:
    """Each problem once: under players[i] when its path starts with /players/i, otherwise
    at the top level; in document order. A player is illegal exactly when one of their
    errors points into their city."""
    top: tuple[list[ProblemItem], list[ProblemItem]] = ([], [])
    for kind, problems in enumerate((errors, warnings)):
        if not problems:
            continue
        placed = [(*_place(problem.path), problem) for problem in problems]
        if len(placed) > 1:
            placed.sort(key=_document_order)  # stable: one path's problems as found
        for _order, p, in_city, problem in placed:
            cells = list(map(list, problem.cells)) if problem.cells else []
            item = ProblemItem(problem.code, problem.message, problem.path, cells)
            if p is None:
                top[kind].append(item)
                continue
            player = players[p]
            (player.errors if kind == 0 else player.warnings).append(item)
            if kind == 0 and in_city:
                player.legal = False
    return top


#: A problem's path: its place in the document, the player it points into (None: none),
#: whether it points into that player's city.
_Placed = tuple[tuple[tuple[int, int | str], ...], int | None, bool]


@functools.lru_cache(maxsize=4096)
def _place(path: str) -> _Placed:
    """Where a problem goes (the same paths recur from game to game: each is read once)."""
    match = _PLAYER_PATH.match(path)
    if match is None:
        return pointer_order(path), None, False
    p = int(match.group(1))
    return pointer_order(path), p, path.startswith(_city_path(p))


#: A problem placed, (order, player, in city, problem), by the order of its path in the
#: document.
_document_order = operator.itemgetter(0)


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
        return _("activated: needs {need} star(s), the player has {stars}", need=need, stars=stars)
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
    p: int,
    table: CityRows,
) -> list[AuditCard]:
    """The audit's line of each card of city p of `table` (its cells, star requirements and
    points given). In most cities every card is known and kept, with a star requirement of
    0-3 (`usual_only`): their sentences are looked up by that requirement, their lines made
    in one go; any other city's card by card (:func:`_card_line`)."""
    lang = current()
    if not usual_only:
        (flags,) = table.columns(p, FLAGS)
        return [
            _card_line(i, cells(i), flags[i], needs[i], points[i], inside, stars, lang)
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
