"""The native core over compact cities: legality, connections and Military figures.

The only module that imports the extension (`neweden._core`): everything else speaks the
typed figures this module returns."""

from __future__ import annotations

import array
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from neweden import _core
from neweden._kept import kept
from neweden.catalog.catalog import Catalog
from neweden.format.checks import fold_name, read_as_written
from neweden.format.model import (
    FACILITIES,
    MAX_CARDS,
    MAX_COORDINATE,
    MAX_POINTS,
    MAX_STARS,
    MAX_STRING,
)
from neweden.format.sides import SIDES
from neweden.format.vocabulary import Attribute
from neweden.geometry.compact import (
    STYLE,
    TYPE,
    WIDTH,
    CompactCities,
    GameCards,
    PackedGames,
    reader_cards,
)
from neweden.geometry.figures import BatchFigures, CityFigures, ScoreFigures

__all__ = [
    "CORE_VERSION",
    "JsonGames",
    "analyse_batch",
    "analyse_city",
    "analyse_table",
    "pack_json_games",
    "placements",
    "score_columns",
    "score_figures",
    "score_games",
]

#: The version the native core was built as (it must be the package's).
CORE_VERSION: str = _core.__version__

# The core hands figures over as tuples; it names their fields, and they must be ours.
if (ScoreFigures._fields, CityFigures._fields) != (_core.SCORE_FIELDS, _core.CITY_FIELDS):
    raise ImportError(  # pragma: no cover - a core built from other sources
        "the native core's figures are not neweden.geometry.figures' (a stale build?); reinstall"
    )


_new = tuple.__new__


def analyse_city(cities: CompactCities, index: int = 0) -> CityFigures:
    """The figures of city `index` of a compact batch, computed by the C++ core.

    Raises ValueError for arrays no decoded city can give (the core's invalid_argument).
    """
    city = cities.city(index)
    # the score table's nine columns; stars and points are not read here
    zeros = np.zeros(len(city.row), dtype=np.int32)
    table = np.column_stack([*city.columns(), zeros, zeros]).astype(np.int32)
    (_, listed) = _core.score_rows(table, city.offsets, 1, 2)
    return _new(CityFigures, listed[0])


def analyse_batch(cities: CompactCities, *, threads: int = 1) -> BatchFigures:
    """The figures of every city of a compact batch, in one call to the C++ core.

    The arrays are checked with the GIL held, then analysed with the GIL released, split
    over `threads` threads (contiguous runs of cities with about equal card counts). Returns
    a :class:`~neweden.geometry.figures.BatchFigures` of NumPy arrays: per city (length
    ``len(cities)``) ``legal`` (uint8), ``cards``, ``open_connections``, ``components``,
    ``project``, ``labs``, ``towers``, ``bases`` (int32) and ``shelter_points``,
    ``medical_points``, ``tower_points`` (int64); per card (the length of the card columns)
    ``component`` and ``overlapped_by`` (int32, indices within each city). Each city's
    figures equal those of :func:`analyse_city` on it.

    Raises ValueError for arrays no decoded city can give.
    """
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    out = _core.analyse_batch(cities.offsets, *cities.columns(), threads)
    return BatchFigures(**out)


def analyse_table(
    table: npt.NDArray[np.int32], offsets: npt.NDArray[np.int64]
) -> list[CityFigures]:
    """The figures of every city of a score table (:func:`neweden.geometry.compact.pack_table`), in
    one call, with every per-card detail: the form of audit trails and error messages."""
    _, listed = _core.score_rows(table, offsets, 1, 2)
    return [_new(CityFigures, listed[k]) for k in range(len(offsets) - 1)]


def score_figures(
    table: npt.NDArray[np.int32], offsets: npt.NDArray[np.int64], *, threads: int = 1
) -> list[ScoreFigures]:
    """What the scoring rules read of every city of a score table
    (:func:`neweden.geometry.compact.pack_table`, or ``PackedGames.table`` of
    :func:`~neweden.geometry.compact.pack_games`), in one call to the C++ core, the GIL released
    while it runs (on `threads` threads).

    Raises ValueError for a table no decoded city can give."""
    rows = score_columns(table, offsets, threads=threads).tolist()
    return [_new(ScoreFigures, (bool(row[0]), *row[1:])) for row in rows]


