"""The players' scores of a chunk of games at once: RULES §4 over the columns of
their figures, by the same functions as :func:`neweden.score_table`
(:func:`~neweden.scoring.table.table_scores`, :func:`~neweden.scoring.table.epiphany_points`),
for the lean reports of a batch.

A game's report is the same whether its players are scored here or alone
(:meth:`neweden.scoring.game_score._GameScore.player`): the corpus,
`tests/scoring/test_chunk.py` and `tests/scoring/test_chunk_attack.py` hold them equal. What
is read entry by entry is what the columns are made of: each epiphany's points, state and
effect (and those declared activated with 5 points, an error each), the bonuses, and which
requirements each city meets, by name. A requirement whose condition looks at the cards
themselves (a catalog's filtering condition) is not read from columns: the games that play
it are scored alone; so are the batches of a catalog whose points int64 columns cannot hold
(:func:`~neweden.scoring.table.fits`).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from msgspec import UNSET

from neweden.catalog.catalog import Catalog, EpiphanySpec, ResolvedExtras
from neweden.format.model import EpiphanyEntry, Game
from neweden.format.modes import MODES
from neweden.geometry.figures import ScoreFigures
from neweden.rules.epiphanies import THIRD_STAR
from neweden.rules.military import military_points
from neweden.rules.names import known_effects
from neweden.rules.ranking import first_seat
from neweden.rules.requirements import testable
from neweden.rules.warnings import ROTATE, activated_with
from neweden.scoring.table import (
    EPIPHANY_STATES,
    Epiphanies,
    FigureColumns,
    Ints,
    Layout,
    PlayerColumns,
    TableScores,
    epiphany_points,
    requirement_truth,
    table_scores,
)
from neweden.scoring.types import (
    CITY_FIGURES_SHOWN,
    Military,
    PlayerReport,
    Score,
    ShownFigures,
)

__all__ = ["CHUNK_FROM", "ChunkFacts", "ChunkPlayers", "chunk_players"]

#: The fewest games scored as a chunk: below, the chunk's fixed cost (its numpy calls)
#: outweighs what it saves a game, and a game alone is scored alone (bench/test_bench_chunk.py
#: measures it: docs/benchmarks.md).
CHUNK_FROM = 16


class ChunkPlayers(NamedTuple):
    """The players of a chunk's games scored from columns, by city (the table's order)."""

    #: by game, whether it is scored alone (a requirement of it reads the cards)
    alone: list[bool]
    #: each player's report entry, every field but problems set (place included), or None
    #: for the cities of a game scored alone
    entries: list[PlayerReport | None]
    #: what the table's problems need, found with the columns (scoring/report.py tells
    #: them game by game, only where there is one to tell)
    told: ChunkFacts


class ChunkFacts(NamedTuple):
    """What a chunk's games' problems need, read while gathering the columns: by city,
    whether the player activated a rotate effect, the indices of their epiphanies activated
    for 1/3 star and of those declared activated with 5 points (an error each), whether an
    epiphany has an effect no rule and no catalog knows; by game, the seat of the named
    first player (-1: none, or not a player) and the most cards kept in one city."""

    rotates: list[bool]
    thirds: list[tuple[int, ...]]
    five_point: list[tuple[int, ...]]
    odd_effect: list[bool]
    first: list[int]
    most_cards: list[int]


def chunk_players(
    games: Sequence[Game],
    extras: Sequence[ResolvedExtras],
    figures: Sequence[ScoreFigures],
    first_city: Sequence[int],
    catalog: Catalog,
    columns: Ints | None = None,
) -> ChunkPlayers:
    """Every player's entry of the lean reports of `games` (their cities' figures in the
    table's order, game g's from ``first_city[g]``; `columns`: the same figures as a
    (cities x fields) array, when the core gave them so)."""
    cities = len(figures)
    read = _read_entries(games, extras, cities, catalog)
    populist, military, bonus, epiphanies, first, plays, conditions = read
    epi_points, epi_stars = epiphany_points(epiphanies.columns(), cities)
    if columns is None:
        columns = np.array(figures, dtype=np.int64).reshape(cities, len(ScoreFigures._fields))
    fig = FigureColumns(columns)
    truth, alone = _truths(conditions, fig, catalog)
    met_ids, met = _met(plays, first_city, truth)
    layout = Layout.of(first_city)
    game_of = layout.game_of
    columns_read = PlayerColumns(
        np.array(populist, dtype=np.int64)[game_of],
        np.array(military, dtype=np.int64)[game_of],
        np.array(met, dtype=np.int64),
        epi_points,
        epi_stars,
        np.array(bonus, dtype=np.int64),
    )
    scores = table_scores(fig, layout, columns_read, np.array(first, dtype=np.int64), catalog)
    points: Any = military_points  # (over columns: its annotations speak of one city's ints)
    parts: Sequence[Any] = points(fig, scores.bases_points)
    scored_alone = _scored_alone(games, alone)
    most = np.maximum.reduceat(fig.cards, np.asarray(first_city[:-1], dtype=np.intp))
    facts = ChunkFacts(
        epiphanies.rotates, epiphanies.thirds, epiphanies.five, epiphanies.odd, first, most.tolist()
    )
    entries = _entries(games, first_city, scored_alone, fig, scores, parts, met_ids)
    return ChunkPlayers(scored_alone, entries, facts)


_FIRST = operator.itemgetter(0)
#: An epiphany's state as Epiphanies.state numbers it.
_STATE = {state: k for k, state in enumerate(EPIPHANY_STATES)}
_HELD, _ACTIVATED = _STATE["held"], _STATE["activated"]


class _EpiphanyColumns:
    """The epiphanies of a chunk's players gathered into columns, entry by entry in the
    order each player lists them; and by city, the entries declared activated with 5 points,
    with the rotate effect and for 1/3 star, and whether one has an effect not `known`."""

    __slots__ = (
        "cities",
        "five",
        "known",
        "odd",
        "owner",
        "points",
        "rotates",
        "state",
        "third",
        "thirds",
    )

    def __init__(self, cities: int, known: tuple[str, ...]) -> None:
        self.cities = cities
        self.known = known
        self.owner: list[int] = []
        self.points: list[int] = []
        self.state: list[int] = []
        self.third: list[bool] = []
        #: each player's epiphanies declared activated with 5 points (an error each)
        self.five: list[tuple[int, ...]] = [()] * cities
        self.rotates = [False] * cities
        self.thirds: list[tuple[int, ...]] = [()] * cities
        self.odd = [False] * cities

    def add(
        self, k: int, entries: Sequence[EpiphanyEntry], specs: Sequence[EpiphanySpec | None]
    ) -> None:
        """City k's epiphanies: an unknown id as held (it scores nothing, gives no icon)."""
        five, thirds = [], []
        for i, (entry, spec) in enumerate(zip(entries, specs, strict=True)):
            self.owner.append(k)
            if spec is None:
                self.points.append(0)
                self.state.append(_HELD)
                self.third.append(False)
                continue
            state = _STATE[entry.state]
            effect = spec.effect
            if state == _ACTIVATED:
                if spec.points == 5:
                    five.append(i)
                if activated_with(entry, spec, ROTATE):
                    self.rotates[k] = True
                elif activated_with(entry, spec, THIRD_STAR):
                    thirds.append(i)
            if effect is not None and effect not in self.known:
                self.odd[k] = True
            self.points.append(spec.points)
            self.state.append(state)
            self.third.append(effect == THIRD_STAR)
        if five:
            self.five[k] = tuple(five)
        if thirds:
            self.thirds[k] = tuple(thirds)

    def columns(self) -> Epiphanies:
        counts = np.bincount(np.array(self.owner, dtype=np.int64), minlength=self.cities)
        return Epiphanies(
            np.concatenate(([0], np.cumsum(counts))),
            np.array(self.points, dtype=np.int64),
            np.array(self.state, dtype=np.int64),
            np.array(self.third, dtype=bool),
        )


