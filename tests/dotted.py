"""Dotted names (`neweden.scoring.placing._Read`) looked up as Python would import them."""

from __future__ import annotations

import importlib

#: What :func:`resolve` gives for a name that names nothing (None may be a value).
MISSING = object()


def resolve(name: str) -> object:
    """The object `name` stands for: its longest importable prefix as a module, then each
    attribute after it; :data:`MISSING` when nothing of it imports or an attribute is not
    there."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            found = getattr(found, part, MISSING)
            if found is MISSING:
                return MISSING
        return found
    return MISSING
