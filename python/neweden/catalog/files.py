"""Catalog files (FORMAT §2): a player's own copy of the printed cards, as JSON or TOML.

The file's structure is given by the msgspec types below; loading decodes it generically,
walks it against these types with the decoder's every-problem pass, checks the conditions,
and only then builds a :class:`~neweden.catalog.catalog.Catalog`: a catalog that does not load
raises :class:`CatalogError` listing every problem, and nothing is half-loaded.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from neweden.catalog.catalog import (
    BUILTIN,
    CardSpec,
    Catalog,
    EpiphanySpec,
    RequirementSpec,
)
from neweden.catalog.conditions import check_condition, names_in
from neweden.format import codes
from neweden.format.checks import Fields, check_inline_card, fold_name
from neweden.format.decode import find_problems
from neweden.format.model import (
    BOM,
    MAX_POINTS,
    CatalogId,
    Effect,
    InlineCard,
    Name,
    Style,
    TypeName,
)
from neweden.format.problems import Problem, did_you_mean, document_order, join, os_reason
from neweden.format.untyped import TOO_MANY_DIGITS, out_of_range_words
from neweden.format.vocabulary import (
    MAX_STYLES,
    MAX_TYPES,
    Attribute,
    fold,
    fold_condition,
)
from neweden.format.walk import field_label
from neweden.i18n import DEFAULT_LANGUAGE, N_, _, current, ngettext, number

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["CATALOG_FORMAT", "CatalogError", "load_catalog", "parse_catalog"]

CATALOG_FORMAT = "new-eden/catalog@1"
MAX_CATALOG_BYTES = 4 * 1024 * 1024
Text = Annotated[str, Meta(max_length=2000, extra={codes.TOO_LARGE: ("max_length",)})]


class CatalogError(ValueError):
    """A catalog file that does not load; `.problems` lists every problem in it."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(
            ngettext(
                "{source}: {count} problem(s); first: {first}",
                "{source}: {count} problem(s); first: {first}",
                len(self.problems),
                source=source,
                count=len(self.problems),
                first=self.problems[0].line(),
            )
            if self.problems
            else _("{source}: does not load", source=source)
        )


class CardEntry(InlineCard, forbid_unknown_fields=True, omit_defaults=True):
    """A City Part card by id: the attributes of an inline card (or `wild = true`), how many
    copies the box holds, and whether it is an invented example."""

    copies: Annotated[int, Meta(ge=1, le=14)] = 1
    example: bool = False


class RequirementEntry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A requirement card: its deck, printed text and condition."""

    deck: Literal["A", "B", "C"]
    condition: Any
    text: Text = ""
    name: Name | UnsetType = UNSET
    example: bool = False


class EpiphanyEntry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """An Epiphany card: printed points, effect, and optionally its condition."""

    points: Literal[2, 5]
    effect: Effect | UnsetType = UNSET
    condition: Any = None
    text: Text = ""
    name: Name | UnsetType = UNSET
    example: bool = False


PLAYER_COUNT_PATTERN = r"^[2-4]$"
PlayerCount = Annotated[str, Meta(pattern=PLAYER_COUNT_PATTERN)]
Styles = Annotated[list[Style], Meta(min_length=1, max_length=100)]
Types = Annotated[list[TypeName], Meta(min_length=1, max_length=100)]
Effects = Annotated[list[Effect], Meta(max_length=100)]
#: The D5 majority table's points: a limit, as a card's points are.
TablePoints = Annotated[int, Meta(ge=0, le=MAX_POINTS, extra={codes.TOO_LARGE: ("le",)})]


class CatalogFile(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A catalog file. Every table is optional; entries extend the built-in catalog, and an
    entry with a built-in id replaces it whole."""

    format: Literal["new-eden/catalog@1"] | UnsetType = UNSET
    name: Name | UnsetType = UNSET
    styles: Styles | UnsetType = UNSET
    types: Types | UnsetType = UNSET
    #: epiphany effects this catalog's cards use besides the known ones (no unknown_effect)
    effects: Effects | UnsetType = UNSET
    majority_table: dict[PlayerCount, list[TablePoints]] | UnsetType = UNSET
    cards: dict[CatalogId, CardEntry] = msgspec.field(default_factory=dict)
    requirements: dict[CatalogId, RequirementEntry] = msgspec.field(default_factory=dict)
    epiphanies: dict[CatalogId, EpiphanyEntry] = msgspec.field(default_factory=dict)


