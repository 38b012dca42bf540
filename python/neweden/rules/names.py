"""A typo must not change a score (RULES §1): the style and type names of one game against
what the box holds, near misses of the names the manual gives (`misspelled_name`), names
that look alike, and epiphany effects the rules do not know.

The names are read from the game's rows of the packed score table (every player's common
cards, placed or left out on a taken cell); the cards are walked again only for a game that
has a problem, to count them and to say where they are.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from neweden.catalog.catalog import Catalog, EpiphanySpec
from neweden.format import codes
from neweden.format.model import Game
from neweden.format.problems import Problem, did_you_mean, join
from neweden.format.vocabulary import (
    ALIASES,
    KNOWN_EFFECTS,
    KNOWN_NAMES,
    MAX_STYLES,
    MAX_TYPES,
    SIMILAR_DISTANCE,
    Attribute,
    distance_within,
    folded,
    looks_alike,
    name_order,
    nearest,
)
from neweden.geometry.compact import COL, FLAGS, ROW, STYLE, TYPE, WIDTH
from neweden.i18n import N_, _, ngettext

__all__ = [
    "GameNames",
    "NamesMemo",
    "batch_quiet",
    "effect_warnings",
    "known_effects",
    "misspelling",
    "mistyped",
    "name_problems",
]

_LIMITS: dict[Attribute, tuple[int, str, str]] = {
    "style": (MAX_STYLES, "style", "styles"),
    "type": (MAX_TYPES, "type", "types"),
}


#: quiet() of the sets of style and type codes a batch's games showed, by those sets.
NamesMemo = dict[tuple[frozenset[int], frozenset[int]], bool]


#: A name a common card shows: None for a card of a catalog built in Python that has none
#: (a missing name is no name to check: it looks like nothing and suggests nothing).
Shown = str | None


def _named(names: Iterable[Shown]) -> list[str]:
    """The names among `names` that are names, in their order (None: no name to check)."""
    return [name for name in names if isinstance(name, str)]


class GameNames:
    """The rows of one game in the packed table, and the batch's interned names (`alone`:
    the batch is this game alone, so its interned names are the ones the game shows)."""

    __slots__ = ("alone", "flat", "memo", "names", "offsets", "start", "stop")

    def __init__(
        self,
        flat: Sequence[int],
        offsets: Sequence[int],
        cities: tuple[int, int],
        names: Mapping[Attribute, Sequence[Shown]],
        *,
        alone: bool = False,
        memo: NamesMemo | None = None,
    ) -> None:
        self.alone = alone
        self.flat = flat
        self.offsets = offsets
        self.start, self.stop = cities
        self.names = names
        #: quiet() of the sets of style and type codes met before in the batch (the codes
        #: index the batch's names: the same codes, the same names)
        self.memo = memo

    def shown(self, attribute: Attribute) -> frozenset[Shown]:
        """The names of `attribute` the game's common cards show."""
        if self.alone:
            return frozenset(self.names[attribute])
        column = STYLE if attribute == "style" else TYPE
        lo = self.offsets[self.start] * WIDTH + column
        hi = self.offsets[self.stop] * WIDTH
        codes = set(self.flat[lo:hi:WIDTH])
        codes.discard(-1)
        return frozenset(map(self.names[attribute].__getitem__, codes))

    def quiet(self) -> bool:
        """Whether the game's names need no error and no warning (one look-up for the sets
        of names met before: games repeat the same few; in a batch, for the sets of their
        codes, cheaper to gather)."""
        memo, codes = self.memo, None
        if memo is not None and not self.alone:
            lo, hi = self.offsets[self.start] * WIDTH, self.offsets[self.stop] * WIDTH
            codes = (
                frozenset(self.flat[lo + STYLE : hi : WIDTH]),
                frozenset(self.flat[lo + TYPE : hi : WIDTH]),
            )
            found = memo.get(codes)
            if found is not None:
                return found
        key = (self.shown("style"), self.shown("type"))
        found = _QUIET.get(key)
        if found is None:
            found = not (_may_tell(key[0], "style") or _may_tell(key[1], "type"))
            if len(_QUIET) >= 4096:
                _QUIET.clear()
            _QUIET[key] = found
        if memo is not None and codes is not None:
            memo[codes] = found
        return found

    def cards(self, attribute: Attribute) -> dict[Shown, list[tuple[int, int, int]]]:
        """Every name of `attribute` with its common cards as (player, row, col)."""
        return {
            name: [(p, row, col) for p, _k, row, col in found]
            for name, found in self.placed(attribute).items()
        }

    def placed(self, attribute: Attribute) -> dict[Shown, list[tuple[int, int, int, int]]]:
        """Every name of `attribute` with its common cards as (player, index in the city,
        row, col)."""
        column = STYLE if attribute == "style" else TYPE
        names = self.names[attribute]
        found: dict[Shown, list[tuple[int, int, int, int]]] = {}
        for p, city in enumerate(range(self.start, self.stop)):
            first = self.offsets[city]
            for i in range(first, self.offsets[city + 1]):
                row = self.flat[i * WIDTH : (i + 1) * WIDTH]
                if row[FLAGS] == 0:
                    at = (p, i - first, row[ROW], row[COL])
                    found.setdefault(names[row[column]], []).append(at)
        return found


