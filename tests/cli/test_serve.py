"""`neweden serve` as a person runs it (docs/http.md): what the terminal shows (where it
listens, each request), `GET /`, browser origins (CORS) and its help."""

from __future__ import annotations

import http.client
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from neweden.cli.main import example_game
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'

ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """The lines a `neweden serve` process writes, read as they come."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert proc.stdout is not None
        stream = proc.stdout
        self.reader = threading.Thread(target=lambda: [self.lines.put(x) for x in stream])
        self.reader.start()

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.reader.join(timeout=10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def wait_for(self, pattern: str, seconds: float = 20) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no line matching {pattern!r} in:\n{''.join(self.seen)}")


@contextmanager
def serving(*args: str, env: dict[str, str] | None = None) -> Iterator[Terminal]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "neweden", *args],
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # a terminal shows both: the access log is on stdout
        text=True,
    )
    terminal = Terminal(proc)
    try:
        yield terminal
    finally:
        terminal.close()


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, raw


SERVING = r"neweden serving on http://127\.0\.0\.1:(\d+) \(docs: /docs\)"


def test_serve_says_where_it_listens_and_logs_each_request() -> None:
    with serving("serve", "--port", "0", env={"NEWEDEN_LANG": "en"}) as terminal:
        port = int(terminal.wait_for(SERVING).group(1))
        terminal.wait_for("Application startup complete")
        status, _, _ = request(
            port, "POST", "/v1/score", example_game(), {"content-type": "application/json"}
        )
        assert status == 200
        terminal.wait_for(r'127\.0\.0\.1:\d+ - "POST /v1/score HTTP/1\.1" 200')
        request(port, "GET", "/nothing")
        terminal.wait_for(r'"GET /nothing HTTP/1\.1" 404')


def test_serve_says_where_it_listens_in_portuguese() -> None:
    with serving("--lang", "pt-BR", "serve", "--port", "0") as terminal:
        found = terminal.wait_for(r"neweden servindo em http://127\.0\.0\.1:(\d+) \(")
        assert "(documentação: /docs)" in found.string
        assert "serving on" not in "".join(terminal.seen)


NETWORK = r"neweden: anyone on this network can open (http://([^/]+):(\d+)/) and use the service"
#: The half-block characters of a QR code printed two module rows a line (segno's compact
#: terminal form): each a (top, bottom) pair, True for a light module.
HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def _modules(lines: Sequence[str]) -> list[list[bool]]:
    """The modules (True: light) of a QR code as the terminal shows it."""
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALVES[c] for c in line.rstrip("\n")]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows


def test_serve_on_the_network_says_its_address_warns_and_shows_a_qr_code() -> None:
    """`--host 0.0.0.0`: the page's address on the local network (not 127.0.0.1), which
    answers; the warning that anyone there can use it; a QR code of that address, read back
    module by module from what the terminal shows (docs/web.md, "From a phone")."""
    segno = pytest.importorskip("segno", reason="the serve extra")
    with serving("serve", "--host", "0.0.0.0", "--port", "0", env={"NEWEDEN_LANG": "en"}) as t:
        found = t.wait_for(NETWORK)
        url, address, port = found.group(1), found.group(2), int(found.group(3))
        assert address not in ("127.0.0.1", "0.0.0.0")
        t.wait_for(re.escape(f"Open the page on a phone: {url} (or scan this code)"))
        code: list[str] = []
        while not code or set(code[-1].strip()) != {"▀"}:  # the code ends with a ▀ row
            code.append(t.wait_for(r"^[█▀▄ ]+$").string)
        t.wait_for("Application startup complete")
        conn = http.client.HTTPConnection(address, port, timeout=30)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        conn.close()
    shown = _modules(code)
    qr = segno.make(url, error="m")
    light = [[not dark for dark in row] for row in qr.matrix_iter(scale=1, border=4)]
    assert shown[: len(light)] == light
    assert not any(module for row in shown[len(light) :] for module in row)  # a half line


def test_serve_on_this_computer_shows_no_address_to_share() -> None:
    with serving("serve", "--port", "0", env={"NEWEDEN_LANG": "en"}) as terminal:
        terminal.wait_for("Application startup complete")
        assert "anyone on this network" not in "".join(terminal.seen)
        assert "█" not in "".join(terminal.seen)


def test_the_network_warning_in_portuguese() -> None:
    with serving("--lang", "pt-BR", "serve", "--host", "0.0.0.0", "--port", "0") as terminal:
        found = terminal.wait_for(r"neweden: qualquer pessoa nesta rede pode abrir http://")
        assert "sirva em 127.0.0.1 (o padrão)" in found.string
        terminal.wait_for(r"Abra a página num celular: http://\S+ \(ou leia este código\)")


def test_root_is_the_web_page_and_leads_to_the_api_page() -> None:
    with running_server({}) as (port, _):
        status, _, page = request(port, "GET", "/")
        assert status == 200
        assert b'href="/docs"' in page


PREFLIGHT = {
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type",
}


def preflight(port: int, origin: str) -> tuple[int, dict[str, str]]:
    asked = {"origin": origin, **PREFLIGHT}
    status, headers, _ = request(port, "OPTIONS", "/v1/score", None, asked)
    return status, headers


def test_every_cors_origin_counts() -> None:
    args = ("--cors-origin", "https://a.example", "--cors-origin", "https://b.example")
    with running_server({}, None, ("--log-level", "warning", *args)) as (port, _):
        for origin in ("https://a.example", "https://b.example"):
            status, headers = preflight(port, origin)
            assert (status, headers["access-control-allow-origin"]) == (200, origin)
            answer = request(
                port,
                "POST",
                "/v1/score",
                example_game(),
                {"origin": origin, "content-type": "application/json"},
            )
            assert answer[1]["access-control-allow-origin"] == origin
        status, headers = preflight(port, "https://c.example")
        assert status == 400
        assert "access-control-allow-origin" not in headers


def test_a_star_allows_any_origin() -> None:
    with running_server({}, None, ("--log-level", "warning", "--cors-origin", "*")) as (port, _):
        status, headers = preflight(port, "https://anyone.example")
        assert (status, headers["access-control-allow-origin"]) == (200, "*")


def test_without_cors_a_preflight_is_204_allowing_no_origin() -> None:
    with running_server({}) as (port, _):
        status, headers = preflight(port, "https://a.example")
        assert status == 204
        assert not [h for h in headers if h.startswith("access-control-")]
        assert headers["allow"] == "GET, POST, OPTIONS"
        # a plain OPTIONS (no preflight) is still a wrong method
        assert request(port, "OPTIONS", "/v1/score")[0] == 405


def _help(*lang: str) -> str:
    shown = subprocess.run(
        [sys.executable, "-m", "neweden", *lang, "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    return shown.stdout


@pytest.mark.parametrize("lang", [(), ("--lang", "pt-BR")], ids=["en", "pt-BR"])
def test_serve_help_lists_every_endpoint_and_cites_no_spec(lang: Sequence[str]) -> None:
    from neweden.http.api_types import openapi

    shown = _help(*lang)
    for path in [*openapi("0")["paths"], "/docs"]:
        assert path in shown
    assert "§" not in shown
    said = {  # each help text of serve, and a word of its translation
        "an API page at /docs": "página da API",
        "0: any free port": "qualquer porta livre",
        "repeat for more": "repita para mais",
        "only problems (no access log)": "sem log de acesso",
    }
    for english, portuguese in said.items():
        if lang:
            assert portuguese in shown
            assert english not in shown
        else:
            assert english in shown


def test_the_http_docs_cite_no_spec_users_do_not_have() -> None:
    text = (ROOT / "docs" / "http.md").read_text()
    assert not re.findall(r"(?:FORMAT|RULES) ?§", text)
    for source in (ROOT / "python" / "neweden" / "http").glob("*.py"):
        assert "§" not in source.read_text(), source
