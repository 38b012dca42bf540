"""Scoring games held in columns, for programs that score many positions (simulations, AI
players, benchmark comparisons): the cities as the packed score table, the rest as arrays, and
the scores back as arrays: no JSON, no Python object per card or per player.

The rules are RULES §4 as :mod:`neweden.scoring.report` applies them, over whole columns at
once (numpy): the requirement conditions that read a city's figures (every built-in one),
stars and the Populist part, the Military part with D5 majorities across each game,
epiphanies and their 1/3-star groups, the ten-card bonus, bonuses, totals and places with every
tie-breaker. `tests/scoring/test_score_table.py` holds it equal to `neweden.score` on
generated games.
Each rule is the report's own function where one serves columns (docs/table.md says which):
D5 is :func:`~neweden.rules.majority.base_majority` once for each distinct list of bases.

What it does not do: read or check a game document (ids, names, copy limits, the box's
names: use :func:`neweden.validate`), or conditions that look at the cards themselves (a
catalog's filtering conditions: ValueError; score such games with :func:`neweden.score`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from neweden.catalog.catalog import BUILTIN, Catalog, ResolvedCard
from neweden.catalog.conditions import COMPARISONS
from neweden.format.checks import majority_table_problems
from neweden.format.model import (
    MAX_POINTS,
    EpiphanyState,
)
from neweden.format.modes import MODES
from neweden.geometry.figures import ScoreFigures
from neweden.geometry.native import score_columns
from neweden.rules.conditions import CityContext, fold, value_of
from neweden.rules.epiphanies import left_over, third_star_stars
from neweden.rules.military import facility_points
from neweden.rules.ranking import Standing, recency
from neweden.rules.requirements import checked, populist_points
from neweden.rules.ten_cards import ten_cards_points
from neweden.rules.totals import player_stars, player_total
from neweden.scoring.majority import majority_points
from neweden.scoring.table_inputs import (
    _BONUS_BOUND,
    _checked_table,
    _integers,
    _offsets,
    _per,
)

__all__ = [
    "EPIPHANY_STATES",
    "SAFE_POINTS",
    "Epiphanies",
    "FigureColumns",
    "Layout",
    "TableScores",
    "epiphany_points",
    "fits",
    "majority_points",
    "requirement_truth",
    "score_table",
    "table_scores",
]

Ints: TypeAlias = npt.NDArray[np.int64]
Bools: TypeAlias = npt.NDArray[np.bool_]

#: The states of an epiphany, as `Epiphanies.state` numbers them.
EPIPHANY_STATES: tuple[EpiphanyState, ...] = ("held", "validated", "activated")
_HELD, _VALIDATED, _ACTIVATED = range(3)


class Epiphanies(NamedTuple):
    """The epiphanies of every player, in columns: player (city) k holds the rows
    ``offsets[k]:offsets[k + 1]``, in the order the player lists them."""

    offsets: Ints  # cities + 1
    points: Ints  # printed points: 2 or 5
    state: Ints  # 0 held, 1 validated, 2 activated (EPIPHANY_STATES)
    third_star: Bools  # the 1/3-star effect


class TableScores(NamedTuple):
    """The score of every player (a city) of every game, as arrays of one entry a city, in
    the order of the table: the fields of a lean report's players (`neweden.score`), with 0
    where the report says null (stars and requirements met in a Military game)."""

    legal: Bools
    cards: Ints
    open_connections: Ints
    stars: Ints
    requirements_met: Ints
    requirements: Ints  # the Populist points
    military: Ints  # D1-D5
    bases_points: Ints  # D5 alone
    epiphanies: Ints
    ten_cards: Ints
    bonuses: Ints
    total: Ints
    place: Ints


_FIELD = {name: i for i, name in enumerate(ScoreFigures._fields)}

#: The largest points a catalog's D5 table or epiphany may give for the int64 sums over
#: columns to be exact (a catalog loaded from a file gives at most MAX_POINTS; one built in
#: Python is not checked).
SAFE_POINTS = 2**40


def fits(catalog: Catalog) -> bool:
    """Whether int64 columns hold every sum `catalog` can make (each card, bonus and
    epiphany entry of a decoded game is bounded by the decoder; the catalog's own values
    are not): else its games are scored one by one, in Python ints."""
    tables = catalog.majority_table.values() if catalog.majority_table else ()
    values = [v for table in tables for v in table]
    values += [spec.points for spec in catalog.epiphanies.values()]
    return all(-SAFE_POINTS <= v <= SAFE_POINTS for v in values)


class FigureColumns:
    """ScoreFigures' fields as attributes, each one column of a (cities x fields) array of
    :func:`~neweden.geometry.native.score_columns` (what the rules read), taken when read."""

    __slots__ = ("figures",)

    def __init__(self, figures: Ints) -> None:
        self.figures = figures

    def __getattr__(self, name: str) -> Ints:
        try:
            return self.figures[:, _FIELD[name]]
        except KeyError:
            raise AttributeError(name) from None


def score_table(
    table: npt.NDArray[np.int32],
    city_offsets: npt.NDArray[np.int64],
    game_offsets: npt.NDArray[np.int64],
    *,
    mode: str | Sequence[str],
    requirements: Sequence[str] | Sequence[Sequence[str]] = (),
    epiphanies: Epiphanies | None = None,
    bonuses: Ints | None = None,
    first_player: Ints | None = None,
    requirements_declared: Ints | None = None,
    majority_tables: Sequence[Sequence[int] | None] | None = None,
    catalog: Catalog | None = None,
    threads: int = 1,
) -> TableScores:
    """Score every player of every game of a packed table, in columns.

    Parameters
    ----------
    table : numpy.ndarray
        The cards of every city, cards x 9 int32 (row, col, style, type, facility, sides,
        flags, stars, points), as :func:`neweden.pack_table` gives it.
    city_offsets : numpy.ndarray
        Where each city starts in `table`, as :func:`neweden.pack_table` gives them.
    game_offsets : numpy.ndarray
        Where each game starts among the cities: game g's players are the cities
        ``game_offsets[g]:game_offsets[g + 1]``.
    mode : str or sequence of str
        One mode for every game, or one a game.
    requirements : sequence of str, or sequence of sequences of str, optional
        The requirement cards in play (catalog ids, read in the Populist part): one list for
        every game, or a list a game. Default: none.
    epiphanies : Epiphanies, optional
        Every city's epiphanies, in columns (None: none).
    bonuses : numpy.ndarray, optional
        Per city, the bonuses' summed points (None: none).
    first_player : numpy.ndarray, optional
        Per game, the index of the first player within the game, or -1 (None: no first
        player for any game).
    requirements_declared : numpy.ndarray, optional
        Per city, the requirement cards of its game's list the table declared this player
        met, as bits (bit k: the k-th card of the list): a card the catalog cannot judge
        (unknown, or without a condition) is met as declared, any other by its city
        (RULES §4a). None: nothing declared.
    majority_tables : sequence of (sequence of int or None), optional
        Per game, the D5 card's values for its players (None, for all games or for one: the
        catalog's or the default).
    catalog : Catalog, optional
        The catalog the requirement ids are looked up in (None: :data:`neweden.BUILTIN`).
    threads : int, optional
        The native core's threads for the cities' figures (at least 1). Default is 1.

    Returns
    -------
    TableScores
        Arrays of one entry a player (a city), in the order of the table: the fields of a
        lean report's players (``legal``, ``cards``, ... ``total``, ``place``), with 0 where
        the report says null (stars and requirements met in a Military game).

    Raises
    ------
    ValueError
        For arrays that do not fit together, an unknown mode, a requirement the catalog
        does not know when nothing is declared, a requirement listed twice for a game, a
        requirement whose condition looks at the cards themselves, a D5 table that does not
        fit its game, or a catalog (built in Python) whose D5 tables or epiphanies give
        points beyond SAFE_POINTS.

    Examples
    --------
    The built-in example game (``neweden score --example``), its three cities packed:

    >>> import numpy as np
    >>> import neweden
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> resolved = neweden.resolve_game(neweden.decode_game(example), neweden.BUILTIN)
    >>> table, city_offsets = neweden.pack_table(resolved.cities)
    >>> epiphanies = neweden.Epiphanies(  # Sarah lists five, Bruno and Carla none
    ...     offsets=np.array([0, 5, 5, 5]), points=np.array([5, 2, 2, 2, 2]),
    ...     state=np.array([1, 2, 2, 2, 2]),  # validated, then activated
    ...     third_star=np.array([False, True, True, False, False]))
    >>> scores = neweden.score_table(
    ...     table, city_offsets, np.array([0, 3]), mode="elitist",
    ...     requirements=["A1", "B1", "C1"], epiphanies=epiphanies, first_player=np.array([0]))
    >>> scores.total, scores.place  # as neweden.score reports them
    (array([78, 34, 43]), array([1, 3, 2]))
    """
    catalog = _fitting(catalog or BUILTIN)
    table = _checked_table(table)
    city_offsets = _offsets("city_offsets", city_offsets, len(table), "cards of the table")
    cities = len(city_offsets) - 1
    game_offsets = _offsets("game_offsets", game_offsets, cities, "cities")
    games = len(game_offsets) - 1
    layout = Layout.of(game_offsets)
    game_of, players = layout.game_of, layout.players
    populist, military = _modes(mode, games, game_of)
    fig = FigureColumns(score_columns(table, city_offsets, threads=threads))
    lists = _requirement_lists(requirements, games)
    declared = None
    if requirements_declared is not None:
        declared = _per("requirements_declared", requirements_declared, cities)
        _declared_fit(declared, lists, game_of)
    met = _met(lists, fig, catalog, game_of, declared) * populist
    epi_points, epi_stars = _epiphanies(epiphanies, cities)
    bonus = _per("bonuses", bonuses, cities, _BONUS_BOUND)
    first = None if first_player is None else _per("first_player", first_player, games)
    if first is not None and ((first >= players) | (first < -1)).any():
        raise ValueError("first_player: a seat of its game, or -1")
    tables = None if majority_tables is None else _majority_tables(majority_tables, players)
    columns = PlayerColumns(populist, military, met, epi_points, epi_stars, bonus)
    return table_scores(fig, layout, columns, first, catalog, tables)


def _fitting(catalog: Catalog) -> Catalog:
    """The catalog, when its points fit the columns' int64 sums (:func:`fits`)."""
    if not fits(catalog):
        raise ValueError(
            f"catalog {catalog.name}: its D5 tables or epiphanies give points beyond "
            f"{SAFE_POINTS} (the columns sum in int64); score its games with neweden.score"
        )
    return catalog


