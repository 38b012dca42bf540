"""The languages: choosing one (arguments, environment, Accept-Language), the catalogs
(compiled from the .po sources, shipped in the installed package, complete), and that a
language changes words, never data."""

from __future__ import annotations

import gettext
import importlib.metadata
import re
import string
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import neweden
from neweden import i18n
from neweden.i18n import (
    UnknownLanguage,
    _,
    current,
    from_accept_language,
    from_environment,
    language,
    number,
    speaking,
)
from tests.games import problem_games

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "python" / "neweden" / "i18n" / "locale" / "pt_BR" / "LC_MESSAGES" / "neweden.po"


# --- choosing a language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("pt-BR", "pt-BR"),
        ("pt_BR.UTF-8", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("pt", "pt-BR"),
        ("PT_br@euro", "pt-BR"),
        ("en", "en"),
        ("en_US.UTF-8", "en"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("fr_FR.UTF-8", None),
        ("", None),
        ("!!", None),
    ],
)
def test_language_names(tag: str, expected: str | None) -> None:
    assert language(tag) == expected


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(UnknownLanguage, match=r'"fr".*en, pt-BR'), speaking("fr"):
        pass


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, "pt-BR"),
        ({"LC_ALL": "C", "LANG": "pt_BR.UTF-8"}, "en"),  # LC_ALL first, as the C library
        ({"LC_ALL": "", "LANG": "pt_BR.UTF-8"}, "pt-BR"),  # empty is unset
        ({"LANG": "de_DE.UTF-8"}, "en"),  # not spoken: the default
        ({"NEWEDEN_LANG": "pt-BR", "LC_ALL": "C"}, "pt-BR"),  # ours overrides
        ({"NEWEDEN_LANG": "en", "LANG": "pt_BR.UTF-8"}, "en"),
    ],
)
def test_the_language_of_the_environment(environ: dict[str, str], expected: str) -> None:
    assert from_environment(environ) == expected


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("pt-BR", "pt-BR"),
        ("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7", "pt-BR"),  # a Brazilian browser
        ("en-US,en;q=0.9,pt-BR;q=0.8", "en"),
        ("fr-FR, pt;q=0.5", "pt-BR"),  # the best one spoken
        ("en;q=0.4, pt-BR;q=0.6", "pt-BR"),  # weights, not order
        ("pt-BR;q=0.5, en;q=0.5", "pt-BR"),  # a tie: the earlier
        ("pt-BR;q=0, *;q=0.1", "en"),  # q=0 refuses
        ("fr", "en"),
        ("pt-BR;q=abc", "en"),  # an unreadable weight counts as 0
    ],
)
def test_accept_language(header: str | None, expected: str) -> None:
    assert from_accept_language(header) == expected


def test_a_context_keeps_its_language_and_restores_the_one_before() -> None:
    assert current() == "en"
    with speaking("pt-BR"):
        assert current() == "pt-BR"
        with speaking("en"):
            assert current() == "en"
        assert current() == "pt-BR"
        with speaking(None):  # None: the current one
            assert current() == "pt-BR"
    assert current() == "en"


def test_each_thread_has_its_own_language() -> None:
    seen: list[str] = []
    with speaking("pt-BR"):
        thread = threading.Thread(target=lambda: seen.append(current()))
        thread.start()
        thread.join()
    assert seen == ["en"]  # a new thread starts from the default, not the caller's


def test_numbers_follow_the_language_and_json_never_does() -> None:
    assert number(1234) == "1,234"
    assert number(1234, "pt-BR") == "1.234"
    with speaking("pt-BR"):
        assert number(1234567) == "1.234.567"
        report = neweden.score(_example(), detail=False)
    assert isinstance(report["players"][0]["score"]["total"], int)


# --- the catalogs ------------------------------------------------------------------------------


def _po() -> list[tuple[object, object]]:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="pt_BR")
    return [(m.id, m.string) for m in catalog if m.id]


def _fields(text: str) -> set[str]:
    """The placeholders of a message; a message made without parameters may hold single
    braces (it is never formatted): its braces count as its fields."""
    try:
        return {part[1] for part in string.Formatter().parse(text) if part[1] is not None}
    except ValueError:
        return {f"{text.count('{')} {{ and {text.count('}')} }}"}


