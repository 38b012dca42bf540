"""The messages of decoding, catalogs, conditions and unreadable sources in Brazilian
Portuguese (issue 20): each comes out in pt-BR when asked for (``lang="pt-BR"`` or
``with speaking("pt-BR")``), with the same codes and paths as in English, and English is
unchanged."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN
from neweden.catalog.files import CatalogError, load_catalog, parse_catalog
from neweden.cli.main import example_game
from neweden.format.problems import Problem, a_game, did_you_mean, os_error, os_reason
from neweden.i18n import speaking
from neweden.runners.sources import Entry, iter_entries
from tests.games import card, game, line, player

PT = "pt-BR"


def decode_problems(raw: Any, lang: str) -> list[Problem]:
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.score(raw, lang=lang)
    return list(info.value.problems)


def places(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in problems]


def said_in_both(raw: Any, english: str, portuguese: str) -> tuple[str, str]:
    """The messages of `raw` in both languages (joined), after checking that the codes and
    paths agree and that each language has its own words."""
    en, pt = decode_problems(raw, "en"), decode_problems(raw, PT)
    assert places(en) == places(pt)
    en_text, pt_text = " | ".join(p.message for p in en), " | ".join(p.message for p in pt)
    assert english in en_text
    assert english not in pt_text
    assert portuguese in pt_text
    assert portuguese not in en_text
    return en_text, pt_text


def dumps(doc: Any) -> bytes:
    return json.dumps(doc).encode()


MILITARY = game("military", player("Ana", line(3)), player("Bia", line(2)))


def altered(**changes: Any) -> bytes:
    return dumps({**MILITARY, **changes})


def with_card(extra: dict[str, Any]) -> bytes:
    return dumps(game("military", player("Ana", [*line(2), extra]), player("Bia", line(2))))


# --- decode problems, one case (at least) for each code --------------------------------------

DECODE_CASES = [
    # bad_json
    (b'{"mode":', "bad_json", "ends before the JSON value is complete", "termina antes"),
    (b"[1,]", "bad_json", "trailing comma in array", "vírgula sobrando no fim do array"),
    (b'{"a" 1}', "bad_json", "JSON is malformed: expected ':'", "JSON malformado: esperava-se"),
    (b"\xff", "bad_json", "the input is not valid JSON", "a entrada não é JSON válido"),
    # bad_type
    (altered(mode=1), "bad_type", "must be a string, not an integer", "deve ser uma string"),
    (altered(players={}), "bad_type", "must be an array, not an object", "não um objeto"),
    # missing_field
    (dumps({"mode": "military"}), "missing_field", "a game needs `players`", "uma partida"),
    (
        dumps({"mode": "populist", "players": MILITARY["players"]}),
        "missing_field",
        "a populist game needs `requirements`",
        "uma partida populista precisa de `requirements`: os Requisitos de Edital",
    ),
    (
        with_card({"row": 1, "col": 0, "card": {"style": "gothic"}}),
        "missing_field",
        "a common card needs `type`",
        "uma carta comum precisa de `type`",
    ),
    (
        dumps({**MILITARY, "players": [{"name": "Ana", "city": line(2), "epiphanies": [{}]}]}),
        "missing_field",
        "an epiphany needs `card`",
        "uma Epifania precisa de `card`",
    ),
    # unknown_field
    (altered(moda=1), "unknown_field", "is not a field of a game", "uma partida não tem o campo"),
    (altered(mdoe=1), "unknown_field", '(did you mean "mode"?)', '(você quis dizer "mode"?)'),
    (
        with_card({"row": 1, "col": 0, "card": {"wild": True, "style": "gothic"}}),
        "unknown_field",
        "a wild card has no `style`",
        "uma carta curinga não tem `style`",
    ),
    # bad_value
    (altered(mode="elitst"), "bad_value", "it must be one of", "deve ser um de"),
    (altered(players=[]), "bad_value", "is empty; at least 1 are needed", "está vazio"),
    (
        with_card({"row": 1, "col": 0, "card": "not an id!"}),
        "bad_value",
        "which is not a catalog id",
        "que não é um id de catálogo",
    ),
    (
        with_card(card(1, 0, "tt")),
        "bad_value",
        "is given twice on this card",
        "aparece duas vezes nesta carta",
    ),
    (
        dumps(game("populist", *MILITARY["players"], requirements=["A1", "A1"])),
        "bad_value",
        'the requirement "A1" is listed twice',
        'o Requisito "A1" aparece duas vezes',
    ),
    (with_card(card(1, 10**9, "t")), "too_large", "it must be from", "deve ser de"),
    (
        with_card(card(1, 0, "t", stars=7)),
        "bad_value",
        "is 7; it must be from 0 to 3",
        "é 7; deve ser de 0 a 3",
    ),
    (
        altered(meta={"n": "BIG"}).replace(b'"BIG"', b"1e999"),
        "bad_value",
        "`n` is a number beyond any float",
        "`n` é um número além de qualquer float",
    ),
    (
        altered(meta={"n": "BIG"}).replace(b'"BIG"', b"1" * 5000),
        "bad_value",
        "`n` is an integer of more than 4,300 digits",
        "`n` é um inteiro de mais de 4.300 dígitos",
    ),
    # too_large
    (
        b" " * (1024 * 1024 + 10),
        "too_large",
        "the game is 1,048,586 bytes; the limit is 1,048,576",
        "a partida tem 1.048.586 bytes; o limite é 1.048.576",
    ),
    (
        altered(meta={"a": "x" * 17000}),
        "too_large",
        "`meta` is 17,008 bytes as compact JSON; the limit is 16,384 (16 KiB)",
        "`meta` tem 17.008 bytes em JSON compacto; o limite é 16.384 (16 KiB)",
    ),
    (
        altered(meta={"a": json.loads("[" * 40 + "]" * 40)}),
        "too_large",
        "`meta` is nested more than 32 levels deep",
        "`meta` tem mais de 32 níveis",
    ),
    (
        altered(players=[player(f"p{i}", line(1)) for i in range(5)]),
        "too_large",
        "has 5 items; at most 4 are allowed",
        "tem 5 itens; são permitidos no máximo 4",
    ),
]


@pytest.mark.parametrize(("raw", "code", "english", "portuguese"), DECODE_CASES)
def test_each_decode_problem_is_said_in_portuguese(
    raw: bytes, code: str, english: str, portuguese: str
) -> None:
    said_in_both(raw, english, portuguese)
    assert code in {p.code for p in decode_problems(raw, PT)}


def test_every_decode_code_has_a_portuguese_case() -> None:
    from neweden.format.problems import DECODE_CODES

    assert {code for _raw, code, _en, _pt in DECODE_CASES} == DECODE_CODES


def test_decoding_inside_speaking_is_portuguese_and_english_after() -> None:
    raw = b'{"mode": 1}'
    english = [p.message for p in decode_problems(raw, "en")]
    with speaking(PT), pytest.raises(neweden.GameDecodeError) as info:
        neweden.decode_game(raw)
    assert [p.message for p in info.value.problems] == [
        "`mode` deve ser uma string, não um inteiro",
        "uma partida precisa de `players`",
    ]
    assert (
        str(info.value) == "/mode: bad_type: `mode` deve ser uma string, não um inteiro (e mais 1)"
    )
    with pytest.raises(neweden.GameDecodeError) as again:
        neweden.decode_game(raw)  # outside the block: English again
    assert [p.message for p in again.value.problems] == english
    assert (
        str(again.value) == "/mode: bad_type: `mode` must be a string, not an integer (and 1 more)"
    )


def test_a_mapping_that_json_cannot_carry_is_said_in_portuguese() -> None:
    doc = {**MILITARY, "meta": {1: "x", "s": {1, 2}}}
    en, pt = decode_problems(doc, "en"), decode_problems(doc, PT)
    assert places(en) == places(pt) == [("bad_type", "/meta"), ("bad_type", "/meta/s")]
    assert [p.message for p in pt] == [
        "`meta`: uma chave é 1; as chaves JSON são strings",
        "`s` é um set do Python, que o JSON não representa",
    ]


def test_too_many_problems_are_counted_in_portuguese() -> None:
    raw = altered(**{f"x{i}": 1 for i in range(120)})
    en, pt = decode_problems(raw, "en"), decode_problems(raw, PT)
    assert places(en) == places(pt)
    assert en[-1].message == "and 20 more problem(s), not listed: at most 100 are"
    assert pt[-1].message == "e mais 20 problemas, não listados: no máximo 100 são listados"


def test_validate_says_the_decode_problems_in_portuguese() -> None:
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.validate(b'{"city": 3}', lang=PT)
    assert [p.message for p in info.value.problems] == ["`city` deve ser um array, não um inteiro"]


# --- rule problems made while resolving ids --------------------------------------------------


def test_unknown_ids_are_said_in_portuguese_with_the_same_codes() -> None:
    doc = game(
        "populist",
        player(
            "Ana",
            [*line(2), {"row": 1, "col": 0, "card": "X9"}],
            epiphanies=[{"card": "E9", "state": "held"}],
        ),
        player("Bia", line(2)),
        requirements=["A1", "A2"],
    )
    en, pt = neweden.score(doc), neweden.score(doc, lang=PT)

    def errors(report: dict[str, Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = list(report["errors"])
        return found + [e for p in report["players"] for e in p["errors"]]

    assert [(e["code"], e["path"]) for e in errors(en)] == [
        (e["code"], e["path"]) for e in errors(pt)
    ]
    said = " | ".join(e["message"] for e in errors(pt))
    assert 'o id de Requisito "A2" não está no catálogo' in said
    assert 'o id de carta "X9" na linha 1, coluna 0 não está no catálogo' in said
    assert "; ela fica fora do projeto" in said
    assert 'o id de Epifania "E9" não está no catálogo' in said
    assert "is not in the catalog" not in said


def test_a_style_a_closed_catalog_does_not_declare_is_said_in_portuguese() -> None:
    catalog = parse_catalog(b'{"styles": ["ex_gothic"]}', "c.json")
    doc = game("military", player("Ana", [*line(2), card(1, 0, "t", style="ex_gotic")]))
    en = neweden.score(doc, catalog=catalog)["players"][0]["errors"]
    pt = neweden.score(doc, catalog=catalog, lang=PT)["players"][0]["errors"]
    assert [(e["code"], e["path"]) for e in en] == [(e["code"], e["path"]) for e in pt]
    (style,) = [e for e in pt if e["code"] == "unknown_style"]
    assert style["message"] == (
        'o estilo "ex_gotic" da carta na linha 1, coluna 0 não é um dos que o catálogo '
        'declara (você quis dizer "ex_gothic"?) (ex_gothic)'
    )


# --- catalog files ------------------------------------------------------------------------------


def catalog_problems(text: str, name: str, lang: str) -> list[Problem]:
    with speaking(lang), pytest.raises(CatalogError) as info:
        parse_catalog(text.encode(), name)
    return list(info.value.problems)


CATALOG_CASES = [
    ('{"cardz": {}}', "c.json", "is not a field of a catalog", "um catálogo não tem o campo"),
    (
        "a = ?\n",
        "c.toml",
        "not valid TOML: Invalid value (at line 1",
        "TOML inválido: Valor inválido",
    ),
    ("a = [1,", "c.toml", "(at end of document)", "(no fim do documento)"),
    ("d = 1979-05-27", "c.toml", "is a TOML date or time", "é uma data ou hora TOML"),
    (
        "x = inf",
        "c.toml",
        "a catalog's numbers are finite",
        "os números de um catálogo são finitos",
    ),
    (
        '{"cards": {"EX-1": {"wild": true}}}',
        "c.json",
        "lacks `example = true`",
        "mas falta `example = true`",
    ),
    (
        '{"cards": {"Z1": {"wild": true, "example": true}}}',
        "c.json",
        "is marked example but its id does not start with EX-",
        "está marcado como exemplo",
    ),
    (
        '{"styles": ["ex_a"], "cards": {"EX-1": {"style": "ex_b", "type": "t", "facility": '
        '"lab", "points": 1, "stars": 1, "sides": ["top"], "example": true}}}',
        "c.json",
        'has the style "ex_b", which the catalog\'s `styles` does not declare',
        'tem o estilo "ex_b", que a lista `styles` do catálogo não declara',
    ),
    (
        '{"styles": ["a", "b", "c", "d", "e", "f"]}',
        "c.json",
        "`styles` declares 6 styles; the box holds 5",
        "`styles` declara 6 estilos; a caixa tem 5",
    ),
    (
        '{"majority_table": {"3": [1, 2]}}',
        "c.json",
        "the D5 table for 3 players has 2 values",
        "a tabela de maioria do Requisito D5 para 3 jogadores tem 2 valores",
    ),
    (
        '{"requirements": {"EX-R": {"deck": "A", "condition": {"bogus": 1}, "example": true}}}',
        "c.json",
        "`bogus` is not a condition operator",
        "`bogus` não é um operador de condição",
    ),
    (
        '{"requirements": {"EX-R": {"deck": "A", "example": true, "condition": '
        '{">=": [{"count": {"stile": "gothic"}}, 2]}}}}',
        "c.json",
        '`stile` is not a filter key (did you mean "style"?)',
        '`stile` não é uma chave de filtro (você quis dizer "style"?) (as chaves são:',
    ),
    (
        '{"requirements": {"EX-R": {"deck": "A", "example": true, "condition": '
        '{">=": [{"count": {"style": "Gothc!"}}, 2]}}}}',
        "c.json",
        'the style "Gothc!" is not a name a card can have',
        'o estilo "Gothc!" não é um nome que uma carta possa ter',
    ),
    (
        '{"requirements": {"EX-R": {"deck": "A", "example": true, "condition": '
        '{"<": [{"row_cards": {"line": "x", "wher": {}}}, {"largest_group": {"by": "size"}}]}}}}',
        "c.json",
        "`line` is an integer",
        "`line` é um inteiro",
    ),
    (
        '{"requirements": {"EX-R": {"deck": "A", "example": true, "condition": {"and": []}}}}',
        "c.json",
        "`and` takes a non-empty list of conditions",
        "`and` recebe uma lista não vazia de condições",
    ),
]


@pytest.mark.parametrize(("text", "name", "english", "portuguese"), CATALOG_CASES)
def test_each_catalog_file_problem_is_said_in_portuguese(
    text: str, name: str, english: str, portuguese: str
) -> None:
    en, pt = catalog_problems(text, name, "en"), catalog_problems(text, name, PT)
    assert places(en) == places(pt)
    en_text, pt_text = " | ".join(p.message for p in en), " | ".join(p.message for p in pt)
    assert english in en_text
    assert english not in pt_text
    assert portuguese in pt_text


def test_a_catalog_that_is_not_utf8_is_said_in_portuguese() -> None:
    data = b'a = "\xe9\xff"'
    with pytest.raises(CatalogError) as english:
        parse_catalog(data, "c.toml")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        python_words = str(exc)
    assert english.value.problems[0].message == f"not valid TOML: {python_words}"
    with speaking(PT), pytest.raises(CatalogError) as info:
        parse_catalog(data, "c.toml")
    (problem,) = info.value.problems
    assert (problem.code, problem.path) == ("bad_toml", "")
    assert problem.message == (
        "TOML inválido: o codec 'utf-8' não decodifica o byte 0xe9 na posição 5: "
        "byte de continuação inválido"
    )


def test_a_game_of_no_readable_kind_is_said_in_portuguese() -> None:
    with speaking(PT), pytest.raises(TypeError, match="uma partida é bytes, str ou um mapeamento"):
        neweden.decode_game(3)  # type: ignore[arg-type]


def test_every_condition_problem_of_a_value_is_said_in_portuguese() -> None:
    condition = {
        "or": [
            {"<": [{"row_cards": {"line": "x", "wher": {}}}, {"largest_group": {"by": "size"}}]},
            {"==": [{"distinct": "colour"}, {"adjacent": [{}]}]},
            {">": [{"open_connections": 1}, {"cuont": {}}]},
            {"!=": [True, {"count": {}, "distinct": "style"}]},
            {"not": {"<=": [1]}},
        ]
    }
    text = json.dumps(
        {"requirements": {"EX-R": {"deck": "A", "example": True, "condition": condition}}}
    )
    en, pt = catalog_problems(text, "c.json", "en"), catalog_problems(text, "c.json", PT)
    assert places(en) == places(pt)
    assert len(pt) == 10
    for english, portuguese in zip(en, pt, strict=True):
        assert english.message != portuguese.message
    said = " | ".join(p.message for p in pt)
    for words in (
        "`line` é um inteiro",
        "`wher` não é uma chave de `row_cards` (as chaves são: line, where)",
        "`by` é um de style, type, facility",
        "`distinct` recebe um de style, type, facility",
        "`adjacent` recebe dois filtros de cartas",
        "`open_connections` não recebe argumento: escreva {}",
        "`cuont` não é um operador de valor",
        "um valor é um inteiro ou um objeto como",
        "um objeto de valor tem exatamente um operador",
        "`<=` compara dois valores: [a, b]",
    ):
        assert words in said


def test_the_catalog_error_and_a_missing_catalog_are_said_in_portuguese(tmp_path: Path) -> None:
    with speaking(PT), pytest.raises(CatalogError) as info:
        load_catalog(tmp_path / "none.toml")
    (problem,) = info.value.problems
    assert (problem.code, problem.path) == ("not_found", "")
    assert problem.message == "não é possível ler o catálogo: Arquivo ou pasta inexistente"
    assert str(info.value).endswith("1 problema; o primeiro: /: not_found: " + problem.message)
    with pytest.raises(CatalogError) as english:
        load_catalog(tmp_path / "none.toml")
    assert english.value.problems[0].message == (
        "cannot read the catalog: No such file or directory"
    )


def test_a_catalog_over_the_limit_is_said_in_portuguese() -> None:
    (problem,) = catalog_problems(" " * (4 * 1024 * 1024 + 1), "c.json", PT)
    assert problem.message == "o catálogo tem 4.194.305 bytes; o limite é 4.194.304 (4 MiB)"


# --- the words of conditions in the audit -------------------------------------------------------


def whys(report: dict[str, Any]) -> list[list[str]]:
    return [[r["why"] for r in p["audit"]["requirements"]] for p in report["players"]]


def test_the_condition_words_follow_the_language_of_each_score() -> None:
    english = whys(neweden.score(example_game()))
    portuguese = whys(neweden.score(example_game(), lang=PT))
    assert whys(neweden.score(example_game())) == english  # the judges are kept per language
    sarah = portuguese[0]
    assert "5 estilos distintos; é preciso pelo menos 5 (os estilos da partida)" in sarah[0]
    assert "7 cartas na linha mais cheia; é preciso mais de 5" in sarah[1]
    assert "6 conexões abertas; o permitido é no máximo 4" in sarah[2]
    said = " ".join(sarah)
    for word in ("distinct styles", "needed", "open connections", "allowed", "fullest row"):
        assert word not in said
    for why, req_id in zip(sarah, ["A1", "B1", "C1"], strict=True):  # ids untranslated
        assert f" {req_id} " in f" {why} "


def test_every_value_of_a_condition_has_portuguese_words() -> None:
    condition = {
        "or": [
            {">=": [{"count": {"style": ["gothic", "futurist"], "stars": [2, 3]}}, 2]},
            {">": [{"count": {"wild": True}}, {"distinct": "type"}]},
            {"<": [{"row_cards": {"line": 0, "where": {"wild": False}}}, 9]},
            {"==": [{"column_cards": {}}, {"complete_connections": {}}]},
            {"!=": [{"largest_group": {"by": "style", "value": "gothic"}}, 4]},
            {"not": {">=": [{"adjacent": [{"facility": "lab"}, {}]}, 1]}},
            {"and": [True, False]},
        ]
    }
    text = json.dumps(
        {"requirements": {"EX-R": {"deck": "A", "example": True, "condition": condition}}}
    )
    catalog = parse_catalog(text.encode(), "c.json")
    doc = game("populist", player("Ana", line(3)), player("Bia", line(2)), requirements=["EX-R"])
    english = neweden.score(doc, catalog=catalog)["players"][0]["audit"]["requirements"][0]
    portuguese = neweden.score(doc, catalog=catalog, lang=PT)["players"][0]["audit"][
        "requirements"
    ][0]
    assert english["met"] == portuguese["met"]
    assert (
        "(0 gothic or futurist, 2 or 3-star cards; at least 2 needed) or "
        "(0 wild cards; more than 1 distinct types needed)" in english["why"]
    )
    for words in (
        "0 cartas gothic ou futurist, de 2 ou 3 estrelas; é preciso pelo menos 2",
        ") ou (",
        "0 cartas curinga; é preciso mais de 1 tipos distintos",
        "3 cartas comuns na linha 0; o permitido é menos de 9",
        "cartas na coluna mais cheia; é preciso exatamente 2 conexões completas",
        '0 cartas no maior grupo de cartas adjacentes que compartilham o estilo "gothic"; '
        "é preciso qualquer valor exceto 4",
        "não (2 pares adjacentes de cartas lab e quaisquer; é preciso pelo menos 1)",
        "((sempre) e (nunca))",
    ):
        assert words in portuguese["why"]
    for words in ("cards", " or ", "needed", "allowed", "always", "never", "not ("):
        assert words not in portuguese["why"]


# --- sources that cannot be read -------------------------------------------------------------


def entries(paths: list[str], lang: str) -> list[Entry]:
    with speaking(lang):
        return list(iter_entries(paths))


def test_sources_that_cannot_be_read_are_said_in_portuguese(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "big.json").write_bytes(b" " * (1024 * 1024 + 10))
    (tmp_path / "long.jsonl").write_bytes(b" " * (1024 * 1024 + 10) + b"\n{}\n")
    whole = gzip.compress(b"{}\n" * 1000)
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    paths = [
        str(tmp_path / "none.json"),
        str(tmp_path / "pipe.json"),
        str(tmp_path / "pipe.jsonl"),
        str(tmp_path / "big.json"),
        str(tmp_path / "long.jsonl"),
        str(tmp_path / "cut.jsonl.gz"),
    ]
    en = [e for e in entries(paths, "en") if e.problem is not None]
    pt = [e for e in entries(paths, PT) if e.problem is not None]
    assert [(e.path, e.line, e.problem.code) for e in en if e.problem] == [
        (e.path, e.line, e.problem.code) for e in pt if e.problem
    ]
    said = [e.problem.message for e in pt if e.problem]
    assert said[0] == f"{tmp_path / 'none.json'}: arquivo ou pasta inexistente"
    assert said[1] == "não é possível ler: não é um arquivo regular (um FIFO)"
    assert said[2] == "não é possível ler: não é um arquivo regular (um FIFO)"
    assert said[3] == "a partida tem 1.048.586 bytes; o limite é 1.048.576 (1 MiB)"
    assert said[4] == "a linha tem 1.048.587 bytes; o limite é 1.048.576 (1 MiB)"
    assert said[5] == (
        "o arquivo não pode ser lido além daqui: "
        "o arquivo comprimido terminou antes do marcador de fim de fluxo"
    )
    english = [e.problem.message for e in en if e.problem]
    assert english[1] == "cannot read: not a regular file (a FIFO)"
    assert english[5] == (
        "the file cannot be read past here: "
        "Compressed file ended before the end-of-stream marker was reached"
    )


def test_the_reasons_of_the_system_are_said_in_portuguese() -> None:
    gone = FileNotFoundError(2, "No such file or directory", "x.jsonl")
    refused = PermissionError(13, "Permission denied")
    odd = OSError(5, "Something else")
    assert os_error(gone) == str(gone)
    assert os_reason(refused) == "Permission denied"
    with speaking(PT):
        assert os_error(gone) == "[Errno 2] Arquivo ou pasta inexistente: 'x.jsonl'"
        assert os_reason(refused) == "Permissão negada"
        assert os_reason(odd) == "Something else"  # words it does not know stay the system's


def test_a_folder_that_cannot_be_listed_is_said_in_portuguese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "games").mkdir()

    def refused(top: str, onerror: Any = None, **_kw: Any) -> Any:
        onerror(PermissionError(13, "Permission denied", top))
        return iter(())

    monkeypatch.setattr(os, "walk", refused)
    (en,) = entries([str(tmp_path / "games")], "en")
    (pt,) = entries([str(tmp_path / "games")], PT)
    assert en.problem is not None
    assert pt.problem is not None
    assert (en.path, en.problem.code) == (pt.path, pt.problem.code)
    assert en.problem.message == "cannot read the folder: Permission denied"
    assert pt.problem.message == "não é possível ler a pasta: Permissão negada"


# --- small words ------------------------------------------------------------------------------


def test_the_small_words_are_said_in_portuguese() -> None:
    assert a_game("elitist") == "an elitist game"
    assert did_you_mean("gothc", ["gothic"]) == ' (did you mean "gothic"?)'
    with speaking(PT):
        assert [a_game(m) for m in ("populist", "military", "elitist")] == [
            "uma partida populista",
            "uma partida militar",
            "uma partida elitista",
        ]
        assert a_game("other") == "uma partida other"
        assert did_you_mean("gothc", ["gothic"]) == ' (você quis dizer "gothic"?)'
        assert BUILTIN.requirements["A1"].text  # the printed texts are data, not messages


def test_a_typo_is_compared_once_and_a_huge_one_is_not_kept() -> None:
    """did_you_mean keeps the closest name of a typo (a batch repeats its typos), but not of
    a word longer than a name or among thousands of candidates: a megabyte-long unknown key
    in each of a thousand requests would otherwise be held (issue 38's review)."""
    from neweden.format import problems

    problems._closest.cache_clear()
    assert did_you_mean("gothc", ["gothic", "plaza"]) == ' (did you mean "gothic"?)'
    assert did_you_mean("gothc", ["gothic", "plaza"]) == ' (did you mean "gothic"?)'
    assert problems._closest.cache_info().hits == 1
    huge = "gothic" + "x" * 1_000_000
    assert did_you_mean(huge, ["gothic"]) == ""
    many = [f"EX-{k}" for k in range(5000)]
    assert did_you_mean("EX-4999x", many) == ' (did you mean "EX-4999"?)'
    assert problems._closest.cache_info().currsize == 1  # neither of those kept
