"""The game-level warnings of FORMAT §3.1 that never change a score: what a transcriber
may have got wrong, or what the table did unusually."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence

from neweden.catalog.catalog import RequirementSpec
from neweden.format import codes
from neweden.format.model import EpiphanyEntry, Game
from neweden.format.modes import MODES
from neweden.format.problems import Problem, join
from neweden.format.vocabulary import name_order
from neweden.i18n import N_, Filler, _, current, filler, ngettext
from neweden.rules.epiphanies import THIRD_STAR

__all__ = [
    "ROTATE",
    "ROTATED_PATH",
    "activated_with",
    "game_warnings",
    "rotated_cards",
    "rotated_sentence",
    "rotating_players",
    "style_count_warnings",
    "third_stars",
]

#: The epiphany effect that lets a player turn cards.
ROTATE = "rotate"
#: RULES §1: the box holds 14 common cards of each style.
CARDS_PER_STYLE = 14
GAME_END_CARDS = 10


@functools.cache
def _game_not_ended(most: int, lang: str) -> Problem:
    """The warning that no city reached the end of the game (one Problem per count and
    language, made in that language: problems are immutable)."""
    return Problem(
        code=codes.GAME_NOT_ENDED,
        message=_(
            "no city has {end} cards (the most is {most}); the game ends when one has, so this "
            "may be a game in progress",
            end=GAME_END_CARDS,
            most=most,
        ),
        path="",
    )


_ROTATED = N_(
    "card {card} at row {row}, column {col} is rotated, but the player lists no "
    "activated epiphany with the rotate effect (the game turns cards only through one)"
)
_ROTATED_FIELDS = ("card", "row", "col")


def activated_with(entry: EpiphanyEntry, spec: object, effect: str) -> bool:
    """Whether a held epiphany is declared activated with `effect` (an id not in the catalog,
    `spec` None, has no effect)."""
    return entry.state == "activated" and getattr(spec, "effect", None) == effect


def _activated(game: Game, specs: Sequence[Sequence[object]], p: int, effect: str) -> list[int]:
    """Indices of player p's epiphanies declared activated with `effect`."""
    entries = game.players[p].epiphanies
    if not entries:
        return []
    return [
        k
        for k, (entry, spec) in enumerate(zip(entries, specs[p], strict=True))
        if activated_with(entry, spec, effect)
    ]


def _rotates(game: Game, specs: Sequence[Sequence[object]], p: int) -> bool:
    """Whether player p activated an epiphany with the rotate effect."""
    return bool(_activated(game, specs, p, ROTATE))


#: `style_count_over_box` of a game, and of a lone city (validated alone: FORMAT §5).
_OVER_BOX = {
    "": N_(
        'the game shows {count} common cards of the style "{style}"; the box holds {limit} '
        "of each style"
    ),
    "/city": N_(
        'the city shows {count} common cards of the style "{style}"; the box holds {limit} '
        "of each style"
    ),
}


def style_count_warnings(
    style_counts: Mapping[str, int] | Mapping[str | None, int], path: str = ""
) -> list[Problem]:
    """`style_count_over_box`: more common cards of a style than the box holds (`path`: ""
    for a game, "/city" for a lone city; a style None comes of a catalog built in Python)."""
    return [
        Problem(
            code=codes.STYLE_COUNT_OVER_BOX,
            message=_(_OVER_BOX[path], count=count, style=style, limit=CARDS_PER_STYLE),
            path=path,
        )
        for style, count in sorted(style_counts.items(), key=lambda item: name_order(item[0]))
        if count > CARDS_PER_STYLE
    ]


#: A requirement card's printed id: its deck's letter, then its number (A1, B12).
_PRINTED_DECK = re.compile(r"([ABC])[0-9]+")


def _deck_of(req_id: str, spec: RequirementSpec | None) -> str | None:
    """A requirement card's deck: the catalog's word, or for a card it does not know (one
    scored as declared), the letter of its printed id; None when neither tells."""
    if spec is not None:
        return spec.deck
    printed = _PRINTED_DECK.fullmatch(req_id)
    return printed[1] if printed is not None else None


def _requirements_mismatch(
    game: Game, requirement_specs: Sequence[RequirementSpec | None]
) -> Problem | None:
    """`requirements_mismatch`: a game that plays requirement cards, not one of each deck (a
    card the catalog does not know is of the deck its printed id names: A3 of deck A)."""
    if not (MODES[game.mode].populist and isinstance(game.requirements, list)):
        return None
    decks = [spec.deck for spec in requirement_specs if spec is not None]
    if len(decks) < len(requirement_specs):  # a card the catalog does not know: its printed id
        found = map(_deck_of, game.requirements, requirement_specs)
        decks = [deck for deck in found if deck is not None]
    decks.sort()
    if decks == ["A", "B", "C"]:
        return None
    some, none = MODES[game.mode].mismatch
    return Problem(
        code=codes.REQUIREMENTS_MISMATCH,
        message=_(some, decks=", ".join(decks)) if decks else _(none),
        path="/requirements",
    )


