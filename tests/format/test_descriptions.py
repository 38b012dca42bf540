"""A field's own description (`described`) told apart from its type's, which msgspec merges."""

from __future__ import annotations

from typing import Annotated, ClassVar, TypedDict

import msgspec
import pytest
from msgspec import UNSET, Meta, UnsetType

from neweden.format.descriptions import Words, class_words, described, field_words

Typed = Annotated[list[int], Meta(max_length=3, description="the type's words")]


class Inner(msgspec.Struct):
    """The developer's words."""

    schema_description: ClassVar[str] = "the users' words"

    n: int


class Fields(msgspec.Struct, kw_only=True):
    bare: int
    own: Annotated[int, described("its own words")]
    typed: Typed | UnsetType = UNSET
    both: Annotated[Typed, described("its own words, not the type's")] | UnsetType = UNSET
    union: Annotated[Inner | str, described("a union's words")]
    optional: Annotated[Inner | None, described("words with null")] = None
    renamed: Annotated[bool, described("by its JSON name")] = msgspec.field(
        default=False, name="$renamed"
    )


class Keys(TypedDict):
    own: Annotated[int, described("a key's words")]
    bare: str


def test_a_fields_own_words_are_told_apart_from_its_types() -> None:
    assert field_words(Fields) == {
        "bare": Words(None, None),
        "own": Words("its own words", None),
        "typed": Words(None, "the type's words"),
        "both": Words("its own words, not the type's", "the type's words"),
        "union": Words("a union's words", None),
        "optional": Words("words with null", None),
        "$renamed": Words("by its JSON name", None),
    }
    assert field_words(Keys) == {"own": Words("a key's words", None), "bare": Words(None, None)}


def test_msgspec_gives_a_fields_own_words_over_its_types() -> None:
    properties = msgspec.json.schema(Fields)["$defs"]["Fields"]["properties"]
    assert properties["both"]["description"] == "its own words, not the type's"
    assert properties["typed"]["description"] == "the type's words"
    assert "description" not in properties["bare"]


def test_a_field_decodes_as_without_its_words() -> None:
    value = msgspec.json.decode(b'{"bare": 1, "own": 2, "both": [1], "union": "x"}', type=Fields)
    assert (value.own, value.both, value.union) == (2, [1], "x")
    with pytest.raises(msgspec.ValidationError, match="length <= 3"):  # its type's Meta holds
        msgspec.json.decode(
            b'{"bare": 1, "own": 2, "both": [1, 2, 3, 4], "union": "x"}', type=Fields
        )


def test_a_class_says_the_users_words_apart_from_its_docstring() -> None:
    assert class_words(Inner) == "the users' words"
    assert class_words(Fields) is None
    assert [f.name for f in msgspec.structs.fields(Inner)] == ["n"]  # a ClassVar, no field
