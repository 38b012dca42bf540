"""(Issue 41.) The CSV of `neweden validate --csv` opened by a real spreadsheet: LibreOffice
Calc, headless (Debian's libreoffice-calc-nogui, which .ci/run installs), imports it with a
Brazilian user's options (`;` between cells, UTF-8, cells read in pt-BR, soffice in a pt-BR
locale) and saves it as a flat ODF spreadsheet (.fods, XML), read back here cell by cell,
typed, with the standard library: the accented names intact, the numbers numbers equal to the
--out report's, the byte-order mark eaten by the import (the first header is `source_path`,
nothing before it). The English CSV the same with English options (`,`, no mark). Opened the
wrong way, each file shows what these tests would catch: a header of one cell, or the mark
and the accents garbled."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from neweden.cli.main import example_game, main
from neweden.runners.results import BOOLEAN_COLUMNS, STRING_COLUMNS

#: A cell as the spreadsheet holds it: a number, a boolean, text, or nothing (empty).
Cell = float | bool | str | None

ACCENTED = ["Úrsula", "Quésia", "João"]  # the example game's Sarah, Bruno and Carla renamed
INVALID = ["Conceição", "Ícaro Araújo", "Zé"]


@dataclass(frozen=True)
class Opening:
    """How a spreadsheet is told to import a CSV: LibreOffice's CSV filter options
    (separator, text delimiter `"`, character set, first line 1, column types left to
    detection, the locale that reads the cells) and the locale soffice runs in."""

    separator: str
    charset: int  # LibreOffice's numbering: 76 UTF-8, 1 Windows-1252 (Western Europe)
    language: int  # a Windows language id: 1046 pt-BR, 1033 en-US
    locale: str

    def infilter(self) -> str:
        tokens = [ord(self.separator), 34, self.charset, 1, "", self.language]
        return "Text - txt - csv (StarCalc):" + ",".join(str(t) for t in tokens)


UTF8, WESTERN = 76, 1
BRAZIL = Opening(";", UTF8, 1046, "pt_BR.UTF-8")
ENGLISH = Opening(",", UTF8, 1033, "en_US.UTF-8")


@pytest.fixture
def soffice() -> str:
    """LibreOffice's soffice: skipped where it is not installed, but never in CI (CI=true),
    where .ci/run installs it and a skip would hide a missing install step."""
    found = shutil.which("soffice")
    if found is None:
        why = "LibreOffice is not installed (Debian's libreoffice-calc-nogui; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"{why}: CI must run this test, not skip it")
        pytest.skip(why)
    return found


@dataclass(frozen=True)
class Written:
    brazil: Path  # the CSV of a run in Portuguese
    english: Path  # the CSV of a run in English
    expected: dict[tuple[str, str], tuple[int, int, int]]  # (path, player) → --out's numbers


@pytest.fixture
def written(tmp_path: Path) -> Written:
    """A valid game, an invalid one (an overlap) and one that does not decode (a card with
    no row), every player's name accented; `neweden validate` over them in Portuguese (with
    --out, the numbers to compare) and in English."""
    folder = tmp_path / "partidas"
    folder.mkdir()
    valid = json.loads(example_game())
    for player, name in zip(valid["players"], ACCENTED, strict=True):
        player["name"] = name
    invalid = json.loads(json.dumps(valid))
    for player, name in zip(invalid["players"], INVALID, strict=True):
        player["name"] = name
    city = invalid["players"][0]["city"]
    city[3]["row"], city[3]["col"] = city[2]["row"], city[2]["col"]
    unreadable = json.loads(json.dumps(valid))
    del unreadable["players"][0]["city"][0]["row"]
    for name, doc in (("a-valida", valid), ("b-invalida", invalid), ("c-ilegivel", unreadable)):
        (folder / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    brazil, english, out = tmp_path / "jogadores.csv", tmp_path / "players.csv", tmp_path / "r"
    run = ["validate", str(folder), "--quiet", "--jobs", "1"]
    assert main([*run, "--csv", str(brazil), "--out", str(out), "--lang", "pt-BR"]) == 1
    assert main([*run, "--csv", str(english), "--lang", "en"]) == 1
    assert brazil.read_bytes().startswith(b"\xef\xbb\xbfsource_path;")
    assert english.read_bytes().startswith(b"source_path,")
    expected = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        report = json.loads(line)
        for p in report.get("players", []):
            key = (report["source"]["path"], p["name"])
            expected[key] = (p["cards"], p["score"]["total"], p["place"])
    assert len(expected) == 6  # the players of the two games that decode
    return Written(brazil, english, expected)


def opened(soffice: str, csv: Path, opening: Opening, work: Path) -> list[list[Cell]]:
    """`csv` imported by LibreOffice Calc as `opening` says, saved as a flat ODF
    spreadsheet, and its first sheet's rows read back (a private profile: parallel runs do
    not meet)."""
    outdir = work / "converted"
    done = subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={(work / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            f"--infilter={opening.infilter()}",
            "--convert-to",
            "fods",
            "--outdir",
            str(outdir),
            str(csv),
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        # LibreOffice takes its locale from these even where the C library has no such
        # locale (this machine has only C.UTF-8); the filter's language says it again
        env={**os.environ, "LANG": opening.locale, "LC_ALL": opening.locale},
    )
    converted = outdir / f"{csv.stem}.fods"
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert converted.exists(), (done.stdout, done.stderr)  # soffice says 0 when it could not
    return sheet_rows(converted)


NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
}


def _name(prefix: str, local: str) -> str:
    return f"{{{NS[prefix]}}}{local}"


def sheet_rows(fods: Path) -> list[list[Cell]]:
    """The first sheet of a flat ODF spreadsheet, a list of cells a row, as typed there
    (office:value-type); empty cells at the end of a row and empty rows at the end left
    out."""
    sheet = ET.parse(fods).getroot().find(".//table:table", NS)
    assert sheet is not None
    rows: list[list[Cell]] = []
    for row in sheet.iter(_name("table", "table-row")):
        cells: list[Cell] = []
        for cell in row:
            if cell.tag in (_name("table", "table-cell"), _name("table", "covered-table-cell")):
                repeated = int(cell.get(_name("table", "number-columns-repeated"), "1"))
                cells.extend([cell_value(cell)] * repeated)
        while cells and cells[-1] is None:
            cells.pop()
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def cell_value(cell: ET.Element) -> Cell:
    kind = cell.get(_name("office", "value-type"))
    if kind is None:
        return None
    if kind in ("float", "percentage", "currency"):
        return float(cell.get(_name("office", "value"), "nan"))
    if kind == "boolean":
        return cell.get(_name("office", "boolean-value")) == "true"
    return "\n".join(_text(p) for p in cell.findall("text:p", NS))


def _text(element: ET.Element) -> str:
    """A paragraph's text, its runs of spaces (text:s) given back."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == _name("text", "s"):
            parts.append(" " * int(child.get(_name("text", "c"), "1")))
        elif child.tag == _name("text", "tab"):
            parts.append("\t")
        else:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def by_header(rows: list[list[Cell]]) -> list[dict[str, Cell]]:
    """The rows under the first, each a dict by the first row's headers (columns may be
    added: cells are read by name, not position)."""
    header, *body = rows
    assert all(isinstance(name, str) for name in header), header
    names = [str(name) for name in header]
    assert all(len(cells) <= len(names) for cells in body), "a row wider than the header"
    padded = [[*cells, *[None] * (len(names) - len(cells))] for cells in body]
    return [dict(zip(names, cells, strict=True)) for cells in padded]