#: Where `rotated_without_epiphany` points: card `index` of player p's city (% (p, index)).
ROTATED_PATH = "/players/%d/city/%d/rotated"


def rotated_sentence() -> Filler:
    """The sentence of `rotated_without_epiphany` in the current language, as a function of
    the card's (index in the city, row, col): made once for the many cards of a game or a
    chunk (the report lays each out: :mod:`neweden.scoring.problems`)."""
    return _rotated_said(current())


@functools.lru_cache(maxsize=16)
def _rotated_said(lang: str) -> Filler:
    """:func:`rotated_sentence` in `lang`, the current language (made once a language: every
    game with a rotated card asks for it)."""
    return filler(_ROTATED, _ROTATED_FIELDS)


def rotated_cards(
    rotated: Sequence[tuple[int, int, int, int]], rotates: Sequence[bool], first: int = 0
) -> list[tuple[int, int, int, int]]:
    """The cards `rotated_without_epiphany` tells of: each rotated card, (player, index in
    the city, row, col), whose player activated no epiphany with the rotate effect
    (`rotates[first + p]`: a game's players, :func:`rotating_players`, or a chunk's
    cities from the game's first).

    Examples
    --------
    >>> rotated_cards([(0, 2, 5, 1), (1, 0, 0, 0), (1, 3, 0, 1)], [True, False])
    [(1, 0, 0, 0), (1, 3, 0, 1)]
    """
    return [card for card in rotated if not rotates[first + card[0]]]


def _third_star_warning(p: int, thirds: Sequence[int]) -> Problem:
    """`third_star_in_military`: player p's epiphanies activated for 1/3 star (`thirds`, their
    indices) in a game without stars."""
    return Problem(
        code=codes.THIRD_STAR_IN_MILITARY,
        message=ngettext(
            "{n} epiphanies activated for 1/3 star; stars buy nothing in a "
            "military game (as validated they would have scored)",
            "{n} epiphanies activated for 1/3 star; stars buy nothing in a "
            "military game (as validated they would have scored)",
            len(thirds),
        ),
        path=join("", "players", p, "epiphanies", thirds[0]),
    )


def rotating_players(game: Game, specs: Sequence[Sequence[object]]) -> list[bool]:
    """Whether each player of a game activated an epiphany with the rotate effect, read
    from its epiphanies (`specs`: the game's epiphany ids looked up): what
    :func:`rotated_cards` reads. A chunk of games reads the same from its columns
    (:class:`neweden.scoring.chunk.ChunkFacts`)."""
    return [_rotates(game, specs, p) for p in range(len(game.players))]


def third_stars(game: Game, specs: Sequence[Sequence[object]]) -> Callable[[int], Sequence[int]]:
    """The indices of player p's epiphanies activated for 1/3 star, read from the game's
    epiphanies (`specs`: its epiphany ids looked up): what :func:`game_warnings` reads. A
    chunk of games reads the same from its columns."""
    return functools.partial(_activated, game, specs, effect=THIRD_STAR)


def game_warnings(
    game: Game,
    style_counts: Mapping[str, int],
    most_cards: int,
    requirement_specs: Sequence[RequirementSpec | None],
    thirds: Callable[[int], Sequence[int]],
) -> list[Problem]:
    """`style_count_over_box`, `game_not_ended`, `requirements_mismatch`,
    `third_star_in_military`, in this order (`rotated_without_epiphany`'s cards:
    :func:`rotated_cards`).

    `style_counts`: common cards of the game by style (at least those above the box's
    count); `most_cards`: the most cards kept in one city; `requirement_specs`: the game's
    requirement ids looked up (:func:`neweden.catalog.catalog.resolve_extras`); `thirds(p)`:
    player p's 1/3-star epiphanies activated (:func:`third_stars`, or a chunk's facts)."""
    warnings = style_count_warnings(style_counts) if style_counts else []
    if most_cards < GAME_END_CARDS:
        warnings.append(_game_not_ended(most_cards, current()))
    mismatch = _requirements_mismatch(game, requirement_specs)
    if mismatch is not None:
        warnings.append(mismatch)
    if not MODES[game.mode].populist:
        for p in range(len(game.players)):
            held = thirds(p)
            if held:
                warnings.append(_third_star_warning(p, held))
    return warnings
