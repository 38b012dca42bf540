"""The JSON Schema of the game format, generated from the types of :mod:`neweden.format.model`."""

from __future__ import annotations

from typing import Any

import msgspec

from neweden.format import model
from neweden.format.descriptions import field_words
from neweden.format.model import FORMAT_ID, SCHEMA_CROSS_CHECKS, Game, LoneCity

__all__ = ["city_schema", "game_schema"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _schema(doc_type: type, title: str) -> dict[str, Any]:
    body = msgspec.json.schema(doc_type)
    for name, definition in body["$defs"].items():
        _types_words_only(definition, getattr(model, name))
        definition.update(SCHEMA_CROSS_CHECKS.get(name, {}))
    return {"$schema": _DIALECT, "title": title, **body}


def _types_words_only(definition: dict[str, Any], cls: type) -> None:
    """The schema describes each property by its type's words (an identifier, a style name,
    the D5 table), not by the field's own words, which are /openapi.json's
    (:mod:`neweden.format.descriptions`): where a field has its own, its type's take their
    place again, or the property has no description."""
    for name, words in field_words(cls).items():
        if words.own is None:
            continue
        prop = definition["properties"][name]
        if words.typed is None:
            del prop["description"]
        else:
            prop["description"] = words.typed


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
