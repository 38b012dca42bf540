"""The game modes (RULES §4a), one table: each mode's identifier, which parts of the score it
plays, and its names in words (translated by the message catalogs). The format's `Mode`
type, the decoder's cross-field check (`requirements` by mode), the JSON Schema, the report,
the warnings, the text table, the picture, the web page and the OpenAPI document all read
it: a new mode is one entry here (and its words in the message catalogs)."""

from __future__ import annotations

from typing import NamedTuple

from neweden.i18n import N_

__all__ = ["MODES", "MODES_WITH_REQUIREMENTS", "ModeRules"]


class ModeRules(NamedTuple):
    """What a mode scores, and how people name it."""

    #: the requirement cards (stars, Populist points)
    populist: bool
    #: the underground facilities (D1-D5)
    military: bool
    #: the mode in a sentence or a table (`elitist`)
    name: str
    #: the mode as a choice on the web page (`Elitist`)
    title: str
    #: a game of the mode, in a sentence (`an elitist game`)
    a_game: str
    #: `requirements_mismatch` of a mode that plays requirement cards: with the decks it
    #: has, and with none
    mismatch: tuple[str, str] = ("", "")


MODES: dict[str, ModeRules] = {
    "populist": ModeRules(
        populist=True,
        military=False,
        name=N_("populist"),
        title=N_("Populist"),
        a_game=N_("a populist game"),
        mismatch=(
            N_(
                "a populist game plays one requirement card of each deck A, B and C; this one "
                "has decks {decks}. It is scored as given"
            ),
            N_(
                "a populist game plays one requirement card of each deck A, B and C; this one "
                "has decks none. It is scored as given"
            ),
        ),
    ),
    "military": ModeRules(
        populist=False,
        military=True,
        name=N_("military"),
        title=N_("Military"),
        a_game=N_("a military game"),
    ),
    "elitist": ModeRules(
        populist=True,
        military=True,
        name=N_("elitist"),
        title=N_("Elitist"),
        a_game=N_("an elitist game"),
        mismatch=(
            N_(
                "an elitist game plays one requirement card of each deck A, B and C; this one "
                "has decks {decks}. It is scored as given"
            ),
            N_(
                "an elitist game plays one requirement card of each deck A, B and C; this one "
                "has decks none. It is scored as given"
            ),
        ),
    ),
}
#: The modes whose games must list their requirement cards.
MODES_WITH_REQUIREMENTS = tuple(name for name, rules in MODES.items() if rules.populist)
