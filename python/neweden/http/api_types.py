"""The HTTP API's types (docs/http.md, docs/report.md), for the OpenAPI document: the
requests are the game format's own types (:mod:`neweden.format.model`); the report (lean, and
its audit trail with `?detail=true`) is the very type the service encodes
(:mod:`neweden.scoring.types`); the other answers are :mod:`neweden.http.api_structs`'. A
test checks real answers against these schemas so they cannot drift. Every operation has an
`operationId` (what generated clients name it by), a tag, a summary, a description and
examples: the built-in example game (the manual's final-scoring example) and its answers.

Every schema and property says what it is from the types themselves
(:mod:`neweden.format.descriptions`): a field's ``described`` words, a class's docstring or
its ``schema_description``."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, is_typeddict

import msgspec
from msgspec import inspect as mi

from neweden.catalog.catalog import BUILTIN
from neweden.format.descriptions import class_words, field_words
from neweden.format.model import FORMAT_ID, SCHEMA_CROSS_CHECKS, Game, LoneCity
from neweden.http.api_structs import (
    BatchAnswer,
    BatchRequest,
    Health,
    PlacementRequest,
    PlacementsAnswer,
    ProblemDetails,
    Validation,
)
from neweden.http.catalog_answer import CatalogAnswer, catalog_answer
from neweden.http.standings_answer import StandingsRequest
from neweden.i18n import speaking
from neweden.scoring import types as report_types
from neweden.scoring.standings import Standings
from neweden.scoring.types import Report, Unreadable

__all__ = ["openapi"]


def _components() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The schemas of the answers and bodies (references), and the components they use."""
    types = [
        Game,
        LoneCity,
        Report,
        Validation,
        BatchRequest,
        BatchAnswer,
        ProblemDetails,
        Health,
        Unreadable,
        PlacementRequest,
        PlacementsAnswer,
        CatalogAnswer,
        StandingsRequest,
        Standings,
    ]
    schemas, components = msgspec.json.schema_components(
        types, ref_template="#/components/schemas/{name}"
    )
    components = _in_field_order(schemas, components)
    report, unreadable = schemas[2], schemas[8]
    results = components["BatchAnswer"]["properties"]["results"]
    results["items"] = {"oneOf": [report, unreadable]}
    games = components["BatchRequest"]["properties"]["games"]
    games.update(maxItems=1000, items={})  # any value: one that is no game is answered so
    components["StandingsRequest"]["properties"]["results"]["items"] = {}  # any: said each
    # `false` alone: a boolean enumeration is a constant (which generators read)
    valid = components["Unreadable"]["properties"]["valid"]
    del valid["enum"]
    valid.update(type="boolean", const=False)
    for name, rule in SCHEMA_CROSS_CHECKS.items():  # as `neweden schema` says them
        components[name].update(rule)
    _words_in_place(components, _classes(types))
    _no_closed_items(components)
    return list(schemas), components


def _classes(types: list[Any]) -> dict[str, type]:
    """Every Struct and TypedDict the types use, by name (the name of its component)."""
    found: dict[str, type] = {}

    def visit(t: mi.Type) -> None:
        if isinstance(t, mi.StructType | mi.TypedDictType):
            if t.cls.__name__ in found:
                return
            found[t.cls.__name__] = t.cls
            for field in t.fields:
                visit(field.type)
        for inner in ("type", "item_type", "key_type", "value_type"):
            if isinstance(getattr(t, inner, None), mi.Type):
                visit(getattr(t, inner))
        for member in getattr(t, "types", None) or getattr(t, "item_types", None) or ():
            visit(member)

    for t in mi.multi_type_info(types):
        visit(t)
    return found


def _words_in_place(components: dict[str, Any], classes: dict[str, type]) -> None:
    """Each schema's description where the document has always had it. msgspec writes a
    description first (a field's, a docstring's); a field's own words that no type's words
    came before go last, after the property's other keys, and a class's
    `schema_description` takes the place of its docstring's words (or goes last, after the
    properties, when it has none)."""
    for name, schema in components.items():
        cls = classes[name]
        for key, words in field_words(cls).items():
            prop = schema["properties"][key]
            if words.own is not None and words.typed is None:
                prop["description"] = prop.pop("description")
        described_as = class_words(cls)
        if described_as is not None:
            schema["description"] = described_as