def score_columns(
    table: npt.NDArray[np.int32], offsets: npt.NDArray[np.int64], *, threads: int = 1
) -> npt.NDArray[np.int64]:
    """:func:`score_figures` as one (cities x fields) int64 array, a column a field of
    :class:`~neweden.geometry.figures.ScoreFigures` in its order (``legal`` 0 or 1): the form
    the rules over arrays read (:mod:`neweden.scoring.table`).

    Raises ValueError for a table no decoded city can give."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    figures, _ = _core.score_rows(table, offsets, threads, 0)
    return figures


#: What placements() returns: (before, bases, figures, found).
Placed = tuple[ScoreFigures, list[int], list[ScoreFigures], list[tuple[int, int, bool, int]]]


def placements(flat: Sequence[int], offsets: list[int], seat: int) -> Placed:
    """The legal placements of a card next to city `seat` of a game, and in the same native
    pass what the rules read of the game as it is. `flat` and `offsets` are
    :func:`~neweden.geometry.compact.pack_games`'s (nine ints a card): the game's cities, then
    the card as a city of one (its row and column ignored). Returns (before, bases, figures,
    found): city `seat`'s :class:`~neweden.geometry.figures.ScoreFigures` as it is; the bases
    of each city of the game (all D5 reads of the others); the distinct figures the legal
    placements leave (placements often leave equal ones); and (row, col, rotated, k) of each
    candidate after which the city is legal, ``figures[k]`` the city's after it.
    Candidates: every empty cell orthogonally next to a card of the city, upright and, when
    that changes the card's icons, rotated 180°; `found` keeps their order (row, column,
    upright first).

    Raises ValueError for rows no decoded city can give."""
    return _core.placements(_listed(flat), offsets, seat, ScoreFigures)  # type: ignore[return-value]


def score_games(
    flat: Sequence[int],
    offsets: list[int],
    first_city: list[int],
    style_limit: int,
    details: int,
    columns: bool = False,
) -> tuple[
    list[ScoreFigures],
    list[tuple[int, int, int]],
    dict[int, CityFigures],
    npt.NDArray[np.int64] | None,
]:
    """One pass of the core over packed games (:func:`neweden.geometry.compact.pack_games`): the
    ScoreFigures of every city; (game, style, count) for each style more than `style_limit`
    of a game's common cards show; the per-card CityFigures of the cities asked
    (`details`: 0 none, 1 the illegal ones, 2 all), by city index; with `columns`, the
    ScoreFigures again as a (cities x fields) array (what the rules over columns read), else
    None.

    Raises ValueError for a table no decoded city can give."""
    found = _core.score_games(
        _listed(flat), offsets, first_city, style_limit, details, columns, *_MADE_AS
    )
    return _scored(found)


def _listed(flat: Sequence[int]) -> list[int]:
    """The table as the list the core's list entry points read (an int32 array copied)."""
    return flat if isinstance(flat, list) else list(flat)


#: What one pass of the core found over a table: see :func:`score_games`.
TableFigures = tuple[
    list[ScoreFigures],
    list[tuple[int, int, int]],
    dict[int, CityFigures],
    "npt.NDArray[np.int64] | None",
]


#: What the core makes a pass's figures as (no tuple wrapped again here).
_MADE_AS = (ScoreFigures, CityFigures)


def _scored(found: tuple[Any, Any, Any, Any]) -> TableFigures:
    """A pass's answer, its figures made as `_MADE_AS` by the core."""
    figures, over, listed, array = found
    return figures, over, listed, array


#: What a caller of JsonGames.read_many makes of a game's head.
_Read = TypeVar("_Read")


#: The array type code of the core's int32 cells (C's int: 32 bits where the core builds).
_INT32 = "i"
assert array.array(_INT32).itemsize == 4