def _entry_id(path: str) -> str:
    return path.rpartition("/")[2].replace("~1", "/").replace("~0", "~")


def _check_example(fields: Fields, path: str) -> list[Problem]:
    """Invented entries say so twice: an `EX-` id and `example = true`."""
    entry_id = _entry_id(path)
    invented = entry_id.startswith("EX-")
    flagged = fields.get("example") is True
    if invented == flagged:
        return []
    message = (
        _('"{id}" is marked example but its id does not start with EX-', id=entry_id)
        if flagged
        else _('"{id}" starts with EX- (an invented entry) but lacks `example = true`', id=entry_id)
    )
    return [Problem(code=codes.BAD_VALUE, message=message, path=join(path, "example"))]


def _check_card(fields: Fields, path: str) -> list[Problem]:
    return check_inline_card(fields, path) + _check_example(fields, path)


def _check_requirement(fields: Fields, path: str) -> list[Problem]:
    problems = _check_example(fields, path)
    if "condition" in fields:
        problems.extend(check_condition(fields.get("condition"), join(path, "condition")))
    return problems


def _check_epiphany(fields: Fields, path: str) -> list[Problem]:
    problems = _check_example(fields, path)
    if fields.get("condition") is not None:
        problems.extend(check_condition(fields.get("condition"), join(path, "condition")))
    return problems


def _undeclared(
    fields: Fields, path: str, vocabulary: str, attribute: Attribute, names: set[str]
) -> list[Problem]:
    """The cards' and the conditions' names of `attribute` a closed vocabulary does not
    declare (aliases folded on both sides; a name that is no name at all is a `bad_value`
    of its own)."""
    found: list[tuple[str, str, str, str]] = []  # (pointer, message, whose, name)
    cards = fields.get("cards")
    for card_id, entry in cards.items() if isinstance(cards, dict) else ():
        value = entry.get(attribute) if isinstance(entry, dict) else None
        if isinstance(value, str):
            at = join(path, "cards", card_id, attribute)
            found.append((at, _CARD_UNDECLARED[attribute], card_id, value))
    for table in ("requirements", "epiphanies"):
        entries = fields.get(table)
        for entry_id, entry in entries.items() if isinstance(entries, dict) else ():
            condition = entry.get("condition") if isinstance(entry, dict) else None
            where = join(path, table, entry_id, "condition")
            found.extend(
                (at, _CONDITION_UNDECLARED[attribute], entry_id, name)
                for at, asked, name in names_in(condition, where)
                if asked == attribute
            )
    return [
        Problem(
            code=f"unknown_{attribute}",
            message=_(message, id=whose, name=name, vocabulary=vocabulary)
            + did_you_mean(name, sorted(names)),
            path=at,
        )
        for at, message, whose, name in found
        if (read := fold_name(name, attribute)) is not None and read not in names
    ]


_CARD_UNDECLARED = {
    "style": N_(
        'card "{id}" has the style "{name}", which the catalog\'s `{vocabulary}` does not declare'
    ),
    "type": N_(
        'card "{id}" has the type "{name}", which the catalog\'s `{vocabulary}` does not declare'
    ),
}
_CONDITION_UNDECLARED = {
    "style": N_(
        'the condition of "{id}" asks for the style "{name}", which the catalog\'s '
        "`{vocabulary}` does not declare"
    ),
    "type": N_(
        'the condition of "{id}" asks for the type "{name}", which the catalog\'s '
        "`{vocabulary}` does not declare"
    ),
}


def _check_file(fields: Fields, path: str) -> list[Problem]:
    problems: list[Problem] = []
    table = fields.get("majority_table")
    if isinstance(table, dict):
        for key, row in table.items():
            wrong = key in ("2", "3", "4") and isinstance(row, list)
            if wrong and len(row) != int(key):
                problems.append(
                    Problem(
                        code=codes.BAD_VALUE,
                        message=_(
                            "the D5 table for {players} players has {count} values; it needs "
                            "one per place, {players}",
                            players=key,
                            count=len(row),
                        ),
                        path=join(path, "majority_table", key),
                    )
                )
    vocabularies: tuple[tuple[str, Attribute, int], ...] = (
        ("styles", "style", MAX_STYLES),
        ("types", "type", MAX_TYPES),
    )
    for vocabulary, attribute, box in vocabularies:
        declared = fields.get(vocabulary)
        if not isinstance(declared, list):
            continue
        names = {fold(d, attribute) for d in declared if isinstance(d, str)}
        if len(names) > box:
            problems.append(
                Problem(
                    code=codes.BAD_VALUE,
                    message=_(_TOO_MANY_DECLARED[vocabulary], count=len(names), box=box),
                    path=join(path, vocabulary),
                )
            )
        problems.extend(_undeclared(fields, path, vocabulary, attribute, names))
    return problems


