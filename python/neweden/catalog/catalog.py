"""The catalog: what card, requirement and epiphany ids mean, and the rule parameters.

Resolving ids is a step of its own, after decoding: :func:`resolve_city` turns the cards of a
decoded city into :class:`CardSpec` objects (or marks them unresolved), so a user catalog
(FORMAT §2, a later addition) plugs in by handing another :class:`Catalog`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, cast

from msgspec import UNSET

from neweden._kept import kept
from neweden.format import codes
from neweden.format.model import Game, InlineCard, Placement
from neweden.format.problems import Problem, did_you_mean, join
from neweden.format.sides import ALL_SIDES, turned
from neweden.i18n import N_, _, current

__all__ = [
    "BUILTIN",
    "CardSpec",
    "Catalog",
    "EpiphanySpec",
    "RequirementSpec",
    "ResolvedCard",
    "ResolvedExtras",
    "ResolvedGame",
    "resolve_all",
    "resolve_city",
    "resolve_extras",
    "resolve_game",
]


# tuple.__new__ skips the named tuple's Python-level __new__ (every field is given).
_new_spec = tuple.__new__


class CardSpec(NamedTuple):
    """What scoring needs of a City Part card (RULES §1). A wild card has no style, type or
    facility and all four sides; `copies` is how many a game may hold (RULES §1). A named
    tuple: one is made for every inline card of every game, so it must be cheap."""

    wild: bool
    style: str | None
    type: str | None
    facility: str | None
    points: int
    stars: int
    sides: frozenset[str]
    name: str | None = None
    id: str | None = None
    copies: int = 1

    @classmethod
    def from_inline(cls, card: InlineCard) -> CardSpec:
        """The spec of an inline card the decoder accepted (so its kind's fields are set:
        neweden.format.checks); made for every inline card, so it reads the fields directly."""
        name = None if card.name is UNSET else card.name
        points = 0 if card.points is UNSET else card.points
        stars = 0 if card.stars is UNSET else card.stars
        if card.wild is True:
            return _new_spec(cls, (True, None, None, None, points, stars, ALL_SIDES, name, None, 1))
        return _new_spec(
            cls,
            (
                False,
                cast(str, card.style),
                cast(str, card.type),
                cast(str, card.facility),
                points,
                stars,
                frozenset(cast(list[str], card.sides)),
                name,
                None,
                1,
            ),
        )

    def sides_as_placed(self, rotated: bool) -> frozenset[str]:
        """The icons of the card on the table: a 180° turn swaps top/bottom, left/right."""
        return turned(self.sides) if rotated else self.sides


@dataclass(frozen=True, slots=True)
class RequirementSpec:
    """A requirement card (RULES §4a): its deck (A, B or C), printed text and condition (in
    the condition language of :mod:`neweden.catalog.conditions`; None when not typed in)."""

    id: str
    deck: str
    text: str
    condition: Any = None


class EpiphanySpec(NamedTuple):
    """An Epiphany card (RULES §4b): printed points (2 or 5) and its effect. (A named tuple:
    one is made for every inline epiphany.)"""

    id: str
    points: int
    effect: str | None
    text: str = ""
    condition: Any = None


@dataclass(frozen=True)
class Catalog:
    """Everything an id can mean in one game. :data:`BUILTIN` is the default catalog. A
    catalog does not change once a game was scored with it: the scoring keeps what it looked
    up in one (make another catalog for other cards)."""

    name: str
    cards: Mapping[str, CardSpec]
    requirements: Mapping[str, RequirementSpec]
    epiphanies: Mapping[str, EpiphanySpec] = field(default_factory=dict)
    #: The D5 majority table by player count; None means the built-in default (RULES §4a).
    majority_table: Mapping[int, tuple[int, ...]] | None = None
    #: Closed vocabularies; None means any identifier is accepted (RULES §1).
    styles: frozenset[str] | None = None
    types: frozenset[str] | None = None
    #: Epiphany effects declared besides the known ones (RULES §1: no `unknown_effect`).
    effects: frozenset[str] = frozenset()

    def card(self, card_id: str) -> CardSpec | None:
        return self.cards.get(card_id)


DEFAULT_MAJORITY_TABLE: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {2: (5, 0), 3: (7, 3, 0), 4: (10, 6, 3, 0)}
)

# Plain dicts (a catalog travels to worker processes, and a MappingProxyType does not pickle);
# nothing changes them.
# The built-in cards' names and texts are marked for translation: GET /v1/catalog gives them
# in the answer's language (a catalog file's own, as written).
BUILTIN = Catalog(
    name="builtin",
    cards=dict(
        {
            "atomic-waste": CardSpec(
                True,
                None,
                None,
                None,
                0,
                0,
                ALL_SIDES,
                N_("Atomic Waste"),
                "atomic-waste",
                copies=5,
            ),
            "new-eden": CardSpec(
                True, None, None, None, 0, 0, ALL_SIDES, N_("New Eden"), "new-eden", copies=2
            ),
        }
    ),
    requirements=dict(
        {
            "A1": RequirementSpec(
                "A1",
                "A",
                N_("The city has cards of all 5 architectural styles."),
                {">=": [{"distinct": "style"}, {"all_styles": {}}]},
            ),
            "B1": RequirementSpec(
                "B1",
                "B",
                N_("Some row of the city holds more than 5 cards."),
                {">": [{"row_cards": {}}, 5]},
            ),
            "C1": RequirementSpec(
                "C1",
                "C",
                N_("The city has at most 4 open connections."),
                {"<=": [{"open_connections": {}}, 4]},
            ),
        }
    ),
)


@dataclass(slots=True)
class ResolvedCard:
    """One entry of a city after id resolution: `spec` is None when the id is unknown.
    (Not frozen: a frozen dataclass costs a slow __init__, and one is made for every card;
    nothing changes it after resolution.)"""

    index: int
    row: int
    col: int
    rotated: bool
    spec: CardSpec | None


_NOT_DECLARED = {
    "style": N_(
        'the style "{name}" of the card at row {row}, column {col} is not one the catalog declares'
    ),
    "type": N_(
        'the type "{name}" of the card at row {row}, column {col} is not one the catalog declares'
    ),
}


def _vocabulary_problems(
    spec: CardSpec | None, catalog: Catalog, path: str, cell: tuple[int, int]
) -> list[Problem]:
    """With a closed vocabulary (RULES §1), a style or type it does not declare is an error
    (`unknown_style`, `unknown_type`); the card is still scored as given."""
    problems: list[Problem] = []
    if spec is None or spec.wild:
        return problems
    for attribute, declared in (("style", catalog.styles), ("type", catalog.types)):
        value = getattr(spec, attribute)
        if declared is not None and value not in declared:
            problems.append(
                Problem(
                    code=f"unknown_{attribute}",
                    message=_(_NOT_DECLARED[attribute], name=value, row=cell[0], col=cell[1])
                    + did_you_mean(value, declared)
                    + f" ({', '.join(sorted(declared))})",
                    path=join(path, attribute),
                    cells=(cell,),
                )
            )
    return problems


def resolve_city(
    city: Sequence[Placement], catalog: Catalog, path: str
) -> tuple[list[ResolvedCard], list[Problem]]:
    """Look up the ids of a city's cards in `catalog`; `unknown_card` for each id not found.

    Parameters
    ----------
    city : sequence of Placement
        The city's entries, as decoded (a player's ``city`` of :func:`neweden.decode_game`,
        or the ``city`` of :func:`neweden.decode_city`).
    catalog : Catalog
        The catalog the ids are looked up in (:data:`neweden.BUILTIN`, or one of
        :func:`neweden.load_catalog`).
    path : str
        The JSON Pointer of the city (`/players/0/city`, or `/city` for a lone city): the
        problems' paths start with it.

    Returns
    -------
    cards : list of ResolvedCard
        One a city entry, in order: its index, row, col, rotated and ``spec``, the card's
        :class:`~neweden.CardSpec` (an inline card's own), or None for an id not found.
    problems : list of Problem
        ``unknown_card`` for each id not found (the card is left out of the city), and, with
        a catalog of closed vocabularies, ``unknown_style`` or ``unknown_type`` for an inline
        card whose style or type it does not declare (the card is still scored as given).

    Examples
    --------
    >>> import neweden
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0, "sides": ["right"]}
    >>> lone = neweden.decode_city({"city": [{"row": 0, "col": 0, "card": card},
    ...                                      {"row": 0, "col": 1, "card": "EX-card"}]})
    >>> cards, problems = neweden.resolve_city(lone.city, neweden.BUILTIN, "/city")
    >>> [(card.row, card.col, card.spec is None) for card in cards]
    [(0, 0, False), (0, 1, True)]
    >>> for problem in problems:
    ...     print(problem.line())
    /city/1/card: unknown_card: the card id "EX-card" at row 0, column 1 is not in the ...
    """
    resolved: list[ResolvedCard] = []
    problems: list[Problem] = []
    closed = catalog.styles is not None or catalog.types is not None
    for i, placement in enumerate(city):
        card = placement.card
        if isinstance(card, InlineCard):
            spec: CardSpec | None = CardSpec.from_inline(card)
            if closed:
                problems.extend(
                    _vocabulary_problems(
                        spec, catalog, join(path, i, "card"), (placement.row, placement.col)
                    )
                )
        else:
            spec = catalog.card(card)
            if spec is None:
                where = join(path, i, "card")
                problems.append(unknown_card(card, catalog, where, placement.row, placement.col))
        resolved.append(ResolvedCard(i, placement.row, placement.col, placement.rotated, spec))
    return resolved, problems


def unknown_card(card_id: str, catalog: Catalog, path: str, row: int, col: int) -> Problem:
    """`unknown_card`: the card given by `card_id` at `path`, on (row, col), is not in
    `catalog`; the card is left out of the city."""
    return Problem(
        code=codes.UNKNOWN_CARD,
        message=_(
            'the card id "{id}" at row {row}, column {col} is not in the catalog ({catalog})',
            id=card_id,
            row=row,
            col=col,
            catalog=catalog.name,
        )
        + did_you_mean(card_id, catalog.cards)
        + _("; it is left out of the city"),
        path=path,
        cells=((row, col),),
    )


@dataclass(frozen=True, slots=True)
class ResolvedGame:
    """A decoded game with every id looked up in one catalog."""

    cities: tuple[tuple[ResolvedCard, ...], ...]
    requirements: tuple[RequirementSpec | None, ...]
    epiphanies: tuple[tuple[EpiphanySpec | None, ...], ...]
    problems: tuple[Problem, ...]


class ResolvedExtras(NamedTuple):
    """The requirement and epiphany ids of a game looked up (the cards are apart: the
    score resolves them while packing)."""

    requirements: tuple[RequirementSpec | None, ...]
    epiphanies: tuple[tuple[EpiphanySpec | None, ...], ...]
    problems: tuple[Problem, ...]


#: The requirement lists of games looked up, with their problems (games repeat a few lists),
#: by catalog: the catalog's identity, the catalog itself (kept, so that its id is not reused;
#: a catalog does not change once used), then by the language of the problems, the ids and
#: whether the game's players declare what they met. A few catalogs a process, a few
#: hundred lists each.
_LOOKED_UP: dict[
    int,
    tuple[
        Catalog,
        dict[
            tuple[str, tuple[str, ...], bool],
            tuple[tuple[RequirementSpec | None, ...], tuple[Problem, ...]],
        ],
    ],
] = {}
_CATALOGS_KEPT = 8
_LISTS_KEPT = 1024


def resolve_extras(game: Game, catalog: Catalog) -> ResolvedExtras:
    """Looks up the requirement and epiphany ids of `game`: `unknown_requirement` and
    `unknown_epiphany` for each one not found (a requirement card the catalog does not know
    is no problem in a game whose players declare what they met: it is scored as declared,
    RULES §4a)."""
    return resolve_all([game], catalog)[0]


def resolve_all(games: Sequence[Game], catalog: Catalog) -> list[ResolvedExtras]:
    """:func:`resolve_extras` of each game of a batch (the catalog's memo and the language
    looked up once for all of them)."""
    lists = kept(_LOOKED_UP, catalog, lambda _catalog: {}, _CATALOGS_KEPT)
    lang = current()
    return [_resolved(game, catalog, lists, lang) for game in games]


def _resolved(
    game: Game,
    catalog: Catalog,
    lists: dict[
        tuple[str, tuple[str, ...], bool],
        tuple[tuple[RequirementSpec | None, ...], tuple[Problem, ...]],
    ],
    lang: str,
) -> ResolvedExtras:
    """:func:`resolve_extras` of one game, `lists` the catalog's memo of requirement lists,
    `lang` the current language."""
    ids = tuple(game.requirements) if isinstance(game.requirements, list) else ()
    declared = bool(ids) and game.declares()
    listed = (lang, ids, declared)
    looked = lists.get(listed)
    if looked is None:
        if len(lists) >= _LISTS_KEPT:
            lists.clear()
        looked = lists[listed] = _requirements(ids, catalog, declared)
    requirements, told = looked
    problems = list(told)
    epiphanies: list[tuple[EpiphanySpec | None, ...]] = []
    for p, player in enumerate(game.players):
        if not player.epiphanies:
            epiphanies.append(())
            continue
        held: list[EpiphanySpec | None] = []
        for k, entry in enumerate(player.epiphanies):
            if entry.card is UNSET:  # inline: one spec per (points, effect) seen
                key = (entry.points, entry.effect)
                inline = _INLINE_EPIPHANIES.get(key)
                if inline is None:
                    points = entry.points if isinstance(entry.points, int) else 0
                    effect = entry.effect if isinstance(entry.effect, str) else None
                    inline = EpiphanySpec(id="", points=points, effect=effect)
                    if len(_INLINE_EPIPHANIES) < 1024:  # effects are open identifiers
                        _INLINE_EPIPHANIES[key] = inline
                held.append(inline)
                continue
            found = catalog.epiphanies.get(entry.card)
            if found is None:
                problems.append(
                    Problem(
                        code=codes.UNKNOWN_EPIPHANY,
                        message=_(
                            'the epiphany id "{id}" is not in the catalog ({catalog})',
                            id=entry.card,
                            catalog=catalog.name,
                        )
                        + did_you_mean(entry.card, catalog.epiphanies),
                        path=join("", "players", p, "epiphanies", k, "card"),
                    )
                )
            held.append(found)
        epiphanies.append(tuple(held))
    return ResolvedExtras(requirements, tuple(epiphanies), tuple(problems))


def _requirements(
    ids: tuple[str, ...], catalog: Catalog, declared: bool
) -> tuple[tuple[RequirementSpec | None, ...], tuple[Problem, ...]]:
    """A game's requirement ids looked up, and an `unknown_requirement` for each not found
    unless the game's players declare what they met (`declared`)."""
    problems: list[Problem] = []
    requirements: list[RequirementSpec | None] = []
    for i, req_id in enumerate(ids):
        spec = catalog.requirements.get(req_id)
        if spec is None and not declared:
            problems.append(
                Problem(
                    code=codes.UNKNOWN_REQUIREMENT,
                    message=_(
                        'the requirement id "{id}" is not in the catalog ({catalog}){maybe}, so '
                        "no city can be checked against it: list it in the "
                        "`requirements_met` of each player the table agreed met it (for "
                        'example "requirements_met": ["{id}"]; an empty list for the others), '
                        "or give its condition in a catalog file",
                        id=req_id,
                        catalog=catalog.name,
                        maybe=did_you_mean(req_id, catalog.requirements),
                    ),
                    path=join("", "requirements", i),
                )
            )
        requirements.append(spec)
    return tuple(requirements), tuple(problems)


