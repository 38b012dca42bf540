"""Decoding a game: a fast path, and on failure a pass that finds every problem.

The fast path is msgspec decoding into :class:`neweden.format.model.Game` plus the cross-field
checks of :mod:`neweden.format.checks`. msgspec stops at the first error, so when anything fails, a
second pass decodes the JSON generically and walks it against the *same* types, read through
:func:`msgspec.inspect.type_info`: every decode problem of FORMAT §3.1 is listed, each with
its JSON Pointer. The cross-field checks are the same functions in both passes.

Inputs that could make a decoder allocate or recurse in proportion are refused first: a game
over 1 MiB is one ``too_large`` at the root before any parsing; nesting deeper than the
interpreter can follow is cut at a fixed depth before the generic decode, so a ``meta``
nested 1,000 levels is a ``too_large`` at ``/meta``, not a :class:`RecursionError`.

The steps live beside this module: a game as bytes (:mod:`neweden.format.game_bytes`), its
JSON read without types (:mod:`neweden.format.untyped`), the walk against the types
(:mod:`neweden.format.walk`) and the words of a text that is not JSON
(:mod:`neweden.format.not_json`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec
from msgspec import inspect as mi

from neweden.format import codes
from neweden.format.checks import CROSS_CHECKS, decoded_is_sound
from neweden.format.game_bytes import GameInput, game_bytes
from neweden.format.model import Bonus, EpiphanyEntry, Game, InlineCard, LoneCity, Placement, Player
from neweden.format.not_json import not_json
from neweden.format.problems import GameDecodeError, Problem
from neweden.format.untyped import generic_value, generic_value_with_repeated_keys
from neweden.format.walk import MAX_LISTED_PROBLEMS, CrossCheck, Sound, Walk
from neweden.i18n import N_, _, ngettext, number

__all__ = [
    "GameInput",
    "as_declared",
    "decode_card",
    "decode_city",
    "decode_game",
    "decode_game_bytes",
    "find_problems",
    "game_bytes",
    "not_json",
    "plain_card",
]

Doc = TypeVar("Doc", Game, LoneCity)

#: How messages name each struct (marked here, translated where a message is made).
_LABELS: dict[type, str] = {
    Game: N_("a game"),
    Player: N_("a player"),
    Placement: N_("a city entry"),
    InlineCard: N_("a card"),
    EpiphanyEntry: N_("an epiphany"),
    Bonus: N_("a bonus"),
    LoneCity: N_("a lone city"),
}


# --- the fast path ------------------------------------------------------------------------


@cache
def _decoder(doc_type: type[Doc]) -> msgspec.json.Decoder[Doc]:
    return msgspec.json.Decoder(doc_type)


#: What the every-problem walk reads of each type, made once: msgspec's `type_info`
#: evaluates every annotation again each time (1 ms for a game, its fields' descriptions
#: included).
_TYPE_INFO: dict[type, mi.Type] = {}


def _type_info(doc_type: type) -> mi.Type:
    info = _TYPE_INFO.get(doc_type)
    if info is None:
        info = _TYPE_INFO[doc_type] = mi.type_info(doc_type)
    return info


def _decode(game: GameInput, doc_type: type[Doc], *, cells: bool = True) -> Doc:
    return _decode_bytes(game_bytes(game), doc_type, cells=cells)


def _decode_bytes(raw: bytes, doc_type: type[Doc], *, cells: bool = True) -> Doc:
    try:
        doc: Doc = _decoder(doc_type).decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        # msgspec checks every value of a key given twice, the plain decode keeps the last:
        # when the walk finds nothing, the problem is in an earlier value of a repeated key.
        problems = find_problems(raw, doc_type, cells=cells) or find_problems(
            raw, doc_type, repeated_keys=True, cells=cells
        )
        raise GameDecodeError(problems) from None
    if not decoded_is_sound(doc):
        # Let the every-problem pass list them, so the order is the document's.
        raise GameDecodeError(find_problems(raw, doc_type, cells=cells))
    return doc


def decode_game(game: GameInput) -> Game:
    """Decode a game (FORMAT §1) from JSON bytes, str or a mapping; ids are not resolved here.

    Parameters
    ----------
    game : bytes, bytearray, memoryview, str or mapping
        The game's JSON document (a byte-order mark at its start is taken off), or a mapping
        of JSON's own types (a value JSON cannot carry, NaN or a set, is a problem at its
        pointer).

    Returns
    -------
    Game
        The decoded game, its card, requirement and epiphany ids as written (look them up
        with :func:`neweden.resolve_game`).

    Raises
    ------
    GameDecodeError
        When the input is not a readable game: ``.problems`` lists every decode problem
        (FORMAT §3.1), each at its JSON Pointer. A game over 1 MiB is one ``too_large`` at
        the root.
    TypeError
        For an input that is not bytes, str or a mapping.

    Examples
    --------
    >>> import neweden
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> game = neweden.decode_game(example)  # the built-in example (neweden score --example)
    >>> game.mode, [player.name for player in game.players]
    ('elitist', ['Sarah', 'Bruno', 'Carla'])

    Every problem is listed, not only the first:

    >>> try:
    ...     neweden.decode_game({"mode": "populist"})
    ... except neweden.GameDecodeError as err:
    ...     for problem in err.problems:
    ...         print(problem.line())
    /players: missing_field: a game needs `players`
    /requirements: missing_field: a populist game needs `requirements`: the requirement ...
    """
    return _decode(game, Game)


def decode_game_bytes(raw: bytes) -> Game:
    """:func:`decode_game` of bytes that :func:`game_bytes` gave (its byte-order mark already
    taken off: a second mark is not taken off again)."""
    return _decode_bytes(raw, Game)


def decode_city(city: GameInput) -> LoneCity:
    """Decode a lone city `{"city": [...]}`, as the validation calls accept it.

    Parameters
    ----------
    city : bytes, bytearray, memoryview, str or mapping
        The lone city's JSON document, or a mapping of JSON's own types, read as
        :func:`decode_game` reads a game.

    Returns
    -------
    LoneCity
        The decoded city; its card ids are not resolved here (:func:`neweden.resolve_city`
        looks them up).

    Raises
    ------
    GameDecodeError
        When the input is not a readable lone city: ``.problems`` lists every decode
        problem, each at its JSON Pointer (``/city/0/col``).
    TypeError
        For an input that is not bytes, str or a mapping.

    Examples
    --------
    >>> import neweden
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0, "sides": ["right"]}
    >>> lone = neweden.decode_city({"city": [{"row": 0, "col": 0, "card": card},
    ...                                      {"row": 0, "col": 1, "card": "EX-card"}]})
    >>> [(entry.row, entry.col) for entry in lone.city]
    [(0, 0), (0, 1)]
    >>> lone.city[0].card.style, lone.city[1].card  # an inline card, then a catalog id
    ('ex_gothic', 'EX-card')
    >>> try:
    ...     neweden.decode_city({"city": [{"row": 0, "card": "EX-card"}]})
    ... except neweden.GameDecodeError as err:
    ...     print(err)
    /city/0/col: missing_field: a city entry needs `col`
    """
    return _decode(city, LoneCity)


def decode_card(card: Any) -> LoneCity:
    """A card asked about alone (a catalog id or an inline card, as a city entry holds it; a
    placements question): decoded as the one entry of a lone city at (0, 0) with the checks
    of a card, its problems at `/city/0/card...` and, that cell being made up, told without
    it. Raises :class:`GameDecodeError`."""
    doc = {"city": [{"row": 0, "col": 0, "card": card}]}
    data: GameInput = doc  # walked value by value: what JSON cannot hold told at its pointer
    if plain_card(card):  # JSON's own types only: encoded at once (no walk)
        with contextlib.suppress(TypeError, ValueError, OverflowError):  # an int past 64 bits
            data = msgspec.json.encode(doc)
    return _decode(data, LoneCity, cells=False)


_SCALARS = frozenset((str, int, bool, type(None)))


def plain_card(card: Any) -> bool:
    """Whether a card holds JSON's own types only (exactly: not a subclass, not a set, no
    NaN), one level of lists at most, as a card does: encoding it cannot change a value."""
    kind = type(card)
    if kind is str:
        return True
    if kind is not dict:
        return False
    for key, value in card.items():
        if type(key) is not str:
            return False
        held = type(value)
        if held is list:
            for item in value:
                if type(item) not in _SCALARS:
                    return False
        elif held not in _SCALARS:
            return False
    return True


# --- the every-problem pass ---------------------------------------------------------------


def find_problems(
    raw: bytes,
    doc_type: type[Any] = Game,
    *,
    labels: Mapping[type, str] | None = None,
    checks: Mapping[type, CrossCheck] | None = None,
    repeated_keys: bool = False,
    cells: bool = True,
) -> list[Problem]:
    """Every decode problem of `raw` as a `doc_type`, in document order (FORMAT §3.1).

    `labels` name the structs in messages and `checks` are their cross-field checks; both
    default to the game format's. With `repeated_keys`, every value of a key given twice in
    one object is checked, not only the last (as msgspec's typed decoding does). `cells`:
    a problem in a city entry says the card's cell at the end of its message."""
    try:
        doc = generic_value_with_repeated_keys(raw) if repeated_keys else generic_value(raw)
    except msgspec.DecodeError as exc:
        return [not_json(exc, raw)]
    # with the game format's checks, a city entry they pass is not walked; but not when every
    # value of a repeated key is checked
    labels = _LABELS if labels is None else labels
    if checks is None:
        sound: dict[type, Sound] = {}
        if not repeated_keys:  # (a key's earlier value, in a card too, is not msgspec's)
            sound[Placement] = placements_are_sound
        walk = Walk(labels, CROSS_CHECKS, sound)
    else:
        walk = Walk(labels, checks)
    walk.value(doc, _type_info(doc_type), "", ())
    problems = [_with_cell(problem, doc) for problem in walk.problems] if cells else walk.problems
    if not walk.unlisted:
        return problems
    more = Problem(
        code=codes.TOO_LARGE,
        message=ngettext(
            "and {count} more problem(s), not listed: at most {limit} are",
            "and {count} more problem(s), not listed: at most {limit} are",
            walk.unlisted,
            count=number(walk.unlisted),
            limit=MAX_LISTED_PROBLEMS,
        ),
        path="",
    )
    return [*problems, more]


def placements_are_sound(values: list[Any]) -> bool:
    """Whether city entries, generically decoded, each decode as a :class:`Placement` and
    pass the fast path's checks: the every-problem pass has nothing to list in them (a game
    that does not decode has most of its cards sound; they are checked at C speed, a run of
    entries at a time, not walked field by field). Converted as a :class:`LoneCity`: msgspec
    converts to a Struct several times faster than to a ``list[Placement]``, whose type it
    reads again at each call."""
    try:
        lone = msgspec.convert({"city": values}, LoneCity)
    except (msgspec.ValidationError, TypeError, ValueError):
        return False
    return decoded_is_sound(lone)


#: The path of a city entry (of a player, or of a lone city) and what lies below it.
_CITY_ENTRY = re.compile(r"(?:/players/(\d+))?/city/(\d+)(?:/.*)?")


def _cell_of(doc: Any, path: str) -> tuple[int, int] | None:
    """The (row, col) of the city entry holding `path`, when the entry gives both as
    integers; None otherwise (a path outside a city, an entry without a cell)."""
    found = _CITY_ENTRY.fullmatch(path)
    if found is None:
        return None
    player, entry = found.groups()
    try:
        owner = doc["players"][int(player)] if player is not None else doc
        place = owner["city"][int(entry)]
        row, col = place["row"], place["col"]
    except (KeyError, IndexError, TypeError):
        return None
    if type(row) is not int or type(col) is not int:
        return None
    return row, col


def _with_cell(problem: Problem, doc: Any) -> Problem:
    """A problem inside a city entry with the card's cell said at the end of its message,
    so a transcriber finds the card on the photo (the path stays a JSON Pointer)."""
    cell = _cell_of(doc, problem.path)
    if cell is None:
        return problem
    where = _("card at row {row}, column {column}", row=cell[0], column=cell[1])
    return Problem(code=problem.code, message=f"{problem.message} ({where})", path=problem.path)


_Answer = TypeVar("_Answer")


def as_declared(game: Game, use: Callable[[Game], _Answer]) -> _Answer:
    """`use(game)` for a Game a caller built by hand, made of the types its fields declare
    when `use` refuses the types it holds: its values as they are, its containers as lists (a
    tuple for a list), as a decoded game holds them. The compiled rules check each value's
    type as they read it where Python reads a tuple as a list (docs/architecture.md, "The
    build"); a game of the declared types (every decoded one) is used as it is, at no cost.
    TypeError naming the field where a value is not of its field's type (a float for an int):
    compiled, such a game is refused; as Python, it may have been read."""
    try:
        return use(game)
    except TypeError:
        if game.__class__ is not Game:  # (a LeanGame, or another kind: as it was refused)
            raise
        try:
            declared = msgspec.convert(msgspec.to_builtins(game), Game)
        except msgspec.ValidationError as err:
            raise TypeError(
                f"the Game given holds a value of another type than its field's: {err}"
            ) from None
        return use(declared)