#: The rarest names a `too_many_*` message tells (each with its cards and a suggestion).
TOLD_NAMES = 10
#: Names that look alike are looked for only up to twice the box's count of distinct names:
#: beyond, the game is already refused (`too_many_*`), and comparing every pair of a few
#: hundred invented names would cost more than the whole score.
ALIKE_NAMES = 2


def _ordered(counts: Counter[Shown]) -> list[Shown]:
    """Names by cards, most first; on a tie a name the manual gives first, then by name (a
    card of a catalog built in Python may have none, None: last)."""
    return sorted(
        counts, key=lambda name: (-counts[name], name not in KNOWN_NAMES, name_order(name))
    )


def _counted(counts: Counter[Shown], shown: int) -> str:
    """The names by cards, the `shown` with the most, then how many more."""
    ordered = _ordered(counts)
    listed = ", ".join(f"{name} {counts[name]}" for name in ordered[:shown])
    more = len(ordered) - shown
    return _("{listed}, and {more} more", listed=listed, more=more) if more > 0 else listed


def _cards_word(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n)


def _where(players: Sequence[str | None], cards: Sequence[tuple[int, int, int]]) -> str:
    def cell(p: int, row: int, col: int) -> str:
        owner = players[p]
        if owner:
            return _("{owner}, row {row}, column {col}", owner=owner, row=row, col=col)
        return _("row {row}, column {col}", row=row, col=col)

    return "; ".join(cell(*card) for card in cards[:6]) + ("; ..." if len(cards) > 6 else "")


def _rarest(counts: Counter[Shown], excess: int) -> list[Shown]:
    """The `excess` names with the fewest cards, and any tied with the last of them (by
    cards, fewest first; on a tie, names the manual does not give first, then by name)."""
    ranked = _ordered(counts)[::-1]
    threshold = counts[ranked[excess - 1]]
    return [name for name in ranked if counts[name] <= threshold]


def mistyped(counts: Mapping[Shown, int], attribute: Attribute) -> list[Shown]:
    """The names a `too_many_*` error blames (the rarest, as many as there are names too
    many, and any tied with the last of them), from every name's count of common cards;
    none when the game shows no more than the box holds."""
    excess = len(counts) - _LIMITS[attribute][0]
    return _rarest(Counter(counts), excess) if excess > 0 else []


