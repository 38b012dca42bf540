"""The walk of the every-problem pass: a generically decoded JSON value against msgspec's
type information (:func:`msgspec.inspect.type_info` of the format's types), each problem
listed with its JSON Pointer, and the words its messages name values and types with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import msgspec
from msgspec import inspect as mi

from neweden._kept import kept
from neweden.format import codes
from neweden.format.model import CATALOG_ID_PATTERN, IDENTIFIER_PATTERN
from neweden.format.problems import Problem, did_you_mean, is_index, join
from neweden.format.untyped import OutOfRange, out_of_range_words
from neweden.format.vocabulary import ALIASES, KNOWN_EFFECTS, Named, fold
from neweden.i18n import N_, _, number

__all__ = ["MAX_LISTED_PROBLEMS", "CrossCheck", "Sound", "Walk", "field_label"]

#: The longest run of a list's items walked one by one (:meth:`Walk.items`): with 4, a city of
#: 77 entries with one typo costs a third less than entry by entry, one all typos no more.
_RUN_WALKED = 4
#: A test that values (a run of a list's items, or one) have no problem at all: not walked.
Sound = Callable[[list[Any]], bool]

#: Problems listed for one document; past these, one more `too_large` at the root says how
#: many more there are (a 1 MiB game can hold 110,000 unknown keys: an 18 MB answer).
MAX_LISTED_PROBLEMS = 100

#: The Portuguese forms of the manual's names, by attribute (what a name's "did you mean"
#: also looks among).
_ALIAS_FORMS = {
    attribute: [form for forms in names.values() for form in forms]
    for attribute, names in ALIASES.items()
}
_PATTERN_WORDS = {
    IDENTIFIER_PATTERN: N_(
        "an identifier (a lower-case letter, then lower-case letters, digits or _)"
    ),
    CATALOG_ID_PATTERN: N_(
        "a catalog id (letters, digits, _ and -, starting with a letter or digit)"
    ),
    r"^[2-4]$": N_("a player count from 2 to 4"),
}


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def field_label(path: str) -> str:
    """How a message names the value at `path`: `row`, item 2 of `sides`, the document (a
    token no index is, "01" or "¹", is a key; a key "1" reads as an item: RFC 6901)."""
    if not path:
        return _("the document")
    parent, _sep, name = path.rpartition("/")
    if is_index(name) and (name == "0" or name[0] != "0"):
        owner = _unescape(parent.rpartition("/")[2])
        if owner:
            return _("item {index} of `{owner}`", index=name, owner=owner)
        return _("item {index}", index=name)
    return f"`{_unescape(name)}`"


_KIND_WORDS = {
    "object": N_("an object"),
    "array": N_("an array"),
    "string": N_("a string"),
    "integer": N_("an integer"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "null": N_("null"),
}


#: The JSON kind of each class a generic decode gives (a look-up a node: the walk meets
#: hundreds a game); :func:`_json_kind` tells any other value by its ancestry.
_KIND_OF_CLASS: dict[type, str] = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
    type(None): "null",
}


def _json_kind(value: Any) -> str:
    kind = _KIND_OF_CLASS.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _type_kinds(t: mi.Type) -> tuple[str, ...]:
    """The JSON kinds a type accepts (worked out once a type: the format's types are few,
    each kept with its kinds, so that its identity is not reused)."""
    return kept(_KINDS, t, _kinds_of, _KEPT_TYPES)


#: What the walk works out of each type (a cache each), and how many types a cache holds.
_KINDS: dict[int, tuple[mi.Type, tuple[str, ...]]] = {}
_KEPT_TYPES = 4096


def _kinds_of(t: mi.Type) -> tuple[str, ...]:
    if isinstance(t, mi.Metadata):
        return _type_kinds(t.type)
    if isinstance(t, (mi.StructType, mi.DictType)):
        return ("object",)
    if isinstance(t, mi.ListType):
        return ("array",)
    if isinstance(t, mi.StrType):
        return ("string",)
    if isinstance(t, mi.IntType):
        return ("integer",)
    if isinstance(t, mi.BoolType):
        return ("boolean",)
    if isinstance(t, mi.FloatType):
        return ("integer", "number")
    if isinstance(t, mi.LiteralType):
        return tuple(dict.fromkeys(_json_kind(v) for v in t.values))
    if isinstance(t, mi.UnionType):
        return tuple(dict.fromkeys(k for m in t.types for k in _type_kinds(m)))
    if isinstance(t, mi.AnyType):
        return ("object", "array", "string", "integer", "number", "boolean", "null")
    raise TypeError(f"the every-problem pass does not know {t!r}")  # pragma: no cover


def _preview(value: Any) -> str:
    text = msgspec.json.encode(value).decode() if not isinstance(value, (dict, list)) else ""
    return text if len(text) <= 40 else text[:37] + "..."


CrossCheck = Callable[[Any, str], list[Problem]]
#: The limits of a value whose breach is `too_large` (the value refused whole), not
#: `bad_value`: "max_length", "ge", ...
Limits = tuple[str, ...]


def _field_names(fields: Mapping[str, Any]) -> str:
    """The fields a message lists: every one but `$schema`, which an editor adds and is
    no field of the game itself."""
    return ", ".join(name for name in fields if name != "$schema")


class Walk:
    """Walks a generically decoded JSON value against msgspec type information, calling
    each struct's cross-field check (by class) after its own fields."""

    def __init__(
        self,
        labels: Mapping[type, str],
        checks: Mapping[type, CrossCheck],
        sound: Mapping[type, Sound] | None = None,
    ) -> None:
        self.problems: list[Problem] = []
        self.out_of_range = False  # a number Python does not hold was met (and listed)
        self.unlisted = 0  # problems found past MAX_LISTED_PROBLEMS: counted, not listed
        self.last_path: str | None = None  # where the last problem found is
        self.labels = labels
        self.checks = checks
        self.sound = sound or {}  # by class

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_LISTED_PROBLEMS

    def add(self, code: str, message: str, path: str) -> None:
        self.last_path = path
        if self.full:
            self.unlisted += 1
        else:
            self.problems.append(Problem(code=code, message=message, path=path))

    def extend(self, problems: list[Problem]) -> None:
        for p in problems:
            self.add(p.code, p.message, p.path)

    def value(self, value: Any, t: mi.Type, path: str, limits: tuple[str, ...]) -> None:
        if isinstance(value, OutOfRange):
            self.beyond(value, path)
            return
        planned = _PLANS.get(id(t))  # (the look-up of _plan, without its call: nodes are many)
        plan = planned[1] if planned is not None else _plan(t)
        if plan.nested:  # metadata of metadata: each in turn
            pattern, too_large, folded = _extra(t)  # type: ignore[arg-type]
            self.value(value, t.type, path, too_large)  # type: ignore[attr-defined]
            if pattern is not None and isinstance(value, str) and not self.problems_at(path):
                self.pattern(value, pattern, path, folded)
            return
        if plan.limits is not None:  # (a type with metadata: its own limits)
            limits = plan.limits
        kind = _KIND_OF_CLASS.get(type(value)) or _json_kind(value)
        if kind not in plan.kinds:
            kinds = _type_kinds(plan.type)
            wanted = _(" or ").join(_(_KIND_WORDS[k]) for k in kinds)
            self.add(
                codes.BAD_TYPE,
                _(
                    "{what} must be {wanted}, not {given}",
                    what=field_label(path),
                    wanted=wanted,
                    given=_(_KIND_WORDS[kind]),
                ),
                path,
            )
            return
        if plan.node is not None:
            plan.node(self, value, plan.type, path, limits, kind)
        if plan.pattern is not None and kind == "string" and not self.problems_at(path):
            self.pattern(value, plan.pattern, path, plan.folded)

    def union(self, value: Any, t: mi.UnionType, path: str, limits: Limits, kind: str) -> None:
        self.value(value, _member(t, kind), path, limits)

    def mapping(self, value: Any, t: mi.DictType, path: str, _limits: Limits, _kind: str) -> None:
        for key, item in value.items():
            self.value(key, t.key_type, join(path, key), ())  # ids as keys (catalogs)
            if isinstance(t.value_type, mi.AnyType):  # `meta`: any JSON, numbers looked at
                self.inside(item, join(path, key))
            else:
                self.value(item, t.value_type, join(path, key), ())

    def literal(
        self, value: Any, t: mi.LiteralType, path: str, _limits: Limits, _kind: str
    ) -> None:
        if value not in t.values:
            allowed = ", ".join(msgspec.json.encode(v).decode() for v in t.values)
            self.add(
                codes.BAD_VALUE,
                _(
                    "{what} is {value}; it must be one of {allowed}",
                    what=field_label(path),
                    value=_preview(value),
                    allowed=allowed,
                )
                + did_you_mean(str(value), (str(v) for v in t.values)),
                path,
            )

    def beyond(self, value: OutOfRange, path: str) -> None:
        """A number Python does not hold, at `path`."""
        words = out_of_range_words(value)
        self.add(codes.BAD_VALUE, _("{what} is {words}", what=field_label(path), words=words), path)
        self.out_of_range = True

    def inside(self, value: Any, path: str) -> None:
        """Each number Python does not hold anywhere inside a value of any kind, in
        document order (a loop, not recursion: the value may be nested deep)."""
        stack: list[tuple[Any, str]] = [(value, path)]
        while stack:
            item, at = stack.pop()
            if isinstance(item, OutOfRange):
                self.beyond(item, at)
            elif isinstance(item, list):
                stack.extend((item[i], join(at, i)) for i in reversed(range(len(item))))
            elif isinstance(item, dict):
                stack.extend((v, join(at, k)) for k, v in reversed(list(item.items())))

    def problems_at(self, path: str) -> bool:
        return self.last_path == path

    def pattern(self, value: str, pattern: str, path: str, named: Named | None = None) -> None:
        """A pattern problem unless `value` matches (a style, type or effect name: once
        folded, RULES §1)."""
        if named is not None:
            self.name(value, pattern, path, named)
            return
        if re.fullmatch(pattern, value) is not None:
            return
        words = _(_PATTERN_WORDS[pattern]) if pattern in _PATTERN_WORDS else ""
        words = words or _("a string matching {pattern}", pattern=pattern)
        self.add(
            codes.BAD_VALUE,
            _(
                "{what} is {value}, which is not {words}",
                what=field_label(path),
                value=_preview(value),
                words=words,
            ),
            path,
        )

    def name(self, value: str, pattern: str, path: str, named: Named) -> None:
        """A `bad_value` unless `value` folds to an identifier (RULES §1), saying what
        folding does and what the name read as."""
        read = fold(value, named)
        if re.fullmatch(pattern, read) is not None:
            return
        known = KNOWN_EFFECTS if named == "effect" else [*ALIASES[named], *_ALIAS_FORMS[named]]
        self.add(
            codes.BAD_VALUE,
            _(
                "{what} is {value}, which is no name even when folded as players write it "
                "(spaces around it trimmed, Portuguese accents taken off, letters in lower "
                "case, inner spaces and hyphens made _): it reads {read}, and a name is a "
                "letter, then letters, digits or _",
                what=field_label(path),
                value=_preview(value),
                read=_preview(read),
            )
            + did_you_mean(read, known),
            path,
        )

    def struct(
        self, value: dict[str, Any], t: mi.StructType, path: str, _limits: Limits, _kind: str
    ) -> None:
        sound = self.sound.get(t.cls)
        if sound is not None and sound([value]):
            return
        fields = _fields(t)
        for key, item in value.items():
            field = fields.get(key)
            if field is None:
                if t.forbid_unknown_fields and self.full:  # counted without its message
                    self.add(codes.UNKNOWN_FIELD, "", join(path, key))
                elif t.forbid_unknown_fields:
                    self.add(
                        codes.UNKNOWN_FIELD,
                        _("`{key}` is not a field of {owner}", key=key, owner=self.label(t.cls))
                        + did_you_mean(key, fields)
                        + _(" (the fields are: {known})", known=_field_names(fields)),
                        join(path, key),
                    )
                continue
            self.value(item, field.type, _joined(path, key), ())
        for key, item in getattr(value, "repeated", ()):  # earlier values of a repeated key
            field = fields.get(key)
            if field is not None:
                self.value(item, field.type, join(path, key), ())
        for name in _required(t):
            if name not in value:
                self.add(
                    codes.MISSING_FIELD,
                    _("{owner} needs `{name}`", owner=self.label(t.cls), name=name),
                    join(path, name),
                )
        check = self.checks.get(t.cls)
        if check is not None:
            self.extend(self.cross_check(check, value, path))

    def label(self, cls: type) -> str:
        """How messages name a struct, in the current language."""
        known = self.labels.get(cls)
        return _("this object") if known is None else _(known)

    def cross_check(self, check: CrossCheck, value: dict[str, Any], path: str) -> list[Problem]:
        """The struct's cross-field check; one that cannot encode a number out of range (the
        `meta` size) is left out, that number being listed already."""
        try:
            return check(value, path)
        except TypeError:
            if self.out_of_range:
                return []
            raise

    def array(
        self, value: list[Any], t: mi.ListType, path: str, limits: Limits, _kind: str
    ) -> None:
        n = len(value)
        if t.max_length is not None and n > t.max_length:
            code = codes.TOO_LARGE if "max_length" in limits else codes.BAD_VALUE
            self.add(
                code,
                _(
                    "{what} has {count} items; at most {limit} are allowed",
                    what=field_label(path),
                    count=number(n),
                    limit=number(t.max_length),
                ),
                path,
            )
            if code == codes.TOO_LARGE:
                return  # its items are not looked at: the list is refused whole
        if t.min_length is not None and n < t.min_length:
            if n == 0:
                words = _(
                    "{what} is empty; at least {limit} are needed",
                    what=field_label(path),
                    limit=t.min_length,
                )
            else:
                words = _(
                    "{what} has {count} items; at least {limit} are needed",
                    what=field_label(path),
                    count=n,
                    limit=t.min_length,
                )
            self.add(codes.BAD_VALUE, words, path)
        item_type = t.item_type
        if isinstance(item_type, mi.StructType):
            sound = self.sound.get(item_type.cls)
            if sound is not None:
                self.items(value, item_type, path, sound, 0, n)
                return
        for i, item in enumerate(value):
            self.value(item, item_type, f"{path}/{i}", ())

    def items(
        self, value: list[Any], t: mi.StructType, path: str, sound: Sound, start: int, stop: int
    ) -> None:
        """Items `start` to `stop` of a list of structs that `sound` tests a run at a time: a
        run it fails is split in halves, and a run of _RUN_WALKED items or fewer is walked
        item by item (each tested alone first, in `struct`), in document order."""
        if stop - start <= _RUN_WALKED:
            for i in range(start, stop):
                self.value(value[i], t, f"{path}/{i}", ())
            return
        if sound(value[start:stop]):
            return
        middle = (start + stop) // 2
        self.items(value, t, path, sound, start, middle)
        self.items(value, t, path, sound, middle, stop)

    def string(self, value: str, t: mi.StrType, path: str, limits: Limits, _kind: str) -> None:
        n = len(value)
        if t.max_length is not None and n > t.max_length:
            code = codes.TOO_LARGE if "max_length" in limits else codes.BAD_VALUE
            self.add(
                code,
                _(
                    "{what} is {count} characters long; at most {limit} are allowed",
                    what=field_label(path),
                    count=number(n),
                    limit=number(t.max_length),
                ),
                path,
            )
        elif t.min_length is not None and n < t.min_length:
            words = _("{what} is empty; it needs some text", what=field_label(path))
            self.add(codes.BAD_VALUE, words, path)
        elif t.pattern is not None:
            self.pattern(value, t.pattern, path)

    def integer(self, value: int, t: mi.IntType, path: str, limits: Limits, _kind: str) -> None:
        ge, le, gt, lt = t.ge, t.le, t.gt, t.lt
        if (
            (ge is None or value >= ge)
            and (le is None or value <= le)
            and (gt is None or value > gt)
            and (lt is None or value < lt)
        ):
            return  # within every bound: the usual case
        for bound, broken in (
            ("ge", t.ge is not None and value < t.ge),
            ("le", t.le is not None and value > t.le),
            ("gt", t.gt is not None and value <= t.gt),
            ("lt", t.lt is not None and value >= t.lt),
        ):
            if broken:
                code = codes.TOO_LARGE if bound in limits else codes.BAD_VALUE
                self.add(
                    code,
                    _(
                        "{what} is {value}; {limits}",
                        what=field_label(path),
                        value=_preview(value),
                        limits=_range_words(t),
                    ),
                    path,
                )
                return


