"""The report as typed Structs (neweden.scoring.types): encoded directly it is byte for byte
the JSON of the dict `neweden.score` returns, that dict holds only plain JSON values, the
batch's `--out` line is the report after its source, the text table reads either form, and
the OpenAPI document describes the audit trail that `?detail=true` returns."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import msgspec
import pytest

import neweden
from neweden.cli.main import example_game
from neweden.geometry.synth import city_json, grow_city
from neweden.http.api_types import openapi
from neweden.present.text import report_table
from neweden.runners.sources import Entry
from neweden.scoring.report import score_report
from neweden.scoring.results import score_entries
from neweden.scoring.types import Report
from tests.games import game, line, player

_encode = msgspec.json.encode


def _games() -> list[bytes]:
    """The manual's example and generated games of every mode, legal and not (an overlap,
    a disconnected card, an unknown id), with military cards for the military audit."""
    rng = random.Random(7)
    found = [example_game()]
    for mode in ("populist", "military", "elitist"):
        for broken in range(3):
            cities = [city_json(grow_city(rng, rng.randint(3, 12))) for _ in range(3)]
            if broken == 1:
                cities[0].append({**cities[0][0]})  # overlap
            elif broken == 2:
                cities[1].append({"row": 40, "col": 40, "card": "no-such-card"})
            players = [{"name": f"P{k}", "city": c} for k, c in enumerate(cities)]
            doc = {"mode": mode, "players": players, "requirements": ["A1", "B1", "C1"]}
            found.append(json.dumps(doc).encode())
    found.append(json.dumps(game("military", player("A", line(5)), player("B", []))).encode())
    return found


GAMES = _games()


def _plain(value: Any) -> bool:
    """Whether a value is made only of dict, list, str, int, bool and None."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


@pytest.mark.parametrize("detail", [False, True])
def test_the_struct_encodes_as_the_dict_and_the_dict_is_plain(detail: bool) -> None:
    for raw in GAMES:
        report = score_report(raw, detail=detail)
        as_dict = neweden.score(raw, detail=detail)
        assert isinstance(report, Report)
        assert _encode(report) == _encode(as_dict)
        assert _plain(as_dict), "cells and spans must be lists, as they always were"
        assert ("audit" in as_dict) is detail
        assert all(("audit" in p) is detail for p in as_dict["players"])
    assert any(not neweden.score(raw)["valid"] for raw in GAMES)


def test_the_out_line_is_the_report_after_its_source() -> None:
    entries = [Entry("a.json", None, raw) for raw in GAMES[:4]] + [
        Entry("b.jsonl", 3, b"{not json"),
        Entry("c.jsonl", 1, b'{"mode": "populist"}'),
    ]
    for entry, result in zip(entries, score_entries(entries, neweden.BUILTIN, False), strict=True):
        try:
            report: dict[str, Any] = neweden.score(entry.data or b"", detail=False)
        except neweden.GameDecodeError as err:
            report = {"valid": False, "errors": [p.to_dict() for p in err.problems]}
        assert result.line == _encode({"source": entry.source(), **report})


def test_the_text_table_reads_the_struct_or_the_dict() -> None:
    for raw in GAMES:
        assert report_table(score_report(raw)) == report_table(neweden.score(raw))


def test_openapi_describes_the_audit_trail() -> None:
    components = openapi("test")["components"]
    assert "audit" in components["schemas"]["Report"]["properties"]
    assert "audit" in components["schemas"]["PlayerReport"]["properties"]
    assert "audit" not in components["schemas"]["Report"]["required"]
    schema = {"$ref": "#/components/schemas/Report", "components": components}
    for raw in GAMES:
        for detail in (False, True):
            jsonschema.validate(neweden.score(raw, detail=detail), schema)
    broken = neweden.score(GAMES[0])
    broken["players"][0]["audit"]["cards"][0]["cell"] = [0]  # a cell is a pair
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
