"""The HTTP API's types (FORMAT §3, §5), for the OpenAPI document: the requests are the
game format's own types (:mod:`neweden.format.model`); the report (lean, and its audit trail
with `?detail=true`) is the very type the service encodes (:mod:`neweden.scoring.types`); the
other answers are described here. A test checks real answers against these schemas so they
cannot drift."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from neweden.format.model import FORMAT_ID, SCHEMA_CROSS_CHECKS, Game, LoneCity
from neweden.scoring.types import ProblemItem, Report, Unreadable

__all__ = ["openapi"]


class PlayerValidation(msgspec.Struct):
    name: str | None
    legal: bool
    cards: int
    open_connections: int
    errors: list[ProblemItem]
    warnings: list[ProblemItem]


class Validation(msgspec.Struct):
    valid: bool
    players: list[PlayerValidation]
    errors: list[ProblemItem]
    warnings: list[ProblemItem]


class BatchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """At most 1,000 games."""

    games: list[Any]


class BatchAnswer(msgspec.Struct):
    """The results in order: a report, or `{"valid": false, "errors"}` for an unreadable
    entry (the schema says which, see openapi())."""

    results: list[Any]


class ProblemDetails(msgspec.Struct):
    """RFC 9457 problem details, with every problem found."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[ProblemItem]


class Health(msgspec.Struct):
    status: Literal["ok"]
    version: str


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
    ]
    schemas, components = msgspec.json.schema_components(
        types, ref_template="#/components/schemas/{name}"
    )
    report, unreadable = schemas[2], schemas[8]
    results = components["BatchAnswer"]["properties"]["results"]
    results["items"] = {"oneOf": [report, unreadable]}
    components["BatchRequest"]["properties"]["games"]["maxItems"] = 1000
    for name, rule in SCHEMA_CROSS_CHECKS.items():  # as `neweden schema` says them
        components[name].update(rule)
    return list(schemas), components


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _answer(schema: dict[str, Any], what: str) -> dict[str, Any]:
    return {"description": what, "content": {"application/json": {"schema": schema}}}


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
    "description": "add the audit trail",
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
    {"name": "player", "in": "query", "required": False, "schema": {"type": "string"}},
    {
        "name": "overlay",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "comma-separated: shelters, medical, towers, row",
    },
]


def _paths(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    game, city, report, validation, batch_req, batch, problem, health, _ = schemas
    problems = _problems(problem)
    picture = {
        "description": "the picture",
        "content": {"image/svg+xml": {"schema": {"type": "string"}}},
    }
    return {
        "/v1/score": {
            "post": {
                "summary": "Score one game",
                "parameters": [_DETAIL, *_LANGUAGE],
                "requestBody": _body(game),
                "responses": {"200": _answer(report, "the report"), **problems},
            }
        },
        "/v1/validate": {
            "post": {
                "summary": "Validate a game or a lone city",
                "parameters": _LANGUAGE,
                "requestBody": _body({"oneOf": [game, city]}),
                "responses": {"200": _answer(validation, "the answer"), **problems},
            }
        },
        "/v1/score/batch": {
            "post": {
                "summary": "Score up to 1,000 games",
                "parameters": _LANGUAGE,
                "requestBody": _body(batch_req),
                "responses": {"200": _answer(batch, "in order"), **problems},
            }
        },
        "/v1/render": {
            "post": {
                "summary": "A picture of the city (SVG)",
                "parameters": _RENDER_PARAMETERS,
                "requestBody": _body(game),
                "responses": {"200": picture, **problems},
            }
        },
        "/healthz": {
            "get": {
                "summary": "Liveness and version",
                "responses": {"200": _answer(health, "ok")},
            }
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
            "description": f"Scoring and validation of New Eden Project games ({FORMAT_ID}).",
        },
        "paths": _paths(schemas),
        "components": {"schemas": components},
    }
