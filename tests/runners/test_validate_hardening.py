"""`neweden validate` and `neweden score` against hostile paths and outputs: an output named as
an input, special files, a full disk, Ctrl-C and SIGKILL, unreadable folders, absurd --jobs,
CSV injection, picture names that collide (docs/hardening.md, "The batch runner")."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.cli.main import main
from neweden.runners import batch, cells, workers
from neweden.runners.batch import CSV_HEADER, validate
from neweden.runners.outputs import Interrupts, csv_cell, csv_line
from neweden.runners.results import svg_name
from neweden.runners.sources import Entry
from neweden.runners.workers import CHUNK
from tests.games import card, game, line, player

GOOD = json.dumps(game("military", player("A", line(3)), player("B", line(2))))
ILLEGAL = json.dumps(game("military", player("A", [*line(2), card(0, 0)])))


def run(paths: list[str], **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = validate(paths, stdout=out, stderr=err, jobs=kwargs.pop("jobs", 1), **kwargs)
    return code, out.getvalue(), err.getvalue()


def _bounded(memory: int = 1 << 30, file_size: int | None = None) -> Callable[[], None]:
    """A pre-exec hook: at most `memory` bytes of address space (a run that reads
    /dev/zero fails fast instead of eating the machine), optionally at most `file_size`
    bytes a file written (a disk that fills up: writes fail with EFBIG)."""

    # Under AddressSanitizer (scripts/sanitizers.sh preloads it) the shadow memory is a
    # reservation of terabytes that an address-space limit refuses: there the timeout alone
    # bounds a runaway, and the limit on files still applies.
    sanitized = "libasan" in os.environ.get("LD_PRELOAD", "")

    def limit() -> None:
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return limit


def neweden(*args: str, timeout: float = 60, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess, bounded in memory and time."""
    env = dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "neweden", *args],
        stdout=kwargs.pop("stdout", subprocess.PIPE),
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        env=env,
        preexec_fn=kwargs.pop("preexec_fn", _bounded()),
        **kwargs,
    )


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


# --- an output is never an input -----------------------------------------------------------------


