"""The rule problems of a game that come from the geometry and from the whole table
(RULES §3, FORMAT §3.1): overlap, disconnected, copy_limit, duplicate_name."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from neweden.catalog.catalog import CardSpec, ResolvedCard
from neweden.format import codes
from neweden.format.model import Game
from neweden.format.problems import Problem, join
from neweden.format.sides import BIT, OPPOSITE, SIDES
from neweden.geometry.compact import CityColumns
from neweden.geometry.figures import CityFigures
from neweden.i18n import N_, Filler, Form, Nn_, _, current, filler, ngettext, plural_form

__all__ = [
    "ATOMIC_WASTE",
    "copy_limit",
    "copy_limit_problems",
    "duplicate_name_problems",
    "geometry_problems",
]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: A card's side, as the sentence that tells a contact names it (:func:`_why_apart`).
_ITS_SIDE = {
    "top": N_("its top side"),
    "right": N_("its right side"),
    "bottom": N_("its bottom side"),
    "left": N_("its left side"),
}
#: The other card's side, when it has no icon there.
_WHOSE_SIDE = {
    "top": N_("whose top side has no icon (a wall)"),
    "right": N_("whose right side has no icon (a wall)"),
    "bottom": N_("whose bottom side has no icon (a wall)"),
    "left": N_("whose left side has no icon (a wall)"),
}


#: The sentences of `overlap` and `disconnected`.
_OVERLAP = N_(
    "card {card} is on row {row}, column {col}, the cell of card {holder}; "
    "it is left out of the city and the score"
)
_DISCONNECTED = Nn_(
    "{n} card(s) at {where} are not joined to the project ({project} cards) by "
    "complete connections; {why}. They are scored as placed",
    "{n} card(s) at {where} are not joined to the project ({project} cards) by "
    "complete connections; {why}. They are scored as placed",
)
#: Why a part is apart (`{why}`): no contact at all, or the first contact told...
_APART = N_("no card of it touches another card of the city")
_CONTACT = N_(
    "card {card} at row {row}, column {col}: {its_side} meets card {other} at row "
    "{other_row}, column {other_col}"
)
#: ...and then why it does not join: both have an icon there, only the other card, neither
#: (only this card: `{where}, ` and the other's _WHOSE_SIDE).
_NO_SHARE = N_("{where}, but the two share neither style nor type")
_THEIR_WALL = N_("{where}, but card {card} has no icon on that side (a wall)")
_NO_ICONS = N_("{where}, and neither has an icon there")
#: The fields of those sentences, in the order their values are given.
_CONTACT_FIELDS = ("card", "row", "col", "its_side", "other", "other_row", "other_col")
_WHERE = ("where",)
_WHERE_CARD = ("where", "card")
_DISCONNECTED_FIELDS = ("n", "where", "project", "why")


#: The sentence of `copy_limit`, and its usual `{limit}`.
# TRANSLATORS: {ordinal} is English ("2nd"); {n} is the bare number
_COPY_LIMIT = N_(
    'the card "{card}" appears a {ordinal} time in the game; {limit}. It is still scored'
)
_COPY_LIMIT_FIELDS = ("card", "ordinal", "n", "limit")
_BOX_HOLDS = N_("the box holds {limit}")
#: `{limit}` for Atomic Waste in a game of n players.
_WASTE_LIMIT = Nn_(
    "a {n}-player game has {limit} (one per player and one in the Idea Pile)",
    "a {n}-player game has {limit} (one per player and one in the Idea Pile)",
)


class _Words(NamedTuple):
    """The sentences of `overlap`, `disconnected` and `copy_limit`, made once a language
    (filled per city, they were looked up again for each card, each part and each copy)."""

    overlap: Filler
    contact: Filler
    no_share: Filler
    their_wall: Filler
    no_icons: Filler
    its_side: dict[str, str]
    whose_side: dict[str, str]
    apart: str
    #: `disconnected`'s sentence for a part of n cards (its plural form), made when first met
    disconnected: dict[int, Form | None]
    copy_limit: Filler
    box_holds: Filler
    #: Atomic Waste's `{limit}` for n players (its plural form), made when first met
    waste_limit: dict[int, Form | None]


@functools.lru_cache(maxsize=16)
def _words(lang: str) -> _Words:
    """:class:`_Words` in `lang`, the current language."""
    return _Words(
        filler(_OVERLAP, _OVERLAP_FIELDS),
        filler(_CONTACT, _CONTACT_FIELDS),
        filler(_NO_SHARE, _WHERE),
        filler(_THEIR_WALL, _WHERE_CARD),
        filler(_NO_ICONS, _WHERE),
        {side: _(words) for side, words in _ITS_SIDE.items()},
        {side: _(words) for side, words in _WHOSE_SIDE.items()},
        _(_APART),
        {},
        filler(_COPY_LIMIT, _COPY_LIMIT_FIELDS),
        filler(_BOX_HOLDS, ("limit",)),
        {},
    )


#: Each side, by its number in a contact (0 top, 1 right, 2 bottom, 3 left), with its bit,
#: the bit of the side it meets, and that side.
_SIDES = tuple((side, BIT[side], BIT[OPPOSITE[side]], OPPOSITE[side]) for side in SIDES)


def _why_apart(contact: tuple[int, int, int], city: CityColumns, words: _Words) -> str:
    """Why one component is not joined to the rest: its first contact with another part
    (`contact`, as the core found it: CityFigures.contacts), told side by side, whether both
    cards have an icon there (then they share neither style nor type), only one, or
    neither."""
    card, side_number, other = contact
    if card < 0:
        return words.apart
    rows, cols, icons = city
    side, bit, their_bit, opposite = _SIDES[side_number]
    where = words.contact(
        (card, rows[card], cols[card], words.its_side[side], other, rows[other], cols[other])
    )
    mine_icon, their_icon = icons[card] & bit, icons[other] & their_bit
    if mine_icon and their_icon:
        return words.no_share((where,))
    if mine_icon:
        return f"{where}, {words.whose_side[opposite]}"
    if their_icon:
        return words.their_wall((where, card))
    return words.no_icons((where,))


_OVERLAP_FIELDS = ("card", "row", "col", "holder")
#: A cell in `disconnected`'s `{where}`: "(row, col)".
_CELL = "(%d, %d)"


def _counted(
    forms: dict[int, Form | None],
    sentence: tuple[str, str],
    names: tuple[str, ...],
    values: tuple[object, ...],
) -> str:
    """A sentence whose words follow a count, `values[0]` (its field ``{n}``, the first of
    `names`), filled with `values`: its plural form for that count made when first met and
    kept in `forms` (a :class:`_Words` dict: one language), or :func:`ngettext` for a
    translation whose fields a :class:`~neweden.i18n.Form` does not take."""
    n = values[0]
    assert isinstance(n, int)
    if n not in forms:
        forms[n] = plural_form(*sentence, n, names)
    said = forms[n]
    if said is not None:
        return said.fill(values)
    return ngettext(*sentence, n, **dict(zip(names[1:], values[1:], strict=True)))


def geometry_problems(base: str, city: CityColumns, figures: CityFigures) -> list[Problem]:
    """`overlap`: one per card left out on a taken cell. `disconnected`: one per component
    other than the project, at its first card, naming all its cells. `city`: the city's
    cards as columns of the packed table (what one pass of the core read), in city order."""
    overlapped_by = figures.overlapped_by
    overlaps = max(overlapped_by, default=-1) >= 0
    components = figures.components
    if components <= 1 and not overlaps:
        return []  # the common case: nothing to tell
    rows, cols, _icons = city
    words = _words(current())
    problems = []
    if overlaps:
        for index, holder in enumerate(overlapped_by):
            if holder >= 0:
                row, col = rows[index], cols[index]
                problems.append(
                    Problem(
                        code=codes.OVERLAP,
                        message=words.overlap((index, row, col, holder)),
                        path=f"{base}/{index}",
                        cells=((row, col),),
                    )
                )
    if components <= 1:
        return problems
    component = figures.component
    project = figures.project
    members: list[list[int]] = [[] for _ in range(components)]
    for i, k in enumerate(component):
        if k >= 0:
            members[k].append(i)
    project_size = len(members[project]) if 0 <= project < components else 0
    contacts = figures.contacts
    for part, cards in enumerate(members):
        if part == project:
            continue
        n = len(cards)
        cells: tuple[tuple[int, int], ...]
        if n == 1:  # (most parts: a card alone, said without a comprehension)
            cells = ((rows[cards[0]], cols[cards[0]]),)
            where = _CELL % cells[0]
        else:
            cells = tuple([(rows[i], cols[i]) for i in cards])
            where = ", ".join([_CELL % cell for cell in cells])
        values = (n, where, project_size, _why_apart(contacts[part], city, words))
        problems.append(
            Problem(
                code=codes.DISCONNECTED,
                message=_counted(words.disconnected, _DISCONNECTED, _DISCONNECTED_FIELDS, values),
                path=f"{base}/{cards[0]}",
                cells=cells,
            )
        )
    return problems


#: One Atomic Waste card per player at set-up and one shuffled into the Idea Pile (RULES §1).
ATOMIC_WASTE = "atomic-waste"


def copy_limit(spec: CardSpec, players: int | None) -> int:
    """How many copies of a catalog card a game of `players` players may show: Atomic Waste
    at most players + 1 (and never more than the box holds), any other its box's count;
    with the players unknown (a lone city), the box's count."""
    if spec.id == ATOMIC_WASTE and players is not None:
        return min(spec.copies, players + 1)
    return spec.copies


