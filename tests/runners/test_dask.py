"""Batch scoring on a Dask cluster: the same results, in the same order, as the single
machine (a distributed.LocalCluster of 2 worker processes on loopback)."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN
from neweden.runners import batch
from neweden.runners.batch import validate
from neweden.runners.results import score_entries
from neweden.runners.sources import iter_entries
from tests.games import card, game, line, player

distributed = pytest.importorskip("distributed", reason="the dask extra")
ndask = pytest.importorskip("neweden.runners.dask", reason="the dask extra")

GOOD = json.dumps(game("military", player("A", line(3)), player("B", line(2))))
ILLEGAL = json.dumps(game("military", player("A", [*line(2), card(0, 0)])))


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    lines = []
    for i in range(300):  # enough lines to split the .jsonl into several blocks
        lines.append([GOOD, ILLEGAL, "{broken", "", '{"mode": 3}'][i % 5])
    (root / "many.jsonl").write_text("\n".join(lines) + "\n")
    with gzip.open(root / "more.jsonl.gz", "wt") as handle:
        handle.write(f"{GOOD}\n{{\n")
    (root / "one.json").write_text(ILLEGAL)
    return root


def test_validate_on_the_cluster_equals_the_single_machine(
    client: Any, mixed: Path, tmp_path: Path
) -> None:
    paths = [str(mixed), str(tmp_path / "missing.jsonl")]
    local, remote = tmp_path / "local.jsonl", tmp_path / "remote.jsonl"
    local_csv, remote_csv = tmp_path / "local.csv", tmp_path / "remote.csv"
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    code = validate(paths, out=str(local), csv_path=str(local_csv), jobs=1, **quiet)
    remote_code = validate(
        paths,
        out=str(remote),
        csv_path=str(remote_csv),
        scheduler=client.scheduler.address,
        **quiet,
    )
    assert code == remote_code == 1
    assert remote.read_text() == local.read_text()
    assert remote_csv.read_text() == local_csv.read_text()
    assert len(local.read_text().splitlines()) == 240 + 2 + 1  # missing.jsonl: not counted


def test_a_jsonl_split_in_blocks_keeps_its_line_numbers(client: Any, mixed: Path) -> None:
    path = str(mixed / "many.jsonl")
    bag = ndask.score_entries_bag(ndask.entries_bag([path], blocksize=4096))
    assert bag.npartitions > 5
    remote = list(ndask.iter_results(bag, client))
    local = score_entries(list(iter_entries([path])), BUILTIN, False)
    assert [r.line for r in remote] == [r.line for r in local]
    sources = [json.loads(r.line)["source"]["line"] for r in remote]
    assert sources == [n for n in range(1, 301) if n % 5 != 4]  # blank lines skipped, counted


def test_score_bag_equals_score_many(client: Any) -> None:
    import dask.bag as db

    games: list[Any] = [GOOD, b"{", ILLEGAL, json.loads(GOOD)] * 5
    bag = ndask.score_bag(db.from_sequence(games, npartitions=3))
    assert bag.compute() == list(neweden.score_many(games, jobs=1))


def test_to_dataframe_has_the_csv_columns(client: Any, mixed: Path) -> None:
    bag = ndask.score_entries_bag(
        ndask.entries_bag([str(mixed / "one.json"), str(mixed / "more.jsonl.gz")])
    )
    frame = ndask.to_dataframe(bag).compute()
    assert list(frame.columns) == ndask.COLUMNS
    assert str(frame["total"].dtype) == "Int64"
    assert str(frame["legal"].dtype) == "boolean"
    assert frame["player"].tolist()[:1] == ["A"]
    assert frame["game_valid"].tolist() == [False, True, True, False]


def test_scheduler_without_a_reachable_cluster_exits_2(
    mixed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "CONNECT_SECONDS", 1)  # Dask tries until then
    err = io.StringIO()
    code = validate([str(mixed)], scheduler="tcp://127.0.0.1:9", stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert "cannot reach the scheduler" in err.getvalue()


def test_only_invalid_on_the_cluster_lists_what_the_single_machine_lists(
    client: Any, mixed: Path
) -> None:
    """--only-invalid holds on the cluster too: the same lines as on one machine."""
    local, remote = io.StringIO(), io.StringIO()
    code = validate([str(mixed)], jobs=1, only_invalid=True, stdout=local, stderr=io.StringIO())
    remote_code = validate(
        [str(mixed)],
        scheduler=client.scheduler.address,
        only_invalid=True,
        stdout=remote,
        stderr=io.StringIO(),
    )
    assert code == remote_code == 1
    shown = remote.getvalue().splitlines()
    assert [x.split(" in ")[0] for x in shown] == [
        x.split(" in ")[0] for x in local.getvalue().splitlines()
    ]
    assert not any(": valid " in x for x in shown[:-1])
    assert any(": INVALID " in x for x in shown)
