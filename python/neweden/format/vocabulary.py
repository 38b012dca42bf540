"""The box's vocabularies (RULES §1): the style, type and effect names the game knows, their
Portuguese aliases, how a name is read as players write it, and how close two names are.

A typo must not change a score silently, and a name written as players write it must not be
refused: every style, type and effect name is folded on input (:func:`fold`: spaces around
it trimmed, Portuguese accents off, lower case, inner spaces and hyphens made `_`), then a
Portuguese alias reads as the English identifier, and the rules compare the other names of a
game by edit distance. The alias table below is the only place aliases live: adding one is
one line.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Literal

__all__ = [
    "ACCENTS",
    "ALIASES",
    "KNOWN_EFFECTS",
    "KNOWN_NAMES",
    "MAX_STYLES",
    "MAX_TYPES",
    "Attribute",
    "Named",
    "aliases_of",
    "distance_within",
    "fold",
    "fold_condition",
    "foldable_characters",
    "folded",
    "looks_alike",
    "name_order",
    "nearest",
]

Attribute = Literal["style", "type"]
#: What a name names: a card's style or type, or an epiphany's effect (all folded alike).
Named = Literal["style", "type", "effect"]

#: The box holds this many architectural styles and location types (RULES §1).
MAX_STYLES = 5
MAX_TYPES = 6

#: The names the manual gives, each with its Portuguese forms (RULES §1). Each form is
#: matched folded (see :func:`fold`): accents, letter case, spaces and hyphens do not matter.
ALIASES: Mapping[Attribute, Mapping[str, tuple[str, ...]]] = {
    "style": {
        "gothic": ("gotico", "gótico", "gotica", "gótica"),
        "futurist": ("futurista",),
        "renaissance": ("renascentista",),
        "sustainable": ("sustentavel", "sustentável"),
    },
    "type": {
        "green_area": ("area_verde", "área_verde"),
        "building": ("construcao", "construção"),
    },
}

#: The epiphany effects the rules act on (RULES §4b); another effect scores as declared but
#: gets the warning `unknown_effect` unless the catalog declares it.
KNOWN_EFFECTS = ("third_star", "rotate", "move")


#: The accents Portuguese writes (acute, grave, circumflex, tilde, diaeresis, cedilla), as
#: combining marks: folding takes them off, whether the name came with precomposed letters
#: (á) or decomposed ones (a + U+0301, as some systems store them). Any other mark stays, and
#: the name is then no identifier.
ACCENTS = "\u0301\u0300\u0302\u0303\u0308\u0327"
#: The only space folding knows (U+0020): trimmed around a name, made `_` inside it.
SPACE = " "
_UNDERSCORED = str.maketrans({SPACE: "_", "-": "_"})


def _bare(text: str) -> str:
    """`text` decomposed (NFD) without its Portuguese accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if c not in ACCENTS)


def folded(value: str) -> str:
    """A name as written, folded (RULES §1): Portuguese accents taken off, spaces around it
    trimmed, letters in lower case, inner spaces and hyphens made `_` ("Comércio Local" ->
    "comercio_local"). Anything else is kept as it is: a name that is still no identifier
    after folding is refused by the decoder."""
    bare = value if value.isascii() else _bare(value)
    return bare.strip(SPACE).lower().translate(_UNDERSCORED)


#: attribute -> {folded alias -> English identifier}
_FOLDS: dict[str, dict[str, str]] = {
    attribute: {folded(alias): name for name, forms in names.items() for alias in forms}
    for attribute, names in ALIASES.items()
}
#: Every known name (the manual's), which wins a tie against another name.
KNOWN_NAMES = frozenset(name for names in ALIASES.values() for name in names)


@functools.lru_cache(maxsize=4096)
def fold(value: str, named: Named) -> str:
    """The name `value` reads as (RULES §1): folded (:func:`folded`), then a Portuguese
    alias of `named` made its English identifier (`"Gótico"` -> `"gothic"` as a style,
    `"Praça"` -> `"praca"`). Whether the result is an identifier is the caller's check."""
    name = folded(value)
    return _FOLDS.get(named, {}).get(name, name)


