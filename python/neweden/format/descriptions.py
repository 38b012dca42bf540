"""What the schemas say of each property and each type, written on the types themselves.

A field of a Struct or TypedDict says what it is with ``Annotated[T, described("...")]``: the
words `/openapi.json` gives that property (users' words, in English like the rest of the
document). A reused type can carry words of its own too, ``Meta(description=...)`` on an
alias (an identifier, a style name, the D5 table): they describe the type wherever it is
used. A field's own words replace its type's (msgspec keeps the last description).

The game's JSON Schema (``neweden schema``, :mod:`neweden.format.schema`) gives the types'
words alone, and the docstrings; `/openapi.json` (:mod:`neweden.http.api_types`) gives the
fields' words too, and a class's :data:`SCHEMA_DESCRIPTION` where it has one. msgspec merges
every ``Meta`` of a field into one, so :func:`field_words` reads the annotations, where a
field's own words are still told apart from its type's (they are marked in ``Meta.extra``).
"""

from __future__ import annotations

import types
from typing import Annotated, Any, NamedTuple, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta, UnsetType

__all__ = ["SCHEMA_DESCRIPTION", "Words", "class_words", "described", "field_words"]

#: The class attribute (a ``ClassVar[str]``) with what `/openapi.json` says of a class, where
#: that differs from its docstring (the developer's) or the class has none; it takes the
#: docstring's place in the document (or comes last, after the properties, without one).
SCHEMA_DESCRIPTION = "schema_description"

#: The key of ``Meta.extra`` that marks a field's own words (the walk of the every-problem
#: pass reads other keys of ``extra``; this one it ignores).
_OWN = "field_words"


def described(words: str) -> Meta:
    """A field's own description: ``Annotated[T, described("...")]`` (for a field that may
    be absent, ``Annotated[T, described("...")] | UnsetType``, so that msgspec merges the
    words with the type's ``Meta`` and a field's own words win)."""
    return Meta(description=words, extra={_OWN: True})


class Words(NamedTuple):
    """What describes one property: the field's own words and its type's (each may be None)."""

    own: str | None
    typed: str | None


def field_words(cls: type) -> dict[str, Words]:
    """The words of each property of a Struct or TypedDict, by its name in JSON: those of
    the field's own ``described`` and those of its type, as the property's schema gives them
    (a type that may be UNSET is its other member; a union's members are described inside
    it, not as the property)."""
    if issubclass(cls, msgspec.Struct):
        hints = {f.encode_name: f.type for f in msgspec.structs.fields(cls)}
    else:
        hints = get_type_hints(cls, include_extras=True)
    out = {}
    for name, hint in hints.items():
        own = typed = None
        for meta in _metas(hint):
            if meta.description is not None and meta.extra and meta.extra.get(_OWN):
                own = meta.description
            elif meta.description is not None:
                typed = meta.description
        out[name] = Words(own, typed)
    return out


def class_words(cls: type) -> str | None:
    """What `/openapi.json` says of a class instead of its docstring, if anything."""
    words = getattr(cls, SCHEMA_DESCRIPTION, None)
    return words if isinstance(words, str) else None


def _metas(hint: Any) -> list[Meta]:
    """The Metas that apply to a property itself, in msgspec's order (the last words win)."""
    if get_origin(hint) is Annotated:
        own = [m for m in hint.__metadata__ if isinstance(m, Meta)]
        return _metas(get_args(hint)[0]) + own
    if get_origin(hint) in (Union, types.UnionType):
        members = [a for a in get_args(hint) if a is not UnsetType]
        if len(members) == 1:
            return _metas(members[0])
    return []
