"""`neweden validate` and `neweden.score_many` on real folders and .jsonl files."""

from __future__ import annotations

import csv
import gzip
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.cli.main import main
from neweden.runners import batch, outputs, workers
from neweden.runners.batch import CSV_HEADER, validate
from neweden.runners.results import TABLE_KINDS, Asked, score_chunk
from neweden.runners.sources import Entry
from tests.conftest import EXAMPLES
from tests.games import card, game, line, player

GOOD = json.dumps(game("military", player("A", line(3)), player("B", line(2))))
ILLEGAL = json.dumps(game("military", player("A", [*line(2), card(0, 0)])))
WRONG_TYPES = json.dumps({"mode": "military", "players": [{"name": 3, "city": "none"}]})


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder as an organiser might have it."""
    root = tmp_path / "tables"
    (root / "round2").mkdir(parents=True)
    (root / "round1.json").write_text(GOOD)
    (root / "round2" / "b-illegal.json").write_text(ILLEGAL)
    (root / "round2" / "a-truncated.json").write_text(GOOD[:40])
    (root / "round2" / "c-types.json").write_text(WRONG_TYPES)
    (root / "round2" / "d-empty.json").write_text("")
    (root / "round2" / "notes.txt").write_text("not a game, and not looked at")
    (root / "round2" / "photo.json").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "games.jsonl").write_text(f"\ufeff{GOOD}\n\n{GOOD[:10]}\n{ILLEGAL}\n")
    with gzip.open(root / "more.jsonl.gz", "wt") as handle:
        handle.write(f"{GOOD}\n{WRONG_TYPES}\n")
    return root


def run(paths: list[str], **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = validate(paths, stdout=out, stderr=err, jobs=kwargs.pop("jobs", 1), **kwargs)
    return code, out.getvalue(), err.getvalue()


def test_a_folder_every_entry_gets_its_line_in_code_point_order(tree: Path) -> None:
    code, out, err = run([str(tree), str(tree / "missing.json")], out=str(tree.parent / "o.jsonl"))
    assert code == 1
    assert err == f"neweden: {tree}/missing.json: no such file or folder\n"  # not counted
    lines = out.splitlines()
    labels = [line.split(": ")[0] for line in lines[:-1]]
    t = str(tree)
    assert labels == [
        f"{t}/games.jsonl:1",
        f"{t}/games.jsonl:3",  # line 2 is blank: skipped but counted
        f"{t}/games.jsonl:4",
        f"{t}/more.jsonl.gz:1",
        f"{t}/more.jsonl.gz:2",
        f"{t}/round1.json",
        f"{t}/round2/a-truncated.json",
        f"{t}/round2/b-illegal.json",
        f"{t}/round2/c-types.json",
        f"{t}/round2/d-empty.json",
        f"{t}/round2/photo.json",
    ]
    assert lines[-1].startswith("11 games: 3 valid, 8 invalid")
    reports = [json.loads(x) for x in (tree.parent / "o.jsonl").read_text().splitlines()]
    assert [r["source"] for r in reports][:3] == [
        {"path": f"{t}/games.jsonl", "line": 1},
        {"path": f"{t}/games.jsonl", "line": 3},
        {"path": f"{t}/games.jsonl", "line": 4},
    ]
    assert reports[5]["source"] == {"path": f"{t}/round1.json", "line": None}
    by_label = dict(zip(labels, reports, strict=True))
    assert by_label[f"{t}/round2/a-truncated.json"]["errors"][0]["code"] == "bad_json"
    assert by_label[f"{t}/round2/d-empty.json"]["errors"][0]["code"] == "bad_json"
    assert by_label[f"{t}/round2/photo.json"]["errors"][0]["code"] == "bad_json"
    assert {e["code"] for e in by_label[f"{t}/round2/c-types.json"]["errors"]} == {"bad_type"}
    illegal = by_label[f"{t}/round2/b-illegal.json"]
    assert illegal["valid"] is False
    assert "audit" not in illegal["players"][0]  # lean unless --detail
    assert by_label[f"{t}/games.jsonl:1"]["players"][0]["score"]["total"] == 9


def test_detail_puts_the_audit_in_out(tree: Path) -> None:
    out = tree.parent / "detail.jsonl"
    run([str(tree / "round1.json")], out=str(out), detail=True)
    assert "audit" in json.loads(out.read_text())["players"][0]


def test_csv_has_the_format_header_one_row_a_player(tree: Path) -> None:
    path = tree.parent / "t.csv"
    run(
        [
            str(tree / "round1.json"),
            str(tree / "round2" / "b-illegal.json"),
            str(tree / "round2" / "a-truncated.json"),
        ],
        csv_path=str(path),
    )
    text = path.read_text()
    assert text.startswith(CSV_HEADER + "\n")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["player"] for r in rows] == ["A", "B", "A", ""]
    first = rows[0]
    assert first["source_line"] == ""
    assert (first["game_valid"], first["legal"], first["stars"]) == ("true", "true", "")
    assert (first["labs"], first["military"], first["total"]) == ("9", "9", "9")
    assert rows[2]["error_codes"] == "overlap"  # errors only, warnings left out
    assert rows[3]["game_valid"] == "false"
    assert rows[3]["error_codes"] == "bad_json"
    assert text.endswith("\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_game_after_a_byte_order_mark_keeps_its_meta_and_names_in_the_csv(
    tmp_path: Path, jobs: int
) -> None:
    # a byte-order mark is allowed before a document (FORMAT §1): a .json saved by Notepad, a
    # line of a .jsonl pasted from one. Its game is read past it, and so are its `meta` (the
    # CSV's meta.KEY columns) and, when it does not decode, its players' names
    plain = json.dumps(game("military", player("A", line(2))))
    marked = json.dumps(game("military", player("B", line(2)), meta={"table": "T7"}))
    broken = json.dumps({"mode": "military", "players": [{"name": "C", "city": 5}]})
    bom = "\ufeff"
    (tmp_path / "games.jsonl").write_text(f"{plain}\n{bom}{marked}\n{bom}{broken}\n")
    (tmp_path / "notepad.json").write_text(
        bom + json.dumps(game("military", player("D", line(3)), meta={"table": "T9"}))
    )
    table = tmp_path / "t.csv"
    run(
        [str(tmp_path / "games.jsonl"), str(tmp_path / "notepad.json")],
        csv_path=str(table),
        jobs=jobs,
    )
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [(r["player"], r["meta.table"]) for r in rows] == [
        ("A", ""),
        ("B", "T7"),
        ("C", ""),  # (not decoded: its name kept, from past the mark)
        ("D", "T9"),
    ]
    assert rows[2]["game_valid"] == "false"


def test_parquet_has_the_same_rows_typed(tree: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    folder = tree.parent / "pq"
    run(
        [str(tree / "round1.json"), str(tree / "round2" / "a-truncated.json")],
        parquet_dir=str(folder),
    )
    table = pq.read_table(folder)
    assert table.column_names == CSV_HEADER.split(",")
    assert table.num_rows == 3
    assert str(table.schema.field("game_valid").type) == "bool"
    assert str(table.schema.field("total").type) == "int64"
    assert table.column("total").to_pylist() == [9, 6, None]


def test_parquet_is_the_same_file_whether_a_worker_or_the_parent_makes_its_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a worker makes its chunk's rows an Arrow batch (the parent only writes it); the Dask
    # path gives the parent its rows game by game, kept and made one batch at the flush:
    # either way, or mixed, the file is the one the rows' columns make converted whole, a
    # row group at a time (the threshold made small: 7 rows)
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(outputs, "PARQUET_ROWS", 7)
    docs = [game("military", player(f"P{i}", line(2)), player("Q", line(3))) for i in range(9)]
    docs.append(game("populist", player("R", line(4) + line(1, row=5))))  # an illegal city
    entries = [Entry("g.jsonl", i + 1, json.dumps(d).encode(), None) for i, d in enumerate(docs)]
    results, _lines = score_chunk(entries, neweden.BUILTIN, False, Asked(short=False))
    rows = [row for r in results for row in r.rows]
    chunks = [rows[:3], rows[3:4], rows[4:12], rows[12:]]
    games = [list(r.rows) for r in results]
    ways = {  # each call of Table.add: a worker's batch, or rows
        "worker": [("batch", chunk) for chunk in chunks],
        "chunk rows": [("rows", chunk) for chunk in chunks],
        "mixed": [(kind, chunk) for kind, chunk in zip(["rows", "batch"] * 2, chunks, strict=True)],
        "game by game (Dask)": [("rows", one) for one in games],
    }
    schema = outputs.parquet_schema(CSV_HEADER.split(","), TABLE_KINDS)
    for where, adds in ways.items():
        # the file as the rows' columns converted whole make it, a group once 7 rows came
        groups: list[list[tuple[Any, ...]]] = [[]]
        for _kind, added in adds:
            groups[-1].extend(added)
            if len(groups[-1]) >= 7:
                groups.append([])
        whole = tmp_path / f"{where}.whole.parquet"
        with pq.ParquetWriter(str(whole), schema) as writer:
            for group in [g for g in groups if g]:
                columns = list(zip(*group, strict=True))
                arrays = [pa.array(c, type=schema.field(i).type) for i, c in enumerate(columns)]
                writer.write_table(pa.table(arrays, schema=schema))
        folder = tmp_path / where
        table = outputs.Table(CSV_HEADER, None, str(folder), TABLE_KINDS)
        for kind, added in adds:
            if kind == "batch":
                table.add([], [], outputs.arrow_batch(added, table.schema))
            else:
                table.add(added)
        table.commit()
        made = folder / "part-00000.parquet"
        assert made.read_bytes() == whole.read_bytes(), where
        assert [tuple(r.values()) for r in pq.read_table(made).to_pylist()] == rows


def _worked(docs: list[dict[str, Any]], settings: workers.Settings) -> workers.Chunk:
    """The chunk a worker of a run with `settings` makes of the games `docs` (lines 1, 2...
    of g.jsonl), the worker's state as it was afterwards."""
    entries = [Entry("g.jsonl", i + 1, json.dumps(d).encode(), None) for i, d in enumerate(docs)]
    before = dict(workers._WORKER)
    try:
        workers._init_worker_local(settings)
        (chunk,) = workers.work_entries(workers._packed_entries(entries))
    finally:
        workers._WORKER.clear()
        workers._WORKER.update(before)
    return chunk