class JsonGames:
    """Games packed from their JSON documents, one after another, by the native core's
    strict reader (:mod:`neweden.format.lean` decodes the rest of each): the same score table
    as :func:`~neweden.geometry.compact.pack_games` gives for the games it took."""

    __slots__ = ("_aliases", "_count", "_packer")

    def __init__(self, catalog: Catalog | None = None) -> None:
        self._packer = _core.JsonPacker(
            FACILITIES, SIDES, MAX_CARDS, MAX_COORDINATE, MAX_POINTS, MAX_STARS, MAX_STRING
        )
        if catalog is not None:  # its cards may be given by id (another id: unresolved)
            self._packer.set_catalog(_reader_catalog(catalog))
        self._count = 0
        self._aliases = False  # whether a name read is not as written (folded, RULES §1)

    def __len__(self) -> int:
        return self._count

    def add(self, game: bytes, *, folded: bool = False) -> bool:
        """Packs the cities of `game` (a document; :meth:`head` gives the rest of it to
        read); False, packing nothing, when the strict reader refuses it (a card given by an
        id without a catalog, or a catalog card it withheld, an escape, a repeated key...) or
        one of its style or type names is none even folded: decode that game the exact way
        then. `folded`: its names are as the decoder gives them (a decoded game written
        again), not to be folded; a game with a name that is not (one built by hand) is
        refused too."""
        new = self._packer.add(game)
        if new < 0 or (new and not self._names_read(folded)):
            return False
        self._count += 1
        return True

    def _names_read(self, folded: bool = False) -> bool:
        """Whether the names the game added last numbered first (not seen before in this
        batch; the reader takes them as written, "Praça") each fold to a name as the decoder
        reads them (`folded`: each reads as itself); the game dropped when one does not."""
        styles, types = self._packer.added_names()
        if read_as_written(styles, types):  # (names seen before: the usual case)
            return True
        read = [fold_name(n, "style") for n in styles] + [fold_name(n, "type") for n in types]
        as_written = read == [*styles, *types]
        if None in read or (folded and not as_written):
            self._packer.drop_last()
            return False
        self._aliases = self._aliases or not as_written
        return True

    def read_many(
        self, games: Sequence[bytes], min_size: int, decode: Callable[[bytes], _Read | None]
    ) -> list[_Read | None]:
        """What :meth:`add`, then `decode` of :meth:`head` make of each game in turn (None,
        nothing packed, where either refuses it; `decode` returning None drops the game),
        in one call of the core for a run of games: `decode` is the only Python called a
        game. A game under `min_size` bytes is not read (None)."""
        out: list[_Read | None] = []
        games = games if isinstance(games, list) else list(games)
        start = 0
        while start < len(games):
            start, named = self._packer.read_many(games, start, min_size, decode, out)
            if named and not self._names_read():  # (names not seen before: rare)
                out[-1] = None
        self._count += len(out) - out.count(None)
        return out

    def read_alone(self, game: bytes, decode: Callable[[bytes], _Read | None]) -> _Read | None:
        """:meth:`read_many` of one game, the packer cleared first (every game before it
        forgotten): a game scored alone reuses one packer, one native call to read it."""
        self._count = 0
        self._aliases = False
        read = self._packer.read_alone(game, decode)
        if read is None or not self._names_read():  # (a fresh table: every name is new)
            return None
        self._count = 1
        return read  # type: ignore[no-any-return]  # (what decode made)

    def head(self, game: bytes) -> bytes:
        """The game added last (`game`: the same bytes) with each city given as `[]`: the
        rest of the document, which the strict reader only skipped, for msgspec to read
        (:mod:`neweden.format.lean`)."""
        return self._packer.head(game)

    def score(self, style_limit: int, details: int, columns: bool) -> TableFigures:
        """:func:`score_games` of the games added, the core reading the packer's own table
        (no list of ints made into a vector again). Only while every name read was as
        written: folding one renumbers the table's lists (:meth:`packed`)."""
        assert not self._aliases
        return _scored(self._packer.score(style_limit, details, columns, *_MADE_AS))

    def placements(self, seat: int) -> Placed:
        """:func:`placements` of the games added: the cities of a game, then a game whose
        one city is the card (city `seat` of the first game is the player's)."""
        if self._aliases:  # the codes renumbered in Python: the core reads those lists
            packed = self.packed()
            return placements(packed.flat, packed.offsets, seat)
        return self._packer.placements(seat, ScoreFigures)  # type: ignore[return-value]

    def unresolved(self) -> list[bool]:
        """Per game added, whether one of its cards is given by an id the catalog does not
        hold (packed as an unresolved row, as :func:`~neweden.geometry.compact.pack_games`
        packs it)."""
        return self._packer.unresolved()

    def cards(self, city: int) -> int:
        """The number of cards of city `city` of the table (every game's cities counted)."""
        return self._packer.cards(city)

    def packed(self) -> PackedGames:
        """The score table of the games added, in order (whose core's pass reads the
        packer's own table when no name was folded)."""
        packer = self._packer
        table = packer.table()
        # each game's cards given by catalog id, whether one of them is not in the catalog,
        # and where each of those cards is
        return self._packed(table, packer.ids(), packer.unresolved(), packer.id_places())

    def packed_scored(self, style_limit: int, details: int) -> tuple[PackedGames, TableFigures]:
        """:meth:`packed` and :meth:`score` (no columns) in one native call (a game alone),
        the table given without its `scores` (it was read: the packer may be cleared)."""
        if self._aliases:  # the codes renumbered in Python: the core reads those lists
            packed = self.packed()
            found = score_games(
                packed.flat, packed.offsets, packed.first_city, style_limit, details
            )
            return packed, found
        table, ids, unresolved, places, read = self._packer.scored_table(
            style_limit, details, False, *_MADE_AS
        )
        return self._packed(table, ids, unresolved, places, scored=False), _scored(read)

    def _packed(
        self,
        table: tuple[bytes, list[int], list[int], list[Any], list[str], list[str]],
        ids: list[list[str]],
        unresolved: list[bool],
        places: list[list[tuple[int, int, int, int]]],
        *,
        scored: bool = True,
    ) -> PackedGames:
        """The PackedGames of the native table's parts (`scored`: with the packer's own
        pass as its `scores`)."""
        raw, offsets, first_city, rotated, styles, types = table
        cells = array.array(_INT32)
        cells.frombytes(raw)  # one copy: no Python int made for a card's nine
        cards = [GameCards(*game) for game in zip(ids, unresolved, rotated, places, strict=True)]
        if self._aliases:  # the codes renumbered here: the core reads these lists
            flat = cells.tolist()
            folded = _folded(flat, STYLE, styles, "style"), _folded(flat, TYPE, types, "type")
            return PackedGames(flat, offsets, *folded, first_city, cards)
        return PackedGames(
            cells,
            offsets,
            tuple(styles),
            tuple(types),
            first_city,
            cards,
            self.score if scored else None,
        )