def test_every_message_of_the_code_is_in_the_catalog() -> None:
    """The messages marked in the package (extracted as scripts/translations.py does) are the
    catalog's: none missing, none stale."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import translations  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    marked = {m.id if isinstance(m.id, str) else m.id[0] for m in translations.extracted() if m.id}
    listed = {i if isinstance(i, str) else i[0] for i, _ in _po()}  # type: ignore[index]
    assert marked - listed == set(), "run python scripts/translations.py"
    assert listed - marked == set(), "stale messages: run python scripts/translations.py"
    assert len(marked) > 0


_DROPPED = {"n", "article", "ordinal"}


def test_every_message_has_a_portuguese_translation_with_the_same_placeholders() -> None:
    untranslated, mismatched = [], []
    for msgid, msgstr in _po():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        strs = msgstr if isinstance(msgstr, tuple) else (msgstr,)
        if not all(strs):
            untranslated.append(ids[0])
            continue
        for text in strs:
            # a placeholder the English lacks would fail (but {n}: the code gives counts); one
            # Portuguese does without (an
            # English article, an English ordinal) is fine
            if (
                _fields(text) - _fields(ids[-1]) - {"n"}
                or _fields(ids[0]) - _fields(text) - _DROPPED
            ):
                mismatched.append((ids[0], text))
    assert untranslated == []
    assert mismatched == []


def test_the_catalog_compiles_from_its_source_and_the_installed_one_agrees() -> None:
    """The .po compiles (Babel, as the build does), and the package installed from this
    checkout ships a compiled catalog that gives the same translations."""
    compiled = i18n.compile_po(PO)
    files = importlib.metadata.files("neweden") or []
    shipped = [f for f in files if str(f).endswith("pt_BR/LC_MESSAGES/neweden.mo")]
    assert len(shipped) == 1, "the wheel has no compiled Portuguese catalog"
    with Path(str(shipped[0].locate())).open("rb") as handle:
        installed = gettext.GNUTranslations(handle)
    for msgid, msgstr in _po():
        if isinstance(msgid, str):
            assert compiled.gettext(msgid) == msgstr
            assert installed.gettext(msgid) == msgstr, "the installed catalog is stale: rebuild"


def test_english_is_the_message_itself() -> None:
    assert _("{n} cards", n=3) == "3 cards"
    assert _("{{literal}} braces, {n}", n=1) == "{literal} braces, 1"  # doubled with params
    assert _("{literal} braces") == "{literal} braces"  # a message without params: as is


# --- the same data in any language -------------------------------------------------------------


def _example() -> bytes:
    return (ROOT / "examples" / "final-scoring-example.json").read_bytes()


def _data(report: object) -> object:
    """The report without its human words (messages, explanations, advice)."""
    if isinstance(report, dict):
        return {k: _data(v) for k, v in report.items() if k not in _WORDS}
    if isinstance(report, list):
        return [_data(v) for v in report]
    return report


_WORDS = {"message", "why", "note"}


def test_a_report_has_the_same_data_in_both_languages() -> None:
    english = neweden.score(_example(), lang="en")
    portuguese = neweden.score(_example(), lang="pt-BR")
    assert _data(english) == _data(portuguese)


def test_the_language_costs_nothing_when_not_asked() -> None:
    """`lang=None` speaks the current language (the default English, or the caller's)."""
    with speaking("pt-BR"):
        inside = neweden.score(_example(), lang=None)
    assert inside == neweden.score(_example(), lang="pt-BR")


def test_the_cli_speaks_portuguese_from_the_environment() -> None:
    env = {"PATH": "/usr/bin:/bin", "LANG": "pt_BR.UTF-8", "HOME": "/tmp"}
    shown = subprocess.run(
        [sys.executable, "-m", "neweden", "score", "--example", "--format", "text"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"\bpartida\b|\bjogador", shown.stdout), shown.stdout


#: Words of English that Portuguese text never needs (names and identifiers in the generated
#: games are P0-P3, EX-..., the box's English identifiers such as `third_star`).
_ENGLISH = re.compile(
    r"\b(the|is|are|and|with|has|have|cards?|players?|needs?|scored|scores|points?|"
    r"game|city|not|met|left|out|activated|validated|held|star|stars|of|its|it)\b"
)


def _texts(report: object, out: list[tuple[str, str]], key: str = "") -> list[tuple[str, str]]:
    if isinstance(report, dict):
        for k, v in report.items():
            _texts(v, out, k)
    elif isinstance(report, list):
        for v in report:
            _texts(v, out, key)
    elif isinstance(report, str) and key in _WORDS:
        out.append((key, report))
    return out


def test_no_english_is_left_in_portuguese_reports() -> None:
    """Every message, requirement explanation and epiphany note of generated games with most
    errors and warnings, detailed, in Portuguese: none is its English text, none holds an
    English word."""
    left: dict[str, str] = {}
    for doc in problem_games(120):
        english = _texts(neweden.score(doc, lang="en"), [])
        portuguese = _texts(neweden.score(doc, lang="pt-BR"), [])
        assert len(english) == len(portuguese)
        for (key, en), (_key, pt) in zip(english, portuguese, strict=True):
            words = _ENGLISH.findall(_without_quoted(pt))
            if pt == en or words:
                left.setdefault(en, f"{key}: {pt} {words}")
    assert left == {}


def _without_quoted(text: str) -> str:
    """The text without what it quotes (names, ids, identifiers: never translated)."""
    return re.sub(r'"[^"]*"|`[^`]*`', "", text)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_form_fills_a_sentence_as_str_format_does(lang: str) -> None:
    """i18n.form: the translated sentence as a %-template, filled with the same words as
    str.format gives, in each language (the rotated cards' warning uses it)."""
    from neweden.rules import warnings

    names = warnings._ROTATED_FIELDS
    with speaking(lang):
        found = i18n.form(warnings._ROTATED, names)
        assert found is not None
        for values in [(0, 0, 0), (3, -12, 1000), (76, 5, -7)]:
            want = i18n._(warnings._ROTATED, **dict(zip(names, values, strict=True)))
            assert found.fill(values) == want


def test_a_form_keeps_percent_signs_braces_and_the_order_of_the_fields() -> None:
    assert i18n.form("100% of {a}, {{b}}, then {b}", ("a", "b")) == i18n.Form(
        "100%% of %s, {b}, then %s", None
    )
    reordered = i18n.form("{b} before {a} and {b}", ("a", "b"))
    assert reordered is not None
    assert reordered.fill((1, 2)) == "2 before 1 and 2"
    for unusual in ("{a:>4}", "{a!r}", "{c}", "{a"):  # str.format reads these another way
        assert i18n.form(unusual, ("a",)) is None


def test_a_new_language_is_its_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The languages are the message catalogs present: a folder with a `.po` adds one, named
    in itself, with no code changed."""
    import shutil

    from neweden import i18n

    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    (locale / "eo" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(locale / "neweden.pot", locale / "eo" / "LC_MESSAGES" / "neweden.po")
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    assert i18n._spoken() == ("en", "eo", "pt-BR")
    assert i18n.LANGUAGES == ("en", "pt-BR")  # (the package's own, read once at import)
    assert i18n.own_name("pt-BR") == "Português (Brasil)"