#: What the walk does next at a node of a type, by the type's class (a value of the right
#: JSON kind: a float, a bool, null or any JSON has nothing more to check).
_NODES: dict[type, Callable[[Walk, Any, Any, str, Limits, str], None]] = {
    mi.UnionType: Walk.union,
    mi.StructType: Walk.struct,
    mi.ListType: Walk.array,
    mi.DictType: Walk.mapping,
    mi.LiteralType: Walk.literal,
    mi.StrType: Walk.string,
    mi.IntType: Walk.integer,
}


class _Plan(NamedTuple):
    """What the walk does at a node of a type: the type under its metadata, the JSON kinds
    it takes, the next step (None: nothing more to check), its metadata's pattern, limits
    (None: the enclosing ones) and kind of name; `nested`: metadata of metadata (walked
    one at a time)."""

    type: mi.Type
    kinds: frozenset[str]
    node: Callable[[Walk, Any, Any, str, Limits, str], None] | None
    pattern: str | None
    limits: Limits | None
    folded: Named | None
    nested: bool


def _plan(t: mi.Type) -> _Plan:
    """The walk's plan of a type (made once a type, kept with it)."""
    return kept(_PLANS, t, _made_plan, _KEPT_TYPES)


def _made_plan(t: mi.Type) -> _Plan:
    pattern = limits = folded = None
    inner = t
    if isinstance(t, mi.Metadata):
        if isinstance(t.type, mi.Metadata):
            return _Plan(t, frozenset(), None, None, None, None, True)
        pattern, limits, folded = _extra(t)
        inner = t.type
    kinds = frozenset(_type_kinds(inner))
    return _Plan(inner, kinds, _NODES.get(type(inner)), pattern, limits, folded, False)


