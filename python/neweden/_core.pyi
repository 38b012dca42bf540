# Type stubs of the native module; tests/test_core_stubs.py checks they match the module.
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

__version__: str
SCORE_FIELDS: tuple[str, ...]
CITY_FIELDS: tuple[str, ...]
TOP: int
RIGHT: int
BOTTOM: int
LEFT: int

def rotate_sides(sides: int, rotated: bool) -> int: ...
def analyse_batch(
    offsets: npt.NDArray[np.int64],
    row: npt.NDArray[np.int32],
    col: npt.NDArray[np.int32],
    style: npt.NDArray[np.int32],
    type: npt.NDArray[np.int32],
    facility: npt.NDArray[np.int8],
    sides: npt.NDArray[np.uint8],
    flags: npt.NDArray[np.uint8],
    threads: int = 1,
) -> dict[str, Any]: ...
def score_rows(
    table: npt.NDArray[np.int32],
    offsets: npt.NDArray[np.int64],
    threads: int = 1,
    details: int = 0,
) -> tuple[npt.NDArray[np.int64], dict[int, tuple[Any, ...]]]: ...
def score_games(
    flat: list[int],
    offsets: list[int],
    groups: list[int],
    style_limit: int,
    details: int = 0,
    columns: bool = False,
    figures: type[tuple[Any, ...]] | None = None,
    city_figures: type[tuple[Any, ...]] | None = None,
) -> tuple[
    list[tuple[Any, ...]],
    list[tuple[int, int, int]],
    dict[int, tuple[Any, ...]],
    npt.NDArray[np.int64] | None,
]: ...
def placements(
    flat: list[int], offsets: list[int], seat: int, figures: type[tuple[Any, ...]]
) -> tuple[tuple[Any, ...], list[int], list[tuple[Any, ...]], list[tuple[int, int, bool, int]]]: ...

class ReaderCatalog:
    def __init__(
        self,
        cards: list[tuple[str, bool, str, str, str, int, int, int]],
        withheld: list[str],
        facilities: tuple[str, ...],
        sides: tuple[str, ...],
    ) -> None: ...

#: JsonPacker.table()'s answer: (flat, offsets, first_city, rotated, styles, types).
_Table: TypeAlias = tuple[
    bytes, list[int], list[int], list[list[tuple[int, int, int, int]]], list[str], list[str]
]
#: A pass of the core over a table: (figures, styles over the box, listed, columns).
_Pass: TypeAlias = tuple[
    list[tuple[Any, ...]],
    list[tuple[int, int, int]],
    dict[int, tuple[Any, ...]],
    npt.NDArray[np.int64] | None,
]

class JsonPacker:
    def __init__(
        self,
        facilities: tuple[str, ...],
        sides: tuple[str, ...],
        max_cards: int,
        max_coordinate: int,
        max_points: int,
        max_stars: int,
        max_string: int,
    ) -> None: ...
    def add(self, game: bytes) -> int: ...
    def set_catalog(self, catalog: ReaderCatalog) -> None: ...
    def ids(self) -> list[list[str]]: ...
    def id_places(self) -> list[list[tuple[int, int, int, int]]]: ...
    def unresolved(self) -> list[bool]: ...
    def read_many(
        self,
        games: list[bytes],
        start: int,
        min_size: int,
        decode: Callable[[bytes], object],
        out: list[Any],
    ) -> tuple[int, bool]: ...
    def added_names(self) -> tuple[list[str], list[str]]: ...
    def read_alone(self, game: bytes, decode: Callable[[bytes], object]) -> Any: ...
    def scored_table(
        self,
        style_limit: int,
        details: int = 0,
        columns: bool = False,
        figures: type[tuple[Any, ...]] | None = None,
        city_figures: type[tuple[Any, ...]] | None = None,
    ) -> tuple[
        _Table,
        list[list[str]],
        list[bool],
        list[list[tuple[int, int, int, int]]],
        _Pass,
    ]: ...
    def head(self, game: bytes) -> bytes: ...
    def score(
        self,
        style_limit: int,
        details: int = 0,
        columns: bool = False,
        figures: type[tuple[Any, ...]] | None = None,
        city_figures: type[tuple[Any, ...]] | None = None,
    ) -> _Pass: ...
    def drop_last(self) -> None: ...
    def placements(
        self, seat: int, figures: type[tuple[Any, ...]]
    ) -> tuple[
        tuple[Any, ...], list[int], list[tuple[Any, ...]], list[tuple[int, int, bool, int]]
    ]: ...
    def cards(self, city: int) -> int: ...
    def table(self) -> _Table: ...
