"""The command line as a terminal and a pipe show it (issue 21): `neweden score` gives a table
on a terminal and JSON when piped, `--format` always wins; JSON syntax errors by line and
column; `FILE:LINE` of JSON Lines; the card's cell in decode messages; `"$schema"` accepted.
Every message in English and in Portuguese."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import neweden
from neweden.cli.main import example_game, main
from neweden.format.schema import game_schema

PT = ["--lang", "pt-BR"]


def on_terminal(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """`neweden ARGS` with its standard output on a pseudo-terminal: the exit status and
    what the terminal shows."""
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "neweden", *args],
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    os.close(slave)
    shown = b""
    while True:
        ready, _w, _x = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            piece = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not piece:
            break
        shown += piece
    os.close(master)
    return child.wait(60), shown.decode().replace("\r\n", "\n")


def piped(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neweden", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )


# --- score: a table on a terminal, JSON when piped --------------------------------------------


def test_score_on_a_terminal_shows_the_table() -> None:
    code, shown = on_terminal("score", "--example")
    assert code == 0
    assert shown.startswith("New Eden Project, elitist game: valid")
    assert "Sarah" in shown
    assert '"format"' not in shown


def test_score_piped_gives_the_json_report() -> None:
    done = piped("score", "--example")
    assert done.returncode == 0
    assert json.loads(done.stdout)["players"][0]["score"]["total"] == 78


def test_format_given_always_wins() -> None:
    code, shown = on_terminal("score", "--example", "--format", "json")
    assert code == 0
    assert json.loads(shown)["valid"] is True
    done = piped("score", "--example", "--format", "text")
    assert done.stdout.startswith("New Eden Project, elitist game: valid")


def test_score_help_says_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "the default on a terminal" in out
    assert "the default when piped" in out
    with pytest.raises(SystemExit):
        main(["score", "--help", *PT])
    out = " ".join(capsys.readouterr().out.split())
    assert "o padrão no terminal" in out
    assert "the default on a terminal" not in out


# --- JSON syntax errors: line and column ---------------------------------------------------------

BROKEN = b'{\n  "mode": "elitist",\n  "players": [1,\n    2,]\n}\n'


def test_a_json_syntax_error_says_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(BROKEN)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "trailing comma in array (line 4, column 7)" in err
    assert "byte" not in err
    assert main(["score", str(path), *PT]) == 2
    err = capsys.readouterr().err
    assert "vírgula sobrando no fim do array (linha 4, coluna 7)" in err
    assert "line 4" not in err
    assert "/: bad_json:" in err


def test_the_column_counts_characters_not_bytes() -> None:
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.score('{"mode": "élitist", "players": [,]}'.encode())
    assert "(line 1, column 33)" in info.value.problems[0].message


# --- FILE:LINE of JSON Lines ------------------------------------------------------------------


def jsonl(tmp_path: Path) -> Path:
    """Games on lines 1 and 3 (line 2 blank)."""
    one = json.dumps(json.loads(example_game()))
    path = tmp_path / "round3.jsonl"
    path.write_text(f"{one}\n\n{one}\n")
    return path


def test_file_colon_line_scores_that_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path)
    assert main(["score", f"{path}:3", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["score"]["total"] == 78


@pytest.mark.parametrize(
    ("line", "english", "portuguese"),
    [
        ("13", "there is no game at line 13: the last game is on line 3", "não há partida"),
        ("2", "line 2 is blank: no game there", "está em branco"),
        ("0", "lines count from 1", "as linhas contam a partir de 1"),
        # once a ValueError (Python converts no integer of more than 4,300 digits)
        ("7" * 5000, "no file has that many lines", "nenhum arquivo tem tantas linhas"),
    ],
    ids=["past-the-end", "blank", "zero", "5000-digits"],
)
def test_file_colon_line_says_why_there_is_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, english: str, portuguese: str
) -> None:
    path = jsonl(tmp_path)
    assert main(["score", f"{path}:{line}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert english in captured.err
    assert "cannot read" not in captured.err
    assert main(["score", f"{path}:{line}", *PT]) == 2
    err = capsys.readouterr().err
    assert portuguese in err
    assert english not in err


def test_a_jsonl_file_of_many_games_says_validate_or_file_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = jsonl(tmp_path)
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "trailing characters" not in err
    assert f"score one with {path}:LINE (e.g. {path}:1)" in err
    assert f"`neweden validate {path}`" in err
    assert main(["score", str(path), *PT]) == 2
    err = capsys.readouterr().err
    assert "pontue uma com" in err
    assert "score one with" not in err


def test_a_jsonl_file_of_one_game_is_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(json.loads(example_game())) + "\n")
    assert main(["score", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


def test_games_one_after_another_in_a_json_file_get_the_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.json"
    path.write_text(jsonl(tmp_path).read_text())
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "trailing characters" in err
    assert f"give one line as {path}:LINE" in err
    assert main(["score", str(path), *PT]) == 2
    err = capsys.readouterr().err
    assert f"indique uma linha como {path}:LINHA" in err
    assert "give one line" not in err
    assert main(["score", f"{path}:3", "--format", "json"]) == 0


# --- the card's cell in decode messages ----------------------------------------------------------


def bad_card() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(example_game())
    doc["players"][0]["city"][1]["card"]["stars"] = 9
    return doc


def test_a_problem_inside_a_city_entry_names_the_card_cell() -> None:
    doc = bad_card()
    entry = doc["players"][0]["city"][1]
    cell = f"(card at row {entry['row']}, column {entry['col']})"
    for lang, words in (("en", cell), ("pt-BR", f"(carta na linha {entry['row']}, coluna")):
        with pytest.raises(neweden.GameDecodeError) as info:
            neweden.score(doc, lang=lang)
        (problem,) = info.value.problems
        assert problem.path == "/players/0/city/1/card/stars"  # a JSON Pointer still
        assert words in problem.message
        if lang != "en":
            assert "card at row" not in problem.message


def test_a_problem_outside_a_city_names_no_cell() -> None:
    doc = bad_card()
    doc["players"][0]["city"][1]["card"]["stars"] = 1
    doc["mode"] = "democracy"
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.score(doc)
    assert "row" not in info.value.problems[0].message


# --- "$schema" ------------------------------------------------------------------------------


def test_a_schema_key_is_accepted_and_ignored(tmp_path: Path) -> None:
    doc = {"$schema": "./game.schema.json", **json.loads(example_game())}
    assert neweden.score(doc) == neweden.score(example_game())
    jsonschema.validate(doc, game_schema())
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    assert piped("score", str(path)).returncode == 0


def test_a_schema_key_is_accepted_in_a_lone_city_too() -> None:
    from neweden.format.decode import decode_city
    from neweden.format.schema import city_schema

    city = {
        "$schema": "./city.schema.json",
        "city": json.loads(example_game())["players"][0]["city"],
    }
    assert len(decode_city(json.dumps(city)).city) == len(city["city"])
    jsonschema.validate(city, city_schema())


def test_an_unknown_field_message_does_not_list_schema() -> None:
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.score({"$schema": "x", "mode": "elitist", "players": [], "colour": 1})
    messages = " ".join(p.message for p in info.value.problems)
    assert "`colour` is not a field of a game" in messages
    assert "$schema" not in messages