def _majority_tables(
    given: Sequence[Sequence[int] | None], players: Ints
) -> list[tuple[int, ...] | None]:
    """Each game's own D5 table checked against its players (FORMAT §1's rule)."""
    if len(given) != len(players):
        raise ValueError(f"majority_tables: one entry a game ({len(players)}), a list or None")
    out: list[tuple[int, ...] | None] = []
    for g, (table, n) in enumerate(zip(given, players.tolist(), strict=True)):
        if table is None:
            out.append(None)
            continue
        values = _integers(f"majority_tables[{g}]", table, 0, MAX_POINTS)
        if values.ndim != 1:
            raise ValueError(f"majority_tables[{g}]: a list of the D5 card's values")
        fault = majority_table_problems(values.tolist(), n, "")
        if fault:
            raise ValueError(f"majority_tables[{g}]: {fault[0].message}")
        out.append(tuple(values.tolist()))
    return out


class Layout(NamedTuple):
    """How the cities of a table make games: each city's game, where each game's cities
    start (and the end), each game's number of players."""

    game_of: Ints
    game_offsets: Ints
    players: Ints

    @classmethod
    def of(cls, game_offsets: Sequence[int] | Ints) -> Layout:
        """The layout of games whose cities start at `game_offsets` (and the end)."""
        offsets = np.asarray(game_offsets, dtype=np.int64)
        players = np.diff(offsets)
        return cls(np.repeat(np.arange(len(players)), players), offsets, players)