@pytest.mark.parametrize("out", [False, True])
def test_a_worker_makes_the_out_lines_only_for_a_run_with_out(out: bool) -> None:
    # the --out lines (about 2 KB a game) were made, pickled and sent to the parent by every
    # run, which dropped them when there was no --out (a --csv, a summary, standard output)
    docs = [game("military", player("A", line(2)), player("B", line(2))) for _ in range(3)]
    settings = workers.Settings(neweden.BUILTIN, False, short=False, rows=False, lines=out)
    chunk = _worked(docs, settings)
    assert chunk.count == 3
    if out:
        assert [json.loads(one)["source"]["line"] for one in chunk.lines.splitlines()] == [1, 2, 3]
    else:
        assert chunk.lines == b""


@pytest.mark.parametrize("csv_too", [False, True])
def test_a_worker_sends_the_rows_of_a_parquet_only_run_as_one_batch(csv_too: bool) -> None:
    # with --parquet alone a chunk carries its rows as an Arrow batch only (not pickled a
    # second time as tuples); with --csv as well, as both
    docs = [game("elitist", player("A", line(2)), player("B", line(2))) for _ in range(3)]
    settings = workers.Settings(neweden.BUILTIN, False, short=False, parquet=True, csv=csv_too)
    chunk = _worked(docs, settings)
    assert chunk.batch is not None
    assert chunk.batch.num_rows == 6
    assert chunk.batch.column("player").to_pylist() == ["A", "B"] * 3
    if csv_too:
        assert [tuple(r.values()) for r in chunk.batch.to_pylist()] == chunk.rows
    else:
        assert chunk.rows == []
        assert chunk.metas == []


