"""Placements attacked (hardening, round three): a request nested deeper than msgspec follows
is a problem answer, not a 500; no placement is offered that the format would refuse (a cell
past the coordinates' bound, a 78th card)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.cli.main import example_game
from neweden.scoring.placements import PlacementError
from tests.servers import running_server

pytest.importorskip("starlette", reason="the serve extra")

CARD = {"style": "gothic", "type": "green_area", "facility": "medical", "points": 5}
CARD |= {"stars": 1, "sides": ["top", "right", "bottom", "left"]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server({}, log) as (port, _):
        yield port, log


def _post(port: int, body: bytes) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/v1/placements", body, {"content-type": "application/json"})
    answer = conn.getresponse()
    status, data = answer.status, json.loads(answer.read())
    conn.close()
    return status, data


@pytest.mark.parametrize("opened", [b'{"a":', b"["])
def test_a_card_nested_5000_deep_is_a_problem_answer_not_a_500(
    server: tuple[int, Path], opened: bytes
) -> None:
    port, log = server
    closed = b"}" if opened.startswith(b"{") else b"]"
    card = opened * 5000 + (b"1" if closed == b"}" else b"") + closed * 5000
    body = b'{"game":' + example_game() + b',"player":"Sarah","card":' + card + b"}"
    status, answer = _post(port, body)
    assert status == 422, answer
    assert answer["errors"]
    assert all(e["path"].startswith("/card") for e in answer["errors"])
    assert "RecursionError" not in log.read_text()


def test_a_card_mapping_nested_5000_deep_is_a_placement_error() -> None:
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(PlacementError) as caught:
        neweden.placements(example_game(), player="Sarah", card=deep)
    assert caught.value.problems[0].path.startswith("/card")


@pytest.mark.parametrize("edge", [1000, -1000])
def test_no_placement_past_the_coordinates_bound(edge: int) -> None:
    game = {"mode": "military", "players": [{"name": "A", "city": []}]}
    game["players"][0]["city"] = [{"row": edge, "col": edge, "card": CARD}]  # type: ignore[index]
    found = neweden.placements(game, player="A", card=CARD)
    cells = {(p["row"], p["col"]) for p in found}
    inward = 1 if edge < 0 else -1
    assert cells == {(edge + inward, edge), (edge, edge + inward)}
    for p in found:  # each placement offered makes a game that decodes
        placed = json.loads(json.dumps(game))
        placed["players"][0]["city"].append({"row": p["row"], "col": p["col"], "card": CARD})
        assert neweden.score(placed, detail=False)["players"][0]["legal"]


def test_a_city_of_77_cards_has_no_placement() -> None:
    line = {**CARD, "sides": ["left", "right"]}
    city = [{"row": 0, "col": c, "card": line} for c in range(77)]
    game = {"mode": "military", "players": [{"name": "A", "city": city}]}
    assert neweden.placements(game, player="A", card=line) == []
    game["players"][0]["city"] = city[:76]  # type: ignore[index]
    assert [(p["row"], p["col"]) for p in neweden.placements(game, player="A", card=line)] == [
        (0, -1),
        (0, 76),
    ]


def test_a_card_argument_nested_20000_deep_is_problems_at_card_not_a_traceback() -> None:
    from tests.cli.test_terminal import piped

    example = str(Path(__file__).parents[2] / "examples" / "final-scoring-example.json")
    for card in ('{"a":' * 20_000, '{"a":' * 5_000 + "1" + "}" * 5_000):
        shown = piped("placements", example, "--player", "Sarah", "--card", card)
        assert shown.returncode == 2, shown.stderr[-500:]
        assert "Traceback" not in shown.stderr
        assert shown.stderr.startswith("neweden: ")


def test_the_catalog_answer_is_made_once_not_each_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """A big catalog (4 MiB of TOML, some 19,000 cards) took 25-50 ms of the event loop to
    answer, each GET /v1/catalog: now the answer is made at the first and kept."""
    import asyncio

    from neweden.catalog.catalog import BUILTIN
    from neweden.http import service

    made: list[int] = []
    real = service.catalog_answer

    def counted(catalog: Any) -> Any:
        made.append(1)
        return real(catalog)

    monkeypatch.setattr(service, "catalog_answer", counted)
    endpoints = service._Endpoints(BUILTIN, service._Work(1, 10.0, 0))
    answers = [asyncio.run(endpoints.catalog_one(None)) for _ in range(3)]  # type: ignore[arg-type]
    endpoints.work.pool.shutdown()
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[0].body == answers[2].body
    assert json.loads(answers[0].body)["name"] == "builtin"
    assert answers[2].headers["content-security-policy"].startswith("default-src 'none'")
    assert made == [1]


@pytest.mark.parametrize(("lang", "cell"), [("en", "card at row"), ("pt-BR", "carta na linha")])
def test_a_card_problem_names_no_cell_of_the_made_up_game(lang: str, cell: str) -> None:
    from neweden.i18n import speaking

    card = {"style": "gothic", "type": "building", "facility": "base", "points": -1}
    with speaking(lang), pytest.raises(PlacementError) as caught:
        neweden.placements(example_game(), player="Sarah", card=card)
    problems = caught.value.problems
    assert [p.path for p in problems] == ["/card/points", "/card/stars", "/card/sides"]
    assert not any(cell in p.message for p in problems)
    assert problems[0].message.endswith("1,000" if lang == "en" else "1.000")  # nothing after


def test_a_placements_question_naming_a_duplicated_player_is_an_error(
    server: tuple[int, Path],
) -> None:
    """Issue 35: two players of the same name in a placements question used the first one
    without a word. The game itself is invalid (`duplicate_name`); the question is refused
    with that code at /player, naming the seats, in Python, over HTTP (422) and in the CLI
    (exit 2)."""
    game = json.loads(example_game())
    game["players"][2]["name"] = game["players"][0]["name"]  # Sarah twice: seats 1 and 3
    with pytest.raises(PlacementError) as raised:
        neweden.placements(game, player="Sarah", card=CARD)
    (problem,) = raised.value.problems
    assert (problem.code, problem.path) == ("duplicate_name", "/player")
    assert '"Sarah" (seats 1, 3)' in problem.message
    assert isinstance(neweden.placements(game, player="Bruno", card=CARD), list)  # answered
    port, _log = server
    status, answer = _post(
        port, json.dumps({"game": game, "player": "Sarah", "card": CARD}).encode()
    )
    assert status == 422
    assert [e["code"] for e in answer["errors"]] == ["duplicate_name"]