_TOO_MANY_DECLARED = {
    "styles": N_(
        "`styles` declares {count} styles; the box holds {box} (RULES: more would let a typo "
        "pass as a name)"
    ),
    "types": N_(
        "`types` declares {count} types; the box holds {box} (RULES: more would let a typo "
        "pass as a name)"
    ),
}
#: How messages name each struct (translated where a message is made).
_LABELS: dict[type, str] = {
    CatalogFile: N_("a catalog"),
    CardEntry: N_("a catalog card"),
    RequirementEntry: N_("a requirement"),
    EpiphanyEntry: N_("an epiphany"),
}
_CHECKS: dict[type, Any] = {
    CatalogFile: _check_file,
    CardEntry: _check_card,
    RequirementEntry: _check_requirement,
    EpiphanyEntry: _check_epiphany,
}


def _card_spec(card_id: str, entry: CardEntry) -> CardSpec:
    spec = CardSpec.from_inline(entry)._replace(id=card_id, copies=entry.copies)
    if spec.wild:
        return spec
    return spec._replace(style=fold(spec.style or "", "style"), type=fold(spec.type or "", "type"))


def _effects(names: list[str] | UnsetType) -> frozenset[str]:
    """The effects a catalog declares, each as it reads (RULES §1)."""
    return frozenset(fold(n, "effect") for n in names) if isinstance(names, list) else frozenset()


def _vocabulary(names: list[str] | UnsetType, attribute: Attribute) -> frozenset[str] | None:
    return None if isinstance(names, UnsetType) else frozenset(fold(n, attribute) for n in names)


def _merge(name: str, doc: CatalogFile, base: Catalog) -> Catalog:
    cards = dict(base.cards)
    cards.update({i: _card_spec(i, e) for i, e in doc.cards.items()})
    requirements = dict(base.requirements)
    requirements.update(
        {
            i: RequirementSpec(i, e.deck, e.text, fold_condition(e.condition))
            for i, e in doc.requirements.items()
        }
    )
    epiphanies = dict(base.epiphanies)
    epiphanies.update(
        {
            i: EpiphanySpec(
                i,
                e.points,
                fold(e.effect, "effect") if isinstance(e.effect, str) else None,
                e.text,
                fold_condition(e.condition),
            )
            for i, e in doc.epiphanies.items()
        }
    )
    table: Mapping[int, tuple[int, ...]] | None = base.majority_table
    if isinstance(doc.majority_table, dict):
        table = {
            **(base.majority_table or {}),
            **{int(k): tuple(v) for k, v in doc.majority_table.items()},
        }
    return Catalog(
        name=name,
        cards=cards,
        requirements=requirements,
        epiphanies=epiphanies,
        majority_table=table,
        styles=_vocabulary(doc.styles, "style") if isinstance(doc.styles, list) else base.styles,
        types=_vocabulary(doc.types, "type") if isinstance(doc.types, list) else base.types,
        effects=base.effects | _effects(doc.effects),
    )


def _toml_problem(value: Any, path: str) -> Problem | None:
    """A TOML value JSON has no form for: a date or time, a number that is inf or nan."""
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return Problem(
            code=codes.BAD_TYPE,
            message=_(
                "{what} is a TOML date or time ({value}); a catalog has none: write it as a string",
                what=field_label(path),
                value=value.isoformat(),
            ),
            path=path,
        )
    if isinstance(value, float) and not math.isfinite(value):
        return Problem(
            code=codes.BAD_VALUE,
            message=_(
                "{what} is {value}; a catalog's numbers are finite",
                what=field_label(path),
                value=value,
            ),
            path=path,
        )
    return None


