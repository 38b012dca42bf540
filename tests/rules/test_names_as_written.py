"""RULES §1, "any name may be written as players write it": every style, type and effect
name is folded before the identifier check (spaces around it trimmed, Portuguese accents
taken off, letters in lower case, inner spaces and hyphens made `_`), then a Portuguese alias
reads as its English identifier; a folded unknown name is itself. In games (both decoding
passes, the native reader, the reference twin), catalogs and conditions; the JSON Schema
accepts exactly what folds to a name."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import neweden
from neweden.catalog.files import parse_catalog
from neweden.format.decode import decode_game
from neweden.format.model import IDENTIFIER_PATTERN, NAME_PATTERN
from neweden.format.schema import game_schema
from neweden.format.vocabulary import ACCENTS, fold, foldable_characters
from neweden.scoring.report import reference_geometry, score_game, score_report, score_reports
from tests.games import card, decode_places, game, line, player
from tests.lean import padded, taken_lean

#: (written, read) as a style: accents precomposed and decomposed, capitals, spaces around,
#: inner spaces, hyphens, an alias once folded, an unknown name folded to itself.
STYLES = [
    ("Gótico", "gothic"),
    ("GÓTICO", "gothic"),
    ("go\u0301tico", "gothic"),  # decomposed: o + U+0301
    ("GO\u0301TICA", "gothic"),
    ("  Gothic  ", "gothic"),
    ("Renascentista", "renaissance"),
    ("Sustentável", "sustainable"),
    ("futurista ", "futurist"),
    ("Praça", "praca"),
    ("Pra\u0327ca", "praca"),  # decomposed: c + U+0327
    ("Art Déco", "art_deco"),
    ("art-deco", "art_deco"),
    ("Neo-Clássico Tardio", "neo_classico_tardio"),
]
#: (written, read) as a type.
TYPES = [
    ("Área Verde", "green_area"),
    ("área-verde", "green_area"),
    ("AREA VERDE", "green_area"),
    ("a\u0301rea_verde", "green_area"),
    ("Construção", "building"),
    ("CONSTRUC\u0327A\u0303O", "building"),
    ("Green Area", "green_area"),
    (" Building", "building"),
    ("Comércio Local", "comercio_local"),
    ("Praça", "praca"),
]
#: (written, read) as an epiphany's effect.
EFFECTS = [
    ("Third Star", "third_star"),
    ("third-star", "third_star"),
    (" ROTATE ", "rotate"),
    ("Move", "move"),
    ("Troca Rápida", "troca_rapida"),
]


def _written_game(style: str, type_: str, effect: str) -> dict[str, Any]:
    """Ana's line of six cards, the last of `style` and `type_`; an epiphany of `effect`."""
    city = line(6, style="ex_amber", type="ex_harbor", points=2)
    city[5]["card"].update(style=style, type=type_)
    epiphanies = [{"points": 2, "state": "validated", "effect": effect}]
    return game("elitist", player("Ana", city, epiphanies=epiphanies), player("Bia", line(3)))


def _bytes(doc: dict[str, Any]) -> bytes:
    return padded(json.dumps(doc, ensure_ascii=False).encode())


def _every_path(raw: bytes, detail: bool) -> set[bytes]:
    """The report of `raw` by the lean path (native reader), the exact path (the
    every-problem decoder) and the reference twin, as JSON bytes."""
    decoded = decode_game(raw)
    return {
        msgspec.json.encode(score_report(raw, detail=detail)),
        msgspec.json.encode(score_reports([decoded], detail=detail)[0]),
        msgspec.json.encode(score_game(decoded, detail=detail, geometry=reference_geometry)),
    }


@pytest.mark.parametrize(("written", "read"), STYLES)
def test_rule_1_a_style_as_players_write_it_reads_as_its_name(written: str, read: str) -> None:
    assert fold(written, "style") == read
    doc = _written_game(written, "ex_harbor", "move")
    assert decode_game(doc).players[0].city[5].card.style == read  # type: ignore[union-attr]
    folded = _written_game(read, "ex_harbor", "move")
    assert taken_lean(_bytes(doc))  # the native reader takes it as written
    for detail in (False, True):
        found = _every_path(_bytes(doc), detail)
        assert found == _every_path(_bytes(folded), detail)  # the report shows the folded name
        assert len(found) == 1


@pytest.mark.parametrize(("written", "read"), TYPES)
def test_rule_1_a_type_as_players_write_it_reads_as_its_name(written: str, read: str) -> None:
    assert fold(written, "type") == read
    doc = _written_game("ex_amber", written, "move")
    assert decode_game(doc).players[0].city[5].card.type == read  # type: ignore[union-attr]
    assert taken_lean(_bytes(doc))
    for detail in (False, True):
        found = _every_path(_bytes(doc), detail)
        assert found == _every_path(_bytes(_written_game("ex_amber", read, "move")), detail)
        assert len(found) == 1