def _in_field_order(schemas: Any, components: dict[str, Any]) -> dict[str, Any]:
    """The audit's TypedDicts' properties in the order of their keys, as the report writes
    them (msgspec sorts a TypedDict's properties by name; a Struct's keep their order), and
    the components in the order of first use from `schemas`, as for Structs alone."""
    for name, kind in vars(report_types).items():
        schema = components.get(name)
        if schema is None or not is_typeddict(kind):
            continue
        keys = list(kind.__annotations__)
        schema["properties"] = {key: schema["properties"][key] for key in keys}
        schema["required"] = [key for key in keys if key in schema["required"]]
    order: dict[str, Any] = {}

    def visit(node: Any) -> None:
        if isinstance(node, list | tuple):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[1]
                if name not in order:
                    order[name] = components[name]
                    visit(components[name])
            for value in node.values():
                visit(value)

    visit(schemas)
    return {**order, **components}


def _no_closed_items(node: Any) -> None:
    """A fixed-length array (a tuple: a cell `[row, col]`) as msgspec writes it says
    `prefixItems` and `items: false`, which some generators refuse (openapi-python-client):
    `items` becomes the schema every prefix item shares (or any of them), the same arrays
    with `minItems` = `maxItems`."""
    if isinstance(node, list):
        for item in node:
            _no_closed_items(item)
    elif isinstance(node, dict):
        if node.get("items") is False and "prefixItems" in node:
            prefix = node["prefixItems"]
            same = all(p == prefix[0] for p in prefix)
            node["items"] = prefix[0] if same else {"anyOf": prefix}
        for value in node.values():
            _no_closed_items(value)


def _body(schema: dict[str, Any], examples: dict[str, Any]) -> dict[str, Any]:
    media = {"schema": schema, "examples": examples}
    return {"required": True, "content": {"application/json": media}}


def _answer(
    schema: dict[str, Any], what: str, examples: dict[str, Any] | None = None
) -> dict[str, Any]:
    media = {"schema": schema, **({"examples": examples} if examples else {})}
    return {"description": what, "content": {"application/json": media}}


def _problems(problem: dict[str, Any]) -> dict[str, Any]:
    return {
        str(status): {
            "description": what,
            "content": {"application/problem+json": {"schema": problem}},
        }
        for status, what in (
            (400, "not JSON, or a `lang` neweden does not speak"),
            (413, "too large"),
            (415, "not JSON content"),
            (422, "JSON, but not a game: every decode problem"),
            (503, "over the work budget, or too many slow requests still running"),
        )
    }


_DETAIL = {
    "name": "detail",
    "in": "query",
    "required": False,
    "schema": {"type": "boolean", "default": False},
    "description": "add `audit`: how every point came about (docs/report.md)",
}
#: The language of the answer's words (messages, the picture, problem titles and details):
#: `lang` wins over `Accept-Language`; the answer says `Content-Language`.
_LANGUAGE = [
    {
        "name": "lang",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "enum": ["en", "pt-BR"]},
        "description": "the language of the answer's words (also pt, pt_BR); wins over "
        "Accept-Language",
    },
    {
        "name": "Accept-Language",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "the language of the answer's words when no lang is given: en or "
        "pt-BR, q-values weigh; English otherwise",
    },
]
_RENDER_PARAMETERS = [
    *_LANGUAGE,
    {
        "name": "player",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "only this player's city (a name in the game); all players when absent",
    },
    {
        "name": "overlay",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "layers to add, comma-separated: shelters (the shelter groups), "
        "medical (the cards next to a medical center), towers (the towers' span), row (the "
        "row and column numbers)",
    },
]


def example_game() -> Any:
    """The built-in example game (the manual's final-scoring example; Sarah scores 78)."""
    text = resources.files("neweden").joinpath("data/final-scoring-example.json").read_text()
    return json.loads(text)


def _examples() -> dict[str, Any]:
    """The example game, a lone city of it, and their answers (in English)."""
    from neweden.scoring.report import score
    from neweden.scoring.validation import validate

    game = example_game()
    city = {"city": game["players"][0]["city"]}
    with speaking("en"):
        report = score(json.dumps(game).encode(), detail=False)
        return {
            "game": game,
            "city": city,
            "report": report,
            "validation": validate(json.dumps(game).encode()),
            "city_validation": validate(json.dumps(city).encode()),
            "batch": {"games": [game]},
            "batch_answer": {"results": [report]},
        }


def _example(value: Any, summary: str) -> dict[str, Any]:
    return {"summary": summary, "value": value}


def _operation(
    operation_id: str, tag: str, summary: str, description: str, **more: Any
) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "tags": [tag],
        "summary": summary,
        "description": description,
        **more,
    }