def _limit_words(spec: CardSpec, players: int | None, limit: int, words: _Words) -> str:
    if spec.id == ATOMIC_WASTE and limit < spec.copies:
        return _counted(words.waste_limit, _WASTE_LIMIT, ("n", "limit"), (players or 0, limit))
    return words.box_holds((limit,))


def copy_limit_problems(
    cities: Sequence[Sequence[ResolvedCard]],
    bases: Sequence[str],
    players: int | None,
) -> list[Problem]:
    """Each catalog card id at most its number of copies in the whole game (see
    :func:`copy_limit`), counted over players in order and cards in city order; one error
    per copy beyond the limit, under the player who placed it. Inline cards have no identity
    and are not counted. `players` is the game's player count, None when it is not known (a
    lone city: the box's count holds)."""
    seen: Counter[str] = Counter()
    problems = []
    words = _words(current())
    for p, cards in enumerate(cities):
        for card in cards:
            spec = card.spec
            if spec is None or spec.id is None:
                continue
            seen[spec.id] += 1
            n = seen[spec.id]
            limit = copy_limit(spec, players)
            if n > limit:
                said = words.copy_limit(
                    (spec.id, _ordinal(n), n, _limit_words(spec, players, limit, words))
                )
                problems.append(
                    Problem(
                        code=codes.COPY_LIMIT,
                        message=said,
                        path=f"{bases[p]}/{card.index}/card",  # (no token to escape)
                        cells=((card.row, card.col),),
                    )
                )
    return problems


def duplicate_name_problems(game: Game) -> list[Problem]:
    """Player names are unique: every later player with a name already used is an error."""
    if len({player.name for player in game.players}) == len(game.players):
        return []
    first_seen: dict[str, int] = {}
    problems = []
    for p, player in enumerate(game.players):
        if player.name in first_seen:
            problems.append(
                Problem(
                    code=codes.DUPLICATE_NAME,
                    message=_(
                        'player {p} is named "{name}" like player {first}; names must be unique',
                        p=p,
                        name=player.name,
                        first=first_seen[player.name],
                    ),
                    path=join("", "players", p, "name"),
                )
            )
        else:
            first_seen[player.name] = p
    return problems
