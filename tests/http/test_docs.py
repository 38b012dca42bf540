"""What an app developer meets first (docs/http.md): the API page in a real browser (every
operation rendered, a try-it-out call answered), an OpenAPI document with operationIds, tags,
examples and a description on every property, and a Python client generated from it by
openapi-python-client that scores the example against a live server."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.cli.main import example_game
from tests.browser import CHROMIUM, FLAGS
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({}, log) as (port, _):
        yield port


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


@pytest.fixture(scope="module")
def document(server: int) -> dict[str, Any]:
    status, _, body = get(server, "/openapi.json")
    assert status == 200
    result: dict[str, Any] = json.loads(body)
    return result


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in document["paths"].items()
        for method, op in item.items()
    ]


# --- the document ---------------------------------------------------------------------------


def test_every_operation_has_an_id_a_tag_a_summary_and_a_description(
    document: dict[str, Any],
) -> None:
    ops = operations(document)
    assert {path for path, _, _ in ops} >= {
        "/v1/score",
        "/v1/validate",
        "/v1/score/batch",
        "/v1/render",
        "/v1/placements",
        "/v1/catalog",
        "/healthz",
    }
    ids = [op["operationId"] for _, _, op in ops]
    assert len(set(ids)) == len(ids)
    assert set(ids) == {
        "scoreGame", "validateGame", "scoreBatch", "renderGame", "placeCard", "getCatalog",
        "rankEvent", "health",
    }  # fmt: skip
    tags = {t["name"] for t in document["tags"]}
    for _, _, op in ops:
        assert op["tags"]
        assert set(op["tags"]) <= tags
        assert op["summary"]
        assert len(op["description"]) > 30


def test_the_examples_are_the_example_game_and_its_real_answers(
    server: int, document: dict[str, Any]
) -> None:
    game = json.loads(example_game())
    score = document["paths"]["/v1/score"]["post"]
    body = score["requestBody"]["content"]["application/json"]["examples"]
    assert body["example"]["value"] == game
    answer = score["responses"]["200"]["content"]["application/json"]["examples"]
    assert answer["example"]["value"] == neweden.score(example_game(), detail=False)
    for path in ("/v1/validate", "/v1/score/batch", "/v1/render"):
        assert document["paths"][path]["post"]["requestBody"]["content"]["application/json"][
            "examples"
        ]


def test_every_schema_property_is_described(document: dict[str, Any]) -> None:
    missing = [
        f"{name}.{key}"
        for name, schema in document["components"]["schemas"].items()
        for key, prop in schema.get("properties", {}).items()
        if not prop.get("description")
    ]
    assert missing == []
    described = sum(
        len(schema.get("properties", {})) for schema in document["components"]["schemas"].values()
    )
    assert described > 140


def test_the_report_schema_has_the_audit_trail(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["Report"]["properties"]["audit"] == {
        "$ref": "#/components/schemas/GameAudit",
        "description": schemas["Report"]["properties"]["audit"]["description"],
    }
    assert "audit" in schemas["PlayerReport"]["properties"]
    assert "audit" not in schemas["Report"]["required"]  # the lean report leaves it out


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_no_closed_items_and_no_document_users_do_not_have(document: dict[str, Any]) -> None:
    assert [v for k, v in _walk(document) if k == "items" and v is False] == []
    text = json.dumps(document, ensure_ascii=False)
    assert "FORMAT §" not in text
    assert "RULES §" not in text
    cell = document["components"]["schemas"]["AuditCard"]["properties"]["cell"]
    assert cell["items"] == {"type": "integer"}
    assert cell["minItems"] == cell["maxItems"] == 2


def test_each_page_has_its_content_security_policy(server: int) -> None:
    _, docs, _ = get(server, "/docs")
    policy = docs["content-security-policy"]
    for allowed in ("script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"):
        assert allowed in policy
    assert "unsafe-eval" not in policy
    for path in ("/openapi.json", "/healthz"):
        assert get(server, path)[1]["content-security-policy"] == (
            "default-src 'none'; frame-ancestors 'none'; sandbox"
        )


def test_the_api_page_loads_swagger_ui_5_from_this_server(server: int) -> None:
    status, headers, page = get(server, "/docs")
    assert (status, headers["content-type"].split(";")[0]) == (200, "text/html")
    assert b"http" not in page  # no CDN: every asset from this server
    status, _, bundle = get(server, "/docs/assets/swagger-ui-bundle.js")
    assert status == 200
    version = re.search(rb'PACKAGE_VERSION:"(\d+)\.(\d+)', bundle)
    assert version is not None
    assert (int(version[1]), int(version[2])) >= (5, 0)  # 4.x cannot read OpenAPI 3.1
    assert get(server, "/docs/assets/swagger-editor-bundle.js")[0] == 404  # only what it uses
    assert get(server, "/docs/assets/..%2F__init__.py")[0] == 404


# --- in a browser ---------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_the_api_page_in_a_real_browser(
    server: int, document: dict[str, Any], tmp_path: Path
) -> None:
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=FLAGS, headless=True
        )
        page = browser.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.goto(f"http://127.0.0.1:{server}/docs")
        page.wait_for_selector(".opblock", timeout=20_000)
        ops = operations(document)
        assert page.locator(".opblock").count() == len(ops)
        shown = page.locator("#api").inner_text()
        for _, _, op in ops:
            assert op["operationId"] in shown
            assert op["summary"] in shown
        assert "Unable to render this definition" not in shown
        # try it out: POST /v1/score with its example, answered by the same server
        score = page.locator("#operations-scoring-scoreGame")
        score.locator(".opblock-summary").click()
        score.locator("button.execute").click()
        status = score.locator(".live-responses-table tr.response .response-col_status").first
        status.wait_for(timeout=20_000)
        assert status.inner_text().strip() == "200"
        answer = score.locator(".live-responses-table tr.response .response-col_description")
        assert '"total": 78' in answer.first.inner_text()
        browser.close()
    assert not [line for line in console if "Content Security Policy" in line], console


# --- a generated Python client --------------------------------------------------------------


def test_a_generated_python_client_scores_the_example(
    server: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openapi_python_client", reason="openapi-python-client (Python 3.11+)")
    (tmp_path / "openapi.json").write_bytes(get(server, "/openapi.json")[2])
    (tmp_path / "config.yml").write_text(
        "content_type_overrides:\n  image/svg+xml: application/octet-stream\n"
    )
    bin_folder = str(Path(sys.executable).parent)  # its ruff, as an installed venv has it
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yml",
            "--meta",
            "none",
            "--output-path",
            "neweden_client",
        ],
        cwd=tmp_path,
        env={**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Unable to process schema" not in made.stdout + made.stderr
    assert "Endpoint will not be generated" not in made.stdout + made.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    from neweden_client import Client  # type: ignore[import-not-found]
    from neweden_client.api.scoring import score_game  # type: ignore[import-not-found]
    from neweden_client.api.validation import validate_game  # type: ignore[import-not-found]
    from neweden_client.models import Game  # type: ignore[import-not-found]

    game = Game.from_dict(json.loads(example_game()))
    with Client(base_url=f"http://127.0.0.1:{server}", raise_on_unexpected_status=True) as c:
        report = score_game.sync(client=c, body=game)
        detailed = score_game.sync(client=c, body=game, detail=True)
        checked = validate_game.sync(client=c, body=game)
    assert report.to_dict() == neweden.score(example_game(), detail=False)
    sarah = report.players[0]
    assert (sarah.name, sarah.score.total, sarah.place) == ("Sarah", 78, 1)
    assert detailed.audit.majority_table == [7, 3, 0]
    assert checked.valid is True
    for name in [m for m in sys.modules if m.split(".")[0] == "neweden_client"]:
        del sys.modules[name]