#: The message of `too_many_styles` / `too_many_types`.
_TOO_MANY: dict[Attribute, str] = {
    "style": N_(
        "the game's common cards show {count} styles; the box holds {limit}, so some style is "
        "mistyped. By cards: {counted}. The rarest: {rarest}"
    ),
    "type": N_(
        "the game's common cards show {count} types; the box holds {limit}, so some type is "
        "mistyped. By cards: {counted}. The rarest: {rarest}"
    ),
}
#: The message of `similar_names`, by attribute.
_ALIKE: dict[Attribute, str] = {
    "style": N_(
        'the style "{name}", {cards} ({where}), looks like "{other}", {other_cards}: is one '
        "of them mistyped?"
    ),
    "type": N_(
        'the type "{name}", {cards} ({where}), looks like "{other}", {other_cards}: is one '
        "of them mistyped?"
    ),
}


def _too_many(
    players: Sequence[str | None], names: GameNames, attribute: Attribute, path: str
) -> Problem:
    limit, _one, many = _LIMITS[attribute]
    cards = names.cards(attribute)
    counts = Counter({name: len(found) for name, found in cards.items()})
    rarest = _rarest(counts, len(counts) - limit)
    # suggestions come from the names with the most cards (the likely right ones)
    candidates = _named(_ordered(counts)[: 2 * limit])
    told = []
    for name in rarest[:TOLD_NAMES]:
        close = nearest(name, candidates) if isinstance(name, str) else None
        where = _where(players, cards[name])
        if close:
            told.append(
                _(
                    '"{name}": {cards} ({where}) — did you mean "{close}", {close_cards}?',
                    name=name,
                    cards=_cards_word(counts[name]),
                    where=where,
                    close=close,
                    close_cards=_cards_word(counts[close]),
                )
            )
        else:
            told.append(f'"{name}": {_cards_word(counts[name])} ({where})')
    if len(rarest) > TOLD_NAMES:
        told.append(_("and {more} more", more=len(rarest) - TOLD_NAMES))
    return Problem(
        code=f"too_many_{many}",
        message=_(
            _TOO_MANY[attribute],
            count=len(counts),
            limit=limit,
            counted=_counted(counts, 2 * limit),
            rarest="; ".join(told),
        ),
        path=path,
        cells=tuple((row, col) for name in rarest for _, row, col in cards[name]),
    )


#: attribute -> (each form a known name is written in: the name, then its Portuguese forms
#: folded; the known name it stands for), the manual's order.
_KNOWN_FORMS: dict[Attribute, tuple[tuple[str, str], ...]] = {
    attribute: tuple(
        (form, name)
        for name, aliases in names.items()
        for form in dict.fromkeys((name, *map(folded, aliases)))
    )
    for attribute, names in ALIASES.items()
}


@functools.lru_cache(maxsize=4096)
def misspelling(name: str | None, attribute: Attribute) -> str | None:
    """The known name (the manual's) that `name`, a folded name no catalog declares, is a
    near miss of (RULES §1, `misspelled_name`): not a known name itself, and at most
    SIMILAR_DISTANCE edits from one or from one of its Portuguese forms; the nearest, the
    manual's order breaking a tie. None for a known name or one farther from all of them.
    Names whose lengths differ by more than the distance are not compared (a long invented
    name costs nothing). A card of a catalog built in Python may have no name (None)."""
    if not isinstance(name, str) or name in ALIASES[attribute]:
        return None
    best: tuple[int, str] | None = None
    for form, known in _KNOWN_FORMS[attribute]:
        if abs(len(form) - len(name)) > SIMILAR_DISTANCE:
            continue
        found = distance_within(name, form, SIMILAR_DISTANCE)
        if found is not None and (best is None or found < best[0]):
            best = (found, known)
    return None if best is None else best[1]


#: The message of `misspelled_name`, by attribute.
_MISSPELLED: dict[Attribute, str] = {
    "style": N_(
        '"{name}" is not a style: did you mean "{known}"? (a name within two letters of one '
        "the manual gives is taken as a typo, not as a new style)"
    ),
    "type": N_(
        '"{name}" is not a type: did you mean "{known}"? (a name within two letters of one '
        "the manual gives is taken as a typo, not as a new type)"
    ),
}


