"""The game modes (RULES §4a): which parts of the score each one plays. The format's mode
names, the decoder's cross-field check (`requirements` by mode), the JSON Schema and the
report all read this one table; a new mode is one line here (and its name in the format's
`Mode` type, which a test holds equal to this table)."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MODES", "MODES_WITH_REQUIREMENTS", "ModeRules"]


class ModeRules(NamedTuple):
    """What a mode scores."""

    #: the requirement cards (stars, Populist points)
    populist: bool
    #: the underground facilities (D1-D5)
    military: bool


MODES: dict[str, ModeRules] = {
    "populist": ModeRules(populist=True, military=False),
    "military": ModeRules(populist=False, military=True),
    "elitist": ModeRules(populist=True, military=True),
}
#: The modes whose games must list their requirement cards.
MODES_WITH_REQUIREMENTS = tuple(name for name, rules in MODES.items() if rules.populist)