def _toml_problems(doc: dict[str, Any]) -> list[Problem]:
    """Every value of a parsed TOML document that JSON cannot carry, with its pointer
    (iterative: the depth is whatever the TOML parser followed)."""
    problems: list[Problem] = []
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        value, path = stack.pop()
        problem = _toml_problem(value, path)
        if problem is not None:
            problems.append(problem)
        elif isinstance(value, dict):
            stack.extend((v, join(path, k)) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, join(path, i)) for i, v in reversed(list(enumerate(value))))
    return problems


#: The TOML reader's fixed words for a text that is not TOML (Python's tomllib), marked to be
#: said in the current language; its other words (naming a key or a character) stay its own.
_TOML_WORDS = frozenset(
    (
        N_("Invalid statement"),
        N_("Cannot overwrite a value"),
        N_("Expected ']' at the end of a table declaration"),
        N_("Expected ']]' at the end of an array declaration"),
        N_("Expected '=' after a key in a key/value pair"),
        N_("Invalid initial character for a key part"),
        N_("Unclosed array"),
        N_("Unclosed inline table"),
        N_("Unescaped '\\' in a string"),
        N_("Invalid hex value"),
        N_("Escaped character is not a Unicode scalar value"),
        N_("Unterminated string"),
        N_("Invalid date or datetime"),
        N_("Invalid value"),
    )
)
_TOML_PLACE = re.compile(r"(.*) \(at (?:line (\d+), column (\d+)|(end of document))\)", re.DOTALL)


_UTF8_REASONS = frozenset(
    (N_("invalid start byte"), N_("invalid continuation byte"), N_("unexpected end of data"))
)


def _not_utf8_words(exc: UnicodeDecodeError) -> str:
    """Python's words for bytes that are not UTF-8 (`'utf-8' codec can't decode byte 0xff
    in position 0: invalid start byte`), said in the current language."""
    text = str(exc)
    if exc.end - exc.start != 1 or exc.reason not in _UTF8_REASONS:
        return text
    said = _(
        "'{encoding}' codec can't decode byte {byte} in position {position}: {reason}",
        encoding=exc.encoding,
        byte=f"0x{exc.object[exc.start]:02x}",
        position=exc.start,
        reason=_(exc.reason),
    )
    return said if current() != DEFAULT_LANGUAGE else text


def toml_error_words(exc: Exception) -> str:
    """What the TOML reader says is wrong, in the current language where its words are
    known (unchanged in English)."""
    if isinstance(exc, UnicodeDecodeError):
        return _not_utf8_words(exc)
    text = str(exc)
    found = _TOML_PLACE.fullmatch(text)
    if not isinstance(exc, tomllib.TOMLDecodeError) or found is None:
        return text
    what = found.group(1)
    what = _(what) if what in _TOML_WORDS else what
    if found.group(4):
        return _("{what} (at end of document)", what=what)
    return _(
        "{what} (at line {line}, column {column})",
        what=what,
        line=found.group(2),
        column=found.group(3),
    )


def _bad_toml(source: str, message: str) -> CatalogError:
    return CatalogError(source, [Problem(code=codes.BAD_TOML, message=message, path="")])


def _as_json(data: bytes, source: str) -> tuple[bytes, list[Problem]]:
    """The file's content as JSON bytes, and the problems of TOML values JSON has no form
    for (a date, inf, nan: each at its pointer). TOML (by extension) is parsed first."""
    if not source.lower().endswith(".toml"):
        return data.removeprefix(BOM), []
    try:
        doc = tomllib.loads(data.decode("utf-8"))
        # (tables of dotted keys or headers a thousand levels deep are built without
        # recursion, and only writing them as JSON recurses; an integer of more digits than
        # Python converts is a ValueError, reading or writing it)
        return msgspec.json.encode(doc), _toml_problems(doc)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _bad_toml(source, _("not valid TOML: {why}", why=toml_error_words(exc))) from None
    except RecursionError:  # arrays, inline tables or keys some hundreds of levels deep
        raise CatalogError(
            source,
            [
                Problem(
                    code=codes.TOO_LARGE,
                    message=_(
                        "the TOML is nested too deep to read (the format needs a few levels)"
                    ),
                    path="",
                )
            ],
        ) from None
    except ValueError:  # an integer of more digits than Python converts
        why = out_of_range_words(TOO_MANY_DIGITS)
        raise _bad_toml(source, _("not valid TOML: {why}", why=why)) from None


