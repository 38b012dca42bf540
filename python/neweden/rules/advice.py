"""Advice (RULES §4b): would another choice of 1/3-star activations have scored more?

The score keeps the declared states. The advice compares, for the same city, every number
of whole stars the player's 1/3-star epiphanies could have bought: each star costs three of
them, which then score nothing instead of their printed points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, TypedDict

from neweden.catalog.catalog import EpiphanySpec
from neweden.format.descriptions import described
from neweden.format.model import EpiphanyEntry
from neweden.geometry.figures import ScoreFigures
from neweden.i18n import Nn_, ngettext
from neweden.rules.epiphanies import ICONS_PER_STAR, THIRD_STAR, third_star_stars
from neweden.rules.requirements import populist_points
from neweden.rules.totals import player_stars

__all__ = ["Advice", "third_star_advice"]


class Advice(TypedDict):
    """A choice that would have scored more for the same city."""

    code: Annotated[str, described("a stable snake_case identifier (third_star_choice)")]
    message: Annotated[str, described("the suggestion in words, in the answer's language")]
    stars_from_epiphanies: Annotated[
        int, described("the whole stars from 1/3-star epiphanies that would score more")
    ]
    gain: Annotated[int, described("how many more points")]


def third_star_advice(
    entries: Sequence[EpiphanyEntry],
    specs: Sequence[EpiphanySpec | None],
    figures: ScoreFigures,
    requirements_met: int,
    stars_bought: int,
) -> list[Advice]:
    """One piece of advice when a different number of activated groups of three would have
    scored more (the best such number; on a tie, the fewest activations)."""
    if len(entries) < ICONS_PER_STAR:  # too few to buy a star, whatever they are
        return []
    usable = sorted(
        spec.points
        for entry, spec in zip(entries, specs, strict=True)
        if spec is not None
        and spec.effect == THIRD_STAR
        and spec.points != 5
        and entry.state in ("validated", "activated")
    )
    if len(usable) < ICONS_PER_STAR:
        return []

    def worth(groups: int) -> int:
        spent = sum(usable[: groups * ICONS_PER_STAR])  # the cheapest icons buy the stars
        stars = player_stars(requirements_met, groups)
        return populist_points(figures, stars) + sum(usable) - spent

    options = range(third_star_stars(len(usable)) + 1)
    best = max(options, key=lambda g: (worth(g), -g))
    gain = worth(best) - worth(stars_bought)
    if gain <= 0:
        return []
    message = _advice_words(best, stars_bought, gain)
    return [
        {
            "code": "third_star_choice",
            "message": message,
            "stars_from_epiphanies": best,
            "gain": gain,
        }
    ]


#: The advice's sentence, by whether it is to activate more 1/3-star epiphanies or fewer
#: (a plural form for the whole stars: `{best}`).
_ACTIVATE_MORE = Nn_(
    "activating {count} more 1/3-star epiphanies ({best} whole star(s) instead of "
    "{bought}) would have scored {gain} more points",
    "activating {count} more 1/3-star epiphanies ({best} whole star(s) instead of "
    "{bought}) would have scored {gain} more points",
)
_VALIDATE_MORE = Nn_(
    "validating instead {count} more 1/3-star epiphanies ({best} whole star(s) instead "
    "of {bought}) would have scored {gain} more points",
    "validating instead {count} more 1/3-star epiphanies ({best} whole star(s) instead "
    "of {bought}) would have scored {gain} more points",
)


def _advice_words(best: int, bought: int, gain: int) -> str:
    """The advice to have bought `best` whole stars with 1/3-star epiphanies, not `bought`."""
    change = best - bought
    words = _ACTIVATE_MORE if change > 0 else _VALIDATE_MORE
    count = abs(change) * ICONS_PER_STAR
    return ngettext(*words, best, count=count, best=best, bought=bought, gain=gain)
