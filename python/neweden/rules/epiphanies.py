"""Epiphanies (RULES §4b): states, the 1/3-star effect in groups of three, and points."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

from neweden.catalog.catalog import EpiphanySpec
from neweden.format.model import EpiphanyEntry
from neweden.i18n import N_, _, current, named

__all__ = ["THIRD_STAR", "EpiphanyResult", "score_epiphanies"]

THIRD_STAR = "third_star"
ICONS_PER_STAR = 3

# The audit's notes (translated when a line is made: the lean report makes none).
_UNKNOWN = N_("unknown id: not scored")
_HELD = N_("held, never validated")
_VALIDATED = N_("validated")
_FIVE = N_("a 5-point epiphany cannot be activated")
_LEFT_OVER = N_("1/3 star left over (fewer than three): scored as validated")
_IN_A_STAR = N_("1/3 star, in a group of three making a star")


class EpiphanyLine(NamedTuple):
    number: int  # its place in the player's list
    state: str
    points: int  # printed
    effect: str | None
    scored: int
    note: str


class EpiphanyResult(NamedTuple):
    points: int
    stars: int  # whole stars from 1/3-star activations
    lines: tuple[EpiphanyLine, ...]
    #: indices of epiphanies declared activated with 5 points (an error each)
    activated_five_point: tuple[int, ...]


def third_star_stars(icons: Any) -> Any:
    """The stars a player's 1/3-star icons buy: one a whole group of three (ints or arrays).

    Example: ``third_star_stars(7)`` is 2."""
    return icons // ICONS_PER_STAR


def left_over(rank: Any, icons: Any) -> Any:
    """Whether the icon of `rank` (1 for the first listed) among a player's `icons` is left
    over after the whole groups (the last ones listed are): it then scores as validated.
    Written in arithmetic only, for one icon (ints) and for columns of icons (arrays).

    Example: ``left_over(7, 7)`` is True, ``left_over(6, 7)`` is False."""
    return rank > third_star_stars(icons) * ICONS_PER_STAR


def score_epiphanies(
    entries: Sequence[EpiphanyEntry],
    specs: Sequence[EpiphanySpec | None],
    *,
    explained: bool = True,
) -> EpiphanyResult:
    """Held: 0. Validated: printed points. Activated: 0, but 1/3-star icons count in whole
    groups of three and the icons left over score as validated. A 5-point epiphany cannot
    be activated: declared so, it is an error and scores 0 (and gives no icon).

    `explained`: with a line per epiphany saying what it scored and why (the audit); the
    lean report does without."""
    if not entries:
        return _NONE
    thirds = []
    for i, (entry, spec) in enumerate(zip(entries, specs, strict=True)):
        if (
            entry.state == "activated"
            and spec is not None
            and spec.effect == THIRD_STAR
            and spec.points != 5
        ):
            thirds.append(i)
    stars = third_star_stars(len(thirds))
    leftover = [i for rank, i in enumerate(thirds, 1) if left_over(rank, len(thirds))]
    lines = []
    five = []
    total = 0
    for i, (entry, spec) in enumerate(zip(entries, specs, strict=True)):
        if spec is None:  # unknown catalog id: an error elsewhere, scores nothing
            if explained:
                lines.append(_new(EpiphanyLine, (i, entry.state, 0, None, 0, _(_UNKNOWN))))
            continue
        state = entry.state
        if state == "held":
            scored, note = 0, _HELD
        elif state == "validated":
            scored, note = spec.points, _VALIDATED
        elif spec.points == 5:
            scored, note = 0, _FIVE
            five.append(i)
        elif i in leftover:
            scored, note = spec.points, _LEFT_OVER
        elif i in thirds:
            scored, note = 0, _IN_A_STAR
        else:
            scored, note = 0, ""
        total += scored
        if explained:
            note = _note(note, spec.effect, current())
            lines.append(_new(EpiphanyLine, (i, state, spec.points, spec.effect, scored, note)))
    return _new(EpiphanyResult, (total, stars, tuple(lines), tuple(five) if five else ()))


#: The known epiphany effects as a report's note names them: their identifiers in English,
#: the manual's words in Portuguese (another effect is named as it is).
EFFECT_WORDS = {
    # TRANSLATORS: an epiphany's effect, as in "activated (third_star)": the manual's words
    "third_star": N_("third_star"),
    "rotate": N_("rotate"),
    "move": N_("move"),
}


@functools.lru_cache(maxsize=256)
def _note(note: str, effect: str | None, lang: str) -> str:
    """An epiphany line's note in `lang` (the current language, which it is made in): the
    same few recur, each is made once."""
    if note:
        return _(note)
    if effect:
        return _("activated ({effect})", effect=named(EFFECT_WORDS, effect))
    return _("activated (no effect named)")


_new = tuple.__new__  # a named tuple with every field given, without its Python __new__
_NONE = EpiphanyResult(0, 0, (), ())
_NO_INDICES: list[int] = []