def foldable_characters() -> tuple[str, str]:
    """(the characters folding takes off, those it makes a letter a-z): the Portuguese
    accents and the characters that decompose into them alone; every letter in either case,
    alone or carrying those accents. What the JSON Schema's name pattern is made of. A
    character that folds to a letter or to nothing is ASCII, an accent, or has a canonical
    decomposition, and lies in the Basic Multilingual Plane (a test checks every code
    point)."""
    marks, letters = [], []
    for point in range(0x10000):
        c = chr(point)
        if not (point < 0x80 or c in ACCENTS or unicodedata.decomposition(c)):
            continue
        read = _bare(c).lower()
        if read == "":
            marks.append(c)
        elif len(read) == 1 and "a" <= read <= "z":
            letters.append(c)
    return "".join(marks), "".join(letters)


def aliases_of(name: str, attribute: Attribute) -> tuple[str, ...]:
    """The Portuguese forms of a known name (none for another name)."""
    return ALIASES[attribute].get(name, ())


@functools.lru_cache(maxsize=4096)
def distance_within(a: str, b: str, limit: int) -> int | None:
    """The Levenshtein distance of two names (insertions, deletions, substitutions) when it
    is at most `limit`, else None. Only a band of 2 * limit + 1 diagonals is computed, and
    the search stops as soon as a row exceeds the limit: names of 100 characters cost a few
    hundred steps, not ten thousand."""
    if abs(len(a) - len(b)) > limit:
        return None
    if a == b:
        return 0
    over = limit + 1
    previous = [j if j <= limit else over for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [over] * (len(b) + 1)
        current[0] = i if i <= limit else over
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            cost = previous[j - 1] + (a[i - 1] != b[j - 1])
            current[j] = min(cost, previous[j] + 1, current[j - 1] + 1, over)
        if min(current) > limit:
            return None
        previous = current
    return previous[-1] if previous[-1] <= limit else None


#: Two names at most this far apart look alike (RULES §1, `similar_names`).
SIMILAR_DISTANCE = 2
#: "Did you mean" suggests a name at most this far (a little wider than similar_names).
SUGGEST_DISTANCE = 3


def _forms(name: str, attribute: Attribute) -> tuple[str, ...]:
    return (name, *(folded(alias) for alias in aliases_of(name, attribute)))


@functools.lru_cache(maxsize=4096)
def looks_alike(a: str, b: str, attribute: Attribute) -> bool:
    """Whether two different names of one game look like one name mistyped: at most
    SIMILAR_DISTANCE edits apart, either of them against the other's aliases included."""
    return a != b and any(
        distance_within(x, y, SIMILAR_DISTANCE) is not None
        for x in _forms(a, attribute)
        for y in _forms(b, attribute)
    )


def name_order(name: str | None) -> tuple[bool, str]:
    """The sort key of a style or type name among names: by the name, a missing one (None: a
    card of a catalog built in Python may have none) after every other.

    Examples
    --------
    >>> sorted(["ex_b", None, "ex_a"], key=name_order)
    ['ex_a', 'ex_b', None]
    """
    return (name is None, name or "")


def nearest(name: str, others: Sequence[str]) -> str | None:
    """The name among `others` (in order of preference: the first wins a tie) closest to
    `name`, if one is at most SUGGEST_DISTANCE edits away."""
    best: tuple[int, str] | None = None
    for other in others:
        if other == name:
            continue
        found = distance_within(name, other, SUGGEST_DISTANCE)
        if found is not None and (best is None or found < best[0]):
            best = (found, other)
    return None if best is None else best[1]


# --- conditions ------------------------------------------------------------------------------


def _fold_names(value: Any, attribute: Attribute) -> Any:
    if isinstance(value, str):
        return fold(value, attribute)
    if isinstance(value, list):
        return [_fold_names(v, attribute) for v in value]
    return value


def fold_condition(condition: Any) -> Any:
    """A condition (the condition language of :mod:`neweden.catalog.conditions`) with the style and
    type names of its card filters, and the `value` of a `largest_group` by style or type,
    read as a card's are (:func:`fold`). Iterative, so any depth the checks allowed is safe;
    anything that is not a filter is copied as it is."""
    root: list[Any] = [condition]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        parent, key = stack.pop()
        node = parent[key]
        if isinstance(node, dict):
            node = dict(node)
            parent[key] = node
            for attribute in ("style", "type"):
                if attribute in node:
                    node[attribute] = _fold_names(node[attribute], attribute)
            by = node.get("by")
            if by in ("style", "type") and isinstance(node.get("value"), str):
                node["value"] = _fold_names(node["value"], by)
            stack.extend((node, k) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            node = list(node)
            parent[key] = node
            stack.extend((node, i) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return root[0]