def test_two_jobs_give_the_same_lines_in_the_same_order(tree: Path) -> None:
    one = tree.parent / "one.jsonl"
    two = tree.parent / "two.jsonl"
    run([str(tree)], out=str(one), jobs=1)
    run([str(tree)], out=str(two), jobs=2)
    assert one.read_text() == two.read_text()


def test_two_jobs_reading_blocks_give_the_same_output(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With worker processes a .jsonl over BLOCK_BYTES is read by the workers, block by
    block; made tiny here, every line of the tree's files falls in some block."""
    jsonl = tree / "games.jsonl"
    jsonl.write_text(jsonl.read_text() + "\r\n".join([GOOD, "", WRONG_TYPES, GOOD[:30], ILLEGAL]))
    outputs = []
    for jobs, block in ((1, 1 << 20), (2, 97), (2, 1000)):
        monkeypatch.setattr(batch, "BLOCK_BYTES", block)
        out = tree.parent / f"o-{jobs}-{block}.jsonl"
        csv_path = tree.parent / f"o-{jobs}-{block}.csv"
        code, text, _ = run([str(tree)], out=str(out), csv_path=str(csv_path), jobs=jobs)
        lines = text.splitlines()
        outputs.append((code, lines[:-1], out.read_text(), csv_path.read_text()))
        assert lines[-1].startswith(f"{len(lines) - 1} games: ")
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0][1]) == 15