def _card_path(path: str, p: int, k: int, attribute: Attribute, cities: Any) -> str:
    """Where a card's name is: its `style` or `type`, or the card itself when it is given
    by catalog id (`cities`: each player's placements, None when every card is inline;
    `path`: the players', "" for a lone city)."""
    card = f"{path}/{p}/city/{k}/card" if path else f"/city/{k}/card"
    if cities is not None and isinstance(cities[p][k].card, str):
        return card
    return f"{card}/{attribute}"


def _misspelled(names: GameNames, attribute: Attribute, path: str, cities: Any) -> list[Problem]:
    """`misspelled_name` at each card of each near miss of a known name (RULES §1)."""
    problems: list[Problem] = []
    for name, cards in names.placed(attribute).items():
        known = misspelling(name, attribute)
        if known is None:
            continue
        message = _(_MISSPELLED[attribute], name=name, known=known)
        problems.extend(
            Problem(
                code=codes.MISSPELLED_NAME,
                message=message,
                path=_card_path(path, p, k, attribute, cities),
                cells=((row, col),),
            )
            for p, k, row, col in cards
        )
    return problems


def _alike(
    players: Sequence[str | None],
    names: GameNames,
    attribute: Attribute,
    path: str,
    declared: frozenset[str],
) -> list[Problem]:
    """`similar_names` of each two names that look alike, unless the catalog's closed
    vocabulary declares both, or (an open vocabulary) one is a near miss of a known name:
    that one is told as `misspelled_name`, at its cards."""
    cards = names.cards(attribute)
    counts = Counter({name: len(found) for name, found in cards.items()})
    problems = []
    ordered = _named(_ordered(counts))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if not looks_alike(a, b, attribute) or {a, b} <= declared:
                continue
            if not declared and (misspelling(a, attribute) or misspelling(b, attribute)):
                continue
            # b has no more cards than a (and is no name of the manual's when a is not
            # either): it is the likelier typo
            problems.append(
                Problem(
                    code=codes.SIMILAR_NAMES,
                    message=_(
                        _ALIKE[attribute],
                        name=b,
                        cards=_cards_word(counts[b]),
                        where=_where(players, cards[b]),
                        other=a,
                        other_cards=_cards_word(counts[a]),
                    ),
                    path=path,
                    cells=tuple((row, col) for _, row, col in cards[b]),
                )
            )
    return problems


#: (styles shown, types shown) -> nothing to tell.
_ATTRIBUTES: tuple[Attribute, ...] = ("style", "type")
_QUIET: dict[tuple[frozenset[Shown], frozenset[Shown]], bool] = {}


def _may_tell(shown: frozenset[Shown], attribute: Attribute) -> bool:
    """Whether names shown together may have a problem: too many, a near miss of a known
    name (whatever a catalog declares: a declared name is then checked with the catalog,
    never skipped), or two alike."""
    limit = _LIMITS[attribute][0]
    return (
        len(shown) > limit
        or any(misspelling(name, attribute) for name in shown)
        or (1 < len(shown) <= ALIKE_NAMES * limit and _names_alike(shown, attribute))
    )


def batch_quiet(names: Mapping[Attribute, Sequence[Shown]]) -> bool:
    """Whether no game of a batch can have a name problem: the batch's names of each
    attribute, all together, are within the limit, none is a near miss of a known name and
    none looks like another. A game shows some of them, so fewer names and fewer pairs: one
    look for the whole batch."""
    return all(
        len(names[a]) <= _LIMITS[a][0]
        and all(isinstance(name, str) for name in names[a])  # (a catalog built in Python)
        and not _may_tell(frozenset(names[a]), a)
        for a in _ATTRIBUTES
    )


