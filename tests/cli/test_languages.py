"""Brazilian Portuguese where people read: the command line (`--lang`, the environment's
language, argparse's own words), the batch runner's lines and summary, the text table, the
picture, and the HTTP service (`?lang=`, `Accept-Language`, `Content-Language`). Codes,
keys, paths and identifiers are the same in every language."""

from __future__ import annotations

import csv as csv_module
import http.client
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.cli.main import example_game, main
from neweden.i18n import speaking
from neweden.present.render import render
from neweden.present.text import WIDTH, report_table
from neweden.runners.summary import summary_line
from tests.games import card, game, line, player
from tests.present.test_text_table import messy_game
from tests.servers import running_server

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
SVG = "{http://www.w3.org/2000/svg}"
PT_HEADINGS = "# jogador válido cartas abert estr cumpr popul milit epif 10+ bônus total"
EN_HEADINGS = "# player legal cards open stars met   popul milit epiph 10+ bonus total"


def _environment(**chosen: str) -> dict[str, str]:
    """This process's environment without any language variable, then `chosen` (nothing
    added: the installed package is what runs)."""
    names = ("NEWEDEN_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
    return {k: v for k, v in os.environ.items() if k not in names} | chosen


def _neweden(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neweden", *args],
        env=_environment(**env),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def invalid_game() -> dict[str, Any]:
    """A game with errors of the game and of a player, and a warning."""
    return game(
        "elitist",
        player("Ana", [*line(3), card(0, 0, "r")]),  # a card on a taken cell
        player("Bo", line(2)),
        requirements=["A1", "B1", "C1"],
        first_player="Nobody",
    )


# --- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("where", ["after", "before"])
def test_score_text_in_portuguese_with_lang(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", "--example", "--format", "text"]
    args = [*args, "--lang", "pt-BR"] if where == "after" else ["--lang", "pt-BR", *args]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New Eden Project, partida elitista: válida (catálogo builtin)"
    assert lines[1] == PT_HEADINGS
    assert lines[2].split()[:3] == ["1", "Sarah", "sim"]
    assert any(line.startswith("aviso: /: default_majority_table: ") for line in lines)
    assert not any(line.startswith("warning") for line in lines)


def test_score_text_in_english_is_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--example", "--format", "text", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "New Eden Project, elitist game: valid (catalog builtin)"
    assert lines[1] == EN_HEADINGS
    assert lines[2].split()[:3] == ["1", "Sarah", "yes"]


def test_the_language_of_the_environment() -> None:
    done = _neweden("score", "--example", "--format", "text", LANG="pt_BR.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == PT_HEADINGS


@pytest.mark.parametrize(
    ("env", "headings"),
    [
        ({"LC_ALL": "pt_BR.UTF-8", "NEWEDEN_LANG": "en"}, EN_HEADINGS),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "en_US.UTF-8", "NEWEDEN_LANG": "pt-BR"}, PT_HEADINGS),
        ({"LC_ALL": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, PT_HEADINGS),  # LC_ALL before LANG
    ],
)
def test_neweden_lang_overrides_the_locale(env: dict[str, str], headings: str) -> None:
    done = _neweden("score", "--example", "--format", "text", **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == headings


def test_lang_overrides_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NEWEDEN_LANG", "pt-BR")
    assert main(["score", "--example", "--format", "text", "--lang=en"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == EN_HEADINGS


HELP_COMMANDS = [
    [],
    ["score"],
    ["validate"],
    ["render"],
    ["serve"],
    ["schema"],
    ["catalog"],
    ["catalog", "check"],
]


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "neweden")
def test_help_of_every_command_in_portuguese(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help", "--lang", "pt-BR"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("uso: neweden")
    assert "\nopções:\n" in text
    assert "mostra esta mensagem de ajuda e sai" in text
    assert "--lang LANG" in text
    for english in ("usage:", "options:", "positional arguments", "show this help", " the "):
        assert english not in text


def test_help_words_of_our_own(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "pt-BR", "score", "--help"])
    text = " ".join(capsys.readouterr().out.split())  # as one line, whatever the wrapping
    assert "argumentos posicionais: FILE uma partida em JSON" in text
    assert "pontua o exemplo embutido: o exemplo de pontuação final do manual" in text
    assert "o idioma das mensagens, tabelas e imagens: en, pt-BR" in text
    with pytest.raises(SystemExit):
        main(["--lang", "pt-BR", "--help"])
    assert "mostra a versão do programa e sai" in capsys.readouterr().out


def test_english_help_keeps_argparse_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help", "--lang", "en"])
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith("usage: neweden score")
    assert "show this help message and exit" in text
    assert "score the built-in example: the manual's final-scoring example" in text


@pytest.mark.parametrize(
    ("args", "portuguese", "english"),
    [
        (
            ["score", "--format", "x"],
            "neweden score: erro: argumento --format: escolha inválida: 'x' (escolha entre "
            "'json', 'text')",
            "invalid choice",
        ),
        ([], "neweden: erro: os seguintes argumentos são obrigatórios: COMMAND", "required"),
        (["score", "--bogus"], "neweden: erro: argumentos não reconhecidos: --bogus", "unrec"),
        (
            ["validate", "x", "--jobs", "many"],
            "argumento --jobs: valor int inválido: 'many'",
            "invalid",
        ),
        (["score", "--catalog"], "argumento --catalog: esperava um argumento", "expected"),
    ],
)
def test_argparse_errors_in_portuguese(
    args: list[str], portuguese: str, english: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "pt-BR", *args])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: neweden")
    assert portuguese in err
    assert english not in err.replace("--only-invalid", "")


@pytest.mark.parametrize("args", [["--lang", "xx", "score"], ["score", "--example", "--lang=fr"]])
def test_an_unknown_language_is_exit_2_naming_the_languages(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "unknown language" in captured.err
    assert "neweden speaks en, pt-BR" in captured.err


def test_cli_messages_in_portuguese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--lang", "pt-BR"]) == 2
    assert capsys.readouterr().err == (
        "neweden: score precisa de FILE (ou - para a entrada padrão) ou --example\n"
    )
    assert main(["score", "x.json", "--example", "--lang", "pt-BR"]) == 2
    assert capsys.readouterr().err == "neweden: dê FILE ou --example, não os dois\n"
    assert main(["score", str(tmp_path / "none.json"), "--lang", "pt-BR"]) == 2
    assert "neweden: não foi possível ler " in capsys.readouterr().err
    assert main(["validate", str(tmp_path), "--jobs", "0", "--lang", "pt-BR"]) == 2
    assert capsys.readouterr().err == "neweden: --jobs é no mínimo 1\n"
    path = tmp_path / "g.json"
    path.write_bytes(example_game())
    assert main(["render", str(path), "--player", "Zé", "--lang", "pt-BR"]) == 2
    assert 'nenhum jogador se chama "Zé" (os jogadores: Sarah, Bruno, Carla)' in (
        capsys.readouterr().err
    )
    assert main(["render", str(path), "--overlay", "x", "--lang", "pt-BR"]) == 2
    assert "camada desconhecida x; conhecidas: " in capsys.readouterr().err


def test_too_large_in_portuguese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2_000_000)
    assert main(["score", str(path), "--lang", "pt-BR"]) == 2
    err = capsys.readouterr().err
    assert "too_large" in err
    assert "a partida tem 2.000.000 bytes; o limite é 1.048.576 (1 MiB)" in err


# --- the batch runner ----------------------------------------------------------------------


def test_the_summary_writes_numbers_as_the_language_does() -> None:
    codes = Counter({"overlap": 1500, "disconnected": 3})
    english = summary_line(1234, 1000, codes, 2.5, False)
    assert english == (
        "1234 games: 1000 valid, 234 invalid, in 2.5 s (494 games/s); "
        "most frequent errors: overlap 1500, disconnected 3"
    )
    with speaking("pt-BR"):
        portuguese = summary_line(1234, 1000, codes, 2.5, False)
        interrupted = summary_line(1, 1, Counter(), 0.0, True)
    assert portuguese == (
        "1.234 partidas: válidas 1.000, inválidas 234, em 2,5 s (494 partidas/s); "
        "erros mais frequentes: overlap 1.500, disconnected 3"
    )
    assert interrupted == (
        "interrompido após 1 partida: válidas 1, inválidas 0, em 0,0 s (0 partidas/s); "
        "erros mais frequentes: nenhum"
    )


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a-good.json").write_bytes(example_game())
    (folder / "b-bad.json").write_text(json.dumps(invalid_game()))
    (folder / "c-broken.json").write_text("{")
    return folder


def test_validate_lines_and_summary_in_portuguese(
    batch: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {}
    for lang in ("en", "pt-BR"):
        out, csv = tmp_path / f"{lang}.jsonl", tmp_path / f"{lang}.csv"
        args = ["validate", str(batch), "--jobs", "1", "--lang", lang]
        assert main([*args, "--out", str(out), "--csv", str(csv)]) == 1
        outputs[lang] = (capsys.readouterr().out.splitlines(), out, csv)
    lines, out, csv = outputs["pt-BR"]
    assert lines[0].endswith("a-good.json: válida  Sarah 78 · Bruno 34 · Carla 43")
    assert ": INVÁLIDA overlap em /players/0/city/3" in lines[1]
    assert lines[2].endswith("c-broken.json: ILEGÍVEL bad_json em /")
    assert lines[3].startswith("3 partidas: válidas 1, inválidas 2, em ")
    english_lines, english_out, english_csv = outputs["en"]
    assert english_lines[2].endswith("c-broken.json: UNREADABLE bad_json at /")
    assert english_lines[3].startswith("3 games: 1 valid, 2 invalid, in ")
    # the files for programs: the CSV's cells the same (in Portuguese `;` between them and a
    # byte-order mark, for a Brazilian spreadsheet: issue 41), the reports' codes and paths
    portuguese = csv.read_bytes()
    assert portuguese.startswith(b"\xef\xbb\xbf")
    semi = list(csv_module.reader(portuguese.decode("utf-8-sig").splitlines(), delimiter=";"))
    assert semi == list(csv_module.reader(english_csv.read_text().splitlines()))

    def codes(path: Path) -> list[Any]:
        reports = [json.loads(line) for line in path.read_text().splitlines()]
        return [[(e["code"], e["path"]) for e in r["errors"]] for r in reports]

    assert codes(out) == codes(english_out)


def test_validate_notes_in_portuguese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["validate", str(tmp_path / "empty"), "--lang", "pt-BR"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("neweden: nada a verificar: nenhuma partida encontrada (numa pasta")
    game_file = tmp_path / "g.json"
    game_file.write_bytes(example_game())
    assert main(["validate", str(game_file), "--out", str(game_file), "--lang", "pt-BR"]) == 2
    assert "é ao mesmo tempo uma entrada e a saída de --out" in capsys.readouterr().err
    assert main(["validate", str(tmp_path / "nowhere"), "--lang", "pt-BR"]) == 2
    said = capsys.readouterr()
    assert said.out == ""  # a PATH that is not there is no game: not counted
    assert f"neweden: {tmp_path / 'nowhere'}: arquivo ou pasta inexistente\n" in said.err


# --- the text table ------------------------------------------------------------------------


def test_table_labels_in_portuguese_and_80_columns() -> None:
    report = neweden.score(invalid_game(), lang="pt-BR")
    with speaking("pt-BR"):
        text = report_table(report)
    english = report_table(neweden.score(invalid_game()))
    lines = text.splitlines()
    assert lines[0] == "New Eden Project, partida elitista: NÃO válida (catálogo builtin)"
    assert lines[1] == PT_HEADINGS
    assert "NÃO" in lines[2] + lines[3]
    assert any(line.startswith("erro: /players/0/city/3: overlap: ") for line in lines)
    assert any(line.startswith("aviso: ") for line in lines)
    assert not any(line.startswith(("error:", "warning:")) for line in lines)
    assert all(len(line) <= WIDTH for line in lines)
    with speaking("pt-BR"):
        messy = report_table(neweden.score(messy_game(), lang="pt-BR"))
    assert all(len(row) <= WIDTH for row in messy.splitlines())
    for row in english.splitlines():  # the codes, the same
        if row.startswith("error: "):
            assert "erro: " + row.split(": ", 1)[1].split(": ")[0] in text


# --- the picture ---------------------------------------------------------------------------


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def _data(svg: str) -> list[tuple[str, str]]:
    root = ET.fromstring(svg)
    return [
        (k, v) for e in root.iter() for k, v in sorted(e.attrib.items()) if k.startswith("data-")
    ]


def test_the_picture_in_portuguese() -> None:
    with speaking("pt-BR"):
        svg = render(example_game())
    english = render(example_game())
    root = ET.fromstring(svg)
    assert root.get(XML_LANG) == "pt-BR"
    assert root.get("lang") == "pt-BR"
    assert ET.fromstring(english).get(XML_LANG) is None  # English: as it was
    assert root.findtext(f"{SVG}title") == "New Eden Project, partida elitista"
    texts = _texts(svg)
    for words in (
        "Legenda",
        "carta curinga",
        "conexão completa",
        "conexão aberta",
        "Centro Médico",
        "Abrigo Habitacional",
        "Torre de Comunicação",
        "Base Militar",
        "Laboratório de Pesquisa",
        "Gótico",
        "Sustentável",
        "Construção",
    ):
        assert words in texts, words
    for words in ("Legend", "wild card", "medical", "shelter", "gothic", "building"):
        assert words not in texts
    assert texts[0] == ("Sarah: 78 pontos, colocação 1 (válido, cartas: 10, conexões abertas: 6)")
    assert _data(svg) == _data(english)  # identifiers and cells stay
    squeezed = [t for t in root.iter(f"{SVG}text") if t.text == "Laboratório de Pesquisa"]
    assert squeezed
    assert all(t.get("textLength") == "84" and t.get("font-size") == "9" for t in squeezed)
    assert not any(t.get("textLength") for t in ET.fromstring(english).iter(f"{SVG}text"))


# --- HTTP ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({"NEWEDEN_LANG": "pt-BR"}, log) as (port, _pid):  # not the server's
        yield port


def call(
    port: int,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    method: str = "POST",
) -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(
        method, path, body=body, headers={"content-type": "application/json", **(headers or {})}
    )
    response = conn.getresponse()
    raw = response.read()
    said = {k.lower(): v for k, v in response.getheaders()}
    conn.close()
    kind = said.get("content-type", "")
    return response.status, said, json.loads(raw) if "json" in kind else raw.decode()


BAD = json.dumps(invalid_game()).encode()


def _problems(report: dict[str, Any]) -> list[tuple[str, str]]:
    found = [(e["code"], e["path"]) for e in report["errors"] + report["warnings"]]
    for p in report["players"]:
        found += [(e["code"], e["path"]) for e in p["errors"] + p["warnings"]]
    return found


def _messages(report: dict[str, Any]) -> list[str]:
    found = [e["message"] for e in report["errors"] + report["warnings"]]
    for p in report["players"]:
        found += [e["message"] for e in p["errors"] + p["warnings"]]
    return found


def test_score_in_the_language_of_accept_language(server: int) -> None:
    status, said, report = call(server, "/v1/score", BAD, {"accept-language": "pt-BR"})
    assert status == 200
    assert said["content-language"] == "pt-BR"
    assert "accept-language" in said["vary"].lower()
    _status, english_said, english = call(server, "/v1/score", BAD)
    assert english_said["content-language"] == "en"  # no header: English, not the server's
    assert _problems(report) == _problems(english)
    assert report["players"][0]["score"] == english["players"][0]["score"]
    assert _messages(report) == _messages(neweden.score(BAD, detail=False, lang="pt-BR"))
    assert _messages(english) == _messages(neweden.score(BAD, detail=False, lang="en"))


def test_batch_and_validate_carry_the_language_into_the_work_threads(server: int) -> None:
    body = json.dumps({"games": [invalid_game(), "{"]}).encode()
    status, said, answer = call(server, "/v1/score/batch", body, {"accept-language": "pt-BR"})
    assert status == 200
    assert said["content-language"] == "pt-BR"
    expected = list(neweden.score_many([BAD, b'"{"'], jobs=1, lang="pt-BR"))
    assert _messages(answer["results"][0]) == _messages(expected[0])
    assert [e["message"] for e in answer["results"][1]["errors"]] == [
        e["message"] for e in expected[1]["errors"]
    ]
    status, said, answer = call(server, "/v1/validate?lang=pt-BR", BAD)
    assert (status, said["content-language"]) == (200, "pt-BR")
    assert _messages(answer) == _messages(neweden.validate(BAD, lang="pt-BR"))


def test_the_picture_over_http_is_in_the_language_asked(server: int) -> None:
    status, said, svg = call(server, "/v1/render", example_game(), {"accept-language": "pt-BR"})
    assert status == 200
    assert said["content-language"] == "pt-BR"
    assert ET.fromstring(svg).get(XML_LANG) == "pt-BR"
    assert "Centro Médico" in _texts(svg)
    status, said, svg = call(server, "/v1/render?lang=en", example_game())
    assert said["content-language"] == "en"
    assert "medical" in _texts(svg)


@pytest.mark.parametrize(
    ("path", "header", "lang"),
    [
        ("/v1/score?lang=en", "pt-BR", "en"),  # ?lang= wins over the header
        ("/v1/score?lang=pt-BR", "en", "pt-BR"),
        ("/v1/score?lang=pt_BR", None, "pt-BR"),
        ("/v1/score", "en;q=0.5, pt-BR;q=0.9", "pt-BR"),  # q-values weigh
        ("/v1/score", "pt-BR;q=0, en", "en"),  # q=0 refuses
        ("/v1/score", "fr-CA, de;q=0.9, pt;q=0.1", "pt-BR"),  # the only one spoken
        ("/v1/score", "fr, de", "en"),  # none spoken: English
        ("/v1/score", "*", "en"),
    ],
)
def test_which_language_a_request_gets(
    server: int, path: str, header: str | None, lang: str
) -> None:
    headers = {"accept-language": header} if header else {}
    status, said, _report = call(server, path, b"{", headers)
    assert status == 400
    assert said["content-language"] == lang
    portuguese = {"title": "Requisição inválida", "detail": "o corpo não é JSON"}
    english = {"title": "Bad Request", "detail": "the body is not JSON"}
    assert {k: _report[k] for k in ("title", "detail")} == (
        portuguese if lang == "pt-BR" else english
    )
    assert [e["code"] for e in _report["errors"]] == ["bad_json"]


def test_an_unknown_lang_is_a_400_naming_the_languages(server: int) -> None:
    status, said, problem = call(server, "/v1/score?lang=xx", BAD, {"accept-language": "pt-BR"})
    assert status == 400
    assert said["content-type"] == "application/problem+json"
    assert said["content-language"] == "pt-BR"
    assert problem["title"] == "Requisição inválida"
    assert problem["detail"] == 'idioma desconhecido "xx" em ?lang=; o neweden fala en, pt-BR'
    status, said, problem = call(server, "/v1/score?lang=", BAD)
    assert (status, said["content-language"]) == (400, "en")
    assert problem["detail"] == 'unknown language "" in ?lang=; neweden speaks en, pt-BR'


def test_problem_answers_in_portuguese(server: int) -> None:
    pt = {"accept-language": "pt-BR"}
    status, said, problem = call(server, "/v1/nowhere", None, pt, method="GET")
    assert (status, problem["title"]) == (404, "Não encontrado")
    assert problem["detail"] == "GET /v1/nowhere: Não encontrado"
    status, said, problem = call(server, "/v1/score", None, pt, method="GET")
    assert (status, problem["title"]) == (405, "Método não permitido")
    status, said, problem = call(server, "/v1/score", b"{}", pt | {"content-type": "text/csv"})
    assert (status, problem["title"]) == (415, "Tipo de mídia não suportado")
    assert problem["detail"] == "o corpo deve ser application/json, não text/csv"
    status, said, problem = call(server, "/v1/score", b"{}", pt)
    assert (status, problem["title"]) == (422, "Conteúdo não processável")
    assert problem["detail"].startswith("o corpo é JSON mas não é uma partida: ")
    big = b"[" + b"0," * 600_000 + b"0]"
    status, said, problem = call(server, "/v1/score", big, pt)
    assert (status, problem["title"]) == (413, "Conteúdo grande demais")
    assert problem["detail"] == f"o corpo tem {len(big):_} bytes; o limite é 1.048.576".replace(
        "_", "."
    )
    many = json.dumps({"games": [{}] * 1001}).encode()
    status, said, problem = call(server, "/v1/score/batch", many, pt)
    assert (status, problem["detail"]) == (413, "o lote tem 1.001 partidas; o limite é 1.000")
    assert said["content-language"] == "pt-BR"


def test_every_answer_says_its_language(server: int) -> None:
    status, said, _ = call(server, "/healthz", None, {"accept-language": "pt-BR"}, method="GET")
    assert (status, said["content-language"]) == (200, "pt-BR")
    assert "accept-language" in said["vary"].lower()
    status, said, _ = call(server, "/openapi.json", None, {"accept-language": "pt-BR"}, "GET")
    assert (status, said["content-language"]) == (200, "en")  # the API's description


def test_the_api_document_names_the_language_parameters(server: int) -> None:
    status, _said, document = call(server, "/openapi.json", None, method="GET")
    assert status == 200
    for path in ("/v1/score", "/v1/validate", "/v1/score/batch", "/v1/render"):
        names = {(p["in"], p["name"]) for p in document["paths"][path]["post"]["parameters"]}
        assert {("query", "lang"), ("header", "Accept-Language")} <= names, path


def test_dask_workers_speak_the_callers_language(batch: Path, tmp_path: Path) -> None:
    """Dask runs tasks on threads and processes of its own, which get no context variables:
    the language is carried in the task (an in-process cluster: threads, as the test needs)."""
    distributed = pytest.importorskip("distributed", reason="the dask extra")
    from neweden.runners.batch import validate

    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    )
    try:
        out, stdout, stderr = tmp_path / "out.jsonl", io.StringIO(), io.StringIO()
        paths = [str(batch), str(tmp_path / "missing.json")]
        with speaking("pt-BR"):
            code = validate(
                paths,
                out=str(out),
                scheduler=cluster.scheduler_address,
                stdout=stdout,
                stderr=stderr,
            )
    finally:
        cluster.close()
    assert code == 1
    lines = stdout.getvalue().splitlines()
    assert lines[0].endswith("a-good.json: válida  Sarah 78 · Bruno 34 · Carla 43")
    assert ": INVÁLIDA overlap em /players/0/city/3" in lines[1]
    assert lines[3].startswith("3 partidas: válidas 1, inválidas 2, em ")
    assert stderr.getvalue().endswith("missing.json: arquivo ou pasta inexistente\n")