class PlayerColumns(NamedTuple):
    """What the rules read of each city besides its figures, a column each: whether its game
    plays the Populist (Military) part, the requirements it meets, its epiphanies' points
    and stars, its bonuses."""

    populist: Ints
    military: Ints
    met: Ints
    epiphany_points: Ints
    epiphany_stars: Ints
    bonus: Ints


def table_scores(
    fig: FigureColumns,
    layout: Layout,
    columns: PlayerColumns,
    first: Ints | None,
    catalog: Catalog,
    tables: Sequence[tuple[int, ...] | None] | None = None,
) -> TableScores:
    """RULES §4 over columns checked already: the figures and `columns` of each city;
    `first`: the first player of each game (-1, or None for every game: none); `tables`:
    each game's own D5 table (None: the catalog's). What :func:`score_table` and the report
    of a batch's games (:mod:`neweden.scoring.chunk`) both compute."""
    populist, military, met, epi_points, epi_stars, bonus = columns
    game_of, game_offsets, players = layout
    stars = player_stars(met, epi_stars) * populist
    # the rules' own functions, over columns (FigureColumns reads as ScoreFigures: a field a column)
    requirement_points = populist_points(fig, stars) * populist  # type: ignore[arg-type]
    bases_points = majority_points(fig.bases, game_of, game_offsets, players, catalog, tables)
    bases_points *= military
    military_points = facility_points(fig) * military + bases_points  # type: ignore[arg-type]
    ten = ten_cards_points(fig.cards)
    total = player_total(requirement_points, military_points, epi_points, ten, bonus)
    seniority = _recency(first, game_of, game_offsets, players)
    # what the ranking compares, a column each (a criterion that does not apply as 0)
    criteria = Standing._make(
        [
            total,
            met,
            fig.bases * military,
            fig.cards,
            fig.cards_3_stars,
            fig.cards_2_stars,
            seniority,
        ]
    )
    place = _places(cast("list[Ints]", list(criteria)), game_of, game_offsets)
    return TableScores(
        fig.legal.astype(bool),
        fig.cards,
        fig.open_connections,
        stars,
        met,
        requirement_points,
        military_points,
        bases_points,
        epi_points,
        ten,
        bonus,
        total,
        place,
    )


