"""The API of a folder under review over HTTP (`neweden review DIR` is `neweden serve` with
NEWEDEN_REVIEW=DIR): the queue, a game read with its ETag and saved with If-Match (a stale
save a 412 carrying the version saved, none a 428), the history and a restore, a photo
served with the type its bytes say and nosniff, and what is refused (a path out of the
folder, a compressed file, a body that is not JSON, a photo that is not a picture)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_serve import request
from tests.runners.test_review import PNG, _game, _typo
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    root = tmp_path_factory.mktemp("review")
    (root / "a.json").write_text(json.dumps(_game()))
    bad = _typo()
    bad["meta"] = {"photo": "a.png"}
    (root / "b.json").write_text(json.dumps(bad))
    (root / "a.png").write_bytes(PNG)
    (root / "round.jsonl").write_text(json.dumps(_game()) + "\n" + json.dumps(_typo()) + "\n")
    with running_server({"NEWEDEN_REVIEW": str(root)}) as (port, _):
        yield port, root


def call(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """A request (a body sent as JSON)."""
    sent = {"content-type": "application/json"} if body is not None else {}
    return request(port, method, path, body, sent | (headers or {}))


def _json(data: bytes) -> Any:
    return json.loads(data)


def test_the_queue_lists_the_invalid_first_with_counts(served: tuple[int, Path]) -> None:
    port, _root = served
    status, _, body = call(port, "GET", "/v1/review/queue")
    assert status == 200
    answer = _json(body)
    assert [g["id"] for g in answer["games"]][:2] == ["b.json", "round.jsonl:2"]
    assert answer["counts"]["invalid"] == 2
    assert answer["games"][0]["photo"] == "a.png"


def test_a_game_is_saved_with_the_version_it_edited(served: tuple[int, Path]) -> None:
    port, root = served
    status, headers, body = call(port, "GET", "/v1/review/game?id=round.jsonl:2")
    assert status == 200
    opened = headers["etag"]
    fixed = json.dumps(_game()).encode()
    # no version named: 428; another version named: 412 with the version saved
    assert call(port, "PUT", "/v1/review/game?id=round.jsonl:2", fixed)[0] == 428
    stale = call(port, "PUT", "/v1/review/game?id=round.jsonl:2", fixed, {"if-match": '"x"'})
    assert stale[0] == 412
    refused = _json(stale[2])
    assert refused["errors"][0]["version"].encode() == body
    assert stale[1]["etag"] == opened
    status, headers, saved = call(
        port, "PUT", "/v1/review/game?id=round.jsonl:2", fixed, {"if-match": opened}
    )
    assert status == 200
    assert _json(saved)["etag"] == headers["etag"]
    assert (root / "round.jsonl").read_bytes().splitlines()[1] == fixed
    (version,) = _json(call(port, "GET", "/v1/review/history?id=round.jsonl:2")[2])["versions"]
    restored = call(
        port,
        "POST",
        f"/v1/review/restore?id=round.jsonl:2&version={version['version']}",
        headers={"if-match": headers["etag"]},
    )
    assert restored[0] == 200
    assert (root / "round.jsonl").read_bytes().splitlines()[1] == body
    # restored: the queue finds round.jsonl:2 invalid again
    queue = _json(call(port, "GET", "/v1/review/queue")[2])
    assert {g["id"]: g["valid"] for g in queue["games"]}["round.jsonl:2"] is False


def test_a_photo_is_served_as_its_bytes_say(served: tuple[int, Path]) -> None:
    port, _root = served
    status, headers, body = call(port, "GET", "/v1/review/photo?id=b.json")
    assert (status, headers["content-type"], body) == (200, "image/png", PNG)
    assert headers["x-content-type-options"] == "nosniff"
    assert call(port, "GET", "/v1/review/photo?id=a.json")[0] == 404  # names none


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/v1/review/game?id=../x.json", None, 403),
        ("GET", "/v1/review/game?id=%2Fetc%2Fhosts.json", None, 403),
        ("GET", "/v1/review/game?id=none.json", None, 404),
        ("PUT", "/v1/review/game?id=a.json", b"nope", 400),
        ("GET", "/v1/review/history?id=..%2Fa.json", None, 403),
        ("POST", "/v1/review/restore?id=a.json&version=..%2F..%2Fa.json", None, 404),
    ],
)
def test_what_the_api_refuses(
    served: tuple[int, Path], method: str, path: str, body: bytes | None, status: int
) -> None:
    port, _root = served
    got, headers, answer = call(port, method, path, body, {"if-match": '"x"'})
    assert got == status
    assert headers["content-type"] == "application/problem+json"
    assert _json(answer)["detail"]


def test_the_command_refuses_a_folder_that_is_not_one(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text("{}")
    done = subprocess.run(
        [sys.executable, "-m", "neweden", "review", str(tmp_path / "a.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == f"neweden: {tmp_path / 'a.json'} is not a folder\n"


def test_a_request_naming_another_host_is_refused(served: tuple[int, Path]) -> None:
    """(A review's finding.) A web page whose name was made to point at 127.0.0.1 (DNS
    rebinding) sends its own name as Host: the review answers only its own names."""
    port, _root = served
    assert call(port, "GET", "/v1/review/queue", headers={"host": "evil.example"})[0] == 400
    assert call(port, "GET", "/v1/review/queue", headers={"host": f"localhost:{port}"})[0] == 200
