"""Counting commas outside strings, in pieces, against a count made from the decoded value."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.format.jsonscan import count_commas

JSON = st.recursive(
    st.none() | st.integers() | st.text(alphabet='ab,[]{}"\\ \u00e9'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='k,"\\[{', max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


def _expected(doc: Any) -> tuple[int, int]:
    def commas(value: Any) -> int:
        return max(len(value) - 1, 0) if isinstance(value, (list, dict)) else 0

    values = doc.values() if isinstance(doc, dict) else doc if isinstance(doc, list) else []
    return commas(doc), sum(commas(v) for v in values)


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 1 << 20])
@settings(max_examples=60, deadline=None)
@given(doc=JSON, ascii_only=st.booleans())
def test_the_count_agrees_with_the_decoded_value_whatever_the_piece_size(
    piece: int, doc: Any, ascii_only: bool
) -> None:
    text = json.dumps(doc, ensure_ascii=ascii_only).encode()
    assert tuple(count_commas(text, piece)) == _expected(doc)


def test_escapes_across_a_piece_boundary() -> None:
    text = b'{"a\\\\\\"b,":[1,2],"c":"\\\\"}'  # an escaped quote and a backslash pair
    assert json.loads(text) == {'a\\"b,': [1, 2], "c": "\\"}
    assert [count_commas(text, piece) for piece in (1, 2, 3, 4, 5)] == [(1, 1)] * 5