def _modes(mode: str | Sequence[str], games: int, game_of: Ints) -> tuple[Ints, Ints]:
    """Per city: 1 where its game's mode plays the Populist part (the Military part)."""
    names = [mode] * games if isinstance(mode, str) else list(mode)
    if len(names) != games:
        raise ValueError(f"mode: {len(names)} given for {games} games")
    unknown = sorted(set(names) - set(MODES))
    if unknown:
        raise ValueError(f"unknown mode {unknown[0]!r}; the modes are {', '.join(MODES)}")
    populist = np.array([MODES[m].populist for m in names], dtype=np.int64)
    military = np.array([MODES[m].military for m in names], dtype=np.int64)
    return populist[game_of], military[game_of]


def _requirement_lists(
    requirements: Sequence[str] | Sequence[Sequence[str]], games: int
) -> list[list[str]]:
    """The requirement cards each game plays: one list for every game, or a list a game;
    each card once a list (a second listing would count a second star)."""
    if isinstance(requirements, str) or all(isinstance(r, str) for r in requirements):
        _once(requirements, "requirements")  # type: ignore[arg-type]
        return [list(requirements)] * games  # type: ignore[arg-type]
    lists = [list(each) for each in requirements]
    if len(lists) != games:
        raise ValueError(f"requirements: {len(lists)} lists given for {games} games")
    for g, each in enumerate(lists):
        _once(each, f"requirements of game {g}")
    return lists


def _declared_fit(declared: Ints, lists: list[list[str]], game_of: Ints) -> None:
    """Each city's declared bits name cards of its game's list (bit k: its k-th card)."""
    width = np.array([len(each) for each in lists], dtype=np.int64)[game_of]
    if (declared < 0).any() or (declared >= np.left_shift(1, width)).any():
        raise ValueError(
            "requirements_declared: a city's bits name the cards of its game's list (bit k: "
            "the k-th), none beyond"
        )