def _game_paths(
    schemas: list[dict[str, Any]], ex: dict[str, Any], problems: dict[str, Any]
) -> dict[str, Any]:
    """Scoring and validation: /v1/score, /v1/validate, /v1/score/batch."""
    return {
        "/v1/score": _score_path(schemas, ex, problems),
        "/v1/validate": _validate_path(schemas, ex, problems),
        "/v1/score/batch": _batch_path(schemas, ex, problems),
    }


def _a_game(ex: dict[str, Any]) -> dict[str, Any]:
    """The example game as a request body's example."""
    return {"example": _example(ex["game"], "the manual's final-scoring example")}


def _score_path(
    schemas: list[dict[str, Any]], ex: dict[str, Any], problems: dict[str, Any]
) -> dict[str, Any]:
    """POST /v1/score."""
    game, _city, report, *_ = schemas
    a_game = _a_game(ex)
    return {
        "post": _operation(
            "scoreGame",
            "scoring",
            "Score one game",
            "The report of one game: each player's score, part by part, and place, and "
            "every error and warning. A game with errors is still scored (200, `valid` "
            "false). `?detail=true` adds `audit`, how every point came about "
            "(docs/report.md).",
            parameters=[_DETAIL, *_LANGUAGE],
            requestBody=_body(game, a_game),
            responses={
                "200": _answer(
                    report,
                    "the report",
                    {"example": _example(ex["report"], "Sarah scores 78")},
                ),
                **problems,
            },
        )
    }


def _validate_path(
    schemas: list[dict[str, Any]], ex: dict[str, Any], problems: dict[str, Any]
) -> dict[str, Any]:
    """POST /v1/validate."""
    game, city, _report, validation, *_ = schemas
    a_game = _a_game(ex)
    return {
        "post": _operation(
            "validateGame",
            "validation",
            "Validate a game or a lone city",
            'Whether a game, or a single city sent as `{"city": [...]}`, is valid, with '
            "every error and warning; no score. A lone city is one player named null, "
            "its problems' paths into the body as sent (`/city/3`).",
            parameters=_LANGUAGE,
            requestBody=_body(
                {"oneOf": [game, city]},
                {**a_game, "city": _example(ex["city"], "a lone city: Sarah's")},
            ),
            responses={
                "200": _answer(
                    validation,
                    "the answer",
                    {
                        "example": _example(ex["validation"], "the example game"),
                        "city": _example(ex["city_validation"], "a lone city"),
                    },
                ),
                **problems,
            },
        )
    }


def _batch_path(
    schemas: list[dict[str, Any]], ex: dict[str, Any], problems: dict[str, Any]
) -> dict[str, Any]:
    """POST /v1/score/batch."""
    _game, _city, _report, _validation, batch_req, batch, *_ = schemas
    return {
        "post": _operation(
            "scoreBatch",
            "scoring",
            "Score up to 1,000 games",
            "The lean report of each game, in order; an entry that is not a readable "
            'game is `{"valid": false, "errors"}` in its place. 200 whenever the '
            "envelope decodes.",
            parameters=_LANGUAGE,
            requestBody=_body(
                batch_req, {"example": _example(ex["batch"], "one game: the example")}
            ),
            responses={
                "200": _answer(
                    batch,
                    "the results, in order",
                    {"example": _example(ex["batch_answer"], "its report")},
                ),
                **problems,
            },
        )
    }


def _placement_example() -> dict[str, Any]:
    from neweden.scoring.placing import answer_request

    card = {"style": "gothic", "type": "green_area", "facility": "medical", "points": 5}
    request = {"game": example_game(), "player": "Sarah", "card": card | {"stars": 1}}
    request["card"]["sides"] = ["top", "left"]
    with speaking("en"):
        return {"request": request, "answer": answer_request(json.dumps(request).encode())}


def _placements_path(
    request: dict[str, Any], answer: dict[str, Any], problems: dict[str, Any]
) -> dict[str, Any]:
    ex = _placement_example()
    return {
        "post": _operation(
            "placeCard",
            "placements",
            "Where a card can go, and what each placement scores",
            "Every legal placement of `card` (a catalog id or an inline card) in `player`'s "
            "city: every empty cell next to a card of the city, upright and, when that changes "
            "its icons, rotated 180° (listed whatever the player's epiphanies), kept when the "
            "city is legal after it; with the city's open connections and the player's total "
            "after it in the whole game, and the change. The best first; `best` gives only "
            "it (docs/placements.md).",
            parameters=_LANGUAGE,
            requestBody=_body(request, {"example": _example(ex["request"], "a card for Sarah")}),
            responses={
                "200": _answer(
                    answer, "the placements", {"example": _example(ex["answer"], "three places")}
                ),
                **problems,
            },
        )
    }