def name_problems(
    players: Sequence[str | None],
    names: GameNames,
    path: str = "/players",
    catalog: Catalog | None = None,
    cities: Sequence[Sequence[Any]] | None = None,
) -> tuple[list[Problem], list[Problem]]:
    """The errors `too_many_styles`, `too_many_types`, `misspelled_name` and the warnings
    `similar_names` of a game (RULES §1), from its rows of the packed table; `players` name
    the owner of each city (None for a lone city), `path` is where the game's problems point
    (the game's players; "" for a lone city), `cities` each player's placements when a card
    may be given by catalog id (its `misspelled_name` then points at the card). With a
    catalog's closed vocabulary, an undeclared name is `unknown_style` / `unknown_type` at
    its card already (no `misspelled_name` then), and two names it declares are not told as
    alike."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    if names.quiet():
        return errors, warnings
    for attribute in _ATTRIBUTES:
        shown = names.shown(attribute)
        limit = _LIMITS[attribute][0]
        if len(shown) > limit:
            errors.append(_too_many(players, names, attribute, path))
        vocabulary = None
        if catalog is not None:
            vocabulary = catalog.styles if attribute == "style" else catalog.types
        if vocabulary is None:
            errors.extend(_misspelled(names, attribute, path, cities))
        if 1 < len(shown) <= ALIKE_NAMES * limit and _names_alike(shown, attribute):
            warnings.extend(_alike(players, names, attribute, path, vocabulary or frozenset()))
    return errors, warnings


@functools.lru_cache(maxsize=1024)
def _names_alike(shown: frozenset[Shown], attribute: Attribute) -> bool:
    """Whether two of these names look alike (the same sets recur from game to game)."""
    ordered = sorted(_named(shown))
    return any(
        looks_alike(a, b, attribute) for i, a in enumerate(ordered) for b in ordered[i + 1 :]
    )


def known_effects(catalog: Catalog) -> tuple[str, ...]:
    """The effects the rules act on, then those `catalog` declares: an epiphany's other
    effect is `unknown_effect`."""
    return _known_effects(catalog.effects)


@functools.lru_cache(maxsize=64)
def _known_effects(declared: frozenset[str]) -> tuple[str, ...]:
    """The effects the rules act on, then those a catalog declares (made once a catalog)."""
    return tuple(dict.fromkeys((*KNOWN_EFFECTS, *sorted(declared))))


#: The end of `unknown_effect`: how the epiphany scores, by its declared state.
_SCORES_AS = {
    "held": N_("it does nothing here, and the epiphany scores as held"),
    "validated": N_("it does nothing here, and the epiphany scores as validated"),
    "activated": N_("it does nothing here, and the epiphany scores as activated"),
}


def effect_warnings(
    game: Game, specs: Sequence[Sequence[EpiphanySpec | None]], catalog: Catalog
) -> list[Problem]:
    """`unknown_effect`: an epiphany whose effect is neither one the rules act on nor one
    the catalog declares (RULES §1); it scores as declared."""
    warnings: list[Problem] = []
    if not any(specs):
        return warnings
    known = known_effects(catalog)
    for p, held in enumerate(specs):
        for k, spec in enumerate(held):
            effect = None if spec is None else spec.effect
            if effect is None or effect in known:
                continue
            entry = game.players[p].epiphanies[k]
            where = "effect" if spec is not None and not spec.id else "card"
            warnings.append(
                Problem(
                    code=codes.UNKNOWN_EFFECT,
                    message=_(
                        'the effect "{effect}" of epiphany {k} is not one the rules know '
                        "({known}){hint}; {scores}",
                        effect=effect,
                        k=k,
                        known=", ".join(known),
                        hint=did_you_mean(effect, known),
                        scores=_(_SCORES_AS[entry.state]),
                    ),
                    path=join("", "players", p, "epiphanies", k, where),
                )
            )
    return warnings