def _met(
    lists: list[list[str]],
    fig: FigureColumns,
    catalog: Catalog,
    game_of: Ints,
    declared: Ints | None,
) -> Ints:
    """How many of its game's requirements each city meets: each card the catalog judges
    by its condition, tested once over every city; each other card as declared (`declared`:
    a city's bits over its game's list, RULES §4a), counted where its game plays it."""
    ids = list(dict.fromkeys(req_id for each in lists for req_id in each))
    place = np.full((len(lists), len(ids)), -1, dtype=np.int64)  # ids[k]'s place in game g's
    for g, each in enumerate(lists):
        place[g, [ids.index(req_id) for req_id in each]] = np.arange(len(each))
    met = np.zeros(len(fig.cards), dtype=np.int64)
    for k, req_id in enumerate(ids):
        at = place[game_of, k]  # its place in each city's game's list (-1: not played)
        spec = catalog.requirements.get(req_id)
        if checked(spec):
            assert spec is not None
            assert spec.condition is not None
            truth = requirement_truth(req_id, spec.condition, fig, catalog)
        elif declared is not None:
            truth = (declared >> np.maximum(at, 0)) & 1
        elif spec is None:
            raise ValueError(
                f"unknown requirement {req_id!r} (catalog {catalog.name}): give its "
                "condition in the catalog, or requirements_declared to score it as declared"
            )
        else:
            continue  # a card without a condition, nothing declared: never met
        met += truth * (at >= 0)
    return met


def _once(ids: Sequence[str], what: str) -> None:
    """A requirement card is in play once (a second listing would count a second star)."""
    if isinstance(ids, str) or len(set(ids)) < len(ids):
        raise ValueError(f"{what}: a list of distinct catalog ids")


def requirement_truth(req_id: str, condition: Any, fig: FigureColumns, catalog: Catalog) -> Ints:
    """Whether each city meets a requirement's condition (1 or 0 a city), read by the
    condition language's own operators over the figures' columns. Raises ValueError for a
    condition that looks at the cards themselves."""
    city = CityContext(_no_cards, fig, catalog)  # type: ignore[arg-type]
    cities = len(fig.cards)
    truth = _test(condition, city, req_id, cities)  # a constant comparison: one bool
    return np.broadcast_to(np.asarray(truth, dtype=np.int64), (cities,))


class _CardsAsked(Exception):
    """A condition's operator asked for the cards themselves (score_table has figures)."""


def _no_cards() -> Sequence[ResolvedCard]:
    raise _CardsAsked


def _value(expr: Any, city: CityContext, req_id: str) -> Any:
    try:
        read: Any = value_of(expr)  # (over columns: a value is one per city, not an int)
        return read(city)
    except _CardsAsked:
        ((op, _arg),) = expr.items()
        raise ValueError(
            f"the requirement {req_id!r} looks at the cards themselves ({op}); score_table "
            "reads only figures: score such games with neweden.score"
        ) from None


def _test(expr: Any, city: CityContext, req_id: str, cities: int) -> Any:
    """A condition's truth for every one of the `cities` at once."""

    def const(truth: bool) -> Any:
        return np.full(cities, truth)

    def join(every: bool, parts: list[Any]) -> Any:
        # a comparison of constants is one bool: as wide as the rest
        wide = [np.broadcast_to(part, (cities,)) for part in parts]
        logic = np.logical_and if every else np.logical_or
        return logic.reduce(wide) if wide else np.full(cities, every)

    def compare(op: str, a: Any, b: Any) -> Any:
        test: Callable[[Any, Any], Any] = COMPARISONS[op]
        return test(_value(a, city, req_id), _value(b, city, req_id))

    return fold(expr, const=const, join=join, negate=np.logical_not, compare=compare)


def _epiphanies(found: Epiphanies | None, cities: int) -> tuple[Ints, Ints]:
    """RULES §4b per city: the epiphanies' points and the stars of their 1/3-star groups.
    Held: 0; validated: printed points; activated: 0, except 1/3-star icons left over from
    the groups of three (the last ones listed), which score as validated; an activated
    5-point epiphany scores 0 and gives no icon."""
    if found is None:
        zeros = np.zeros(cities, dtype=np.int64)
        return zeros, zeros.copy()
    return epiphany_points(_checked_epiphanies(found, cities), cities)


