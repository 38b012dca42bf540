"""`POST /v1/placements` on a live server: the Python API's answer, the document's schema,
every problem of a bad request at its pointer, in the language asked."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

import neweden
from neweden.cli.main import example_game
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")

CARD = {"style": "gothic", "type": "green_area", "facility": "medical", "points": 5}
CARD |= {"stars": 1, "sides": ["top", "left"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({}, log) as (port, _):
        yield port


def _post(port: int, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        "POST", "/v1/placements", body, {"content-type": "application/json", **(headers or {})}
    )
    answer = conn.getresponse()
    status, data = answer.status, json.loads(answer.read())
    conn.close()
    return status, data


def _request(**fields: Any) -> bytes:
    return json.dumps({"game": json.loads(example_game()), **fields}).encode()


def test_the_placements_are_the_python_apis(server: int) -> None:
    status, answer = _post(server, _request(player="Sarah", card=CARD))
    assert status == 200
    assert answer == {"placements": neweden.placements(example_game(), player="Sarah", card=CARD)}
    assert answer["placements"][0] == {
        "row": 1, "col": 6, "rotated": False, "open_connections": 6, "total": 87, "delta": 9,
    }  # fmt: skip
    status, best = _post(server, _request(player="Sarah", card=CARD, best=True))
    assert best == {"placements": answer["placements"][:1]}


def test_the_answer_and_the_request_fit_the_documents_schemas(server: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    conn.request("GET", "/openapi.json")
    document = json.loads(conn.getresponse().read())
    conn.close()
    operation = document["paths"]["/v1/placements"]["post"]
    assert operation["operationId"] == "placeCard"
    components = {"components": document["components"]}
    request = operation["requestBody"]["content"]["application/json"]
    jsonschema.validate(
        json.loads(_request(player="Sarah", card=CARD)), request["schema"] | components
    )
    _, answer = _post(server, _request(player="Sarah", card=CARD))
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    jsonschema.validate(answer, schema | components)
    example = operation["responses"]["200"]["content"]["application/json"]["examples"]["example"]
    assert example["value"] == answer


def test_a_bad_request_is_a_problem_with_every_place_in_the_language_asked(server: int) -> None:
    body = _request(player="Zoe", card=CARD)
    status, problem = _post(server, body)
    assert status == 422
    assert [(e["code"], e["path"]) for e in problem["errors"]] == [("not_found", "/player")]
    assert "Zoe" in problem["errors"][0]["message"]
    _, portuguese = _post(server, body, {"accept-language": "pt-BR"})
    assert [(e["code"], e["path"]) for e in portuguese["errors"]] == [("not_found", "/player")]
    assert "nenhum jogador" in portuguese["errors"][0]["message"]
    status, problem = _post(server, json.dumps({"player": 1, "card": {"points": 99}}).encode())
    assert status == 422
    assert {(e["code"], e["path"]) for e in problem["errors"]} >= {
        ("missing_field", ""), ("bad_type", "/player"),
    }  # fmt: skip
    status, _ = _post(server, b"{")
    assert status == 400