def assert_read_back(rows: list[list[Cell]], written: Written) -> None:
    """What the spreadsheet shows is what was written: the headers (the first exactly
    `source_path`: no byte-order mark leaked), the accented names, the numbers as numbers
    equal to --out's, a list with the separator one cell, the unreadable game's numbers
    empty."""
    assert rows[0][0] == "source_path"
    assert rows[0][:4] == ["source_path", "source_line", "game_valid", "player"]
    table = by_header(rows)
    assert len(table) == 9  # three games of three players
    got = {}
    for row in table:
        path, name = row["source_path"], row["player"]
        assert isinstance(path, str), row
        assert isinstance(name, str), row
        if path.endswith("c-ilegivel.json"):
            assert (row["cards"], row["total"], row["place"]) == (None, None, None), row
            continue
        for column in ("cards", "total", "place"):
            assert isinstance(row[column], float), (column, row)  # a number, not text
        got[(path, name)] = (row["cards"], row["total"], row["place"])
    assert got == written.expected
    assert {row["player"] for row in table} == {*ACCENTED, *INVALID}
    invalid = [row for row in table if row["player"] == INVALID[0]]
    assert [row["error_codes"] for row in invalid] == ["disconnected;overlap"]
    assert [row["requirements_met"] for row in invalid] == ["A1;B1"]
    numbers = [  # every column the package holds as whole numbers (int64 in Parquet)
        str(column)
        for column in rows[0]
        if column not in STRING_COLUMNS | BOOLEAN_COLUMNS and not str(column).startswith("meta.")
    ]
    assert {"cards", "total", "place", "stars", "military"} <= set(numbers)
    for row in table:
        for column in numbers:
            assert row[column] is None or isinstance(row[column], float), (column, row)


