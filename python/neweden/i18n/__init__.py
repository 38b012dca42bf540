"""The languages people read neweden in: English (the default) and Brazilian Portuguese.

Messages are gettext messages: the English text is the message id, written with named
``{placeholders}`` and translated through :func:`_` at the moment a message is made, in the
language active in the current context (:class:`speaking`; a context variable, so threads
and asyncio tasks each keep their own). The Portuguese sources are
``locale/pt_BR/LC_MESSAGES/neweden.po`` (the manual's own words); ``pip install`` compiles
them to ``.mo`` files in the wheel (CMakeLists.txt, with Babel). A checkout run without a
build reads the ``.po`` through Babel instead.

What is never translated: codes, JSON keys, identifiers, numbers in JSON: a program reading a
report sees the same data in any language.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
import string
from collections.abc import Callable, Mapping
from contextvars import ContextVar, Token
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "N_",
    "Form",
    "Nn_",
    "UnknownLanguage",
    "_",
    "current",
    "form",
    "from_accept_language",
    "from_environment",
    "language",
    "named",
    "ngettext",
    "number",
    "own_name",
    "plural_form",
    "speaking",
]

DEFAULT_LANGUAGE = "en"
DOMAIN = "neweden"
LOCALE_DIR = Path(__file__).parent / "locale"


def _spoken() -> tuple[str, ...]:
    """English (the messages' own language), then each language whose message catalog is
    present (`locale/pt_BR/LC_MESSAGES/neweden.po` is pt-BR): a new language is its `.po`."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT_LANGUAGE, *[name.replace("_", "-") for name in found])


#: The languages neweden speaks, as BCP 47 tags (what `--lang`, `?lang=` and `lang=` take).
LANGUAGES = _spoken()
#: Each language by its tag in lower case, and the first of each primary language (`pt`).
_BY_TAG = {tag.lower(): tag for tag in LANGUAGES}
_BY_PRIMARY: dict[str, str] = {}
for _tag in LANGUAGES:
    _BY_PRIMARY.setdefault(_tag.split("-")[0].lower(), _tag)
#: The gettext name of each language but English (pt-BR: pt_BR), its catalog's folder.
_GETTEXT_NAMES = {tag: tag.replace("-", "_") for tag in LANGUAGES if tag != DEFAULT_LANGUAGE}

_active: ContextVar[str] = ContextVar("neweden_language", default=DEFAULT_LANGUAGE)


class UnknownLanguage(ValueError):
    """A language neweden does not speak was asked for by name."""

    def __init__(self, asked: str) -> None:
        super().__init__(
            f'unknown language "{asked}"; neweden speaks {", ".join(LANGUAGES)}{_also()}'
        )
        self.asked = asked


@functools.cache
def own_name(tag: str) -> str:
    """A language's name in itself, as a choice of languages shows it (`Português (Brasil)`)."""
    from babel import Locale

    said = Locale.parse(_GETTEXT_NAMES.get(tag, tag)).get_display_name() or tag
    return said[:1].upper() + said[1:]


def _also() -> str:
    """How the languages with a region may also be named: ` (Portuguese also as pt, pt_BR,
    pt-br)`."""
    from babel import Locale  # (only to say an error)

    said = []
    for tag, name in _GETTEXT_NAMES.items():
        if "-" not in tag:
            continue
        primary = tag.split("-")[0]
        english = Locale.parse(primary).get_display_name("en") or primary
        said.append(f"{english} also as {primary}, {name}, {tag.lower()}")
    return f" ({'; '.join(said)})" if said else ""


_TAG = re.compile(r"([A-Za-z]{1,8})(?:[-_]([A-Za-z0-9]{1,8}))?")


def language(tag: str | None) -> str | None:
    """The language a tag or locale name means, or None when neweden does not speak it: the
    language of that tag (``pt_BR.UTF-8`` is pt-BR), else the first of that primary language
    (``pt`` and ``pt-PT`` read as pt-BR, the only Portuguese; ``en_US.UTF-8`` as en);
    ``C`` and ``POSIX`` as English."""
    if not tag:
        return None
    found = _TAG.match(tag.strip())
    if found is None:
        return None
    primary, region = found.group(1).lower(), (found.group(2) or "").lower()
    if primary in ("c", "posix"):
        return DEFAULT_LANGUAGE
    return _BY_TAG.get(f"{primary}-{region}") or _BY_PRIMARY.get(primary)


def checked(tag: str) -> str:
    """The language `tag` names (:func:`language`); raises :class:`UnknownLanguage`."""
    found = language(tag)
    if found is None:
        raise UnknownLanguage(tag)
    return found


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of a command run without `--lang`: ``NEWEDEN_LANG`` when set, else the
    first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set (as the C library reads
    them); English when that one names a language neweden does not speak."""
    env = os.environ if environ is None else environ
    own = env.get("NEWEDEN_LANG")
    if own:
        return language(own) or DEFAULT_LANGUAGE
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def from_accept_language(header: str | None) -> str:
    """The language an HTTP ``Accept-Language`` header prefers among those neweden speaks
    (q-values weigh, the earlier wins a tie, ``q=0`` refuses, ``*`` means any); English when
    none of them is acceptable."""
    if not header:
        return DEFAULT_LANGUAGE
    best: tuple[float, int, str] | None = None
    for order, item in enumerate(header.split(",")[:32]):
        tag, _sep, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if not 0.0 < weight <= 1.0:
            continue
        found = DEFAULT_LANGUAGE if tag.strip() == "*" else language(tag)
        if found is not None and (best is None or weight > best[0]):
            best = (weight, order, found)
    return best[2] if best is not None else DEFAULT_LANGUAGE


def current() -> str:
    """The language of the current context."""
    return _active.get()


class speaking:  # a context manager: `with speaking("pt-BR"):`
    """Messages made inside ``with speaking(lang):`` are in `lang` (None: the current
    language). Raises :class:`UnknownLanguage` for a language neweden does not speak."""

    __slots__ = ("lang", "token")

    def __init__(self, lang: str | None) -> None:
        self.lang = current() if lang is None else checked(lang)
        self.token: Token[str] | None = None

    def __enter__(self) -> str:
        self.token = _active.set(self.lang)
        return self.lang

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.token is not None:
            _active.reset(self.token)


_CATALOGS: dict[str, gettext.NullTranslations] = {}


def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled messages of `lang` (English: the message ids themselves)."""
    found = _CATALOGS.get(lang)
    if found is None:
        found = _CATALOGS[lang] = _load(lang)
    return found


def _load(lang: str) -> gettext.NullTranslations:
    name = _GETTEXT_NAMES.get(lang)
    if name is None:
        return gettext.NullTranslations()
    compiled = LOCALE_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if compiled.is_file():
        with compiled.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    return compile_po(LOCALE_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.po")


def compile_po(source: Path) -> gettext.GNUTranslations:
    """A ``.po`` file compiled in memory with Babel (a checkout that was not built; the
    tests compile the sources this way too)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with source.open("rb") as handle:
        messages = read_po(handle)
    out = io.BytesIO()
    write_mo(out, messages)
    out.seek(0)
    return gettext.GNUTranslations(out)


def _(message: str, /, **params: Any) -> str:
    """`message` in the current language, its ``{placeholders}`` filled from `params`."""
    lang = _active.get()
    text = message if lang == DEFAULT_LANGUAGE else catalog(lang).gettext(message)
    return text.format(**params) if params else text


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """:func:`_` for a message whose words follow a count `n` (given to it as ``{n}``)."""
    lang = _active.get()
    if lang == DEFAULT_LANGUAGE:
        text = singular if n == 1 else plural
    else:
        text = catalog(lang).ngettext(singular, plural, n)
    return text.format(n=n, **params)


class Form(NamedTuple):
    """A sentence made quick to fill: its ``{name}`` fields as ``%s`` (a ``%`` of its own as
    ``%%``), and for each ``%s`` in turn the index of its name among the names given (None:
    they come in that order)."""

    text: str
    order: tuple[int, ...] | None

    def fill(self, values: tuple[object, ...]) -> str:
        """The sentence with `values` (one a name, in the names' order) put in."""
        if self.order is None:
            return self.text % values
        return self.text % tuple([values[i] for i in self.order])

    def pieces(self) -> tuple[str, ...]:
        """The sentence's literal text around its fields (one more piece than fields), each
        ``%%`` given back as ``%``: the sentence is ``pieces[0]``, then each field's value
        followed by the next piece."""
        out: list[str] = []
        piece: list[str] = []
        parts = _PERCENT.split(self.text)  # text, then (what follows a %, text) pairs
        piece.append(parts[0])
        for after, text in zip(parts[1::2], parts[2::2], strict=True):
            if after == "s":  # a field
                out.append("".join(piece))
                piece = []
            else:  # "%%": a % of the sentence's own
                piece.append("%")
            piece.append(text)
        out.append("".join(piece))
        return tuple(out)


#: What a Form's text holds after each %: ``s`` (a field) or ``%`` (a % of its own).
_PERCENT = re.compile(r"%([s%])")


def form(message: str, names: tuple[str, ...]) -> Form | None:
    """`message` in the current language as a :class:`Form` for the fields `names` (made
    once a language); None when the sentence has a field :meth:`str.format` reads another
    way (a format spec, a conversion, a name not given): fill that one with :func:`_`.
    ``%`` formatting is about three times as quick as :meth:`str.format` on a long
    sentence, which counts for the messages a batch makes thousands of."""
    return _form(message, names, _active.get())


#: A sentence as a function of its values (:func:`filler`).
Filler = Callable[[tuple[object, ...]], str]


def filler(message: str, names: tuple[str, ...]) -> Filler:
    """`message` in the current language as a function of its values (one a name of
    `names`, in that order): its :class:`Form`'s fill (made once a language) when it has
    one, else :func:`_` with the values named. Made once for many sentences of a kind, in
    one language: use it while that language is current."""
    said = _form(message, names, _active.get())
    if said is None:
        return lambda values: _(message, **dict(zip(names, values, strict=True)))
    if said.order is None:  # the values in the sentence's order: `%` itself, no call between
        return said.text.__mod__
    return said.fill


def filled(message: str, names: tuple[str, ...], values: tuple[object, ...]) -> str:
    """:func:`_` of `message` with `values` (one a name of `names`): :func:`filler`'s once."""
    return filler(message, names)(values)


def plural_form(singular: str, plural: str, n: int, names: tuple[str, ...]) -> Form | None:
    """:func:`form` of the sentence :func:`ngettext` picks for the count `n` (``{n}`` among
    `names`, as ngettext gives it)."""
    lang = _active.get()
    if lang == DEFAULT_LANGUAGE:
        text = singular if n == 1 else plural
    else:
        text = catalog(lang).ngettext(singular, plural, n)
    return _text_form(text, names)


@functools.lru_cache(maxsize=256)
def _form(message: str, names: tuple[str, ...], lang: str) -> Form | None:
    text = message if lang == DEFAULT_LANGUAGE else catalog(lang).gettext(message)
    return _text_form(text, names)


@functools.lru_cache(maxsize=256)
def _text_form(text: str, names: tuple[str, ...]) -> Form | None:
    pieces: list[str] = []
    order: list[int] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:  # an unmatched brace: str.format says so
        return None
    for literal, field, spec, conversion in parsed:
        pieces.append(literal.replace("%", "%%"))
        if field is None:
            continue
        if spec or conversion or field not in names:
            return None
        pieces.append("%s")
        order.append(names.index(field))
    same = order == list(range(len(names)))
    return Form("".join(pieces), None if same else tuple(order))


def named(names: Mapping[str, str], key: str) -> str:
    """`key`'s entry of a table of names marked with :func:`N_`, in the current language;
    `key` itself when the table has none (an identifier shown as it is)."""
    found = names.get(key)
    return key if found is None else _(found)


def plural_pair(singular: str, plural: str, /) -> tuple[str, str]:
    """A count's message in the current language as its two forms, with their ``{n}`` and
    other fields unfilled: the form for one (1, and 0 where the language says "0 estrela")
    and the form for more. What a client with the plural rules of its own (the web page:
    ``Intl.PluralRules``) picks from; the languages here have two forms."""
    lang = _active.get()
    if lang == DEFAULT_LANGUAGE:
        return singular, plural
    found = catalog(lang)
    return found.ngettext(singular, plural, 1), found.ngettext(singular, plural, 2)


def N_(message: str, /) -> str:  # gettext's name: "mark now, translate later"
    """Marks a message for extraction; it is translated later, where it is shown."""
    return message


def Nn_(singular: str, plural: str, /) -> tuple[str, str]:
    """:func:`N_` for a message whose words follow a count: its two forms, given to
    :func:`ngettext` (or :func:`plural_form`) later."""
    return singular, plural


def number(n: int | float, lang: str | None = None) -> str:
    """A number as the language writes it for people (``1,234`` / ``1.234``); never in
    JSON."""
    lang = lang or _active.get()
    if lang == DEFAULT_LANGUAGE:
        return f"{n:,}"
    from babel.numbers import format_decimal

    return str(format_decimal(n, locale=_GETTEXT_NAMES.get(lang, lang)))
