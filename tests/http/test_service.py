"""The HTTP service, against a real server process on a loopback port (FORMAT §5)."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import neweden
from neweden.cli.main import example_game
from tests.games import game, line, player
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({"NEWEDEN_READ_TIMEOUT": "1"}, log) as (port, pid):
        _PIDS[port] = pid
        yield port


_PIDS: dict[int, int] = {}


def _server_pid(port: int) -> int:
    return _PIDS[port]


def call(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    content_type: str | None = "application/json",
) -> tuple[int, str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"content-type": content_type} if content_type else {}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    kind = response.getheader("content-type", "")
    conn.close()
    return response.status, kind, json.loads(raw) if "json" in kind else raw.decode()


GOOD = json.dumps(game("military", player("A", line(3)), player("B", line(2)))).encode()


def test_healthz_says_the_version(server: int) -> None:
    assert call(server, "GET", "/healthz") == (
        200,
        "application/json",
        {"status": "ok", "version": neweden.__version__},
    )


def test_score_is_the_lean_report_and_detail_adds_the_trail(server: int) -> None:
    status, _, report = call(server, "POST", "/v1/score", example_game())
    assert status == 200
    assert report == neweden.score(example_game(), detail=False)
    assert report["players"][0]["score"]["total"] == 78
    status, _, detailed = call(server, "POST", "/v1/score?detail=true", example_game())
    assert "audit" in detailed["players"][0]


def test_an_invalid_game_is_still_200_with_valid_false(server: int) -> None:
    doc = json.dumps(game("military", player("A", line(2)), player("A", line(2)))).encode()
    status, _, report = call(server, "POST", "/v1/score", doc)
    assert (status, report["valid"]) == (200, False)


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b'{"mode": ', "application/json", 400),
        (b'{"mode": "x", "players": []}', "application/json", 422),
        (GOOD, "text/plain", 415),
        (GOOD, None, 415),
        (GOOD, "application/json; charset=utf-8", 200),
        (GOOD, "application/vnd.newedengame+json", 200),
    ],
)
def test_problems_and_content_types(
    server: int, body: bytes, content_type: str | None, status: int
) -> None:
    got, kind, answer = call(server, "POST", "/v1/score", body, content_type)
    assert got == status
    if status != 200:
        assert kind == "application/problem+json"
        assert set(answer) == {"type", "title", "status", "detail", "errors"}
        assert answer["status"] == status


def test_422_lists_every_decode_problem(server: int) -> None:
    status, _, answer = call(
        server, "POST", "/v1/score", b'{"mode": "x", "players": [{"name": 1, "city": []}], "y": 0}'
    )
    assert status == 422
    assert [(e["code"], e["path"]) for e in answer["errors"]] == [
        ("bad_value", "/mode"),
        ("bad_type", "/players/0/name"),
        ("unknown_field", "/y"),
    ]


def test_413_from_content_length_without_reading_the_body(server: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.putrequest("POST", "/v1/score")
    conn.putheader("content-type", "application/json")
    conn.putheader("content-length", str(200 * 1024 * 1024))
    conn.endheaders()  # and never send the 200 MB
    with conn.getresponse() as response:
        assert response.status == 413
        assert json.loads(response.read())["title"] == "Content Too Large"
    conn.close()


@pytest.mark.parametrize(
    ("declared", "status", "said"),
    [
        (b"\xb9", 422, ""),
        (b"9" * 5000, 413, "9" * 5000),
        (b"0" * 5000 + b"5", 422, ""),
        (b"99999999999999999999", 413, "99999999999999999999"),
    ],
)
def test_a_content_length_that_int_cannot_read_is_no_server_error(
    declared: bytes, status: int, said: str
) -> None:
    """Content-Length "¹" (byte 0xB9, a digit to str.isdigit that int() refuses) or of more
    digits than int() reads (4,300), as a server that passes headers on unchecked gives it to
    the application: the body is read and answered (422: not a game), or refused as too
    large saying the length as given, never a server error."""
    import asyncio
    from collections.abc import MutableMapping

    from neweden.http.service import create_app

    sent: list[MutableMapping[str, Any]] = []
    body = [{"type": "http.request", "body": b"{}", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return body.pop(0) if body else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    headers = [(b"content-type", b"application/json"), (b"content-length", declared)]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/score",
        "raw_path": b"/v1/score",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(create_app()(scope, receive, send))
    assert sent[0]["status"] == status
    assert said in json.loads(sent[1]["body"])["detail"]


def test_413_while_reading_a_chunked_body(server: int) -> None:
    def pieces() -> Iterator[bytes]:
        yield b'{"mode": "military", "meta": {"x": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}}'

    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.request(
        "POST",
        "/v1/score",
        body=pieces(),
        headers={"content-type": "application/json"},
        encode_chunked=True,
    )
    assert conn.getresponse().status == 413
    conn.close()


def test_a_slow_client_gets_408(server: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.putrequest("POST", "/v1/score")
    conn.putheader("content-type", "application/json")
    conn.putheader("content-length", "1000")
    conn.endheaders(b'{"mode": ')  # 9 of 1,000 bytes, then nothing
    with conn.getresponse() as response:
        assert response.status == 408
    conn.close()


def test_validate_a_game_and_a_lone_city(server: int) -> None:
    status, _, answer = call(server, "POST", "/v1/validate", GOOD)
    assert status == 200
    assert [p["name"] for p in answer["players"]] == ["A", "B"]
    city = json.dumps({"city": [*line(2), {"row": 0, "col": 0, "card": "atomic-waste"}]})
    status, _, answer = call(server, "POST", "/v1/validate", city.encode())
    assert status == 200
    assert answer["players"][0]["name"] is None
    assert [(e["code"], e["path"]) for e in answer["players"][0]["errors"]] == [
        ("overlap", "/city/2")
    ]


def test_batch_in_order_with_unreadable_entries(server: int) -> None:
    body = b'{"games": [' + GOOD + b', {"mode": 3}, ' + example_game() + b"]}"
    status, _, answer = call(server, "POST", "/v1/score/batch", body)
    assert status == 200
    results = answer["results"]
    assert [r["valid"] for r in results] == [True, False, True]
    assert results[1]["errors"][0]["code"] == "bad_type"
    assert results[2]["players"][0]["score"]["total"] == 78


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b'{"games": [', 400),
        (b'{"gamez": []}', 422),
        (b'{"games": [' + b",".join([b"{}"] * 1001) + b"]}", 413),
    ],
)
def test_batch_envelope_problems(server: int, body: bytes, status: int) -> None:
    assert call(server, "POST", "/v1/score/batch", body)[0] == status


def test_404_and_405_are_problems(server: int) -> None:
    assert call(server, "GET", "/v2/nothing")[:2] == (404, "application/problem+json")
    assert call(server, "GET", "/v1/score")[:2] == (405, "application/problem+json")


def test_openapi_is_3_1_and_answers_follow_it(server: int) -> None:
    from openapi_spec_validator import validate

    status, _, document = call(server, "GET", "/openapi.json")
    assert status == 200
    validate(document)

    def check(name: str, instance: Any) -> None:
        schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        jsonschema.validate(instance, schema)

    check("Report", call(server, "POST", "/v1/score", example_game())[2])
    check("Validation", call(server, "POST", "/v1/validate", GOOD)[2])
    check("ProblemDetails", call(server, "POST", "/v1/score", b"{")[2])
    check(
        "BatchAnswer", call(server, "POST", "/v1/score/batch", b'{"games": [' + GOOD + b", 1]}")[2]
    )
    check("Health", call(server, "GET", "/healthz")[2])


def test_the_api_page_works_offline(server: int) -> None:
    status, kind, page = call(server, "GET", "/docs")
    assert (status, kind.split(";")[0]) == (200, "text/html")
    assert "/docs/assets/swagger-ui-bundle.js" in page
    assert "http" not in page.replace('href="/openapi.json"', "")  # no CDN
    assert call(server, "GET", "/docs/assets/swagger-ui-bundle.js")[0] == 200


def test_sixteen_concurrent_clients(server: int) -> None:
    games = [json.dumps(game("military", player("A", line(n % 7 + 1)))).encode() for n in range(64)]
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda g: call(server, "POST", "/v1/score", g), games))
    assert all(status == 200 for status, _, _ in answers)
    assert [a[2] for a in answers] == [neweden.score(g, detail=False) for g in games]


def test_concurrent_clients_get_their_own_language_and_detail(server: int) -> None:
    """Games posted at once are scored together (neweden.http.together): each answer is
    still its own game's report, in its request's language, with its own detail."""
    from tests.games import problem_games

    asked = [
        (json.dumps(g).encode(), ("en", "pt-BR")[n % 2], n % 3 == 0)
        for n, g in enumerate(problem_games(48, 7))
    ]

    def post(one: tuple[bytes, str, bool]) -> tuple[int, Any]:
        body, lang, detail = one
        conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
        headers = {"content-type": "application/json", "accept-language": lang}
        conn.request("POST", f"/v1/score?detail={str(detail).lower()}", body, headers)
        response = conn.getresponse()
        answer = (response.status, json.loads(response.read()))
        conn.close()
        return answer

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(post, asked))
    assert answers == [
        (200, neweden.score(body, detail=detail, lang=lang)) for body, lang, detail in asked
    ]


def test_render_answers_svg(server: int) -> None:
    import xml.etree.ElementTree as ET

    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    conn.request(
        "POST",
        "/v1/render?player=Sarah&overlay=towers",
        body=example_game(),
        headers={"content-type": "application/json"},
    )
    with conn.getresponse() as response:
        assert response.status == 200
        assert response.getheader("content-type", "").startswith("image/svg+xml")
        root = ET.fromstring(response.read())
    conn.close()
    assert root.tag.endswith("svg")
    status, kind, answer = call(server, "POST", "/v1/render?player=Nobody", example_game())
    assert (status, kind) == (422, "application/problem+json")
    assert "no player is named" in answer["detail"]


def test_a_batch_body_over_32_mib_is_413(server: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    conn.putrequest("POST", "/v1/score/batch")
    conn.putheader("content-type", "application/json")
    conn.putheader("content-length", str(33 * 1024 * 1024))
    conn.endheaders()
    with conn.getresponse() as response:
        assert response.status == 413
    conn.close()


def _rss_kb(pid: int) -> int:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    return 0


def test_32_concurrent_clients_mixed_bodies(server: int) -> None:
    bodies = [
        (GOOD, 200),
        (example_game(), 200),
        (b'{"mode": ', 400),
        (b'{"mode": "x", "players": []}', 422),
        (json.dumps(game("military", player("A", line(2)), player("A", line(2)))).encode(), 200),
    ]
    expected = {b: neweden.score(b, detail=False) for b, s in bodies if s == 200}

    def client(n: int) -> list[bool]:
        ok = []
        for k in range(12):
            body, status = bodies[(n + k) % len(bodies)]
            got, _, answer = call(server, "POST", "/v1/score", body)
            ok.append(got == status and (status != 200 or answer == expected[body]))
        return ok

    pid = _server_pid(server)
    with ThreadPoolExecutor(32) as pool:  # a first round warms the server up
        assert all(all(r) for r in pool.map(client, range(32)))
    before = _rss_kb(pid)
    started = time.monotonic()
    with ThreadPoolExecutor(32) as pool:
        results = [x for r in pool.map(client, range(32, 96)) for x in r]
    elapsed = time.monotonic() - started
    assert len(results) == 64 * 12
    assert all(results)  # 0 failed requests, every answer right
    assert elapsed < 60  # bounded in time
    assert _rss_kb(pid) - before < 20_000  # memory flat: under 20 MB of growth