def test_a_brazilian_calc_reads_the_portuguese_csv_cell_by_cell(
    soffice: str, written: Written, tmp_path: Path
) -> None:
    rows = opened(soffice, written.brazil, BRAZIL, tmp_path)
    assert_read_back(rows, written)
    valid = [r for r in by_header(rows) if str(r["source_path"]).endswith("a-valida.json")]
    assert [(r["player"], r["total"], r["place"]) for r in valid] == [
        ("Úrsula", 78.0, 1.0),  # the manual's example: Sarah's 78
        ("Quésia", 34.0, 3.0),
        ("João", 43.0, 2.0),
    ]


def test_an_english_calc_reads_the_english_csv_cell_by_cell(
    soffice: str, written: Written, tmp_path: Path
) -> None:
    assert_read_back(opened(soffice, written.english, ENGLISH, tmp_path), written)


@pytest.mark.long
def test_opened_the_wrong_way_the_files_show_what_these_tests_catch(
    soffice: str, written: Written, tmp_path: Path
) -> None:
    """The Portuguese CSV opened as comma-separated, and the English one as
    semicolon-separated, has a header of one cell: a wrong separator fails the tests above.
    Opened as Western (Windows-1252) text, the Portuguese CSV's mark leaks into the first
    header and its accents break: the UTF-8 import is what keeps them."""
    comma = opened(soffice, written.brazil, ENGLISH, tmp_path / "comma")
    header = comma[0]
    assert len(header) == 1
    assert isinstance(header[0], str)
    assert header[0].startswith("source_path;source_line;game_valid;player;")
    assert "total" not in header
    semicolon = opened(soffice, written.english, BRAZIL, tmp_path / "semicolon")
    assert len(semicolon[0]) == 1
    assert str(semicolon[0][0]).startswith("source_path,source_line,game_valid,player,")
    western = Opening(";", WESTERN, 1046, "pt_BR.UTF-8")
    garbled = opened(soffice, written.brazil, western, tmp_path / "western")
    assert garbled[0][0] == "\u00ef\u00bb\u00bfsource_path"  # the mark, read as 3 letters
    players = {row["player"] for row in by_header(garbled)}
    assert "Úrsula" not in players
    assert "Ãšrsula" in players  # UTF-8's two bytes of Ú read as two letters


def test_portuguese_column_names_and_the_new_columns_read_back_in_a_brazilian_calc(
    soffice: str, written: Written, tmp_path: Path
) -> None:
    """`--csv-header pt-BR`: the column names a person reads, accents intact; the mode and
    the requirements checked against the city, each one cell (issue 41)."""
    table = tmp_path / "nomes.csv"
    run = ["validate", str(written.brazil.parent / "partidas"), "--quiet", "--jobs", "1"]
    assert main([*run, "--csv", str(table), "--lang", "pt-BR", "--csv-header", "pt-BR"]) == 1
    rows = opened(soffice, table, BRAZIL, tmp_path / "calc")
    assert rows[0][:4] == ["arquivo de origem", "linha na origem", "partida válida", "jogador"]
    found = by_header(rows)
    first = next(r for r in found if r["jogador"] == "Úrsula")
    assert (first["modo de jogo"], first["requisitos conferidos"]) == ("elitist", "A1;B1")
    assert first["requisitos declarados"] is None  # none declared: an empty cell
    assert first["colocação"] == 1.0