_PLANS: dict[int, tuple[mi.Type, _Plan]] = {}


def _joined(path: str, key: str) -> str:
    """`path` (a pointer) extended by the key of a field: :func:`join`, without its call
    for the usual key (nothing to escape)."""
    return f"{path}/{key}" if "~" not in key and "/" not in key else join(path, key)


def _fields(t: mi.StructType) -> dict[str, mi.Field]:
    """A struct type's fields by their names in JSON (made once a type, kept with it)."""
    return kept(_FIELDS, t, _named_fields, _KEPT_TYPES)


def _named_fields(t: mi.StructType) -> dict[str, mi.Field]:
    return {f.encode_name: f for f in t.fields}


_FIELDS: dict[int, tuple[mi.StructType, dict[str, mi.Field]]] = {}


def _required(t: mi.StructType) -> tuple[str, ...]:
    """The names in JSON of a struct type's required fields, in order (made once a type)."""
    return kept(_REQUIRED, t, _required_names, _KEPT_TYPES)


def _required_names(t: mi.StructType) -> tuple[str, ...]:
    return tuple(name for name, f in _fields(t).items() if f.required)


_REQUIRED: dict[int, tuple[mi.StructType, tuple[str, ...]]] = {}


def _extra(t: mi.Metadata) -> tuple[str | None, tuple[str, ...], Named | None]:
    """What the walk reads of a type's metadata: its pattern, the limits whose breach is
    `too_large` (not `bad_value`), and the kind of name it folds (made once a type)."""
    return kept(_EXTRAS, t, _read_extra, _KEPT_TYPES)


def _read_extra(t: mi.Metadata) -> tuple[str | None, tuple[str, ...], Named | None]:
    extra = t.extra or {}
    return extra.get("pattern"), tuple(extra.get(codes.TOO_LARGE, ())), extra.get("folded")


_EXTRAS: dict[int, tuple[mi.Metadata, tuple[str | None, tuple[str, ...], Named | None]]] = {}


def _member(t: mi.UnionType, kind: str) -> mi.Type:
    """The first member of a union that takes a value of the JSON `kind` (one does: the
    union's kinds were checked first)."""
    return kept(
        _MEMBERS,
        t,
        lambda t: next(m for m in t.types if kind in _type_kinds(m)),
        _KEPT_TYPES,
        key=(id(t), kind),
    )


_MEMBERS: dict[tuple[int, str], tuple[mi.UnionType, mi.Type]] = {}


def _range_words(t: mi.IntType) -> str:
    low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
    high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
    if low is not None and high is not None:
        return _("it must be from {low} to {high}", low=number(low), high=number(high))
    if low is not None:
        return _("it must be at least {low}", low=number(low))
    return _("it must be at most {high}", high=number(high or 0))
