"""The report as typed Structs (neweden.scoring.types): encoded directly it is byte for byte
the JSON of the dict `neweden.score` returns, that dict holds only plain JSON values, the
batch's `--out` line is the report after its source, the text table reads either form, and
the OpenAPI document describes the audit trail that `?detail=true` returns."""

from __future__ import annotations

import json
import random
from typing import Any, get_args

import jsonschema
import msgspec
import pytest

import neweden
from neweden.cli.main import example_game
from neweden.geometry.figures import ScoreFigures
from neweden.geometry.synth import city_json, grow_city
from neweden.http.api_types import openapi
from neweden.present.text import report_table
from neweden.runners.results import score_entries
from neweden.runners.sources import Entry
from neweden.scoring.chunk import CHUNK_FROM
from neweden.scoring.report import score_report
from neweden.scoring.types import CITY_FIGURES_SHOWN, PlayerReport, Report, ShownFigures
from tests.games import card, game, line, player

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


def _containers(value: Any, found: list[int]) -> list[int]:
    """The id of every dict and list in a value, depth first."""
    if isinstance(value, dict):
        found.append(id(value))
        for item in value.values():
            _containers(item, found)
    elif isinstance(value, list):
        found.append(id(value))
        for item in value:
            _containers(item, found)
    return found


def test_the_dict_shares_no_list_or_dict_within_or_with_another_report() -> None:
    """The audit is built as plain dicts (not converted by to_builtins, which made every
    container anew): no cell, line or sentence list may be one object in two places (a
    caller who edits one would edit the other), within a report or across two."""
    kept: list[dict[str, Any]] = []
    seen: set[int] = set()
    for raw in GAMES * 2:  # every game twice: its cached parts must not come back shared
        found = neweden.score(raw, detail=True)
        kept.append(found)  # alive, so that no id is reused
        ids = _containers(found, [])
        assert len(ids) == len(set(ids)), "a container appears twice in one report"
        assert not seen & set(ids), "a container is shared with an earlier report"
        seen.update(ids)


def test_a_report_keeps_its_audit_when_its_dict_is_made() -> None:
    """`neweden.score` sets the audit aside while the rest becomes a dict: the typed report
    is whole again afterwards (and encodes as that dict)."""
    from neweden.scoring.report import _to_dict

    for raw in GAMES:
        report = score_report(raw, detail=True)
        before = _encode(report)
        as_dict = _to_dict(report)
        assert _encode(report) == before == _encode(as_dict)
        assert report.audit is not msgspec.UNSET
        assert all(p.audit is not msgspec.UNSET for p in report.players)


def test_openapi_lists_the_audit_keys_in_the_order_the_report_writes_them() -> None:
    """The audit's types are TypedDicts, whose properties msgspec sorts by name: the
    document puts them back in the order of the report's keys (what a reader of the docs
    sees next to an answer)."""
    schemas = openapi("test")["components"]["schemas"]
    report = neweden.score(GAMES[0], detail=True)
    audit = report["players"][0]["audit"]
    military = next(
        p["audit"]["military"]
        for r in map(neweden.score, GAMES)
        for p in r["players"]
        if p["audit"]["military"] and p["audit"]["military"]["tower_span"]
    )
    shown = {
        "PlayerAudit": audit,
        "AuditCard": audit["cards"][0],
        "AuditRanking": audit["ranking"],
        "Compared": audit["ranking"]["compared"],
        "AuditMilitary": military,
        "TowerSpan": military["tower_span"],
        "GameAudit": report["audit"],
    }
    for name, value in shown.items():
        assert list(schemas[name]["properties"]) == list(value), name
        assert schemas[name]["required"] == list(value), name


def test_a_players_entry_shows_the_city_figures_listed_right_after_legal() -> None:
    """Every path that makes a player's entry splices CITY_FIGURES_SHOWN in after `legal`:
    the report's fields there are those figures, in that order, each a ScoreFigures field,
    and ShownFigures has one int each (a figure added to one and not the others fails)."""
    fields = [f.name for f in msgspec.structs.fields(PlayerReport)]
    at = fields.index("legal") + 1
    assert tuple(fields[at : at + len(CITY_FIGURES_SHOWN)]) == CITY_FIGURES_SHOWN
    assert set(CITY_FIGURES_SHOWN) <= set(ScoreFigures._fields)
    assert get_args(ShownFigures) == (int,) * len(CITY_FIGURES_SHOWN)
    city = [card(0, 0, "r"), card(0, 1, "lt")]  # joined; the second's top open
    one = {"mode": "military", "players": [{"name": "Ana", "city": city}]}
    alone = neweden.score(one, detail=False)["players"][0]
    chunk = next(iter(neweden.score_many([one] * CHUNK_FROM, detail=False)))["players"][0]
    for entry in (alone, chunk):  # a game alone and a chunk's game show the same figures
        assert (entry["cards"], entry["open_connections"]) == (2, 1)
