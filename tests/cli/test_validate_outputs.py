"""`neweden validate` as a terminal and a pipe show it, its pictures, index and CSV;
`neweden completion`; `neweden.score` of a decoded Game. Each message in both languages."""

from __future__ import annotations

import csv as csv_module
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import neweden
from neweden.cli.main import example_game, main
from neweden.present.render import render
from neweden.present.svg import STYLE_COLOURS, style_colour
from tests.cli.test_terminal import on_terminal, piped

PT = ["--lang", "pt-BR"]


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A valid game, an invalid one with `meta` (table, photo), an unreadable one."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a-good.json").write_bytes(example_game())
    doc = json.loads(example_game())
    doc["meta"] = {"table": "T3", "photo": "IMG_0042.jpg"}
    city = doc["players"][0]["city"]
    city[3]["row"], city[3]["col"] = city[2]["row"], city[2]["col"]
    (folder / "b-overlap.json").write_text(json.dumps(doc))
    (folder / "c-broken.json").write_text('{"mode": [1,]}')
    return folder


def test_only_invalid_lists_only_invalid_and_unreadable(
    games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(games), "--only-invalid", "--jobs", "1"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[1].split()[0] for line in lines[:-1]] == ["INVALID", "UNREADABLE"]
    assert lines[-1].startswith("3 games: 1 valid, 2 invalid")


def test_verdicts_in_colour_on_a_terminal_only(games: Path) -> None:
    env = {"NO_COLOR": "", "FORCE_COLOR": "", "TERM": "xterm"}
    _code, shown = on_terminal("validate", str(games), "--jobs", "1", env=env)
    assert "\x1b[1;32mvalid\x1b[0m" in shown
    assert "\x1b[1;31mINVALID\x1b[0m" in shown
    assert "\x1b[1;35mUNREADABLE\x1b[0m" in shown
    _code, plain = on_terminal("validate", str(games), "--jobs", "1", env={"NO_COLOR": "1"})
    assert "\x1b[" not in plain
    assert "\x1b[" not in piped("validate", str(games), "--jobs", "1", env=env).stdout
    forced = piped("validate", str(games), "--jobs", "1", env={**env, "FORCE_COLOR": "1"})
    assert "\x1b[1;31mINVALID\x1b[0m" in forced.stdout
    _code, pt = on_terminal("validate", str(games), "--jobs", "1", *PT, env=env)
    assert "\x1b[1;31mINVÁLIDA\x1b[0m" in pt


def test_an_empty_folder_is_a_clear_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path)]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert "nothing to check: no game found (a folder is searched for *.json" in said.err
    assert main(["validate", str(tmp_path), *PT]) == 2
    err = capsys.readouterr().err
    assert "numa pasta se procuram arquivos" in err
    assert "a folder is searched" not in err


