"""Every code an error or a warning can carry: the registry (docs/report.md lists them with
their meaning). Code elsewhere names a code by its constant here, never as a string.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ACTIVATED_FIVE_POINT",
    "BAD_JSON",
    "BAD_TOML",
    "BAD_TYPE",
    "BAD_VALUE",
    "CATALOG_CODES",
    "COPY_LIMIT",
    "DECODE_CODES",
    "DEFAULT_MAJORITY_TABLE",
    "DISCONNECTED",
    "DUPLICATE_NAME",
    "EMPTY_CITY",
    "GAME_NOT_ENDED",
    "MISSING_FIELD",
    "MISSPELLED_NAME",
    "NOT_FOUND",
    "ONE_PLAYER_BASES",
    "OVERLAP",
    "REQUIREMENTS_DECLARED",
    "REQUIREMENTS_IGNORED",
    "REQUIREMENTS_MISMATCH",
    "REQUIREMENT_DISAGREES",
    "REQUIREMENT_READS_CARDS",
    "ROTATED_WITHOUT_EPIPHANY",
    "RULE_CODES",
    "SIMILAR_NAMES",
    "STYLE_COUNT_OVER_BOX",
    "THIRD_STAR_IN_MILITARY",
    "TOO_LARGE",
    "TOO_MANY_STYLES",
    "TOO_MANY_TYPES",
    "UNKNOWN_CARD",
    "UNKNOWN_EFFECT",
    "UNKNOWN_EPIPHANY",
    "UNKNOWN_FIELD",
    "UNKNOWN_FIRST_PLAYER",
    "UNKNOWN_REQUIREMENT",
    "UNKNOWN_STYLE",
    "UNKNOWN_TYPE",
    "WARNING_CODES",
]

# What can be checked on the JSON alone (the game is not readable).
BAD_JSON: Final = "bad_json"
BAD_TYPE: Final = "bad_type"
MISSING_FIELD: Final = "missing_field"
UNKNOWN_FIELD: Final = "unknown_field"
BAD_VALUE: Final = "bad_value"
TOO_LARGE: Final = "too_large"

# Errors that need the catalog, the geometry or the other players (`valid` false).
UNKNOWN_CARD: Final = "unknown_card"
UNKNOWN_REQUIREMENT: Final = "unknown_requirement"
UNKNOWN_EPIPHANY: Final = "unknown_epiphany"
UNKNOWN_STYLE: Final = "unknown_style"
UNKNOWN_TYPE: Final = "unknown_type"
OVERLAP: Final = "overlap"
DISCONNECTED: Final = "disconnected"
COPY_LIMIT: Final = "copy_limit"
DUPLICATE_NAME: Final = "duplicate_name"
ACTIVATED_FIVE_POINT: Final = "activated_five_point"
TOO_MANY_STYLES: Final = "too_many_styles"
TOO_MANY_TYPES: Final = "too_many_types"
MISSPELLED_NAME: Final = "misspelled_name"
NOT_FOUND: Final = "not_found"
REQUIREMENT_READS_CARDS: Final = "requirement_reads_cards"
REQUIREMENT_DISAGREES: Final = "requirement_disagrees"

# Warnings: they never change `valid` or an exit code.
EMPTY_CITY: Final = "empty_city"
ROTATED_WITHOUT_EPIPHANY: Final = "rotated_without_epiphany"
GAME_NOT_ENDED: Final = "game_not_ended"
DEFAULT_MAJORITY_TABLE: Final = "default_majority_table"
ONE_PLAYER_BASES: Final = "one_player_bases"
REQUIREMENTS_IGNORED: Final = "requirements_ignored"
REQUIREMENTS_MISMATCH: Final = "requirements_mismatch"
STYLE_COUNT_OVER_BOX: Final = "style_count_over_box"
UNKNOWN_FIRST_PLAYER: Final = "unknown_first_player"
THIRD_STAR_IN_MILITARY: Final = "third_star_in_military"
SIMILAR_NAMES: Final = "similar_names"
UNKNOWN_EFFECT: Final = "unknown_effect"
REQUIREMENTS_DECLARED: Final = "requirements_declared"

# A catalog file's own problem, besides the decode codes (docs/catalog.md).
BAD_TOML: Final = "bad_toml"

#: What can be checked on the JSON alone (the game is not readable).
DECODE_CODES = frozenset({BAD_JSON, BAD_TYPE, MISSING_FIELD, UNKNOWN_FIELD, BAD_VALUE, TOO_LARGE})
#: Errors that need the catalog, the geometry or the other players (`valid` false).
RULE_CODES = frozenset(
    {
        UNKNOWN_CARD,
        UNKNOWN_REQUIREMENT,
        UNKNOWN_EPIPHANY,
        UNKNOWN_STYLE,
        UNKNOWN_TYPE,
        OVERLAP,
        DISCONNECTED,
        COPY_LIMIT,
        DUPLICATE_NAME,
        ACTIVATED_FIVE_POINT,
        TOO_MANY_STYLES,
        TOO_MANY_TYPES,
        MISSPELLED_NAME,
        NOT_FOUND,
        REQUIREMENT_READS_CARDS,
        REQUIREMENT_DISAGREES,
    }
)
#: Warnings: they never change `valid` or an exit code.
WARNING_CODES = frozenset(
    {
        EMPTY_CITY,
        ROTATED_WITHOUT_EPIPHANY,
        GAME_NOT_ENDED,
        DEFAULT_MAJORITY_TABLE,
        ONE_PLAYER_BASES,
        REQUIREMENTS_IGNORED,
        REQUIREMENTS_MISMATCH,
        STYLE_COUNT_OVER_BOX,
        UNKNOWN_FIRST_PLAYER,
        THIRD_STAR_IN_MILITARY,
        SIMILAR_NAMES,
        UNKNOWN_EFFECT,
        REQUIREMENTS_DECLARED,
    }
)
#: A catalog file's problems: the decode codes and its own.
CATALOG_CODES = DECODE_CODES | {BAD_TOML}