@pytest.mark.parametrize("option", ["--out", "--csv"])
def test_an_output_named_as_an_input_is_refused_and_the_input_kept(
    tmp_path: Path, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    same = tmp_path / "same.jsonl"
    same.write_text(GOOD + "\n" + GOOD + "\n")
    before = same.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(same)
    for output in (same, link):  # by file identity, not by name
        assert main(["validate", str(same), option, str(output), "--jobs", "1"]) == 2
        err = capsys.readouterr().err
        assert f"{same} is both an input and the {option} output" in err
        assert same.read_bytes() == before


def test_two_outputs_naming_one_file_are_refused(tmp_path: Path) -> None:
    games = tmp_path / "g.json"
    games.write_text(GOOD)
    both = tmp_path / "both.txt"
    code, _, err = run([str(games)], out=str(both), csv_path=str(both))
    assert code == 2
    assert err == f"neweden: --out and --csv name the same file, {both}\n"
    assert not both.exists()


def test_a_folder_walk_leaves_out_the_runs_own_output(tmp_path: Path) -> None:
    folder = tmp_path / "sd"
    folder.mkdir()
    for i in range(3):
        (folder / f"g{i}.jsonl").write_text((GOOD + "\n") * 50)
    out = folder / "out.jsonl"
    first = neweden("validate", str(folder), "--out", str(out), "--quiet", "--jobs", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("150 games: 150 valid")
    second = neweden("validate", str(folder), "--out", str(out), "--quiet", "--jobs", "2")
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("150 games: 150 valid")
    assert f"{out} is left out: it is an output of this run" in second.stderr
    assert len(out.read_text().splitlines()) == 150


def test_a_killed_run_leaves_the_previous_output_whole(tmp_path: Path) -> None:
    many = tmp_path / "many.jsonl"
    many.write_text((GOOD + "\n") * 30_000)
    out = tmp_path / "o.jsonl"
    out.write_text('{"a good": "output of an earlier run"}\n')
    proc = subprocess.Popen(
        [sys.executable, "-m", "neweden", "validate", str(many), "--out", str(out), "--jobs", "1"],
        stdout=subprocess.PIPE,  # never read: the run stops when the pipe is full
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
        preexec_fn=_bounded(),
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _written_anywhere(tmp_path, out) < 20_000:
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    assert out.read_text() == '{"a good": "output of an earlier run"}\n'


def test_an_output_through_a_symlink_is_written_where_it_points(tmp_path: Path) -> None:
    games = tmp_path / "g.json"
    games.write_text(GOOD)
    real = tmp_path / "runs" / "today.jsonl"
    real.parent.mkdir()
    latest = tmp_path / "latest.jsonl"
    latest.symlink_to(real)
    assert run([str(games)], out=str(latest))[0] == 0
    assert latest.is_symlink()
    assert json.loads(real.read_text())["valid"] is True
    assert _leftovers(tmp_path) == _leftovers(real.parent) == []


def test_a_run_that_fails_leaves_the_previous_output_and_no_hidden_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(task: Any) -> Any:
        raise RuntimeError("a worker pool that broke")

    monkeypatch.setattr(batch, "work_entries", broken)
    games = tmp_path / "g.json"
    games.write_text(GOOD)
    out = tmp_path / "o.jsonl"
    out.write_text("an earlier output\n")
    with pytest.raises(RuntimeError, match="a worker pool that broke"):
        run([str(games)], out=str(out))
    assert out.read_text() == "an earlier output\n"
    assert _leftovers(tmp_path) == []


def _written_anywhere(folder: Path, out: Path) -> int:
    """The bytes of `out` and of any hidden file beside it (where a run may write first)."""
    return sum(p.stat().st_size for p in folder.iterdir() if p.name.startswith((out.name, ".")))


# --- special files ---------------------------------------------------------------------------


def test_devices_and_fifos_in_a_folder_are_entries_not_hangs(tmp_path: Path) -> None:
    folder = tmp_path / "sd"
    folder.mkdir()
    (folder / "a-good.json").write_text(GOOD)
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    os.mkfifo(folder / "x.json")
    os.mkfifo(folder / "y.jsonl")
    out = tmp_path / "o.jsonl"
    for jobs in ("1", "2"):
        done = neweden("validate", str(folder), "--out", str(out), "--jobs", jobs, timeout=60)
        assert done.returncode == 1, done.stderr
        reports = {r["source"]["path"]: r for r in map(json.loads, out.read_text().splitlines())}
        assert reports[f"{folder}/a-good.json"]["valid"] is True
        for name, kind in [
            ("x.json", "a FIFO"),
            ("y.jsonl", "a FIFO"),
            ("zero.json", "a character device"),
            ("zero.jsonl", "a character device"),
        ]:
            (problem,) = reports[f"{folder}/{name}"]["errors"]
            assert problem["code"] == "not_found"
            assert f"not a regular file ({kind})" in problem["message"]


def test_a_fifo_or_a_device_given_as_a_path_is_an_entry(tmp_path: Path) -> None:
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    done = neweden("validate", str(fifo), "/dev/zero", "--jobs", "1", timeout=60)
    assert done.returncode == 1
    assert f"{fifo}: UNREADABLE not_found at /" in done.stdout
    assert "/dev/zero: UNREADABLE not_found at /" in done.stdout


def test_score_refuses_a_device_and_bounds_standard_input(tmp_path: Path) -> None:
    done = neweden("score", "/dev/zero", timeout=60)
    assert done.returncode == 2
    assert (
        done.stderr == "neweden: cannot read /dev/zero: not a regular file (a character device)\n"
    )
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    done = neweden("score", str(fifo), timeout=60)
    assert done.returncode == 2
    assert "not a regular file (a FIFO)" in done.stderr
    done = neweden("score", "-", input=" " * (3 << 20), timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("/: too_large: the input is more than 1,048,579 bytes")
    done = neweden("score", "-", input=GOOD, timeout=60)
    assert done.returncode == 0


def test_score_of_a_big_regular_file_says_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (3 << 20))
    done = neweden("score", str(big), timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        "/: too_large: the game is 3,145,728 bytes; the limit is 1,048,576 (1 MiB)\n"
    )


def test_a_json_file_over_one_mib_is_too_large_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a-big.json").write_bytes(b" " * (3 << 20))
    (tmp_path / "b-good.json").write_text(GOOD)
    out = tmp_path / "o.jsonl"
    code, _, _ = run([str(tmp_path)], out=str(out))
    big, good = map(json.loads, out.read_text().splitlines())
    assert big["errors"][0]["code"] == "too_large"
    assert big["errors"][0]["message"].startswith("the game is 3,145,728 bytes")
    assert good["valid"] is True
    assert code == 1


def test_a_file_name_that_is_not_utf8_is_shown_with_a_replacement(tmp_path: Path) -> None:
    folder = tmp_path / "sd"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/\xff.json", "w") as handle:
        handle.write(GOOD)
    missing = os.fsdecode(os.fsencode(folder) + b"/\xfe.json")
    out, table = tmp_path / "o.jsonl", tmp_path / "o.csv"
    code, text, err = run([str(folder), missing], out=str(out), csv_path=str(table))
    assert code == 1  # a PATH not found: said, not counted, and never all valid
    assert text.splitlines()[0] == f"{folder}/\ufffd.json: valid  A 9 · B 6"
    (first,) = map(json.loads, out.read_text().splitlines())
    assert first["source"]["path"] == f"{folder}/\ufffd.json"
    assert err == f"neweden: {folder}/\ufffd.json: no such file or folder\n"
    assert f"{folder}/\ufffd.json" in table.read_text()


# --- a full disk ---------------------------------------------------------------------------------


def test_out_to_dev_full_is_exit_2_with_a_clear_message(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n") * 200)
    done = neweden("validate", str(games), "--out", "/dev/full", "--quiet", "--jobs", "1")
    assert done.returncode == 2
    assert done.stderr.startswith("neweden: cannot write /dev/full: No space left on device")
    assert "Traceback" not in done.stderr


def test_standard_output_on_a_full_disk_is_exit_2(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n") * 500)
    out = tmp_path / "o.jsonl"
    with open("/dev/full", "w") as full:
        done = neweden("validate", str(games), "--out", str(out), "--jobs", "1", stdout=full)
    assert done.returncode == 2
    assert done.stderr == (
        "neweden: cannot write standard output: No space left on device; "
        "the outputs of this run are not kept\n"
    )
    assert not out.exists()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("option", ["--out", "--csv"])
def test_a_disk_that_fills_up_keeps_the_previous_output(tmp_path: Path, option: str) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n") * 2_000)  # some 1 MB of reports, 400 KB of rows
    target = tmp_path / "o.txt"
    target.write_text("the output of an earlier run\n")
    done = neweden(
        "validate",
        str(games),
        option,
        str(target),
        "--quiet",
        "--jobs",
        "1",
        preexec_fn=_bounded(file_size=200_000),
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"neweden: cannot write {target}: File too large")
    assert "Traceback" not in done.stderr
    assert target.read_text() == "the output of an earlier run\n"
    assert _leftovers(tmp_path) == []


# --- interrupts --------------------------------------------------------------------------------


class _InterruptedStdout(io.StringIO):
    """Standard output that gets Ctrl-C in the middle of writing the `at`-th chunk."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.calls = 0
        self.at = at

    def write(self, text: str) -> int:
        self.calls += 1
        if self.calls == self.at:
            signal.raise_signal(signal.SIGINT)
        return super().write(text)


def test_ctrl_c_while_a_chunk_is_written_leaves_outputs_that_agree(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n" + ILLEGAL + "\n") * 3 * CHUNK)  # 6 chunks
    out, table = tmp_path / "o.jsonl", tmp_path / "o.csv"
    stdout = _InterruptedStdout(at=3)
    code = validate(
        [str(games)],
        out=str(out),
        csv_path=str(table),
        jobs=1,
        stdout=stdout,
        stderr=io.StringIO(),
    )
    assert code == 130
    results = stdout.getvalue().splitlines()
    assert results[-1].startswith("interrupted after ")
    counted = int(results[-1].split()[2])
    reports = out.read_text().splitlines()
    rows = list(csv.DictReader(io.StringIO(table.read_text(), newline="")))
    games_in_rows = {r["source_line"] for r in rows}
    assert 0 < counted < 6 * CHUNK
    assert len(results) - 1 == len(reports) == len(games_in_rows) == counted
    assert len(rows) == sum(len(json.loads(r)["players"]) for r in reports)
    assert _leftovers(tmp_path) == []


def test_ctrl_c_is_held_until_the_run_starts_and_ignored_once_it_ends() -> None:
    with Interrupts() as interrupts:
        try:
            signal.raise_signal(signal.SIGINT)  # the outputs are being opened: held
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C acted while the outputs were being opened")
        with pytest.raises(KeyboardInterrupt):
            interrupts.release()  # the run starts: it acts now
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)  # during the run, outside a chunk: at once
        interrupts.ignore()
        try:
            signal.raise_signal(signal.SIGINT)  # the run is ending: ignored
        except KeyboardInterrupt:
            pytest.fail("Ctrl-C acted while the run was ending")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _started_workers(pid: int, count: int = 2) -> list[int]:
    """The worker processes of `pid`, once `count` of them have started (30 s at most)."""
    workers: list[int] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(workers) < count:
        workers = _children(pid)
        time.sleep(0.05)
    assert len(workers) == count
    return workers


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n") * 20_000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "neweden", "validate", str(games), "--jobs", "2"],
        stdout=subprocess.PIPE,  # never read: the parent blocks once the pipe is full
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    workers: list[int] = []
    try:
        workers = _started_workers(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        assert [w for w in workers if _alive(w)] == []
    finally:
        proc.kill()
        for worker in workers:  # the workers of a failed run would hold the pipe open
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)
        proc.communicate(timeout=30)


# --- unreadable folders ------------------------------------------------------------------------


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Folders that cannot be listed: os.scandir raises PermissionError for them (the
    tests run as root, for whom chmod 000 stops nothing)."""
    refused: set[str] = set()
    real = os.scandir

    def scandir(path: Any = ".") -> Any:
        if os.fspath(path) in refused:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    return refused


def test_an_unreadable_folder_is_an_entry_with_its_path(
    tmp_path: Path, unreadable: set[str]
) -> None:
    folder = tmp_path / "sd"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked" / "g.json").write_text(GOOD)
    (folder / "open.json").write_text(GOOD)
    unreadable.add(str(folder / "locked"))
    out = tmp_path / "o.jsonl"
    code, text, _ = run([str(folder)], out=str(out))
    assert code == 1
    assert text.splitlines()[:2] == [
        f"{folder}/locked: UNREADABLE not_found at /",
        f"{folder}/open.json: valid  A 9 · B 6",
    ]
    (locked, _) = map(json.loads, out.read_text().splitlines())
    assert locked["source"] == {"path": f"{folder}/locked", "line": None}
    assert locked["errors"][0]["message"] == "cannot read the folder: Permission denied"


def test_an_unreadable_folder_given_as_a_path_is_an_entry(
    tmp_path: Path, unreadable: set[str]
) -> None:
    unreadable.add(str(tmp_path))
    code, text, _ = run([str(tmp_path)])
    assert code == 1
    assert text.startswith(f"{tmp_path}: UNREADABLE not_found at /\n1 games: 0 valid")


# --- --jobs --------------------------------------------------------------------------------------


def test_absurd_jobs_are_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "g.json"
    games.write_text(GOOD)
    for jobs in (str(10**20), "1025"):
        assert main(["validate", str(games), "--jobs", jobs]) == 2
        assert "--jobs is at most 1,024" in capsys.readouterr().err


def test_jobs_are_capped_at_four_a_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real = workers.ProcessPoolExecutor

    def pool(workers: int, **kwargs: Any) -> Any:
        started.append(workers)
        return real(1, **kwargs)  # one is enough to see the run through

    monkeypatch.setattr(workers, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    games = tmp_path / "g.json"
    games.write_text(GOOD)
    code, _, err = run([str(games)], jobs=512)
    assert code == 0
    assert started == [8]
    assert "--jobs 512 is more than 4 a core; 8 used" in err


# --- CSV ---------------------------------------------------------------------------------------


def test_csv_cells_are_quoted_and_formulas_neutralised(tmp_path: Path) -> None:
    names = ["=HYPERLINK(1)", "+1", "@SUM", "a\rb", "c\nd", 'q"t,e', "e\x00f", "-x", "\tt", "ok"]
    docs = [
        game("military", player(names[i], line(2)), player(names[i + 1], line(2)))
        for i in range(0, len(names), 2)
    ]
    docs.append(
        game("military", player("minus", line(1), bonuses=[{"name": "fine", "points": -5}]))
    )
    games = tmp_path / "g.jsonl"
    games.write_text("".join(json.dumps(d) + "\n" for d in docs))
    table = tmp_path / "o.csv"
    run([str(games)], csv_path=str(table))
    raw = table.read_bytes()
    assert b"\x00" not in raw
    assert raw.startswith(CSV_HEADER.encode() + b"\n")
    rows = list(csv.DictReader(io.StringIO(raw.decode(), newline="")))
    assert [r["player"] for r in rows] == [
        "'=HYPERLINK(1)",
        "'+1",
        "'@SUM",
        "a\rb",
        "c\nd",
        'q"t,e',
        "e\ufffdf",
        "'-x",
        "'\tt",
        "ok",
        "minus",
    ]
    assert rows[-1]["bonuses"] == "-5"  # a negative number stays a number
    assert int(rows[-1]["total"]) < 0
    assert raw.count(b"\r") == 1  # inside the quoted cell only
    assert b'"a\rb"' in raw
    assert b'"c\nd"' in raw


#: Cells as a table row holds them: None, booleans, whole numbers (negative too), texts a
#: spreadsheet would misread (a formula's start, the separators, quotes, line breaks, NUL),
#: and a value of another kind (a float, as a meta value could be).
_CELL_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from(["0", "1", "true", "=1", "+x", "-2", "@a", "\tt", "a,b", "a;b", 'q"', "l\nm"]),
    st.text(alphabet=st.sampled_from(list('ab=+-@,;"\r\n\t\x00 é')), max_size=6),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([",", ";"]), st.lists(_CELL_VALUES, max_size=8))))
def test_a_csv_line_is_its_cells_each_as_csv_cell_makes_it(
    rows: list[tuple[str, list[Any]]],
) -> None:
    # csv_line makes a text's cell once per separator and an int's or None's without a call:
    # every row, the separators interleaved and texts repeated, must be its cells as the
    # one function of a cell writes them (a True must not be taken for a 1, nor a text's
    # cell for one separator used with the other)
    for sep, row in rows * 2:
        assert csv_line(row, sep) == sep.join([csv_cell(v, sep) for v in row]) + "\n"


def test_the_cells_kept_between_rows_are_few_and_short() -> None:
    # csv_line keeps each short text's cell for the rows to come; a run of long meta texts
    # (up to 16 KB each) must not stay in memory with the process after the run
    long_texts = [f"{i}," + "x" * 16_000 for i in range(50)]
    for text in long_texts:
        assert csv_line(["P1", text], ",") == f'P1,"{text}"\n'
    kept = cells._TEXT_CELLS[","]
    assert "P1" in kept
    assert max(len(text) for text in kept) <= cells._LONGEST_KEPT
    for i in range(cells._MOST_TEXTS + 10):
        csv_line([f"name {i}"], ",")
    assert len(cells._TEXT_CELLS[","]) <= cells._MOST_TEXTS + 1


# --- --svg names ---------------------------------------------------------------------------------


def test_svg_names_never_collide_and_stay_the_same() -> None:
    sources = ["a/b.json", "a__b.json", "a_b.json", "a?b.json", "x.jsonl:3", "x.jsonl_L3"]
    names = [svg_name(Entry(s, None, None)) for s in sources[:4]]
    names += [svg_name(Entry("x.jsonl", 3, None)), svg_name(Entry("x.jsonl_L3", None, None))]
    assert len(set(names)) == len(names)
    assert names == [svg_name(Entry(s, None, None)) for s in sources[:4]] + names[4:]
    assert names[0].startswith("a__b.json-")
    long = svg_name(Entry("d/" * 300 + "é" * 200 + ".json", None, None))
    assert len(long.encode()) <= 255
    assert long.endswith(".json-" + long[-16:-4] + ".svg")


def test_two_games_whose_names_look_alike_get_two_pictures(tmp_path: Path) -> None:
    folder = tmp_path / "sd"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "b.json").write_text(ILLEGAL)
    (folder / "a__b.json").write_text(ILLEGAL)
    pictures = tmp_path / "pictures"
    run([str(folder)], svg_dir=str(pictures), quiet=True)
    assert len(list(pictures.glob("*.svg"))) == 2


# --- nothing to check --------------------------------------------------------------------------


def test_nothing_to_check_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    assert main(["validate", str(tmp_path), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert "nothing to check: no game found" in captured.err
    assert captured.out == ""  # no "0 games" summary


def test_a_walk_on_a_dask_cluster_leaves_out_the_runs_own_output(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra")
    folder = tmp_path / "sd"
    folder.mkdir()
    (folder / "g.jsonl").write_text((GOOD + "\n") * 5)
    out = folder / "out.jsonl"
    out.write_text("an earlier output, not a game\n")
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    try:
        code, text, err = run([str(folder)], out=str(out), scheduler=cluster.scheduler_address)
    finally:
        cluster.close()
    assert code == 0, err
    assert text.splitlines()[-1].startswith("5 games: 5 valid")
    assert f"{out} is left out: it is an output of this run" in err
    assert len(out.read_text().splitlines()) == 5


def test_a_gzip_of_blank_lines_is_too_large_after_one_mib_not_read_to_its_end(
    tmp_path: Path,
) -> None:
    """Issue 35: 194 KB of `.gz` that expand to 200 MB of blank lines cost 99 s of CPU before
    "nothing to check". A compressed file holds at most 1 MiB of blank lines in a row: then
    one `too_large` entry at the first of them, and the rest is not read. The games before
    the run are checked as usual."""
    import gzip

    path = tmp_path / "bomb.jsonl.gz"
    one = json.dumps(game("populist", player("Ana", line(2)), requirements=["A1"]))
    with gzip.open(path, "wb", compresslevel=1) as handle:
        handle.write(b"\n" * 3 + one.encode() + b"\n")
        for _ in range(64):  # 64 MiB of newlines
            handle.write(b"\n" * (1024 * 1024))
        handle.write(one.encode() + b"\n")
    out = tmp_path / "out.jsonl"
    code = validate([str(path)], out=str(out), quiet=True, stdout=io.StringIO())
    assert code == 1
    first, bomb = (json.loads(x) for x in out.read_text().splitlines())
    assert (first["source"]["line"], first["valid"]) == (4, True)
    assert bomb["source"]["line"] == 5
    (error,) = bomb["errors"]
    assert error["code"] == "too_large"
    assert "lines 5 to 1,048,581 are blank" in error["message"]
    assert "the rest of the file is not read" in error["message"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_by_sigkill_is_exit_2_naming_the_input_and_the_outputs_kept(
    tmp_path: Path,
) -> None:
    """Issue 35, finding 5: a worker killed (the out-of-memory killer's SIGKILL) ended
    `validate` with a BrokenProcessPool traceback and exit 1, the code of "some games
    invalid", after 40,797 of 60,000 lines: a script took it for a complete run. Now: exit 2,
    one line on standard error saying where the games not checked start and that the
    outputs are not kept, and the previous --out as it was."""
    games = tmp_path / "g.jsonl"
    games.write_text((GOOD + "\n") * 200_000)
    out = tmp_path / "out.jsonl"
    out.write_text("the previous run\n")
    command = ["validate", str(games), "--jobs", "2", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "neweden", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        workers = _started_workers(proc.pid)
        time.sleep(0.5)  # the run under way
        os.kill(workers[0], signal.SIGKILL)
        _stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 2, stderr
    assert "Traceback" not in stderr
    (said,) = stderr.splitlines()
    assert re.fullmatch(
        r"neweden: a worker process stopped abruptly \(killed, perhaps because the system ran "
        r"out of memory\) while the games from .*g\.jsonl:\d+ on were being checked; the run "
        r"is incomplete and its outputs are not kept \(each output file keeps what it held "
        r"before\)",
        said,
    ), said
    assert out.read_text() == "the previous run\n"
    assert _leftovers(tmp_path) == []


def _lost_or_scored(games: list[Any]) -> list[dict[str, Any]]:
    """A worker's task that kills its own process at a game "lost" (after the chunks before
    it are done)."""
    if "lost" in games:
        time.sleep(1)
        os.kill(os.getpid(), signal.SIGKILL)
    return workers.work_inputs(games)


def test_score_many_names_the_first_game_not_scored_when_a_worker_is_lost() -> None:
    """The Python API raises WorkerLost (a BrokenProcessPool, as before) with the place of
    the first game of the chunk that did not come back."""
    from concurrent.futures.process import BrokenProcessPool

    from neweden.catalog.catalog import BUILTIN

    games: list[Any] = [GOOD] * 4 + ["lost"] + [GOOD] * 5
    settings = workers.Settings(BUILTIN, False)
    found: list[dict[str, Any]] = []
    reports = workers.ordered(workers.in_chunks(games, 2), _lost_or_scored, 2, settings)
    with pytest.raises(BrokenProcessPool) as raised:
        found.extend(reports)
    assert isinstance(raised.value, batch.WorkerLost)
    assert raised.value.source == "game 5"
    assert len(found) == 4


def _double(chunk: list[int]) -> list[int]:
    return [2 * n for n in chunk]


def test_a_worker_lost_while_a_chunk_is_sent_names_the_first_chunk_not_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker killed between two results breaks the pool while the next chunk is sent:
    `submit` raises BrokenProcessPool, not a future. That too is the worker lost, naming
    where the first chunk not done starts (it was a traceback and exit 1)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    sent = 0
    submit = ProcessPoolExecutor.submit

    def breaking(self: ProcessPoolExecutor, fn: Any, /, *args: Any) -> Any:
        nonlocal sent
        sent += 1
        if sent == 3:
            raise BrokenProcessPool("a child process terminated abruptly")
        return submit(self, fn, *args)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", breaking)
    settings = workers.Settings(batch.BUILTIN, detail=False)
    chunks = iter([[1, 2], [3, 4], [5, 6], [7, 8]])
    with pytest.raises(batch.WorkerLost) as lost:
        list(workers.ordered(chunks, _double, 2, settings))
    assert "game 1" in str(lost.value)


#: Lines nested past what msgspec follows: a bare array, and a game's field.
DEEP_LINES = [
    "[" * 200_000 + "]" * 200_000,
    '{"mode": "military", "players": ' + "[" * 200_000 + "]" * 200_000 + ', "meta": {"t": 7}}',
]


def test_a_line_nested_past_reading_is_unreadable_and_every_output_goes_on(
    tmp_path: Path,
) -> None:
    """Once a RecursionError in a worker (a table row's names, a picture's meta) that ended
    the run with a traceback; now each such line is its own unreadable entry."""
    games = tmp_path / "round.jsonl"
    games.write_text("\n".join([*DEEP_LINES, GOOD, ILLEGAL]) + "\n")
    out, table, page, pictures = (tmp_path / n for n in ("out.jsonl", "t.csv", "p.html", "svg"))
    args = ["--out", str(out), "--csv", str(table), "--html", str(page), "--svg", str(pictures)]
    done = subprocess.run(
        [sys.executable, "-m", "neweden", "validate", str(games), *args, "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # invalid entries, no crash
    assert "Traceback" not in done.stderr
    assert "4 games: 1 valid, 3 invalid" in done.stdout
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["valid"] for x in lines] == [False, False, True, False]
    assert [e["code"] for e in lines[0]["errors"]] == ["bad_type"]
    assert lines[1]["errors"]  # said where it stands, under the cut
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [r["source_line"] for r in rows[:2]] == ["1", "2"]
    assert "round.jsonl:2" in page.read_text()
    assert len(list(pictures.glob("*.svg"))) == 1  # the illegal game's; no picture of the rest