@pytest.mark.parametrize(("written", "read"), EFFECTS)
def test_rule_1_an_effect_as_players_write_it_reads_as_its_name(written: str, read: str) -> None:
    doc = _written_game("ex_amber", "ex_harbor", written)
    assert decode_game(doc).players[0].epiphanies[0].effect == read
    for detail in (False, True):
        found = _every_path(_bytes(doc), detail)
        assert found == _every_path(_bytes(_written_game("ex_amber", "ex_harbor", read)), detail)
        assert len(found) == 1
    report = neweden.score(json.dumps(doc), detail=False)
    warned = [w for w in report["players"][0]["warnings"] if w["code"] == "unknown_effect"]
    assert bool(warned) == (read not in ("third_star", "rotate", "move"))
    assert all(f'"{read}"' in w["message"] for w in warned)  # the folded name is shown


def test_rule_1_the_every_problem_pass_folds_names_too() -> None:
    # Another field wrong: the every-problem pass lists that problem alone, the names as
    # players wrote them accepted.
    doc = _written_game("Praça", "Comércio Local", "Third Star")
    doc["players"][0]["city"][0]["card"]["stars"] = 7
    assert decode_places(doc) == [("bad_value", "/players/0/city/0/card/stars")]


def test_rule_1_names_folded_alike_are_one_name() -> None:
    # Five spellings of "praca" and six of "green_area" are one style and one type: the
    # cards join (one style, or one type), and no two names look alike.
    city = line(6, style="ex_amber", type="green_area")
    for k, (style, type_) in enumerate(
        [("Praça", "Área Verde"), ("praca", "area verde"), ("PRAÇA", "green_area"),
         ("Pra\u0327ca", "Green-Area"), (" praça ", "ÁREA VERDE")]
    ):  # fmt: skip
        city[k]["card"].update(style=style, type=type_)
    raw = _bytes(game("military", player("Ana", city)))
    assert taken_lean(raw)
    (found,) = _every_path(raw, True)
    report = json.loads(found)
    assert report["valid"] is True
    assert report["errors"] == []
    assert "similar_names" not in [w["code"] for w in report["warnings"]]


@pytest.mark.parametrize(
    "written",
    ["3d", "a/b", "\U0001f3db", "Готика", "gótico\u0323", "", "   ", "-gothic", "_gothic",
     "gothic\n", "go\ttico", "\uff47\uff4f\uff54\uff49\uff43"],
)  # fmt: skip
def test_rule_1_a_name_still_no_identifier_after_folding_is_a_bad_value(written: str) -> None:
    doc = _written_game(written, "ex_harbor", written)
    with pytest.raises(neweden.GameDecodeError) as caught:
        neweden.score(_bytes(doc))
    found = [(p.code, p.path) for p in caught.value.problems]
    assert found == [
        ("bad_value", "/players/0/city/5/card/style"),
        ("bad_value", "/players/0/epiphanies/0/effect"),
    ]
    message = caught.value.problems[0].message
    assert "folded as players write it" in message
    assert "accents taken off" in message
    with pytest.raises(neweden.GameDecodeError) as exact:
        decode_game(doc)
    assert exact.value.problems == caught.value.problems


CATALOG = """
styles = ["Gótico", "Futurista", "Renascentista", "Sustentável", "Praça"]
types = ["Área Verde", "Construção", "Comércio Local", "Porto", "Mercado-Novo", "Quinta"]
effects = ["Troca Rápida"]

[cards.EX-plaza]
style = "PRAÇA"
type = "Comércio Local"
facility = "lab"
points = 3
stars = 0
sides = ["right", "left"]
example = true

[requirements.EX-R1]
deck = "A"
condition = { ">=" = [{ count = { style = "Praça", type = ["Comércio Local", "porto"] } }, 2] }
example = true

[requirements.EX-R2]
deck = "B"
condition = { ">=" = [{ largest_group = { by = "type", value = "Mercado Novo" } }, 2] }
example = true

[epiphanies.EX-E1]
points = 2
effect = "Troca-Rápida"
condition = { ">=" = [{ count = { style = "Gótico" } }, 1] }
example = true
"""


def test_rule_1_a_catalog_folds_its_names_as_a_game_does() -> None:
    catalog = parse_catalog(CATALOG.encode(), "mine.toml")
    assert catalog.styles == {"gothic", "futurist", "renaissance", "sustainable", "praca"}
    assert catalog.types == {
        "green_area", "building", "comercio_local", "porto", "mercado_novo", "quinta"
    }  # fmt: skip
    assert catalog.effects >= {"troca_rapida"}
    spec = catalog.card("EX-plaza")
    assert spec is not None
    assert (spec.style, spec.type) == ("praca", "comercio_local")
    epiphany = catalog.epiphanies["EX-E1"]
    assert epiphany.effect == "troca_rapida"
    # the conditions: two praca cards of comercio_local or porto (one by id, one inline as
    # written), two mercado_novo cards side by side; a gothic card for the epiphany
    city = [
        {"row": 0, "col": 0, "card": "EX-plaza"},
        card(0, 1, "rl", style="Praça", type="Porto"),
        card(0, 2, "rl", style="praca", type="Mercado-Novo"),
        card(0, 3, "l", style="Gótico", type="mercado novo"),
    ]
    epiphanies = [{"card": "EX-E1", "state": "validated"}]
    doc = game(
        "populist",
        player("Ana", city, epiphanies=epiphanies),
        requirements=["EX-R1", "EX-R2", "C1"],
    )
    report = neweden.score(doc, catalog=catalog, detail=True)
    assert report["errors"] == [], report["errors"]
    ana = report["players"][0]
    assert ana["requirements_met"] == ["EX-R1", "EX-R2", "C1"]  # C1: 2 open connections
    assert "unknown_effect" not in [w["code"] for w in ana["warnings"]]
    assert ana["audit"]["epiphanies"][0]["condition_met"] is True


