"""What is made once for an object and kept by its identity: the compiled test of a
condition, the walk's plan of a type, the reader's copy of a catalog's cards. Objects that
are not hashable (dicts inside) or that hash slowly, and that do not change once used."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = ["kept"]

_Owner = TypeVar("_Owner")
_T = TypeVar("_T")


def kept(
    cache: dict[Any, tuple[Any, _T]],
    owner: _Owner,
    make: Callable[[_Owner], _T],
    limit: int,
    key: Hashable = None,
) -> _T:
    """``make(owner)``, made once and kept in `cache` under `key` (None: the owner's
    identity), with the owner itself, so that its identity is not reused while the entry
    lives; the whole cache is cleared when it holds `limit` entries.

    Example: ``kept(cache, condition, compile_it, 4096)``."""
    at = id(owner) if key is None else key
    found = cache.get(at)
    if found is None or found[0] is not owner:
        if len(cache) >= limit:
            cache.clear()
        found = cache[at] = (owner, make(owner))
    return found[1]
