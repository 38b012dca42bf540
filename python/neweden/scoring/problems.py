"""The problems a report tells of a game as a whole, and where each goes in the report
(under its player or at the top level, in document order)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol, overload

import msgspec

from neweden._version import __version__
from neweden.catalog.catalog import (
    Catalog,
    ResolvedCard,
    ResolvedExtras,
)
from neweden.format import codes
from neweden.format.model import Game, Placement
from neweden.format.modes import MODES as _MODES
from neweden.format.problems import Problem, join, pointer_order
from neweden.geometry.compact import (
    GameCards,
)
from neweden.i18n import _, current, ngettext
from neweden.rules.legality import (
    copy_limit,
    copy_limit_problems,
    duplicate_name_problems,
)
from neweden.rules.majority import MajoritySource, game_majority_table
from neweden.rules.names import GameNames, effect_warnings, name_problems
from neweden.rules.requirements import (
    declarations_ignored,
    declared_warning,
)
from neweden.rules.warnings import ROTATED_PATH, rotated_sentence
from neweden.scoring.types import (
    REPORT_FORMAT,
    GameAudit,
    PlayerReport,
    ProblemItem,
    Report,
)


class CardRules(Protocol):
    """What the table's problems ask of a game's rules with its cards."""

    def card_problems(self) -> list[Problem]: ...

    def placements(self, p: int) -> list[Placement]: ...


class _Cities(Sequence[list[Placement]]):
    """A game's cities as placed, each read from its rules when asked (a game read lean is
    decoded the exact way only then): what a name check asks of a card given by id."""

    def __init__(self, score: Callable[[], CardRules], players: int) -> None:
        self.score, self.players = score, players

    def __len__(self) -> int:
        return self.players

    @overload
    def __getitem__(self, p: int) -> list[Placement]: ...

    @overload
    def __getitem__(self, p: slice) -> Sequence[list[Placement]]: ...

    def __getitem__(self, p: int | slice) -> list[Placement] | Sequence[list[Placement]]:
        if isinstance(p, slice):
            return [self[k] for k in range(self.players)[p]]
        return self.score().placements(p)


#: A problem's path that points into a player: `/players/i` and below.
_PLAYER_PATH = re.compile(r"^/players/(\d+)(?:/|$)")


def table_problems(
    game: Game,
    extras: ResolvedExtras,
    info: GameCards,
    catalog: Catalog,
    *,
    illegal: Sequence[int],
    empty: Sequence[int],
    shown: GameNames | None,
    odd_effects: bool,
    score: Callable[[], CardRules],
    geometry: Callable[[int], list[Problem]],
) -> tuple[list[Problem], list[Problem]]:
    """The errors and warnings of a game's cards, cities and names (the rest of the table's
    warnings come after D5's and the first player's), each looked for first in what the
    packing and the core found: `illegal`, the players whose city is illegal; `empty`,
    those whose city has no card; `shown`, the
    game's names (None: the batch's names can have no problem); `odd_effects`, an epiphany
    may have an effect no rule knows; `geometry(p)`, city p's overlap and disconnected (an
    illegal one); `score()`, the game's rules with its cards (unknown ids, names a catalog
    does not declare)."""
    errors: list[Problem] = list(extras.problems)
    if info.unresolved or catalog.styles is not None or catalog.types is not None:
        errors.extend(score().card_problems())  # unknown ids, undeclared styles or types
    for p in illegal:
        errors.extend(geometry(p))
    if info.ids and _over_copies(info.ids, catalog, len(game.players)):
        errors.extend(_copies(info, catalog, len(game.players)))
    warnings = [_empty_city_warning(p, game.players[p].name) for p in empty] if empty else []
    errors.extend(duplicate_name_problems(game))
    if shown is not None:
        cities = _Cities(score, len(game.players)) if info.ids else None  # (cards by id)
        name_errors, name_warnings = name_problems(
            [p.name for p in game.players], shown, catalog=catalog, cities=cities
        )
        errors.extend(name_errors)
        warnings.extend(name_warnings)
    if odd_effects:
        warnings.extend(effect_warnings(game, extras.epiphanies, catalog))
    declares = game.declares()
    if not _MODES[game.mode].populist:
        if game.requirement_ids():
            warnings.append(_requirements_ignored(current()))
        if declares:
            warnings.extend(declarations_ignored(game))
    elif declares and (said := declared_warning(game, extras.requirements)) is not None:
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
    *,
    source: MajoritySource | None,
    rotated: Sequence[tuple[int, int, int, int]] = (),
) -> Report:
    """The report: each problem placed (under its player, or at the top level); `source`:
    where its D5 table comes from (:func:`majority_source`); `rotated`: the cards
    `rotated_without_epiphany` tells of (:func:`~neweden.rules.warnings.rotated_cards`)."""
    top_errors, top_warnings = _place_problems(players, errors, warnings)
    if rotated:
        _place_rotated(players, rotated)
    return Report(
        REPORT_FORMAT,
        __version__,
        catalog.name,
        not errors,
        game.mode,
        source,
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


def _copies(info: GameCards, catalog: Catalog, players: int) -> list[Problem]:
    """`copy_limit`: catalog cards shown more often than the game may, each city's cards
    given by id found where the packing left them (inline cards have no identity)."""
    turned = {(p, i) for p, i, _row, _col in info.rotated}
    cities: list[list[ResolvedCard]] = [[] for _ in range(players)]
    for card_id, (p, i, row, col) in zip(info.ids, info.id_places, strict=True):
        card = ResolvedCard(i, row, col, (p, i) in turned, catalog.card(card_id))
        cities[p].append(card)
    return copy_limit_problems(cities, [_city_path(p) for p in range(players)], players)


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


def _place_problems(
    players: list[PlayerReport], errors: list[Problem], warnings: list[Problem]
) -> tuple[list[ProblemItem], list[ProblemItem]]:
    """Each problem once: under players[i] when its path starts with /players/i, otherwise
    at the top level; in document order. A player is illegal exactly when one of their
    errors points into their city."""
    top_errors: list[ProblemItem] = []
    for (_order, p, in_city), problem in _in_order(errors):
        item = problem_item(problem)
        if p is None:
            top_errors.append(item)
        else:
            player = players[p]
            player.errors.append(item)
            if in_city:
                player.legal = False
    top_warnings: list[ProblemItem] = []
    for (_order, p, _in_city), problem in _in_order(warnings):
        (top_warnings if p is None else players[p].warnings).append(problem_item(problem))
    return top_errors, top_warnings


def _place_rotated(players: list[PlayerReport], cards: Sequence[tuple[int, int, int, int]]) -> None:
    """`rotated_without_epiphany` of each card, (player, index in the city, row, col) in city
    order, under its player among the player's other warnings in document order. The most
    frequent warning of a transcribed table: each made straight as the report lists it (its
    path known, not read back) and placed in its player's list, which is sorted again only
    where it held another warning already."""
    said, code = rotated_sentence(), codes.ROTATED_WITHOUT_EPIPHANY
    p = cards[0][0]
    paths = _rotated_paths(p)
    made: list[ProblemItem] = []
    for q, index, row, col in cards:
        if q != p:
            _add_warnings(players[p], made)
            p, made, paths = q, [], _rotated_paths(q)
        path = paths[index] if index < _PATHS_MADE else ROTATED_PATH % (q, index)
        made.append(ProblemItem(code, said((index, row, col)), path, [[row, col]]))
    _add_warnings(players[p], made)


#: The rotated cards' paths made ahead for each player: the cards at these first indices.
_PATHS_MADE = 64


@functools.lru_cache(maxsize=16)
def _rotated_paths(p: int) -> tuple[str, ...]:
    """The rotated-card paths of player p's cards at index 0 to _PATHS_MADE - 1 in the city,
    made once (a path is the same in every game; formatting one was a third of a warning's
    making)."""
    return tuple([ROTATED_PATH % (p, index) for index in range(_PATHS_MADE)])


def _add_warnings(player: PlayerReport, items: list[ProblemItem]) -> None:
    """`items` (in document order) among the player's warnings (in document order too); a
    stable sort keeps the order of warnings at one path."""
    if player.warnings:
        items = sorted([*player.warnings, *items], key=_item_order)
    player.warnings = items


def _item_order(item: ProblemItem) -> tuple[tuple[int, int | str], ...]:
    """The sort key of a placed problem: the place of its path in the document."""
    return _place(item.path)[0]


def _in_order(problems: list[Problem]) -> list[tuple[_Placed, Problem]]:
    """Problems with their places, in the order of their paths in the document (stable:
    one path's problems as found)."""
    placed = [(_place(problem.path), problem) for problem in problems]
    if len(placed) > 1:
        placed.sort(key=_first_order)
    return placed


def _first_order(placed: tuple[_Placed, Problem]) -> tuple[tuple[int, int | str], ...]:
    """The sort key of a placed problem: the place of its path in the document (only: two
    paths of one place may point into different players, written another way)."""
    return placed[0][0]


def problem_item(problem: Problem) -> ProblemItem:
    """A problem as the report lists it (its cells as lists, as the report's dict holds
    them)."""
    cells = problem.cells
    if len(cells) == 1:  # (most problems name one cell: made without a comprehension)
        listed = [[cells[0][0], cells[0][1]]]
    else:
        listed = [[r, c] for r, c in cells] if cells else []
    return ProblemItem(problem.code, problem.message, problem.path, listed)


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