def test_a_wrong_path_is_not_found_and_not_counted(
    games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = str(games / "nope.json")
    assert main(["validate", wrong]) == 2
    said = capsys.readouterr()
    assert f"neweden: {wrong}: no such file or folder" in said.err
    assert "1 games" not in said.out
    good = str(games / "a-good.json")
    assert main(["validate", good, wrong]) == 1  # the rest is read; never "all valid"
    said = capsys.readouterr()
    assert said.out.splitlines()[-1].startswith("1 games: 1 valid, 0 invalid")
    assert main(["validate", good, wrong, *PT]) == 1
    assert f"neweden: {wrong}: arquivo ou pasta inexistente" in capsys.readouterr().err


def test_svg_reports_unreadable_games_and_writes_an_index(
    games: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pictures = tmp_path / "pictures"
    assert main(["validate", str(games), "--svg", str(pictures), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    broken = f"{games}/c-broken.json"
    assert f"neweden: no picture of {broken}: it is not a readable game (bad_json: " in err
    (svg,) = pictures.glob("*.svg")
    index = (pictures / "index.html").read_text()
    assert f'href="{svg.name}"' in index
    assert f"{games}/b-overlap.json" in index
    assert "INVALID" in index
    assert "UNREADABLE" in index
    assert f"<code>{games}/c-broken.json</code>" in index  # every game, the unreadable too
    assert 'data-verdict="valid"' in index  # and the valid ones
    picture = svg.read_text()
    assert f"source: {games}/b-overlap.json" in picture
    assert "meta.table: T3" in picture
    assert "meta.photo: IMG_0042.jpg" in picture
    assert "overlap at /players/0/city/3: " in picture  # the message, not only the code
    assert main(["validate", str(games), "--svg", str(pictures), "--jobs", "1", *PT]) == 1
    err = capsys.readouterr().err
    assert "sem imagem de" in err
    assert "no picture of" not in err
    index = (pictures / "index.html").read_text()
    assert "Resultados do lote" in index
    assert "ILEGÍVEL" in index
    assert "<th>problema</th>" in index
    picture = next(pictures.glob("*.svg")).read_text()
    assert "origem: " in picture
    assert "Problemas" in picture


def test_csv_has_meta_columns_and_a_separator(games: Path, tmp_path: Path) -> None:
    table = tmp_path / "players.csv"
    assert main(["validate", str(games), "--csv", str(table), "--quiet", "--jobs", "1"]) == 1
    header, *rows = table.read_text().splitlines()
    assert header.endswith(
        ",error_codes,warning_codes,mode,requirements_checked,requirements_declared,"
        "meta.source,meta.note,meta.table,meta.photo"
    )
    assert next(r for r in rows if "b-overlap" in r).endswith(",T3,IMG_0042.jpg")
    semi = tmp_path / "semi.csv"
    args = ["validate", str(games), "--csv", str(semi), "--csv-sep", ";", "--quiet"]
    assert main([*args, "--jobs", "1"]) == 1
    header, *rows = semi.read_text().splitlines()
    assert header.startswith("source_path;source_line;game_valid;player;")
    assert '"A1;B1"' in rows[0]  # a cell holding the separator is quoted


def test_a_portuguese_run_writes_a_csv_for_a_brazilian_spreadsheet(
    games: Path, tmp_path: Path
) -> None:
    """(Issue 41.) In Portuguese the CSV has `;` between cells and a UTF-8 byte-order mark
    (Excel reads the accents), read back by pandas with names and numbers intact; the options
    win over the language; in English nothing changes (`,`, no mark)."""
    pandas = pytest.importorskip("pandas", reason="pandas (the dask extra)")
    accented = json.loads(example_game())
    accented["players"][0]["name"] = "Úrsula Quésia"
    (games / "z-accents.json").write_text(json.dumps(accented), encoding="utf-8")
    brazil = tmp_path / "jogadores.csv"
    assert main(["validate", str(games), "--csv", str(brazil), "--quiet", "--jobs", "1", *PT]) == 1
    data = brazil.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfsource_path;source_line;game_valid;player;")
    table = pandas.read_csv(brazil, sep=";", encoding="utf-8-sig")
    ursula = table[table["player"] == "Úrsula Quésia"]
    assert list(ursula["total"]) == [78]
    assert list(ursula["place"]) == [1]
    english = tmp_path / "players.csv"
    assert main(["validate", str(games), "--csv", str(english), "--quiet", "--jobs", "1"]) == 1
    assert english.read_bytes().startswith(b"source_path,source_line,")
    both = tmp_path / "both.csv"
    args = ["--csv", str(both), "--csv-sep", ",", "--no-csv-bom", "--quiet", "--jobs", "1"]
    assert main(["validate", str(games), *args, *PT]) == 1
    assert both.read_bytes() == english.read_bytes()
    bom = tmp_path / "bom.csv"
    assert main(["validate", str(games), "--csv", str(bom), "--csv-bom", "--quiet"]) == 1
    assert bom.read_bytes() == b"\xef\xbb\xbf" + english.read_bytes()


def test_a_game_that_cannot_be_read_keeps_its_players_and_meta_in_the_csv(
    games: Path, tmp_path: Path
) -> None:
    """(Issue 41.) A game that does not decode (here a card with no cell) still gives its
    players' names, a row each, its meta and its mode."""
    broken = json.loads(example_game())
    broken["meta"] = {"table": "T9"}
    del broken["players"][0]["city"][0]["row"]
    (games / "y-unreadable.json").write_text(json.dumps(broken))
    table = tmp_path / "players.csv"
    assert main(["validate", str(games), "--csv", str(table), "--quiet", "--jobs", "1"]) == 1
    rows = list(csv_module.DictReader(table.read_text().splitlines()))
    mine = [r for r in rows if r["source_path"].endswith("y-unreadable.json")]
    assert [r["player"] for r in mine] == ["Sarah", "Bruno", "Carla"]
    assert {r["meta.table"] for r in mine} == {"T9"}
    assert all(r["game_valid"] == "false" and r["total"] == "" for r in mine)
    assert all(r["error_codes"] for r in mine)
    assert {r["mode"] for r in mine} == {"elitist"}  # its JSON says so, a mode there is
    broken["mode"] = "elitista_"  # no mode: said as nothing, not as written
    (games / "y-unreadable.json").write_text(json.dumps(broken))
    assert main(["validate", str(games), "--csv", str(table), "--quiet", "--jobs", "1"]) == 1
    rows = list(csv_module.DictReader(table.read_text().splitlines()))
    assert {r["mode"] for r in rows if r["source_path"].endswith("y-unreadable.json")} == {""}


def test_style_colours_are_the_same_in_every_picture() -> None:
    assert style_colour("gothic") == STYLE_COLOURS["gothic"]
    assert style_colour("ex_style_5") == style_colour("ex_style_5")
    doc = json.loads(example_game())
    sarah = doc["players"][0]
    gothic = [c for c in sarah["city"] if c["card"].get("style") == "gothic"]
    alone = {**doc, "players": [{**sarah, "city": gothic}]}  # gothic the only style
    for picture in (render(example_game()), render(alone)):
        assert f'fill="{STYLE_COLOURS["gothic"]}"' in picture


def test_the_legend_shows_the_overlays_drawn() -> None:
    plain = render(example_game(), player="Sarah")
    drawn = render(example_game(), player="Sarah", overlays=["shelters", "towers"])
    for words in ("in a shelter group", "tower span"):
        assert words not in plain
        assert words in drawn


def test_a_decoded_game_is_scored() -> None:
    game = neweden.decode_game(example_game())
    assert neweden.score(game) == neweden.score(example_game())


def test_the_readme_python_snippet_runs(tmp_path: Path) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    snippet = readme.split("```python\n", 1)[1].split("```", 1)[0]
    root = Path(__file__).parents[2]
    done = subprocess.run(
        [sys.executable, "-c", snippet], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "78" in done.stdout


def test_the_docs_links_lead_somewhere() -> None:
    """Every `docs/NAME.md` the READMEs, the docs, the examples and the package name is
    there (the catalog template named a docs/conditions.md that never was)."""
    root = Path(__file__).parents[2]
    pages = [
        root / "README.md",
        root / "README.pt-BR.md",
        *(root / "docs").glob("*.md"),
        *(root / "examples").iterdir(),
        *(root / "python" / "neweden").rglob("*.py"),
    ]
    named = 0
    for page in pages:
        for name in re.findall(r"docs/[\w.-]+\.md", page.read_text(encoding="utf-8")):
            named += 1
            assert (root / name).exists(), (page.name, name)
    assert named > 10


def test_bash_completion_completes_commands_and_options(tmp_path: Path) -> None:
    script = piped("completion", "bash")
    assert script.returncode == 0
    (tmp_path / "neweden.bash").write_text(script.stdout)
    asked = (
        "source neweden.bash; complete -p neweden; "
        'COMP_WORDS=(neweden val); COMP_CWORD=1; _neweden; echo "${COMPREPLY[@]}"; '
        'COMP_WORDS=(neweden validate --only); COMP_CWORD=2; _neweden; echo "${COMPREPLY[@]}"; '
        'COMP_WORDS=(neweden score --format ""); COMP_CWORD=3; _neweden; echo "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        ["bash", "-c", asked],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ},
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "complete -o filenames -F _neweden neweden"
    assert lines[1:] == ["validate", "--only-invalid", "json text"]
    for shell in ("zsh", "fish"):
        assert "neweden" in piped("completion", shell).stdout


@pytest.mark.parametrize(
    "command", ["score", "validate", "render", "schema", "catalog", "completion", None]
)
def test_no_help_cites_a_section_of_a_document_users_do_not_have(
    command: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    for lang in ("en", "pt-BR"):
        with pytest.raises(SystemExit):
            main([*([command] if command else []), "--help", "--lang", lang])
        shown = capsys.readouterr().out
        assert "usage" in shown or "uso" in shown
        # `serve`'s one-line help is another change's (the HTTP service's)
        mine = [line for line in shown.splitlines() if not line.lstrip().startswith("serve")]
        assert "§" not in "\n".join(mine)


def test_no_doc_cites_a_section_of_format_or_rules() -> None:
    root = Path(__file__).parents[2]
    pages = [root / "README.md", root / "README.pt-BR.md", *(root / "docs").glob("*.md")]
    for page in pages:
        if page.name == "http.md":  # the HTTP service's page: kept by its own change
            continue
        text = page.read_text(encoding="utf-8")
        assert "FORMAT §" not in text, page.name
        assert "RULES §" not in text, page.name


def test_the_picture_index_and_notes_in_portuguese(tmp_path: Path) -> None:
    from neweden.i18n import speaking
    from neweden.present.index import batch_page
    from neweden.runners.results import GameLine

    listed = [GameLine("r.jsonl:3", "r.jsonl", 3, "invalid", (("Ana", 5, 1),), ("overlap",), "")]
    with speaking("pt-BR"):
        assert '<b data-count="invalid">1</b> INVÁLIDA' in batch_page(listed, {})
        assert "Nenhuma partida tem problema." in batch_page([], {})
    assert '<b data-count="invalid">1</b> INVALID' in batch_page(listed, {})
    assert "No game has a problem." in batch_page([], {})
    doc = json.loads(example_game())
    city = doc["players"][0]["city"]
    for k in range(1, 15):  # more problems than the notes list: 14 overlaps
        city.append({**city[0], "card": dict(city[0]["card"])})
        city[-1]["row"], city[-1]["col"] = city[k % len(city)]["row"], city[k % len(city)]["col"]
    english = render(doc, overlays=["shelters", "medical", "towers", "row"])
    with speaking("pt-BR"):
        shown = render(doc, overlays=["shelters", "medical", "towers", "row"])
    for en, pt in (
        ("in a shelter group", "num grupo de Abrigos"),
        ("next to a medical center", "ao lado de um Centro Médico"),
        ("tower span", "alcance das Torres"),
        ("fullest row", "linha mais cheia"),
        ("overlap at /players/0/city/", "overlap em /players/0/city/"),
        ("and 2 more", "e mais 2"),
    ):
        assert en in english
        assert pt in shown
        assert en not in shown


def test_file_line_of_a_file_of_no_game_and_a_jsonl_of_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n")
    assert main(["score", f"{blank}:5"]) == 2
    assert "there is no game at line 5: the file holds no game" in capsys.readouterr().err
    assert main(["score", f"{blank}:5", *PT]) == 2
    assert "não há partida na linha 5: o arquivo não tem nenhuma partida" in capsys.readouterr().err
    assert main(["score", str(blank)]) == 2
    assert f"neweden: {blank} holds no game" in capsys.readouterr().err
    assert main(["score", str(blank), *PT]) == 2
    assert f"neweden: {blank} não tem nenhuma partida" in capsys.readouterr().err


def test_the_new_help_in_portuguese(capsys: pytest.CaptureFixture[str]) -> None:
    for command, words in (
        (["validate"], ("--only-invalid", "lista só as entradas", "o separador do CSV")),
        (["completion"], ("script de completamento",)),
        ([], ("mostra um script de completamento do shell",)),
    ):
        with pytest.raises(SystemExit):
            main([*command, "--help", *PT])
        shown = " ".join(capsys.readouterr().out.split())
        for word in words:
            assert word in shown
        assert " the " not in shown