def _too_large(source: str, size: str) -> CatalogError:
    return CatalogError(
        source,
        [
            Problem(
                code=codes.TOO_LARGE,
                message=_(
                    "the catalog is {size} bytes; the limit is {limit} (4 MiB)",
                    size=size,
                    limit=number(MAX_CATALOG_BYTES),
                ),
                path="",
            )
        ],
    )


def _read_bounded(path: str | Path) -> bytes:
    """A catalog file's bytes; :func:`_too_large` (its size said) for a file over the limit,
    read no further than one byte past it (a device or a pipe without end included)."""
    with open(path, "rb") as handle:
        found = os.fstat(handle.fileno())
        if stat.S_ISREG(found.st_mode) and found.st_size > MAX_CATALOG_BYTES:
            raise _too_large(str(path), number(found.st_size))
        data = handle.read(MAX_CATALOG_BYTES + 1)
    if len(data) > MAX_CATALOG_BYTES:  # a stream: how long, it does not say
        raise _too_large(str(path), _("more than {size}", size=number(MAX_CATALOG_BYTES)))
    return data


def parse_catalog(data: bytes, source: str, *, base: Catalog = BUILTIN) -> Catalog:
    """A catalog from a file's bytes (`source` names it and, by its extension, says TOML or
    JSON), merged over `base`. Raises :class:`CatalogError` listing every problem."""
    digest = hashlib.sha256(data).hexdigest()
    if len(data) > MAX_CATALOG_BYTES:
        raise _too_large(source, number(len(data)))
    raw, toml_problems = _as_json(data, source)
    problems = find_problems(raw, CatalogFile, labels=_LABELS, checks=_CHECKS)
    if toml_problems:  # they replace what the walk says of the stand-ins at their places
        places = {p.path for p in toml_problems}
        problems = [p for p in problems if p.path not in places] + toml_problems
        problems.sort(key=document_order)
    if problems:
        raise CatalogError(source, problems)
    doc = msgspec.json.decode(raw, type=CatalogFile)
    return _merge(f"{Path(source).name} sha256:{digest}", doc, base)


def load_catalog(path: str | Path) -> Catalog:
    """Load the built-in catalog extended by the catalog file at `path` (FORMAT §6).

    Parameters
    ----------
    path : str or Path
        The catalog file (FORMAT §2): TOML when its name ends in ``.toml`` (in any case),
        JSON otherwise; at most 4 MiB.

    Returns
    -------
    Catalog
        The built-in catalog with the file's cards, requirements and epiphanies added by id
        (an entry with a built-in id replaces it whole), its D5 tables added by player
        count, its ``styles`` and ``types`` (closed vocabularies) where it gives them and its
        ``effects`` added; named after the file and the SHA-256 of its bytes.

    Raises
    ------
    CatalogError
        When the file cannot be read (``not_found``) or does not load: ``.problems`` lists
        every problem in it, and nothing is half-loaded.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> import neweden
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "my-copy.json"
    >>> card = {"example": True, "style": "ex_gothic", "type": "ex_plaza", "facility": "lab",
    ...         "points": 1, "stars": 0, "sides": ["left", "right"]}
    >>> _ = path.write_text(json.dumps({"cards": {"EX-bridge": card}}))
    >>> catalog = neweden.load_catalog(path)
    >>> catalog.name
    'my-copy.json sha256:...'
    >>> sorted(catalog.cards), catalog.card("EX-bridge").points
    (['EX-bridge', 'atomic-waste', 'new-eden'], 1)
    >>> _ = path.write_text(json.dumps({"cards": {"EX-bridge": card | {"stars": 9}}}))
    >>> try:
    ...     neweden.load_catalog(path)
    ... except neweden.CatalogError as err:
    ...     print([problem.line() for problem in err.problems])
    ['/cards/EX-bridge/stars: bad_value: `stars` is 9; it must be from 0 to 3']
    >>> folder.cleanup()
    """
    try:
        data = _read_bounded(path)
    except OSError as exc:
        raise CatalogError(
            str(path),
            [
                Problem(
                    code=codes.NOT_FOUND,
                    message=_("cannot read the catalog: {why}", why=os_reason(exc)),
                    path="",
                )
            ],
        ) from None
    return parse_catalog(data, str(path))