def test_rule_1_a_condition_with_a_name_still_no_name_does_not_load() -> None:
    text = (
        'requirements.EX-R = { deck = "A", example = true, condition = { ">=" = '
        '[{ count = { style = "Gó/tico" } }, 1] } }'
    )
    with pytest.raises(neweden.CatalogError) as caught:
        parse_catalog(text.encode(), "bad.toml")
    (problem,) = caught.value.problems
    assert problem.code == "bad_value"
    assert 'it reads "go/tico"' in problem.message
    assert 'did you mean "gothic"?' in problem.message


# --- the JSON Schema accepts exactly what the decoder folds to a name ------------------------


def _decoder_takes(name: str) -> bool:
    """Whether the decoder takes `name` as a style, a type and an effect (all three or none:
    the problems name each of them, and nothing else)."""
    doc = _written_game(name, name, name)
    try:
        decode_game(doc)
    except neweden.GameDecodeError as err:
        where = {p.path for p in err.problems}
    else:
        return True
    assert where == {
        "/players/0/city/5/card/style",
        "/players/0/city/5/card/type",
        "/players/0/epiphanies/0/effect",
    }
    return False


def _schema_takes(name: str) -> bool:
    return _SCHEMA.is_valid(_written_game(name, name, name))


_SCHEMA = jsonschema.Draft202012Validator(game_schema())
_MARKS, _LETTERS = foldable_characters()
#: What names are made of, and what they must not hold: letters of every kind the folding
#: knows, other marks and scripts, spaces of other kinds, line ends, the symbols around.
_ALPHABET = st.sampled_from(
    [*"aZkK09_- /!.", *_MARKS, *_LETTERS[52:], "\u0323", "\u0338", "\u00a0", "\t", "\n", "\r",
     "\u2028", "\u0130", "\u212a", "\u212b", "\u017f", "\uff41", "\u0436", "\U0001f600",
     "\u03a3", "\u00df", "\u0131"]
)  # fmt: skip


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(_ALPHABET, max_size=12) | st.text(max_size=8))
def test_rule_1_the_schema_and_the_decoder_take_the_same_names(name: str) -> None:
    assert _schema_takes(name) == _decoder_takes(name), ascii(name)


@pytest.mark.parametrize(
    "name",
    ["gothic\n", "\ngothic", "Praça", "Área Verde", "Comércio Local", " ", "K", "\u212a",
     "\u0341gothic", "\u0130", "x" * 100, "x" * 101, "é" * 100, "é" * 101],
)  # fmt: skip
def test_rule_1_the_schema_and_the_decoder_agree_at_the_edges(name: str) -> None:
    assert _schema_takes(name) == _decoder_takes(name)


def test_the_name_pattern_is_ecma_262_without_flags() -> None:
    # No flag, no \p{...}, no code point past U+FFFF (without the `u` flag ECMA-262 reads
    # UTF-16 code units), no Python-only construct; the end is a lookahead, since Python's
    # `$` also matches before a final newline.
    assert NAME_PATTERN.startswith("^")
    assert NAME_PATTERN.endswith("(?![\\s\\S])")
    assert "(?" not in NAME_PATTERN[:-10]
    assert not re.search(r"\\[pPUNxAZ]|\\u[0-9a-f]{5}", NAME_PATTERN)
    assert all(ord(c) < 0x80 for c in NAME_PATTERN)


def test_folding_makes_a_letter_or_nothing_only_of_the_characters_the_pattern_lists() -> None:
    # Every code point: those that fold to nothing are the accents (and the characters that
    # decompose into them alone), those that fold to one letter a-z are ASCII letters or
    # decompose into one with accents; all in the Basic Multilingual Plane.
    marks, letters = set(_MARKS), set(_LETTERS)
    for point in range(sys.maxunicode + 1):
        if 0xD800 <= point < 0xE000:
            continue
        c = chr(point)
        read = "".join(x for x in unicodedata.normalize("NFD", c) if x not in ACCENTS).lower()
        if read == "":
            assert c in marks, hex(point)
        elif len(read) == 1 and "a" <= read <= "z":
            assert c in letters, hex(point)
        else:
            assert c not in marks, hex(point)
            assert c not in letters, hex(point)
    assert set(ACCENTS) <= marks
    assert re.fullmatch(IDENTIFIER_PATTERN, fold("\u212a", "style"))  # KELVIN SIGN: k
