"""The cross-field checks of the game format (FORMAT §1), shared by both decoding passes.

msgspec checks each value against its type; these few checks relate fields to each other.
They are the whole list, and both the fast path (on decoded structs) and the every-problem
pass (on the raw JSON objects, see :mod:`neweden.format.decode`) call these same functions:

1. an inline card is either wild (``"wild": true`` and no style, type, facility or sides) or
   common (style, type, facility, points, stars and sides all given), and its sides are
   distinct;
2. ``requirements`` is required in the populist and elitist modes;
3. an epiphany is given either by catalog id (``card``) or inline (``points``, optional
   ``effect``), not both;
4. ``meta`` is at most 16 KiB as compact JSON and at most 32 levels deep;
5. a requirement id is listed at most once;
6. ``majority_table`` holds one value a player, not increasing;
7. each id of a player's ``requirements_met`` is one of ``requirements``, listed once (in a
   game that plays requirement cards).

The style, type and effect names are also folded here as players write them (RULES §1:
:func:`decoded_is_sound`, :func:`neweden.format.vocabulary.fold`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

import msgspec
from msgspec import UNSET

from neweden.format import codes
from neweden.format.model import (
    CATALOG_ID_PATTERN,
    IDENTIFIER_PATTERN,
    MAX_META_BYTES,
    MAX_META_DEPTH,
    MAX_POINTS,
    SIDES,
    EpiphanyEntry,
    Game,
    InlineCard,
    LoneCity,
    Placement,
    Player,
)
from neweden.format.modes import MODES_WITH_REQUIREMENTS
from neweden.format.problems import Problem, a_game, join
from neweden.format.vocabulary import Named, fold
from neweden.i18n import _, ngettext, number

__all__ = ["CROSS_CHECKS", "Fields", "decoded_is_sound", "game_problems", "head_is_sound"]

COMMON_CARD_FIELDS = ("style", "type", "facility", "points", "stars", "sides")
WILD_FORBIDDEN = ("style", "type", "facility", "sides")


class Fields(Protocol):
    """The fields given on one JSON object, by name (the exact decoder's walk hands a dict;
    a decoded game's own fields are read by :func:`game_problems`)."""

    def __contains__(self, name: object, /) -> bool: ...

    def get(self, name: str, /) -> Any: ...


def check_inline_card(fields: Fields, path: str) -> list[Problem]:
    problems: list[Problem] = []
    if "wild" in fields:
        for name in WILD_FORBIDDEN:
            if name in fields:
                problems.append(
                    Problem(
                        code=codes.UNKNOWN_FIELD,
                        message=_(
                            "a wild card has no `{name}`: it joins every style and type and "
                            "has all four sides",
                            name=name,
                        ),
                        path=join(path, name),
                    )
                )
    else:
        for name in COMMON_CARD_FIELDS:
            if name not in fields:
                problems.append(
                    Problem(
                        code=codes.MISSING_FIELD,
                        message=_(
                            'a common card needs `{name}` (or give `"wild": true` for a wild card)',
                            name=name,
                        ),
                        path=join(path, name),
                    )
                )
    sides = fields.get("sides")
    # More than four sides is the type's own length problem; repeats are counted here.
    if isinstance(sides, list) and len(sides) <= 4:
        problems.extend(
            Problem(
                code=codes.BAD_VALUE,
                message=_(
                    'the side "{side}" is given twice on this card; each side has at most one icon',
                    side=side,
                ),
                path=join(path, "sides", i),
            )
            for i, _first, side in _later_repeats(sides)
        )
    return problems


def _later_repeats(items: list[Any]) -> list[tuple[int, int, str]]:
    """(index, index of its first place, value) of each string given again in a list."""
    first: dict[str, int] = {}
    repeats = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            if item in first:
                repeats.append((i, first[item], item))
            else:
                first[item] = i
    return repeats


def check_epiphany(fields: Fields, path: str) -> list[Problem]:
    if "card" in fields:
        return [
            Problem(
                code=codes.UNKNOWN_FIELD,
                message=_(
                    "an epiphany given by `card` takes its `{name}` from the catalog; give "
                    "either `card` or the inline fields",
                    name=name,
                ),
                path=join(path, name),
            )
            for name in ("points", "effect")
            if name in fields
        ]
    if "points" not in fields:
        return [
            Problem(
                code=codes.MISSING_FIELD,
                message=_("an epiphany needs `card` (a catalog id) or `points` (2 or 5)"),
                path=join(path, "points"),
            )
        ]
    return []


def _json_depth_over(value: Any, limit: int) -> bool:
    """True when `value` nests more than `limit` containers (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def check_meta(meta: Any, path: str) -> list[Problem]:
    if not isinstance(meta, dict):
        return []  # a type problem, reported by the type check
    if _json_depth_over(meta, MAX_META_DEPTH):
        return [
            Problem(
                code=codes.TOO_LARGE,
                message=_(
                    "`meta` is nested more than {limit} levels deep; the limit is {limit}",
                    limit=MAX_META_DEPTH,
                ),
                path=path,
            )
        ]
    size = len(msgspec.json.encode(meta))
    if size > MAX_META_BYTES:
        return [
            Problem(
                code=codes.TOO_LARGE,
                message=_(
                    "`meta` is {size} bytes as compact JSON; the limit is {limit} (16 KiB)",
                    size=number(size),
                    limit=number(MAX_META_BYTES),
                ),
                path=path,
            )
        ]
    return []


def check_game(fields: Fields, path: str) -> list[Problem]:
    players = fields.get("players")
    game = GameFields(
        fields.get("mode"),
        "requirements" in fields,
        fields.get("requirements"),
        "meta" in fields,
        fields.get("meta"),
    )
    problems = game_problems(game, path)
    if isinstance(players, list):
        problems += majority_table_problems(fields.get("majority_table"), len(players), path)
        declared = [
            (p, player.get("requirements_met"))
            for p, player in enumerate(players)
            if isinstance(player, dict) and "requirements_met" in player
        ]
        mode, requirements = fields.get("mode"), fields.get("requirements")
        problems += declared_problems(mode, requirements, declared, path)
    return problems


def majority_table_problems(table: Any, players: int, path: str) -> list[Problem]:
    """A game's D5 table (RULES §4a, FORMAT §1) against its number of players: one value a
    place, as many as players, not increasing (each value's type and range are its type's)."""
    if not isinstance(table, list):
        return []
    if len(table) != players:
        return [
            Problem(
                code=codes.BAD_VALUE,
                message=ngettext(
                    "this game has {n} player: the D5 table needs {n} value, the one printed "
                    "for the place; it has {count}",
                    "this game has {n} players: the D5 table needs {n} values, the one printed "
                    "for each place; it has {count}",
                    players,
                    count=len(table),
                ),
                path=join(path, "majority_table"),
            )
        ]
    return [
        Problem(
            code=codes.BAD_VALUE,
            message=_(
                "the D5 table may not increase: place {place} is worth {worth}, more than "
                "place {before} ({earlier})",
                place=k + 1,
                worth=table[k],
                before=k,
                earlier=table[k - 1],
            ),
            path=join(path, "majority_table", k),
        )
        for k in range(1, len(table))
        if _is_points(table[k]) and _is_points(table[k - 1]) and table[k] > table[k - 1]
    ]


def _is_points(value: Any) -> bool:
    """A value of the D5 table that its type accepts (another has its own problem)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def declared_problems(
    mode: Any, requirements: Any, declared: list[tuple[int, Any]], path: str
) -> list[Problem]:
    """The players' `requirements_met` (`declared`: each player's index and list) against
    the requirement cards in play: an id that is not one of them, or one listed twice, is a
    problem at its place. A Military game ignores them (a warning of the rules)."""
    if mode not in MODES_WITH_REQUIREMENTS or not isinstance(requirements, list):
        return []
    in_play = {r for r in requirements if isinstance(r, str)}
    problems: list[Problem] = []
    for p, ids in declared:
        if not isinstance(ids, list):
            continue
        at = join(path, "players", p, "requirements_met")
        for k, req_id in enumerate(ids):
            if _is_catalog_id(req_id) and req_id not in in_play:  # (else: its type's problem)
                problems.append(_not_in_play(req_id, requirements, join(at, k)))
        problems.extend(
            Problem(
                code=codes.BAD_VALUE,
                message=_(
                    'the requirement "{id}" is declared met twice (items {first} and {again})',
                    id=req_id,
                    first=first,
                    again=i,
                ),
                path=join(at, i),
            )
            for i, first, req_id in _later_repeats(ids)
        )
    return problems


def _is_catalog_id(value: Any) -> bool:
    return isinstance(value, str) and _CATALOG_ID.fullmatch(value) is not None


_CATALOG_ID = re.compile(CATALOG_ID_PATTERN)


def _not_in_play(req_id: str, requirements: list[Any], path: str) -> Problem:
    listed = ", ".join(str(r) for r in requirements) or _("none")
    return Problem(
        code=codes.BAD_VALUE,
        message=_(
            'the requirement "{id}" is not in play: `requirements` lists {listed}; a player '
            "can only have met a card in play",
            id=req_id,
            listed=listed,
        ),
        path=path,
    )


class GameFields(NamedTuple):
    """The fields of a game its own cross-field checks read (`has_*`: the field was given)."""

    mode: Any
    has_requirements: bool
    requirements: Any
    has_meta: bool
    meta: Any


def game_problems(game: GameFields, path: str) -> list[Problem]:
    """A game's cross-field problems, from its fields: a mode that plays requirement cards
    without them, a requirement given twice, `meta` too large or too deep."""
    mode, requirements, meta = game.mode, game.requirements, game.meta
    problems: list[Problem] = []
    if mode in MODES_WITH_REQUIREMENTS and not game.has_requirements:
        problems.append(
            Problem(
                code=codes.MISSING_FIELD,
                message=_(
                    "{game} needs `requirements`: the requirement cards in play",
                    game=a_game(mode),
                ),
                path=join(path, "requirements"),
            )
        )
    if isinstance(requirements, list) and len(set(map(str, requirements))) < len(requirements):
        problems.extend(_repeated_requirements(requirements, path))
    if game.has_meta:
        problems.extend(check_meta(meta, join(path, "meta")))
    return problems


def _repeated_requirements(requirements: list[Any], path: str) -> list[Problem]:
    """A requirement card is in play once: an id listed again would count a second star
    (RULES §4a), so each later place of an id is a problem."""
    return [
        Problem(
            code=codes.BAD_VALUE,
            message=_(
                'the requirement "{id}" is listed twice (items {first} and {again}); a '
                "requirement card is in play once",
                id=req_id,
                first=first,
                again=i,
            ),
            path=join(path, "requirements", i),
        )
        for i, first, req_id in _later_repeats(requirements)
    ]


#: The cross-field check of each struct that has one; the every-problem pass calls it on the
#: raw object after checking the object's own fields.
CROSS_CHECKS: dict[type, Callable[[Fields, str], list[Problem]]] = {
    InlineCard: check_inline_card,
    EpiphanyEntry: check_epiphany,
    Game: check_game,
}


# --- the fast path's yes/no form of the same checks ------------------------------------------
#
# The fast path only needs to know whether any cross-field problem exists (if one does, the
# every-problem pass lists them with the functions above). These predicates say the same
# rules from the same constants, without building pointers or problems; the property tests
# check that the two forms agree on every generated input.


class _Matched:
    """The strings known to match one pattern: games repeat the same few ids, so each
    distinct string is matched once (`value in known` is the fast path)."""

    __slots__ = ("known", "pattern")
    LIMIT = 4096

    def __init__(self, pattern: str) -> None:
        self.pattern = re.compile(pattern)
        self.known: set[str] = set()

    def learn(self, value: object) -> bool:
        if not isinstance(value, str) or self.pattern.fullmatch(value) is None:
            return False
        if len(self.known) >= self.LIMIT:
            self.known.clear()
        self.known.add(value)
        return True


_IDENTIFIER = re.compile(IDENTIFIER_PATTERN)
_CATALOG_IDS = _Matched(CATALOG_ID_PATTERN)


class _Folded:
    """The style, type (or effect) names seen: `plain` those that read as themselves
    (identifiers that are no alias), `folded` the others with the name each reads as (RULES
    §1: folded as players write it, a Portuguese alias made its English identifier). A plain
    name costs one set look-up a card on the fast path."""

    __slots__ = ("folded", "named", "plain")
    LIMIT = 4096

    def __init__(self, named: Named) -> None:
        self.named: Named = named
        self.plain: set[str] = set()
        self.folded: dict[str, str] = {}

    def read(self, value: str) -> str | None:
        """What `value` reads as: itself, its folded name, or None (no name)."""
        if value in self.plain:
            return value
        read = self.folded.get(value)
        if read is not None:
            return read
        read = fold(value, self.named)
        if _IDENTIFIER.fullmatch(read) is None:
            return None
        if read != value:
            if len(self.folded) < self.LIMIT:
                self.folded[value] = read
            return read
        if len(self.plain) >= self.LIMIT:
            self.plain.clear()
        self.plain.add(value)
        return value


_READERS: dict[Named, _Folded] = {named: _Folded(named) for named in ("style", "type", "effect")}
_STYLES, _TYPES, _EFFECTS = _READERS["style"], _READERS["type"], _READERS["effect"]


def read_as_written(styles: Sequence[str], types: Sequence[str]) -> bool:
    """Whether each of these style and type names is known to read as itself (one seen
    before, plain): nothing to fold (a set test each, where :func:`fold_name` is a call)."""
    return _STYLES.plain.issuperset(styles) and _TYPES.plain.issuperset(types)


def fold_name(value: str, named: Named) -> str | None:
    """A style, type or effect name as it reads (folded, RULES §1), or None when it is no
    name even folded."""
    return _READERS[named].read(value)


def _catalog_id(value: object) -> bool:
    return value is UNSET or value in _CATALOG_IDS.known or _CATALOG_IDS.learn(value)


#: The fields whose type carries a pattern, checked on the fast path below (a test checks
#: this list against the types' metadata).
PATTERN_FIELDS = {
    (InlineCard, "style"),
    (InlineCard, "type"),
    (EpiphanyEntry, "effect"),
    (EpiphanyEntry, "card"),
    (Placement, "card"),
    (Game, "requirements"),
    (Player, "requirements_met"),
}


#: Every order of every set of distinct sides (msgspec has checked the names and 1-4 of
#: them): 64 tuples, so a card's sides are checked with one look-up.
_DISTINCT_SIDES = frozenset(
    order for n in range(len(SIDES) + 1) for order in itertools.permutations(SIDES, n)
)


def decoded_is_sound(doc: Game | LoneCity) -> bool:
    """True when a document that msgspec decoded has no cross-field problem. The style and
    type names of its inline cards and the effects of its epiphanies are folded on the way
    (RULES §1: a sound document holds the names as they read)."""
    # Plain loops here and below: they run for every game decoded, and all() over a
    # generator or a list costs a call more each time.
    if isinstance(doc, Game):
        if not head_is_sound(doc):
            return False
        for player in doc.players:  # noqa: SIM110
            if not _cards_are_sound(player.city):
                return False
        return True
    return _cards_are_sound(doc.city)


def head_is_sound(game: Game) -> bool:
    """:func:`decoded_is_sound` of everything but the cities: the game's own fields, the
    requirement ids, each player's epiphanies."""
    requirements, meta = game.requirements, game.meta
    given = requirements is not UNSET
    plain = meta is UNSET and (given or game.mode not in MODES_WITH_REQUIREMENTS)
    if plain and isinstance(requirements, list):  # (game_problems' checks, told yes or no)
        plain = len(set(map(str, requirements))) == len(requirements)
    if not plain and game_problems(
        GameFields(game.mode, given, requirements if given else None, meta is not UNSET, meta), ""
    ):
        return False
    if isinstance(requirements, list):
        known = _CATALOG_IDS.known
        for requirement in requirements:
            if requirement not in known and not _catalog_id(requirement):
                return False
    if game.majority_table is not UNSET and majority_table_problems(
        game.majority_table, len(game.players), ""
    ):
        return False
    if not _declarations_are_sound(game):
        return False
    # each epiphany: its effect a name (folded on the way), its card a catalog id, and either
    # a card or points (check_epiphany's rules, told yes or no); inline: this runs for every
    # game
    effects, catalog_ids = _EFFECTS.plain, _CATALOG_IDS.known
    for player in game.players:
        for epiphany in player.epiphanies:
            effect, card = epiphany.effect, epiphany.card
            if not (effect is UNSET or effect in effects):  # a name to fold, or none
                read = _EFFECTS.read(effect)
                if read is None:
                    return False
                epiphany.effect = read
            if card is UNSET:
                if epiphany.points is UNSET:
                    return False
            elif not (
                (card in catalog_ids or _CATALOG_IDS.learn(card))
                and epiphany.points is UNSET
                and effect is UNSET
            ):
                return False
    return True


def _declarations_are_sound(game: Game) -> bool:
    """:func:`declared_problems` told yes or no; each id a catalog id (its type's pattern)."""
    if not game.declares():  # (nearly every game: nothing made)
        return True
    declared = [
        (p, player.requirements_met)
        for p, player in enumerate(game.players)
        if player.requirements_met is not UNSET
    ]
    for _p, ids in declared:
        for req_id in ids:
            if req_id not in _CATALOG_IDS.known and not _catalog_id(req_id):
                return False
    return not declared_problems(game.mode, game.requirements, declared, "")


def _cards_are_sound(city: list[Placement]) -> bool:
    plain_styles, plain_types = _STYLES.plain, _TYPES.plain
    for placement in city:
        card = placement.card
        if isinstance(card, str):
            if not _catalog_id(card):
                return False
            continue
        # An inline card: the fields of WILD_FORBIDDEN or COMMON_CARD_FIELDS, read once
        # each, inline (this runs for every card of every game).
        if card.wild is not UNSET:
            if not (card.style is card.type is card.facility is card.sides is UNSET):
                return False
            continue
        style, type_, sides = card.style, card.type, card.sides
        if (
            style is UNSET
            or type_ is UNSET
            or sides is UNSET
            or card.facility is UNSET
            or card.points is UNSET
            or card.stars is UNSET
            or tuple(sides) not in _DISTINCT_SIDES
        ):
            return False
        if style not in plain_styles:  # a name to fold, or none
            folded = _STYLES.read(style)
            if folded is None:
                return False
            card.style = folded
        if type_ not in plain_types:
            folded = _TYPES.read(type_)
            if folded is None:
                return False
            card.type = folded
    return True