def _standings_path(schemas: list[dict[str, Any]], problems: dict[str, Any]) -> dict[str, Any]:
    """POST /v1/standings, with the example game played in two rounds."""
    from neweden.scoring.standings import read_result, standings
    from neweden.scoring.standings_options import Aliases, points_from

    request, answer = schemas
    report = _examples()["report"]
    results = [report | {"meta": {"event": "Copa", "round": r}} for r in (1, 2)]
    body = {"results": results, "points": [5, 3, 2, 0]}
    with speaking("en"):
        made = standings(
            [
                read_result(doc, {"path": f"/results/{i}", "line": None})
                for i, doc in enumerate(results)
            ],
            points_from(["5,3,2,0"]),
            Aliases(),
        )
    return {
        "post": _operation(
            "rankEvent",
            "standings",
            "Standings across rounds",
            "The standings of each event (meta.event) over its rounds: tournament points by "
            "place in each game, then the sum of totals, wins, requirements met and cards; "
            "invalid and unreadable games left out and listed (docs/standings.md). `results` "
            "is a POST /v1/score/batch answer's, as it is.",
            parameters=_LANGUAGE,
            requestBody=_body(request, {"example": _example(body, "two rounds of the example")}),
            responses={
                "200": _answer(
                    answer,
                    "the standings",
                    {"example": _example(msgspec.to_builtins(made), "Sarah first")},
                ),
                **problems,
            },
        )
    }


def _paths(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    game, _, _, _, _, _, problem, health, _, place_request, place_answer, catalog, *ranked = schemas
    problems = _problems(problem)
    a_game = {"example": _example(example_game(), "the manual's final-scoring example")}
    picture = {
        "description": "the picture: each player's city, its score and its problems marked",
        "content": {"image/svg+xml": {"schema": {"type": "string"}}},
    }
    return {
        **_game_paths(schemas, _examples(), problems),
        "/v1/render": {
            "post": _operation(
                "renderGame",
                "pictures",
                "A picture of the city (SVG)",
                "An SVG picture of each player's city (or one player's: `player`), its "
                "score and its problems marked on the cards; `overlay` adds layers.",
                parameters=_RENDER_PARAMETERS,
                requestBody=_body(game, a_game),
                responses={"200": picture, **problems},
            )
        },
        "/v1/placements": _placements_path(place_request, place_answer, problems),
        "/v1/standings": _standings_path(ranked, problems),
        "/v1/catalog": {
            "get": _operation(
                "getCatalog",
                "catalog",
                "The catalog the service scores with",
                "The catalog's name and every card (with its printed fields), requirement and "
                "epiphany it gives an id, and its closed vocabularies: the built-in one, or "
                "the file `serve --catalog` loaded (docs/catalog.md). For clients that "
                "complete ids, as the web page's card form does.",
                responses={
                    "200": _answer(
                        catalog,
                        "the catalog",
                        {
                            "builtin": _example(
                                msgspec.to_builtins(catalog_answer(BUILTIN)),
                                "the built-in catalog",
                            )
                        },
                    )
                },
            )
        },
        "/healthz": {
            "get": _operation(
                "health",
                "service",
                "Liveness and version",
                "Answers while the service is up, with neweden's version.",
                responses={"200": _answer(health, "ok")},
            )
        },
    }


def openapi(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document, generated from the types."""
    schemas, components = _components()
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "neweden",
            "version": version,
            "description": f"Scoring and validation of New Eden Project games ({FORMAT_ID}). "
            "Answers in English or Brazilian Portuguese (`lang`, `Accept-Language`); problems "
            "are RFC 9457 problem details. See docs/http.md, docs/report.md and "
            "docs/format.md.",
        },
        "tags": [
            {"name": "scoring", "description": "Score games: reports with every point"},
            {"name": "validation", "description": "Check a game or a city, without scoring"},
            {"name": "pictures", "description": "SVG pictures of the cities"},
            {"name": "placements", "description": "Where a card can go, and what it scores"},
            {"name": "standings", "description": "Standings of an event across its rounds"},
            {"name": "catalog", "description": "The cards, requirements and epiphanies by id"},
            {"name": "service", "description": "The service itself"},
        ],
        "paths": _paths(schemas),
        "components": {"schemas": components},
    }