def epiphany_points(found: Epiphanies, cities: int) -> tuple[Ints, Ints]:
    """:func:`_epiphanies` of columns that fit together (the batch path makes them so; an
    epiphany whose id is unknown is given as held: it scores nothing and gives no icon)."""
    if len(found.points) == 0:
        zeros = np.zeros(cities, dtype=np.int64)
        return zeros, zeros.copy()
    counts = np.diff(found.offsets)
    owner = np.repeat(np.arange(cities), counts)
    points, state = np.asarray(found.points), np.asarray(found.state)
    icon = (state == _ACTIVATED) & np.asarray(found.third_star) & (points != 5)
    icons = np.bincount(owner, weights=icon, minlength=cities).astype(np.int64)
    stars = third_star_stars(icons)
    # the rank of each icon among its owner's icons, from 1: those after the whole groups
    # (the last ones listed) are left over
    before = np.cumsum(icon) - icon
    rank = before - np.concatenate(([0], np.cumsum(icons)[:-1]))[owner] + 1
    leftover = icon & left_over(rank, icons[owner])
    scored = np.where((state == _VALIDATED) | leftover, points, 0)
    return np.bincount(owner, weights=scored, minlength=cities).astype(np.int64), stars


def _checked_epiphanies(found: Epiphanies, cities: int) -> Epiphanies:
    rows = len(found.points)
    offsets = _integers("epiphanies.offsets", found.offsets, 0, rows)
    if offsets.shape != (cities + 1,) or offsets[0] != 0 or offsets[-1] != rows:
        raise ValueError(
            f"epiphanies.offsets must hold {cities + 1} entries from 0 to {rows} (the "
            "epiphanies of each city in turn)"
        )
    if (np.diff(offsets) < 0).any():
        raise ValueError("epiphanies.offsets must not decrease")
    points = _integers("epiphanies.points (2 or 5)", found.points, 2, 5)
    state = _integers("epiphanies.state (0 held, 1 validated, 2 activated)", found.state, 0, 2)
    third_star = _integers("epiphanies.third_star", found.third_star, 0, 1).astype(bool)
    if not len(state) == len(third_star) == rows:
        raise ValueError("epiphanies: points, state and third_star must be as long")
    if not np.isin(points, (2, 5)).all():
        raise ValueError("epiphanies.points: an epiphany is worth 2 or 5 points")
    return Epiphanies(offsets, points, state, third_star)


def _recency(first: Ints | None, game_of: Ints, game_offsets: Ints, players: Ints) -> Ints:
    """The last tie-breaker per city: larger for who was first player more recently (as
    :func:`neweden.rules.ranking.first_player_recency`), 0 without a first player."""
    if first is None:
        return np.zeros(len(game_of), dtype=np.int64)
    first = np.asarray(first, dtype=np.int64)
    seat = np.arange(len(game_of)) - game_offsets[:-1][game_of]
    n = players[game_of]  # at least 1: the city's own player
    f = first[game_of]
    found: Ints = np.where(f >= 0, recency(n, f, seat), 0)
    return found


def _places(keys: list[Ints], game_of: Ints, game_offsets: Ints) -> Ints:
    """Competition places within each game (1, 1, 3) by the keys in order, more first."""
    cities = len(game_of)
    if cities == 0:
        return np.zeros(0, dtype=np.int64)
    # sort by game, then every key descending (lexsort: the last key is the primary)
    order = np.lexsort([-k for k in reversed(keys)] + [game_of])
    stacked = np.stack([k[order] for k in keys], axis=1)
    new_game = np.r_[True, game_of[order][1:] != game_of[order][:-1]]
    differs = np.r_[True, (stacked[1:] != stacked[:-1]).any(axis=1)] | new_game
    position = np.arange(cities) - game_offsets[:-1][game_of[order]]
    # a tie keeps the place of the first of its run
    run_start = np.maximum.accumulate(np.where(differs, np.arange(cities), 0))
    place_sorted = position[run_start] + 1
    place = np.empty(cities, dtype=np.int64)
    place[order] = place_sorted
    return place