class _EntriesRead(NamedTuple):
    """What a chunk's games give their columns, read entry by entry: by game, whether it
    plays the Populist and the Military parts, the seat of its first player (-1: none) and
    the requirements it tests; by city, the bonuses and the epiphanies; each condition
    tested, by requirement id."""

    populist: list[int]
    military: list[int]
    bonus: list[int]
    epiphanies: _EpiphanyColumns
    first: list[int]
    plays: list[tuple[str, ...]]
    conditions: dict[str, object]


def _read_entries(
    games: Sequence[Game], extras: Sequence[ResolvedExtras], cities: int, catalog: Catalog
) -> _EntriesRead:
    """:class:`_EntriesRead` of a chunk's games."""
    read = _EntriesRead(
        [0] * len(games),
        [0] * len(games),
        [0] * cities,
        _EpiphanyColumns(cities, known_effects(catalog)),
        [-1] * len(games),
        [()] * len(games),
        {},
    )
    populist, military, bonus, epiphanies, first, plays, conditions = read  # (locals: fast)
    seen: dict[tuple[str, ...], tuple[str, ...]] = {}  # the chunk's requirement lists
    k = 0
    for g, (game, found) in enumerate(zip(games, extras, strict=True)):
        mode = MODES[game.mode]
        populist[g], military[g] = mode.populist, mode.military
        if isinstance(game.first_player, str):  # (not given: UNSET)
            seat = first_seat(game.first_player, [player.name for player in game.players])
            first[g] = -1 if seat is None else seat
        if mode.populist and found.requirements:
            ids = tuple(game.requirement_ids())  # games repeat a few lists: each tested once
            tested = seen.get(ids)
            if tested is None:
                tested = seen[ids] = _tested(game, found, conditions)
            plays[g] = tested
        for p, player in enumerate(game.players):
            if player.epiphanies:
                epiphanies.add(k, player.epiphanies, found.epiphanies[p])
            if player.bonuses:
                bonus[k] = sum([b.points for b in player.bonuses])
            k += 1
    return read


