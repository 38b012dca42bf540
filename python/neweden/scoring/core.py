"""The geometry stage of scoring: which core computes the figures of a batch's cities (the
native one, or the pure-Python twin the tests compare it with), in one pass."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from neweden.catalog.catalog import (
    Catalog,
    ResolvedCard,
    resolve_game,
)
from neweden.format.model import Game
from neweden.geometry import reference
from neweden.geometry.compact import (
    PackedGames,
    pack_table,
)
from neweden.geometry.figures import CityFigures, ScoreFigures
from neweden.geometry.native import TableFigures, analyse_table, score_figures
from neweden.geometry.native import score_games as score_games_natively
from neweden.rules.warnings import CARDS_PER_STYLE
from neweden.scoring import chunk
from neweden.scoring.table import Ints, fits

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
        found = packed.scores(CARDS_PER_STYLE, details, columns)
    else:
        found = score_games_natively(
            packed.flat, packed.offsets, packed.first_city, CARDS_PER_STYLE, details, columns
        )
    return native_found(packed, found)


def native_found(packed: PackedGames, found: TableFigures) -> GameFigures:
    """The GameFigures of the native core's pass over `packed` (the styles over the box
    named)."""
    figures, over, listed, array = found
    over_box: OverBox = {}
    styles: Sequence[Any] = packed.styles  # (a catalog built in Python may give a style None)
    for g, style, count in over:
        over_box.setdefault(g, {})[styles[style]] = count
    return GameFigures(figures, over_box, listed, array)


def _together(games: int, detail: bool, catalog: Catalog) -> bool:
    """Whether the native core's batch of `games` has its players scored together over
    columns (:mod:`neweden.scoring.chunk`): a lean batch large enough for the chunk to pay,
    of a catalog whose points int64 columns hold."""
    return not detail and games >= chunk.CHUNK_FROM and fits(catalog)


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
