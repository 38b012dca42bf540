"""The game format `new-eden/game@1` (FORMAT §1) as msgspec types.

These types are the single description of the format: the fast decoder, the every-problem
pass (:mod:`neweden.format.decode`) and the JSON Schema (:mod:`neweden.format.schema`) are
all derived from them, and `/openapi.json` describes each field by its own words
(``described``, :mod:`neweden.format.descriptions`). A constraint whose violation is a
*limit* rather than a wrong value (FORMAT §1, "Limits") is named in
``Meta.extra["too_large"]``; the JSON size and depth limits of `meta` are
``Meta.extra["max_bytes"]`` and ``Meta.extra["max_depth"]``.

Absent optional fields decode to :data:`msgspec.UNSET`, so that "absent" and "given" stay
distinct (``null`` is never a value of this format).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from neweden.format import codes, sides
from neweden.format.descriptions import described
from neweden.format.modes import MODES as MODE_RULES
from neweden.format.modes import MODES_WITH_REQUIREMENTS
from neweden.format.vocabulary import (
    ALIASES,
    KNOWN_EFFECTS,
    SPACE,
    Attribute,
    Named,
    foldable_characters,
)

__all__ = [
    "BOM",
    "FACILITIES",
    "FORMAT_ID",
    "MODES",
    "SIDES",
    "Bonus",
    "EpiphanyEntry",
    "Game",
    "InlineCard",
    "LoneCity",
    "Placement",
    "Player",
]

FORMAT_ID = "new-eden/game@1"

# --- FORMAT §1 limits ---------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_CARDS = 77
MAX_COORDINATE = 1_000
MAX_STRING = 100
MAX_EPIPHANIES = 40
MAX_BONUSES = 20
MAX_META_BYTES = 16 * 1024
MAX_META_DEPTH = 32
MAX_GAME_BYTES = 1024 * 1024
#: A UTF-8 byte-order mark, accepted before a game (and a file's first line, a catalog).
BOM = b"\xef\xbb\xbf"
#: A card's printed points (inline or catalog); the printed cards are far below.
MAX_POINTS = 1_000
#: The most stars a card asks.
MAX_STARS = 3
#: A bonus's points, either way (Company and Professional rewards are a few points).
MAX_BONUS_POINTS = 1_000

IDENTIFIER_PATTERN = r"^[a-z][a-z0-9_]*$"
CATALOG_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"

MODES = tuple(MODE_RULES)
SIDES = sides.SIDES
FACILITIES = ("lab", "shelter", "medical", "tower", "base")

if TYPE_CHECKING:  # (a type checker reads a Literal written out; the modes are a table)
    Mode = str
else:
    Mode = Literal[MODES]  # the modes of format/modes.py, for msgspec and the JSON Schema
Side = Literal["top", "right", "bottom", "left"]
Facility = Literal["lab", "shelter", "medical", "tower", "base"]
EpiphanyState = Literal["held", "validated", "activated"]

_LONG_STRING = {codes.TOO_LARGE: ("max_length",)}


# Identifier and id patterns are not msgspec constraints: msgspec runs a regular expression
# per string (two thirds of a game's decoding time). They are `extra["pattern"]`, checked by
# the every-problem walk and, on the fast path, with a cache (neweden.format.checks), and stated in
# the JSON Schema.
def _patterned(pattern: str, description: str, **more: Any) -> Meta:
    """A string of at most MAX_STRING characters matching `pattern` (checked by the decoder,
    stated in the JSON Schema)."""
    return Meta(
        max_length=MAX_STRING,
        description=description,
        extra={**_LONG_STRING, "pattern": pattern},
        extra_json_schema={"pattern": pattern},
        **more,
    )


Identifier = Annotated[
    str,
    _patterned(IDENTIFIER_PATTERN, "a lower-case identifier: a letter, then letters, digits or _"),
]


def _ranges(characters: str) -> str:
    """`characters` as the inside of a regular expression's class, runs as ranges, each
    character outside printable ASCII as a \\uXXXX escape (read alike by ECMA-262 and by
    Python's `re`)."""

    def one(point: int) -> str:
        c = chr(point)
        if 0x20 < point < 0x7F:
            return "\\" + c if c in "\\]^-[" else c
        return f"\\u{point:04x}"

    points = sorted(map(ord, characters))
    out, start = [], 0
    for i in range(1, len(points) + 1):
        if i == len(points) or points[i] != points[i - 1] + 1:
            first, last = points[start], points[i - 1]
            out.append(one(first) if first == last else f"{one(first)}-{one(last)}")
            start = i
    return "".join(out)


def _name_pattern() -> str:
    """The JSON Schema pattern (ECMA-262, no flags) of exactly the names that fold to an
    identifier (RULES §1, :func:`~neweden.format.vocabulary.fold`): spaces and Portuguese
    accents (precomposed or as combining marks) anywhere before a letter in either case,
    then letters, digits, `_`, `-`, spaces and accents. Ends with `(?![\\s\\S])`, the end
    of the text in every engine (Python's `$` also matches before a final newline)."""
    marks, letters = foldable_characters()
    lead = f"[{_ranges(SPACE + marks)}]*"
    first = f"[{_ranges(letters)}]"
    rest = f"[{_ranges(SPACE + marks + letters + '0123456789_-')}]*"
    return f"^{lead}{first}{rest}(?![\\s\\S])"


#: What the JSON Schema says a style, type or effect name is (computed once).
NAME_PATTERN = _name_pattern()
_FOLDING_WORDS = (
    "written as players write it: spaces around it trimmed, Portuguese accents taken off, "
    "letters in lower case, inner spaces and hyphens made _; then a lower-case identifier"
)


def _vocabulary_words(attribute: Attribute) -> str:
    names = ALIASES[attribute]
    known = "; ".join(f"{name} (also {', '.join(forms)})" for name, forms in names.items())
    return (
        f"a name {_FOLDING_WORDS}; the names the manual gives, with their Portuguese forms, "
        f"are folded to the English one: {known}"
    )


def _name_meta(named: Named, description: str, examples: list[str]) -> Meta:
    """A style, type or effect name: folded on input (neweden.format.checks,
    neweden.format.vocabulary.fold), then an identifier; `extra["folded"]` tells the
    decoder's walk which name it is."""
    return Meta(
        max_length=MAX_STRING,
        description=description,
        examples=examples,
        extra={**_LONG_STRING, "pattern": IDENTIFIER_PATTERN, "folded": named},
        extra_json_schema={"pattern": NAME_PATTERN},
    )


Style = Annotated[str, _name_meta("style", _vocabulary_words("style"), list(ALIASES["style"]))]
TypeName = Annotated[str, _name_meta("type", _vocabulary_words("type"), list(ALIASES["type"]))]
Effect = Annotated[
    str,
    _name_meta(
        "effect",
        f"a name {_FOLDING_WORDS}; the rules act on "
        + ", ".join(KNOWN_EFFECTS)
        + " (another effect gets the warning unknown_effect unless the catalog declares it)",
        list(KNOWN_EFFECTS),
    ),
]
CatalogId = Annotated[str, _patterned(CATALOG_ID_PATTERN, "the id of a catalog entry")]
Name = Annotated[str, Meta(min_length=1, max_length=MAX_STRING, extra=_LONG_STRING)]
Coordinate = Annotated[
    int,
    Meta(ge=-MAX_COORDINATE, le=MAX_COORDINATE, extra={codes.TOO_LARGE: ("ge", "le")}),
]
Points = Annotated[
    int,
    Meta(
        ge=0,
        le=MAX_POINTS,
        extra={codes.TOO_LARGE: ("le",)},
    ),
]
BonusPoints = Annotated[
    int,
    Meta(
        ge=-MAX_BONUS_POINTS,
        le=MAX_BONUS_POINTS,
        extra={codes.TOO_LARGE: ("ge", "le")},
    ),
]
Stars = Annotated[int, Meta(ge=0, le=MAX_STARS)]
Sides = Annotated[
    list[Side],
    Meta(
        min_length=1,
        max_length=4,
        description="the icons as printed on the upright card, each side at most once",
    ),
]


class InlineCard(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A card given in full. Common: style, type, facility, points, stars, sides; or wild."""

    wild: (
        Annotated[
            Literal[True],
            described("true for a wild card: all four sides, fits any style or type"),
        ]
        | UnsetType
    ) = UNSET
    style: Style | UnsetType = UNSET
    type: TypeName | UnsetType = UNSET
    facility: (
        Annotated[
            Facility,
            described("the underground facility: lab, shelter, medical (center), tower or base"),
        ]
        | UnsetType
    ) = UNSET
    points: Annotated[Points, described("the printed points, 0 or more")] | UnsetType = UNSET
    stars: (
        Annotated[
            Stars,
            described(
                "the stars the card needs to score its points (0 to 3); otherwise it scores 1"
            ),
        ]
        | UnsetType
    ) = UNSET
    sides: Sides | UnsetType = UNSET
    name: Annotated[Name, described("optional: the card's printed name")] | UnsetType = UNSET


CardRef = CatalogId | InlineCard


class Placement(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One card of a city: its cell, the card, and whether it is turned 180°."""

    row: Annotated[
        Coordinate, described("the card's row, growing downward; only relative positions matter")
    ]
    col: Annotated[Coordinate, described("the card's column, growing rightward")]
    card: Annotated[
        CardRef,
        described(
            "a catalog id (atomic-waste, new-eden or a catalog's own) or the card given in full"
        ),
    ]
    rotated: Annotated[
        bool,
        described(
            "the card is turned 180° (its icons are swapped top-bottom and left-right); "
            "default false"
        ),
    ] = False


class EpiphanyEntry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An Epiphany a player holds: by catalog id (`card`) or inline (`points`, `effect`)."""

    state: Annotated[
        EpiphanyState,
        described(
            "held (scores 0), validated (scores its points) or activated (scores 0, its "
            "effect used)"
        ),
    ]
    card: CatalogId | UnsetType = UNSET
    points: (
        Annotated[Literal[2, 5], described("the printed points of an inline epiphany: 2 or 5")]
        | UnsetType
    ) = UNSET
    effect: Effect | UnsetType = UNSET


class Bonus(msgspec.Struct, forbid_unknown_fields=True):
    """A Company or Professional reward (RULES §4d)."""

    schema_description: ClassVar[str] = (
        "A Company or Professional reward: a name and the points it adds as they are."
    )

    name: Annotated[Name, described("the reward's name, 1 to 100 characters")]
    points: Annotated[BonusPoints, described("the points it adds (negative allowed)")]


City = Annotated[
    list[Placement], Meta(max_length=MAX_CARDS, extra={codes.TOO_LARGE: ("max_length",)})
]
RequirementsMet = Annotated[
    list[CatalogId],
    Meta(
        description=(
            "the ids of the requirement cards in play (each one of `requirements`, once) that "
            "the table agreed this player met: a card the catalog knows is checked against the "
            "city (requirement_disagrees when the city does not meet it), another is scored as "
            "declared (RULES §4a)"
        ),
    ),
]
#: One value of the D5 card for a place (as a catalog's `majority_table` holds them).
TablePoints = Annotated[int, Meta(ge=0, le=MAX_POINTS, extra={codes.TOO_LARGE: ("le",)})]
MajorityTable = Annotated[
    list[TablePoints],
    Meta(
        min_length=1,
        max_length=MAX_PLAYERS,
        description=(
            "the D5 card's values for this game's player count, as printed: one a place, as "
            "many as players, not increasing; replaces the catalog's table and the built-in "
            "default for this game (RULES §4a)"
        ),
        extra={codes.TOO_LARGE: ("max_length",)},
    ),
]


# No docstring: it would be the game JSON Schema's description of a player, which has none
# (/openapi.json's is `schema_description`).
class Player(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    schema_description: ClassVar[str] = (
        "One player: their name, their city (the cards as placed), their epiphanies and their "
        "bonuses."
    )

    name: Annotated[Name, described("a name, 1 to 100 characters, unique in the game")]
    city: Annotated[City, described("the player's cards as placed, at most 77")]
    epiphanies: Annotated[
        list[EpiphanyEntry],
        Meta(max_length=MAX_EPIPHANIES, extra={codes.TOO_LARGE: ("max_length",)}),
        described("the player's epiphanies, at most 40"),
    ] = msgspec.field(default_factory=list)
    bonuses: Annotated[
        list[Bonus],
        Meta(max_length=MAX_BONUSES, extra={codes.TOO_LARGE: ("max_length",)}),
        described("Company or Professional rewards, at most 20"),
    ] = msgspec.field(default_factory=list)
    #: the requirement cards in play that the table agreed this player met (RULES §4a):
    #: checked against the city for a card the catalog knows, scored as declared for another
    requirements_met: (
        Annotated[
            RequirementsMet,
            described(
                "optional: the ids of the requirement cards in play that the table agreed "
                "this player met; a card the catalog knows is checked against the city "
                "(requirement_disagrees when it does not meet it), another is scored as "
                "declared; once some player gives it, a player without it met none of the "
                "cards the catalog cannot check"
            ),
        ]
        | UnsetType
    ) = UNSET


MetaObject = Annotated[
    dict[str, Any],
    Meta(
        description="anything else about the game; never read by scoring, echoed in the report",
        extra={"max_bytes": MAX_META_BYTES, "max_depth": MAX_META_DEPTH},
    ),
]


#: The most characters of a `"$schema"` link.
MAX_SCHEMA_LINK = 2_000
#: `"$schema"`: where an editor (VS Code...) finds the JSON Schema of the document, for
#: completion and checks while typing (`neweden schema > game.schema.json`). Ignored.
SchemaLink = Annotated[
    str,
    Meta(
        max_length=MAX_SCHEMA_LINK,
        description="the JSON Schema an editor checks this document against; ignored",
        extra={codes.TOO_LARGE: ("max_length",)},
    ),
]


def _listed(words: list[str]) -> str:
    """`a, b or c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: The modes (format/modes.py) as `mode`'s description names them; those that play
#: requirement cards and those that do not, as `requirements`' does.
_MODE_NAMES = _listed(
    [
        f"{mode} (Military plus Populist)" if rules.populist and rules.military else mode
        for mode, rules in MODE_RULES.items()
    ]
)
_REQUIRING = " and ".join(MODES_WITH_REQUIREMENTS)
_IGNORING = " and ".join(mode for mode in MODES if mode not in MODES_WITH_REQUIREMENTS)

#: The constraints of a game's `players` (also those of the lean decoder's, decode_lean).
PLAYERS = Meta(min_length=1, max_length=MAX_PLAYERS, extra={codes.TOO_LARGE: ("max_length",)})


class Game(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A finished table: mode, requirement cards in play, players in clockwise seat order."""

    mode: Annotated[Mode, described(f"the game mode: {_MODE_NAMES}")]
    players: Annotated[
        list[Player], PLAYERS, described("1 to 4 players in clockwise seat order; names unique")
    ]
    format: (
        Annotated[Literal["new-eden/game@1"], described("optional; when given, new-eden/game@1")]
        | UnsetType
    ) = UNSET
    requirements: (
        Annotated[
            list[CatalogId],
            described(
                "the requirement cards in play, each a catalog id (A1, B1 and C1 built in); "
                f"required in {_REQUIRING} games, ignored with a warning in {_IGNORING} ones"
            ),
        ]
        | UnsetType
    ) = UNSET
    first_player: (
        Annotated[
            Name,
            described(
                "optional: the name of the current first player; used only by the last tie-breaker"
            ),
        ]
        | UnsetType
    ) = UNSET
    majority_table: (
        Annotated[
            MajorityTable,
            described(
                "optional: the D5 card's values for this game's player count, as printed: one "
                "a place, as many as players, not increasing; used instead of the catalog's "
                "table and the built-in default"
            ),
        ]
        | UnsetType
    ) = UNSET
    meta: (
        Annotated[
            MetaObject,
            described(
                "anything else about the game (table, photo, transcriber); never read by "
                "scoring, echoed in the report"
            ),
        ]
        | UnsetType
    ) = UNSET
    schema: SchemaLink | UnsetType = msgspec.field(default=UNSET, name="$schema")

    def requirement_ids(self) -> list[str]:
        """The requirement cards in play as listed (none when not given)."""
        return self.requirements if isinstance(self.requirements, list) else []

    def declares(self) -> bool:
        """Whether some player carries `requirements_met` (RULES §4a: then a player without
        it met none of the requirement cards the catalog cannot judge)."""
        for player in self.players:  # noqa: SIM110 (runs for every game)
            if player.requirements_met is not UNSET:
                return True
        return False


class LoneCity(msgspec.Struct, forbid_unknown_fields=True):
    """A single city sent alone to the validation calls: `{"city": [...]}`."""

    city: Annotated[City, described("the cards of one city as placed, at most 77")]
    schema: SchemaLink | UnsetType = msgspec.field(default=UNSET, name="$schema")


#: The cross-field checks of neweden.format.checks, said in JSON Schema for `neweden schema`
#: (added to each struct's definition; the decoder runs the checks themselves).
SCHEMA_CROSS_CHECKS: dict[str, dict[str, Any]] = {
    "InlineCard": {
        "oneOf": [
            {
                "title": "wild card",
                "required": ["wild"],
                "not": {
                    "anyOf": [{"required": [f]} for f in ("style", "type", "facility", "sides")]
                },
            },
            {
                "title": "common card",
                "required": ["style", "type", "facility", "points", "stars", "sides"],
                "not": {"required": ["wild"]},
                "properties": {"sides": {"uniqueItems": True}},
            },
        ]
    },
    "EpiphanyEntry": {
        "oneOf": [
            {
                "title": "by catalog id",
                "required": ["card"],
                "not": {"anyOf": [{"required": ["points"]}, {"required": ["effect"]}]},
            },
            {"title": "inline", "required": ["points"], "not": {"required": ["card"]}},
        ]
    },
    "Game": {
        "if": {
            "properties": {"mode": {"enum": list(MODES_WITH_REQUIREMENTS)}},
            "required": ["mode"],
        },
        "then": {"required": ["requirements"]},
    },
}