#: The spec of each inline epiphany seen (points, effect): they are few, and immutable.
_INLINE_EPIPHANIES: dict[tuple[object, object], EpiphanySpec] = {}


def resolve_game(game: Game, catalog: Catalog) -> ResolvedGame:
    """Look up every card, requirement and epiphany id of `game` in `catalog`.

    Unknown ids are rule problems (`unknown_card`, `unknown_requirement`,
    `unknown_epiphany`, FORMAT §3.1), in document order; nothing is dropped silently.

    Parameters
    ----------
    game : Game
        A decoded game (:func:`neweden.decode_game`).
    catalog : Catalog
        The catalog the ids are looked up in (:data:`neweden.BUILTIN`, or one of
        :func:`neweden.load_catalog`).

    Returns
    -------
    ResolvedGame
        ``cities``: each player's cards as :func:`neweden.resolve_city` gives them;
        ``requirements``: the spec of each requirement id of the game, None for one not
        found; ``epiphanies``: each player's, the spec of each entry (an inline one's own),
        None for an id not found; ``problems``: the problems of the cities (as
        :func:`neweden.resolve_city` finds them), ``unknown_requirement`` (none when some
        player carries ``requirements_met``: such a card is scored as declared, RULES §4a)
        and ``unknown_epiphany``, in document order.

    Examples
    --------
    >>> import neweden
    >>> game = neweden.decode_game({"mode": "populist", "requirements": ["A1", "EX-A9"],
    ...     "players": [{"name": "Ana", "city": [{"row": 0, "col": 0, "card": "EX-card"}]}]})
    >>> resolved = neweden.resolve_game(game, neweden.BUILTIN)
    >>> [None if spec is None else spec.id for spec in resolved.requirements]
    ['A1', None]
    >>> [(problem.code, problem.path) for problem in resolved.problems]
    [('unknown_requirement', '/requirements/1'), ('unknown_card', '/players/0/city/0/card')]
    """
    extras = resolve_extras(game, catalog)
    problems = [p for p in extras.problems if p.code == codes.UNKNOWN_REQUIREMENT]
    cities: list[tuple[ResolvedCard, ...]] = []
    for p, player in enumerate(game.players):
        cards, city_problems = resolve_city(player.city, catalog, join("", "players", p, "city"))
        problems.extend(city_problems)
        cities.append(tuple(cards))
        held = join("", "players", p, "epiphanies") + "/"
        problems.extend(e for e in extras.problems if e.path.startswith(held))
    return ResolvedGame(tuple(cities), extras.requirements, extras.epiphanies, tuple(problems))