#: The native reader's catalog of the catalogs seen last, by the catalog's identity (a
#: catalog holds dicts: it is not hashable), the catalog kept so that its id is not reused.
#: A catalog does not change once used.
_READER_CATALOGS: dict[int, tuple[Catalog, _core.ReaderCatalog]] = {}


def _reader_catalog(catalog: Catalog) -> _core.ReaderCatalog:
    """The cards of `catalog` the native reader packs from an id (:func:`reader_cards`), as
    the core holds them: made once a catalog, shared by every packer."""
    return kept(_READER_CATALOGS, catalog, _made_reader_catalog, 8)  # (a few a process)


def _made_reader_catalog(catalog: Catalog) -> _core.ReaderCatalog:
    cards = reader_cards(catalog)
    spelled = {card[0] for card in cards}
    withheld = [card_id for card_id in catalog.cards if card_id not in spelled]
    return _core.ReaderCatalog(cards, withheld, FACILITIES, SIDES)


def pack_json_games(games: Sequence[bytes]) -> PackedGames | None:
    """:func:`~neweden.geometry.compact.pack_games`'s table of games given as their JSON
    documents (:class:`JsonGames`; the cells an int32 array, the same ints), or None when
    one of them is refused. The strict reader checks the cities and only skips past the
    rest: :meth:`JsonGames.head` gives that rest for msgspec to read."""
    packer = JsonGames()
    return packer.packed() if all(packer.add(game) for game in games) else None


def _folded(
    flat: list[int], column: int, names: list[str], attribute: Attribute
) -> tuple[str, ...]:
    """The names a column's codes index, each read as the decoder reads it (folded as
    players write it, a Portuguese alias made its English identifier: RULES §1), the codes
    renumbered in order of appearance as
    :func:`~neweden.geometry.compact.pack_games` numbers the folded names (every name was
    read when its game was added)."""
    read = [fold_name(name, attribute) or name for name in names]
    if read == names:
        return tuple(names)
    number: dict[str, int] = {}
    code = [number.setdefault(name, len(number)) for name in read]
    for i in range(column, len(flat), WIDTH):
        if flat[i] >= 0:  # -1: a wild card
            flat[i] = code[flat[i]]
    return tuple(number)