def test_a_line_over_one_mib_is_too_large_and_the_run_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text(GOOD + "\n" + '{"meta": "' + "x" * (2 << 20) + '"}\n' + GOOD + "\n")
    out = tmp_path / "o.jsonl"
    code, _, _ = run([str(path)], out=str(out))
    reports = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["source"]["line"] for r in reports] == [1, 2, 3]
    assert reports[1]["errors"][0]["code"] == "too_large"
    assert reports[2]["valid"] is True
    assert code == 1


def test_exit_0_when_every_entry_is_valid(tree: Path) -> None:
    assert run([str(tree / "round1.json")])[0] == 0


def test_quiet_prints_only_the_summary(tree: Path) -> None:
    _, out, _ = run([str(tree / "round1.json")], quiet=True)
    assert out.splitlines()[0].startswith("1 games: 1 valid")


def test_exit_2_for_an_output_that_cannot_be_written(tree: Path) -> None:
    code, _, err = run([str(tree)], out=str(tree / "no" / "such" / "dir" / "o.jsonl"))
    assert code == 2
    assert "cannot write" in err


def test_exit_2_for_a_catalog_that_does_not_load(tree: Path) -> None:
    bad = tree.parent / "bad.toml"
    bad.write_text("cards = 3\n")
    code, _, err = run([str(tree)], catalog_path=str(bad))
    assert code == 2
    assert "/cards: bad_type" in err


def test_the_cli_takes_the_same_options(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tree / "round1.json"), "--jobs", "1", "--quiet"]) == 0
    assert "1 valid" in capsys.readouterr().out
    assert main(["validate", str(tree), "--jobs", "0"]) == 2


def _written(out: Path) -> int:
    """The bytes written so far to `out`: to its temporary file beside it (`.NAME.*.part`,
    renamed over `out` at the end of the run)."""
    return sum(p.stat().st_size for p in out.parent.glob(f".{out.name}.*.part"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_whole_lines_and_a_summary(tmp_path: Path, jobs: str) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text((GOOD + "\n") * 20_000)
    out = tmp_path / "o.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "neweden",
            "validate",
            str(path),
            "--out",
            str(out),
            "--jobs",
            jobs,
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _written(out) < 50_000:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert stdout.decode().startswith("interrupted after ")
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b""  # the file ends with a whole line
    assert 0 < len(lines) - 1 < 20_000
    assert all(json.loads(x)["valid"] for x in lines[:-1])


def test_score_many_keeps_the_order_and_reports_unreadable_entries() -> None:
    games: list[Any] = [GOOD, b"{", json.loads(ILLEGAL), GOOD.encode(), 42]
    for jobs in (1, 2):
        reports = list(neweden.score_many(games, jobs=jobs))
        assert [r["valid"] for r in reports] == [True, False, False, True, False]
        assert reports[1]["errors"][0]["code"] == "bad_json"
        assert reports[4]["errors"][0]["code"] == "bad_type"
        assert reports[0] == neweden.score(GOOD, detail=False)


def test_examples_folder_validates(capsys: pytest.CaptureFixture[str]) -> None:
    # The lone city is not a game: it is an unreadable entry, the others valid.
    assert main(["validate", str(EXAMPLES), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "lone-city.json: UNREADABLE" in out
    assert "final-scoring-example.json: valid" in out


def test_csv_warning_codes_and_the_summary_count_warnings(tree: Path) -> None:
    """Issue 36: the CSV gains `warning_codes` (the player's warnings, then the game's
    top-level ones, after the fixed header), and the summary says the most frequent
    warnings after the errors."""
    path = tree.parent / "w.csv"
    code, out, _err = run([str(tree / "round1.json")], csv_path=str(path))
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert ",error_codes,warning_codes," in CSV_HEADER
    assert rows[0]["warning_codes"] == "default_majority_table;game_not_ended"
    assert rows[0]["error_codes"] == ""
    summary = out.splitlines()[-1]
    assert summary.endswith(
        "most frequent errors: none; most frequent warnings: default_majority_table 1, "
        "game_not_ended 1"
    )
