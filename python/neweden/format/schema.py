"""The JSON Schema of the game format, generated from the types of :mod:`neweden.format.model`."""

from __future__ import annotations

from typing import Any

import msgspec

from neweden.format.model import FORMAT_ID, SCHEMA_CROSS_CHECKS, Game, LoneCity

__all__ = ["city_schema", "game_schema"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _schema(doc_type: type, title: str) -> dict[str, Any]:
    body = msgspec.json.schema(doc_type)
    for name, rule in SCHEMA_CROSS_CHECKS.items():
        if name in body["$defs"]:
            body["$defs"][name].update(rule)
    return {"$schema": _DIALECT, "title": title, **body}


def game_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of `new-eden/game@1`.

    It states every type, enumeration, range, pattern and limit, and the card kinds; the few
    checks a schema cannot say (distinct sides, `requirements` by mode, `meta` size and
    depth, the 1 MiB game) are listed in :mod:`neweden.format.checks` and docs/format.md.
    """
    return _schema(Game, f"A New Eden Project game ({FORMAT_ID})")


def city_schema() -> dict[str, Any]:
    """The JSON Schema of a lone city, `{"city": [...]}`."""
    return _schema(LoneCity, "A lone New Eden Project city")
