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
from neweden.i18n import N_, Filler, _, current, filler, ngettext
from neweden.rules.epiphanies import THIRD_STAR

__all__ = [
    "ROTATE",
    "activated_with",
    "game_warnings",
    "held_effects",
    "style_count_warnings",
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


def _rotated(p: int, index: int, row: int, col: int, said: Filler) -> Problem:
    """`rotated_without_epiphany` of player p's card `index`, at (row, col) (`said`: the
    sentence's :func:`~neweden.i18n.filler`). Cards sit on many cells, so in a batch the
    warnings seldom repeat and are not kept; a game scored alone keeps them
    (:func:`_rotated_kept`: an app scoring the same game again finds its warnings made)."""
    return Problem(
        code=codes.ROTATED_WITHOUT_EPIPHANY,
        message=said((index, row, col)),
        path=f"/players/{p}/city/{index}/rotated",  # ints: nothing to escape
        cells=((row, col),),
    )


@functools.lru_cache(maxsize=4096)
def _rotated_kept(p: int, index: int, row: int, col: int, lang: str) -> Problem:
    """:func:`_rotated`, kept for each language (`lang`: the current one)."""
    return _rotated(p, index, row, col, filler(_ROTATED, _ROTATED_FIELDS))


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
        for style, count in sorted(style_counts.items())
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


def _rotated_warnings(
    rotated: Sequence[tuple[int, int, int, int]], allowed: Callable[[int], bool], alone: bool
) -> list[Problem]:
    """`rotated_without_epiphany` for each rotated card, (player, index in the city, row,
    col), whose player has no activated rotate effect (`allowed(p)`, asked once a player)."""
    lang, said = current(), filler(_ROTATED, _ROTATED_FIELDS)
    out: list[Problem] = []
    checked: dict[int, bool] = {}  # whether player p activated a rotate effect
    for p, index, row, col in rotated:
        rotates = checked.get(p)
        if rotates is None:
            rotates = checked[p] = allowed(p)
        if not rotates:
            if alone:
                out.append(_rotated_kept(p, index, row, col, lang))
            else:
                out.append(_rotated(p, index, row, col, said))
    return out


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


def held_effects(
    game: Game, specs: Sequence[Sequence[object]]
) -> tuple[Callable[[int], bool], Callable[[int], Sequence[int]]]:
    """What :func:`game_warnings` reads of a game's epiphanies, read from them: whether
    player p activated a rotate effect, and the indices of player p's epiphanies activated
    for 1/3 star (`specs`: the game's epiphany ids looked up). A chunk of games reads the
    same from its columns (:class:`neweden.scoring.chunk.ChunkFacts`)."""
    rotates = functools.partial(_rotates, game, specs)
    thirds = functools.partial(_activated, game, specs, effect=THIRD_STAR)
    return rotates, thirds


def game_warnings(
    game: Game,
    style_counts: Mapping[str, int],
    most_cards: int,
    rotated: Sequence[tuple[int, int, int, int]],
    requirement_specs: Sequence[RequirementSpec | None],
    rotates: Callable[[int], bool],
    thirds: Callable[[int], Sequence[int]],
    *,
    alone: bool = True,
) -> list[Problem]:
    """`style_count_over_box`, `game_not_ended`, `requirements_mismatch`,
    `rotated_without_epiphany`, `third_star_in_military`, in this order.

    `style_counts`: common cards of the game by style (at least those above the box's
    count); `most_cards`: the most cards kept in one city; `rotated`: (player, index in the
    city, row, col) of each rotated card; `requirement_specs`: the game's requirement ids looked up
    (:func:`neweden.catalog.catalog.resolve_extras`); `rotates(p)`, `thirds(p)`: player p's
    activated rotate effect and 1/3-star epiphanies (:func:`held_effects`, or a chunk's
    facts); `alone`: the game is scored alone, not in a batch
    (its rotated cards' warnings are kept)."""
    warnings = style_count_warnings(style_counts) if style_counts else []
    if most_cards < GAME_END_CARDS:
        warnings.append(_game_not_ended(most_cards, current()))
    mismatch = _requirements_mismatch(game, requirement_specs)
    if mismatch is not None:
        warnings.append(mismatch)
    if rotated:
        warnings.extend(_rotated_warnings(rotated, rotates, alone))
    if not MODES[game.mode].populist:
        for p in range(len(game.players)):
            held = thirds(p)
            if held:
                warnings.append(_third_star_warning(p, held))
    return warnings