def _tested(game: Game, found: ResolvedExtras, conditions: dict[str, object]) -> tuple[str, ...]:
    """The ids of a game's requirements that can be met, in play order; their conditions
    added to those tested."""
    tested = testable(game.requirement_ids(), found.requirements)
    for req_id, spec in tested:
        conditions.setdefault(req_id, spec.condition)
    return tuple(map(_FIRST, tested))


def _truths(
    conditions: dict[str, object], fig: FigureColumns, catalog: Catalog
) -> tuple[dict[str, Ints], set[str]]:
    """Each condition's truth a city (1 or 0), and the ids whose condition reads the cards."""
    truth: dict[str, Ints] = {}
    alone: set[str] = set()
    for req_id, condition in conditions.items():
        try:
            truth[req_id] = requirement_truth(req_id, condition, fig, catalog)
        except ValueError:  # it looks at the cards: its games are scored alone
            alone.add(req_id)
    return truth, alone


#: The most requirements of one game whose met subsets are listed ahead (2**n lists); a game
#: playing more is read city by city.
_LISTED_AHEAD = 6


def _met(
    plays: Sequence[tuple[str, ...]], first_city: Sequence[int], truth: dict[str, Ints]
) -> tuple[list[list[str] | None], list[int]]:
    """The ids each city meets, in play order, and how many (None and 0 where its game tests
    none). An id without a truth, whose condition reads the cards, counts as not met: its
    games are scored alone. The cities of the games playing one list are read at once: which
    of its ids each meets as the bits of a number, each number's ids listed once (one list
    shared by those cities: make a copy to hand one out)."""
    cities = first_city[-1]
    ids: list[list[str] | None] = [None] * cities
    count = [0] * cities
    games: dict[tuple[str, ...], list[int]] = {}  # the games playing each list
    for g, tested in enumerate(plays):
        if tested:
            games.setdefault(tested, []).append(g)
    for tested, playing in games.items():
        if len(tested) > _LISTED_AHEAD:
            for g in playing:
                for k in range(first_city[g], first_city[g + 1]):
                    met = [i for i in tested if (t := truth.get(i)) is not None and t[k]]
                    ids[k], count[k] = met, len(met)
            continue
        bits = np.zeros(cities, dtype=np.int64)
        for j, req_id in enumerate(tested):
            column = truth.get(req_id)
            if column is not None:
                bits |= (column != 0).astype(np.int64) << j
        subsets = [[i for j, i in enumerate(tested) if m >> j & 1] for m in range(1 << len(tested))]
        sizes = [len(subset) for subset in subsets]
        each = bits.tolist()
        for g in playing:
            for k in range(first_city[g], first_city[g + 1]):
                m = each[k]
                ids[k], count[k] = subsets[m], sizes[m]
    return ids, count


def _scored_alone(games: Sequence[Game], alone: set[str]) -> list[bool]:
    """By game, whether its report is made alone: it plays a requirement whose condition
    reads the cards (`alone`), its players declare the requirements they met, or it gives
    its own D5 table (the columns hold neither)."""
    return [
        (bool(alone) and MODES[game.mode].populist and not alone.isdisjoint(game.requirement_ids()))
        or game.majority_table is not UNSET
        or game.declares()
        for game in games
    ]


def _entries(
    games: Sequence[Game],
    first_city: Sequence[int],
    scored_alone: list[bool],
    fig: FigureColumns,
    scores: TableScores,
    parts: Sequence[Any],
    met_ids: list[list[str] | None],
) -> list[PlayerReport | None]:
    """Each city's report entry (None for the games scored alone), from the columns as
    Python ints (read once each): the figures it shows (CITY_FIGURES_SHOWN), its scores."""
    s = scores
    columns = [getattr(fig, name).tolist() for name in CITY_FIGURES_SHOWN]
    shown: list[ShownFigures] = list(zip(*columns, strict=True))  # by city
    stars, requirements = s.stars.tolist(), s.requirements.tolist()
    epiphanies = s.epiphanies.tolist()
    ten, bonuses, total, place = (
        s.ten_cards.tolist(),
        s.bonuses.tolist(),
        s.total.tolist(),
        s.place.tolist(),
    )
    labs, shelters, medical, towers, bases, military = [part.tolist() for part in parts]
    out: list[PlayerReport | None] = [None] * len(shown)
    for g, game in enumerate(games):
        if scored_alone[g]:
            continue
        mode = MODES[game.mode]
        k = first_city[g]
        for player in game.players:
            mil = (
                Military(labs[k], shelters[k], medical[k], towers[k], bases[k], military[k])
                if mode.military
                else None
            )
            met = met_ids[k]
            out[k] = PlayerReport(
                player.name,
                True,
                *shown[k],
                stars[k] if mode.populist else None,
                (list(met) if met else []) if mode.populist else None,  # a list of its own
                [] if mode.populist else None,  # (a game that declares is scored alone)
                Score(requirements[k], mil, epiphanies[k], ten[k], bonuses[k], total[k]),
                place[k],
                [],
                [],
            )
            k += 1
    return out
