"""The compact city: the flat arrays the native core reads.

One row per card, in input order, for a whole batch of cities at once; city ``i`` is rows
``offsets[i]:offsets[i + 1]``. Codes:

- ``row``, ``col`` (int32): the cell; row grows downward.
- ``style``, ``type`` (int32): an index into ``styles`` / ``types`` (interned per batch, since
  the core only compares them for equality), or -1 for a wild or unresolved card.
- ``facility`` (int8): an index into :data:`neweden.format.model.FACILITIES`, or -1.
- ``sides`` (uint8): the icons *as placed* (after the 180° turn of a rotated card), one bit
  per side: top 1, right 2, bottom 4, left 8 (the core's ``neweden/sides.hpp``).
- ``flags`` (uint8): :data:`WILD` for a wild card, :data:`UNRESOLVED` for a card whose id did
  not resolve (the core leaves it out, RULES §3).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from msgspec import UNSET

from neweden.catalog.catalog import CardSpec, Catalog, ResolvedCard
from neweden.format.decode import decode_card
from neweden.format.model import FACILITIES, Game, InlineCard
from neweden.format.problems import GameDecodeError
from neweden.format.sides import ALL_SIDES, BIT, SIDES, TURNED_MASK
from neweden.format.sides import mask as side_mask

__all__ = [
    "COL",
    "COLUMNS",
    "FACILITY",
    "FLAGS",
    "ICONS",
    "POINTS",
    "ROW",
    "SIDE_BITS",
    "STARS",
    "STYLE",
    "TYPE",
    "UNRESOLVED",
    "WIDTH",
    "WILD",
    "CityRows",
    "CompactCities",
    "GameCards",
    "PackedGames",
    "city_columns",
    "pack_cities",
    "pack_flat",
    "pack_games",
    "pack_table",
]

SIDE_BITS = BIT
WILD = 1
UNRESOLVED = 2
_FACILITY_CODES = {name: i for i, name in enumerate(FACILITIES)}


@dataclass(frozen=True)
class CompactCities:
    """A batch of cities as one set of arrays plus offsets (see the module docstring)."""

    offsets: npt.NDArray[np.int64]
    row: npt.NDArray[np.int32]
    col: npt.NDArray[np.int32]
    style: npt.NDArray[np.int32]
    type: npt.NDArray[np.int32]
    facility: npt.NDArray[np.int8]
    sides: npt.NDArray[np.uint8]
    flags: npt.NDArray[np.uint8]
    styles: tuple[str, ...]
    types: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def columns(
        self,
    ) -> tuple[
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int32],
        npt.NDArray[np.int8],
        npt.NDArray[np.uint8],
        npt.NDArray[np.uint8],
    ]:
        """The card columns in the order the core takes them: row, col, style, type,
        facility, sides, flags."""
        return self.row, self.col, self.style, self.type, self.facility, self.sides, self.flags

    def city(self, i: int) -> CompactCities:
        """City `i` alone, as a batch of one (views, no copy of the card rows)."""
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        return CompactCities(
            np.array([0, hi - lo], dtype=np.int64),
            self.row[lo:hi],
            self.col[lo:hi],
            self.style[lo:hi],
            self.type[lo:hi],
            self.facility[lo:hi],
            self.sides[lo:hi],
            self.flags[lo:hi],
            self.styles,
            self.types,
        )


# Side masks of the icon sets seen so far, and the 180° turn of every mask.
_MASKS: dict[frozenset[str] | tuple[str, ...], int] = {}
_TURNED = TURNED_MASK
#: Columns of the score table: the seven of the core, then stars and points; each one's
#: index in a row, for the modules that read packed rows.
COLUMNS = ("row", "col", "style", "type", "facility", "sides", "flags", "stars", "points")
ROW, COL, STYLE, TYPE, FACILITY, ICONS, FLAGS, STARS, POINTS = range(len(COLUMNS))
WIDTH = len(COLUMNS)
_UNRESOLVED_ROW = (-1, -1, -1, 0, UNRESOLVED, 0, 0)


def _mask(sides: frozenset[str] | tuple[str, ...]) -> int:
    mask = _MASKS.get(sides)
    if mask is None:
        mask = _MASKS[sides] = side_mask(sides)
    return mask


class _Interned:
    """Styles and types numbered in order of appearance (per batch: the core only
    compares them for equality)."""

    def __init__(self) -> None:
        self.styles: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self.types: defaultdict[str, int] = defaultdict(itertools.count().__next__)

    def rest(self, spec: CardSpec | None, card_id: str = "") -> tuple[int, ...]:
        """The columns after (row, col) of a card resolved to `spec` (None: unresolved),
        unrotated (points are at most model.MAX_POINTS: the int32 table holds every total)."""
        if spec is None:
            return _UNRESOLVED_ROW
        points = spec.points
        if spec.wild:
            return (-1, -1, -1, 15, WILD, spec.stars, points)
        facility = _FACILITY_CODES.get(spec.facility)  # type: ignore[arg-type]
        if facility is None or not _sides_known(spec.sides):
            raise ValueError(_unscorable(spec, card_id))
        return (
            self.styles[spec.style],  # type: ignore[index]
            self.types[spec.type],  # type: ignore[index]
            facility,
            _MASKS.get(spec.sides) or _mask(spec.sides),
            0,
            spec.stars,
            points,
        )


def _sides_known(sides: Iterable[str]) -> bool:
    """Whether a catalog card's sides are one to four the format knows (a frozenset, or any
    collection a catalog built in Python gives)."""
    return bool(sides) and ALL_SIDES.issuperset(sides)


def _unscorable(spec: CardSpec, card_id: str) -> str:
    """Why a catalog built in Python holds a card a game names that no game can score (a
    catalog file's schema refuses such a card: only Python can build one)."""
    wrong = []
    if spec.facility not in _FACILITY_CODES:
        wrong.append(f"its facility is {spec.facility!r}, not one of {', '.join(FACILITIES)}")
    if not _sides_known(spec.sides):
        sides = sorted(spec.sides)
        wrong.append(f"its sides are {sides!r}, not one to four of {', '.join(SIDES)}")
    named = card_id or spec.id or spec.name
    return f"the catalog's card {named!r} cannot be scored: " + "; ".join(wrong)


#: A card of a catalog as the native reader takes it (:meth:`JsonPacker.set_catalog`): id,
#: wild, style, type, facility, points, stars, sides mask.
ReaderCard = tuple[str, bool, str, str, str, int, int, int]


def reader_cards(catalog: Catalog) -> list[ReaderCard]:
    """The cards of `catalog` the native reader may pack from an id, each with the values
    :meth:`_Interned.rest` packs.
    Only the cards a game could give inline the same: an id the format reads, names as
    they read (folded), a facility, sides, points and stars within the format's limits
    (a catalog built in Python may hold others: a city naming one is decoded the exact
    way, which tells what it tells of them)."""
    return [
        (
            card_id,
            spec.wild,
            spec.style or "",
            spec.type or "",
            spec.facility or "",
            spec.points,
            spec.stars,
            0 if spec.wild else _MASKS.get(spec.sides) or _mask(spec.sides),
        )
        for card_id, spec in catalog.cards.items()
        if _spelled_inline(card_id, spec)
    ]


def _spelled_inline(card_id: str, spec: CardSpec) -> bool:
    """Whether a game could give the card `spec` inline, under the id `card_id`, and the
    exact path would read both alike: the format's decoder takes the id and the card given
    inline, and reads the card as `spec` holds it (names folded, within the limits)."""
    fields: dict[str, Any] = {"points": spec.points, "stars": spec.stars}
    if spec.wild:
        fields["wild"] = True
    else:
        fields |= {"style": spec.style, "type": spec.type, "facility": spec.facility}
        fields["sides"] = list(spec.sides)
    try:
        decode_card(card_id)
        card = decode_card(fields).city[0].card
    except (GameDecodeError, TypeError):
        return False
    assert isinstance(card, InlineCard)  # (given inline)
    return spec.wild or (
        (card.style, card.type, card.facility) == (spec.style, spec.type, spec.facility)
    )


def _turned(rest: tuple[int, ...]) -> tuple[int, ...]:
    return (*rest[:3], _TURNED[rest[3]], *rest[4:])


def _flat_rows(
    cities: Sequence[Sequence[ResolvedCard]], names: _Interned
) -> tuple[list[int], list[int]]:
    """WIDTH ints per card of resolved cities, and the city offsets."""
    flat: list[int] = []
    offsets = [0]
    for city in cities:
        for card in city:
            rest = names.rest(card.spec)
            flat.extend((card.row, card.col, *(_turned(rest) if card.rotated else rest)))
        offsets.append(len(flat) // WIDTH)
    return flat, offsets


def _table(flat: Sequence[int]) -> npt.NDArray[np.int32]:
    return np.array(flat, dtype=np.int32).reshape(-1, WIDTH)


def pack_cities(cities: Sequence[Sequence[ResolvedCard]]) -> CompactCities:
    """Pack resolved cities into the compact arrays the native core reads, in order.

    Parameters
    ----------
    cities : sequence of sequences of ResolvedCard
        Each city's cards as :func:`neweden.resolve_city` or :func:`neweden.resolve_game`
        gives them (a card whose id did not resolve has ``spec`` None).

    Returns
    -------
    CompactCities
        One row a card in input order, city ``i`` at rows ``offsets[i]:offsets[i + 1]``,
        coded as :mod:`neweden.geometry.compact` says: styles and types numbered in order of
        appearance in this batch (their names in ``styles`` and ``types``), -1 for a wild or
        unresolved card; ``sides`` as placed (a rotated card turned 180°); ``flags`` 1 for a
        wild card, 2 for a card whose id did not resolve.

    Examples
    --------
    >>> import neweden
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0, "sides": ["right"]}
    >>> lone = neweden.decode_city({"city": [
    ...     {"row": 0, "col": 0, "card": card},
    ...     {"row": 0, "col": 1, "card": card | {"sides": ["left"]}, "rotated": True},
    ...     {"row": 1, "col": 0, "card": "EX-card"}]})
    >>> cards, _ = neweden.resolve_city(lone.city, neweden.BUILTIN, "/city")
    >>> packed = neweden.pack_cities([cards])
    >>> len(packed), packed.offsets.tolist(), packed.styles
    (1, [0, 3], ('ex_gothic',))
    >>> packed.style.tolist(), packed.sides.tolist(), packed.flags.tolist()
    ([0, 0, -1], [2, 2, 0], [0, 0, 2])
    """
    names = _Interned()
    flat, offsets = _flat_rows(cities, names)
    table = _table(flat)
    return CompactCities(
        offsets=np.array(offsets, dtype=np.int64),
        row=table[:, 0].copy(),
        col=table[:, 1].copy(),
        style=table[:, 2].copy(),
        type=table[:, 3].copy(),
        facility=table[:, 4].astype(np.int8),
        sides=table[:, 5].astype(np.uint8),
        flags=table[:, 6].astype(np.uint8),
        styles=tuple(names.styles),
        types=tuple(names.types),
    )


def pack_flat(
    cities: Sequence[Sequence[ResolvedCard]],
) -> tuple[list[int], list[int], tuple[str, ...], tuple[str, ...]]:
    """The rows of resolved cities as the flat list of a score table (WIDTH ints per card),
    the city offsets, and the style and type names the rows' codes index."""
    names = _Interned()
    flat, offsets = _flat_rows(cities, names)
    return flat, offsets, tuple(names.styles), tuple(names.types)


def pack_table(
    cities: Sequence[Sequence[ResolvedCard]],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Pack the rows of resolved cities into one int32 table and the city offsets.

    The form :func:`neweden.score_table` reads, and that of
    :func:`neweden.geometry.native.score_figures` (and, its first seven columns, of
    :func:`neweden.geometry.native.analyse_table`).

    Parameters
    ----------
    cities : sequence of sequences of ResolvedCard
        Each city's cards as :func:`neweden.resolve_city` or :func:`neweden.resolve_game`
        gives them.

    Returns
    -------
    table : numpy.ndarray
        A (cards, WIDTH) int32 table, one row a card in input order, columns row, col,
        style, type, facility, sides, flags, stars, points, coded as :func:`pack_cities`
        codes them (the style and type names are not returned).
    city_offsets : numpy.ndarray
        int64, one more than the cities: city ``i`` is rows
        ``city_offsets[i]:city_offsets[i + 1]``.

    Examples
    --------
    >>> import neweden
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0}
    >>> lone = neweden.decode_city({"city": [
    ...     {"row": 0, "col": 0, "card": card | {"sides": ["right"]}},
    ...     {"row": 0, "col": 1, "card": card | {"sides": ["left"]}}]})
    >>> cards, _ = neweden.resolve_city(lone.city, neweden.BUILTIN, "/city")
    >>> table, city_offsets = neweden.pack_table([cards, cards[:1]])
    >>> table
    array([[0, 0, 0, 0, 0, 2, 0, 0, 1],
           [0, 1, 0, 0, 0, 8, 0, 0, 1],
           [0, 0, 0, 0, 0, 2, 0, 0, 1]], dtype=int32)
    >>> city_offsets
    array([0, 2, 3])
    """
    flat, offsets = _flat_rows(cities, _Interned())
    return _table(flat), np.array(offsets, dtype=np.int64)


@dataclass(slots=True)
class GameCards:
    """What the rules need of one game's cards beside the figures, gathered while packing:
    the catalog ids in play (copy limits) and where each is, whether an id did not resolve,
    the rotated cards."""

    ids: list[str]
    unresolved: bool
    #: (player, index in the city, row, col) of each rotated card
    rotated: list[tuple[int, int, int, int]]
    #: (player, index in the city, row, col) of each card given by catalog id, as `ids`
    id_places: list[tuple[int, int, int, int]] = field(default_factory=list)


class PackedGames(NamedTuple):
    """The cities of many games as one score table (every player's city, game after
    game) and what the rules need of their cards. The table stays the flat list packing
    builds (WIDTH ints per card): the core reads it as is. (A named tuple: one is made for
    every game scored alone, where a frozen dataclass's checked init cost a µs.)"""

    #: WIDTH ints a card (a list, or an int32 array where the native reader packed)
    flat: MutableSequence[int]
    #: per city, the index of its first card; one more entry at the end
    offsets: list[int]
    styles: tuple[str, ...]
    types: tuple[str, ...]
    #: per game, the index of its first city; one more entry at the end
    first_city: list[int]
    cards: list[GameCards]
    #: the core's pass over this table read where it was packed (the native reader's own
    #: table: :meth:`neweden.geometry.native.JsonGames.score`), or None: from the lists
    scores: Callable[[int, int, bool], Any] | None = None

    @property
    def table(self) -> npt.NDArray[np.int32]:
        """The table as a (cards, WIDTH) int32 array."""
        return _table(self.flat)


#: A city's cards as three columns, in city order: row, col, and the icons as placed.
CityColumns = tuple[Sequence[int], Sequence[int], Sequence[int]]


class CityRows:
    """The rows of one game's cities in a packed table: city p of the game is
    ``of(p)``, WIDTH ints a card (row, col, style, type, facility, sides, flags, stars,
    points)."""

    __slots__ = ("first", "flat", "offsets")

    def __init__(self, flat: Sequence[int], offsets: Sequence[int], first: int) -> None:
        self.flat = flat
        self.offsets = offsets
        self.first = first

    def cards(self, p: int) -> int:
        """How many cards city p holds (as given: every placement has its row)."""
        return self.offsets[self.first + p + 1] - self.offsets[self.first + p]

    def columns(self, p: int, *fields: int) -> list[Sequence[int]]:
        """Some fields (ROW, COL, ...) of each card of the game's city p: a sequence each,
        in card order."""
        lo, hi = self.offsets[self.first + p] * WIDTH, self.offsets[self.first + p + 1] * WIDTH
        flat = self.flat
        return [flat[lo + field : hi : WIDTH] for field in fields]

    def placed(self, p: int) -> CityColumns:
        """City p's cards as its geometry reads them: rows, columns and icons as placed."""
        return city_columns(self.flat, self.offsets, self.first + p)


def city_columns(flat: Sequence[int], offsets: Sequence[int], k: int) -> CityColumns:
    """City k of a packed table (`flat`, `offsets`) as its geometry reads it: the rows,
    columns and icons as placed of its cards, in city order."""
    lo, hi = offsets[k] * WIDTH, offsets[k + 1] * WIDTH
    return flat[lo + ROW : hi : WIDTH], flat[lo + COL : hi : WIDTH], flat[lo + ICONS : hi : WIDTH]


def pack_games(games: Sequence[Game], catalog: Catalog) -> PackedGames:
    """The score table of decoded games, ids looked up in `catalog` (an id not found is
    an UNRESOLVED row), without building a :class:`~neweden.catalog.catalog.CardSpec` per card.

    This loop runs for every card of every game scored, so it is written flat: a catalog
    id costs one dictionary look-up, an inline card its attribute reads."""
    names = _Interned()
    styles, types = names.styles, names.types
    by_id: dict[str, tuple[int, ...]] = {}
    flat: list[int] = []
    extend = flat.extend
    offsets = [0]
    first_city = [0]
    packed: list[GameCards] = []
    for game in games:
        info = GameCards([], False, [], [])
        for p, player in enumerate(game.players):
            for placement in player.city:
                card = placement.card
                rotated = placement.rotated
                if card.__class__ is InlineCard and card.wild is not True:
                    # The common case, inlined: a decoded common card has every field
                    # (neweden.format.checks).
                    mask = _MASKS.get(tuple(card.sides)) or _mask(tuple(card.sides))  # type: ignore[arg-type]
                    extend(
                        (
                            placement.row,
                            placement.col,
                            styles[card.style],  # type: ignore[index]
                            types[card.type],  # type: ignore[index]
                            _FACILITY_CODES[card.facility],  # type: ignore[index]
                            _TURNED[mask] if rotated else mask,
                            0,
                            card.stars,
                            card.points,
                        )  # type: ignore[arg-type]
                    )
                elif card.__class__ is InlineCard:  # wild: all sides, the same turned
                    points = 0 if card.points is UNSET else card.points
                    stars = 0 if card.stars is UNSET else card.stars
                    extend((placement.row, placement.col, -1, -1, -1, 15, WILD, stars, points))
                else:
                    rest = _catalog_card(card, catalog, names, by_id, info)  # type: ignore[arg-type]
                    extend((placement.row, placement.col, *(_turned(rest) if rotated else rest)))
                    index = len(flat) // WIDTH - offsets[-1] - 1
                    info.id_places.append((p, index, placement.row, placement.col))
                if rotated:
                    # its index in the city: the rows packed since the city began, less one
                    index = len(flat) // WIDTH - offsets[-1] - 1
                    info.rotated.append((p, index, placement.row, placement.col))
            offsets.append(len(flat) // WIDTH)
        first_city.append(len(offsets) - 1)
        packed.append(info)
    return PackedGames(flat, offsets, tuple(styles), tuple(types), first_city, packed)


def _catalog_card(
    card: str,
    catalog: Catalog,
    names: _Interned,
    by_id: dict[str, tuple[int, ...]],
    info: GameCards,
) -> tuple[int, ...]:
    """The columns after (row, col) of a card given by catalog id, unrotated; each id is
    looked up once a batch."""
    info.ids.append(card)
    rest = by_id.get(card)
    if rest is None:
        rest = by_id[card] = names.rest(catalog.card(card), card)
    if rest[4] == UNRESOLVED:
        info.unresolved = True
    return rest
