"""`neweden.validate` (FORMAT §5-§6): is a game, or a lone city `{"city": [...]}`, legal?

A game is scored (lean) and its answer keeps, per player, what legality needs. A lone city
has no player, no epiphany and no other city: it gets the geometry's problems, unknown ids,
the copy limits within it and the vocabulary checks, with paths into the body as sent
(`/city/3`), all listed under `players[0]` (whose name is null).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog, resolve_city
from neweden.format import codes
from neweden.format.decode import GameInput, decode_city, game_bytes
from neweden.format.problems import Problem, document_order
from neweden.geometry.compact import CityRows, pack_flat
from neweden.i18n import _, speaking
from neweden.rules.legality import copy_limit_problems, geometry_problems
from neweden.rules.names import GameNames, name_problems
from neweden.rules.warnings import style_count_warnings
from neweden.scoring.report import native_geometry, score_report

__all__ = ["validate"]

_builtins = msgspec.to_builtins


class _GameKeys(msgspec.Struct):
    """A document's top-level `players` and `mode` as their JSON text, read without their
    values (an empty Raw: not there)."""

    players: msgspec.Raw = msgspec.Raw()
    mode: msgspec.Raw = msgspec.Raw()


_game_keys = msgspec.json.Decoder(_GameKeys).decode


def _is_lone_city(raw: bytes) -> bool:
    """An object with `city` and neither `players` nor `mode` is a lone city. A document
    with either at its top level (every game) is told so without being decoded whole; any
    other is decoded whole (a lone city is read twice: the values _GameKeys skips are not
    checked, their UTF-8 included)."""
    try:
        keys = _game_keys(raw)
        if keys.players or keys.mode:  # (a value given is at least one byte)
            return False
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        pass  # (not an object, say: decoded whole below, which tells)
    try:
        doc = msgspec.json.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return False  # let the game decoder say what is wrong
    return isinstance(doc, dict) and "city" in doc and not {"players", "mode"} & doc.keys()


def validate(
    game_or_city: GameInput, *, catalog: Catalog | None = None, lang: str | None = None
) -> dict[str, Any]:
    """Validate a game or a lone city: the validation answer of FORMAT §5.

    A game is scored (the lean report) and the answer keeps, per player, what legality
    needs. A lone city (an object with ``city`` and neither ``players`` nor ``mode``) gets
    the geometry's problems, unknown ids, the copy limits within it and the vocabulary
    checks, with paths into the body as sent (``/city/3``), all under ``players[0]``.

    Parameters
    ----------
    game_or_city : bytes, bytearray, memoryview, str or mapping
        A game, or a lone city ``{"city": [...]}``: its JSON document or a mapping.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    lang : str, optional
        The language of the messages (as :func:`neweden.score`).

    Returns
    -------
    dict
        ``valid``; ``players``, each with ``name`` (None for a lone city), ``legal``,
        ``cards``, ``open_connections``, ``errors`` and ``warnings``; the game's own
        ``errors`` and ``warnings``.

    Raises
    ------
    GameDecodeError
        When the input is neither a readable game nor a readable lone city.
    TypeError
        For an input that is not bytes, str or a mapping.
    neweden.i18n.UnknownLanguage
        (a ValueError) For a language neweden does not speak.

    Examples
    --------
    >>> import neweden
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> answer = neweden.validate(example)  # the built-in example (neweden score --example)
    >>> answer["valid"], [(p["name"], p["legal"]) for p in answer["players"]]
    (True, [('Sarah', True), ('Bruno', True), ('Carla', True)])
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0, "sides": ["right"]}
    >>> answer = neweden.validate({"city": [{"row": 0, "col": 0, "card": card},
    ...                                     {"row": 0, "col": 1, "card": "EX-card"}]})
    >>> answer["valid"], answer["players"][0]["name"], answer["players"][0]["legal"]
    (False, None, False)
    >>> for problem in answer["players"][0]["errors"]:
    ...     print(problem["path"], problem["code"])
    /city/1/card unknown_card
    """
    with speaking(lang):
        return _validate(game_or_city, catalog)


def _validate(game_or_city: GameInput, catalog: Catalog | None) -> dict[str, Any]:
    catalog = catalog or BUILTIN
    raw = game_bytes(game_or_city)
    if not _is_lone_city(raw):
        report = score_report(raw, catalog=catalog, detail=False)
        players = [
            {
                "name": p.name,
                "legal": p.legal,
                "cards": p.cards,
                "open_connections": p.open_connections,
                "errors": _builtins(p.errors),
                "warnings": _builtins(p.warnings),
            }
            for p in report.players
        ]
        return {
            "valid": report.valid,
            "players": players,
            "errors": _builtins(report.errors),
            "warnings": _builtins(report.warnings),
        }
    city = decode_city(raw).city
    cards, errors = resolve_city(city, catalog, "/city")
    (figures,) = native_geometry([cards])
    flat, offsets, styles_seen, types_seen = pack_flat([cards])
    errors += geometry_problems("/city", CityRows(flat, offsets, 0).placed(0), figures)
    errors += copy_limit_problems([cards], ["/city"], players=None)  # not known
    warnings: list[Problem] = []
    if not city:
        warnings.append(
            Problem(
                code=codes.EMPTY_CITY, message=_("the city has no card; it is legal"), path="/city"
            )
        )
    shown = GameNames(flat, offsets, (0, 1), {"style": styles_seen, "type": types_seen})
    name_errors, name_warnings = name_problems([None], shown, "", catalog, [city])
    errors += name_errors
    warnings += name_warnings
    styles = Counter(c.spec.style for c in cards if c.spec is not None and not c.spec.wild)
    warnings += style_count_warnings(styles, "/city")
    player: dict[str, Any] = {
        "name": None,
        "legal": True,
        "cards": sum(figures.included),
        "open_connections": figures.open_connections,
        "errors": [],
        "warnings": [],
    }
    ordered = sorted(errors, key=document_order)
    player["errors"] = [p.to_dict() for p in ordered]
    player["warnings"] = [p.to_dict() for p in warnings]
    player["legal"] = not any(p.path.startswith("/city") for p in errors)
    return {"valid": not errors, "players": [player], "errors": [], "warnings": []}
