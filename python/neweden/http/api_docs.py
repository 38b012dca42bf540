"""The words of the OpenAPI document: what each schema and each of its properties means
(docs/report.md and docs/format.md say the same at length). English only, like the rest of
`/openapi.json`. A test checks that every property of every schema has a description, so a
field added to the types without one fails it."""

from __future__ import annotations

from neweden.format.modes import MODES, MODES_WITH_REQUIREMENTS

__all__ = ["PROPERTIES", "SCHEMAS"]

_CELL = "a cell as [row, col] (row grows downward)"
_ERRORS = "the errors: each makes `valid` false"
_WARNINGS = "the warnings: they never change `valid`"
_NAME = "a name, 1 to 100 characters"


def _listed(words: list[str]) -> str:
    """`a, b or c`."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: The modes (format/modes.py), as the descriptions name them.
_MODES = _listed(
    [
        f"{mode} (Military plus Populist)" if rules.populist and rules.military else mode
        for mode, rules in MODES.items()
    ]
)
_REQUIRED = " and ".join(MODES_WITH_REQUIREMENTS)
_IGNORED = " and ".join(mode for mode in MODES if mode not in MODES_WITH_REQUIREMENTS)

#: The description of a schema, where the type's own docstring is missing or cites a
#: document users do not have.
SCHEMAS: dict[str, str] = {
    "Player": "One player: their name, their city (the cards as placed), their epiphanies "
    "and their bonuses.",
    "Bonus": "A Company or Professional reward: a name and the points it adds as they are.",
    "Report": "The report of one game: whether it is valid, and each player's score, place, "
    "errors and warnings. `?detail=true` adds `audit`, how every point came about "
    "(docs/report.md).",
    "PlayerReport": "One player's result, in the order of the game's players.",
    "Score": "One player's points, part by part; `total` is their sum.",
    "Military": "The Military part (Military and Elitist games): the points of each kind "
    "of underground facility.",
    "Validation": "Whether a game (or a lone city) is valid, and every problem found; no score.",
    "PlayerValidation": "One player's city: whether it is legal, and its problems.",
    "Health": "The service is up; its version.",
    "Unreadable": "A batch entry that is not a readable game: every decode problem.",
    "PlacementRequest": "A game, one of its players and a card: where can the card go?",
    "PlacementsAnswer": "Every legal placement of the card, the best first.",
    "CardPlacement": "One legal placement of the card, and what the player has after it.",
    "CatalogAnswer": "The catalog the service scores with (`serve --catalog`, else the "
    "built-in one).",
    "CatalogCard": "A card of the catalog: a city names it by its id.",
    "CatalogRequirement": "A requirement card: a game names it in `requirements`.",
    "CatalogEpiphany": "An epiphany card: a player's epiphany names it by `card`.",
}

#: The description of each property of each schema (by the schema's name).
PROPERTIES: dict[str, dict[str, str]] = {
    "Game": {
        "mode": f"the game mode: {_MODES}",
        "players": "1 to 4 players in clockwise seat order; names unique",
        "format": "optional; when given, new-eden/game@1",
        "requirements": "the requirement cards in play, each a catalog id (A1, B1 and C1 "
        f"built in); required in {_REQUIRED} games, ignored with a warning in {_IGNORED} ones",
        "majority_table": "optional: the D5 card's values for this game's player count, as "
        "printed: one a place, as many as players, not increasing; used instead of the "
        "catalog's table and the built-in default",
        "first_player": "optional: the name of the current first player; used only by the "
        "last tie-breaker",
        "meta": "anything else about the game (table, photo, transcriber); never read by "
        "scoring, echoed in the report",
    },
    "Player": {
        "name": _NAME + ", unique in the game",
        "city": "the player's cards as placed, at most 77",
        "epiphanies": "the player's epiphanies, at most 40",
        "bonuses": "Company or Professional rewards, at most 20",
        "requirements_met": "optional: the ids of the requirement cards in play that the "
        "table agreed this player met; a card the catalog knows is checked against the city "
        "(requirement_disagrees when it does not meet it), another is scored as declared; "
        "once some player gives it, a player without it met none of the cards the catalog "
        "cannot check",
    },
    "Placement": {
        "row": "the card's row, growing downward; only relative positions matter",
        "col": "the card's column, growing rightward",
        "card": "a catalog id (atomic-waste, new-eden or a catalog's own) or the card "
        "given in full",
        "rotated": "the card is turned 180° (its icons are swapped top-bottom and "
        "left-right); default false",
    },
    "InlineCard": {
        "wild": "true for a wild card: all four sides, fits any style or type",
        "facility": "the underground facility: lab, shelter, medical (center), tower or base",
        "points": "the printed points, 0 or more",
        "stars": "the stars the card needs to score its points (0 to 3); otherwise it scores 1",
        "name": "optional: the card's printed name",
    },
    "EpiphanyEntry": {
        "state": "held (scores 0), validated (scores its points) or activated (scores 0, "
        "its effect used)",
        "points": "the printed points of an inline epiphany: 2 or 5",
    },
    "Bonus": {
        "name": "the reward's name, 1 to 100 characters",
        "points": "the points it adds (negative allowed)",
    },
    "LoneCity": {"city": "the cards of one city as placed, at most 77"},
    "Report": {
        "format": "the report's format: new-eden/report@1",
        "neweden": "the version of neweden that scored the game",
        "catalog": "the catalog used: builtin, or the name of a catalog file's",
        "valid": "true when the game has no error at all",
        "mode": "the game mode",
        "majority_table": "where the D5 table came from: game (its majority_table), catalog "
        "or default (the built-in one); null in a populist game",
        "meta": "the game's meta, as given (null when none)",
        "players": "one entry per player, in the game's order",
        "errors": "the errors that belong to no single player; " + _ERRORS,
        "warnings": "the warnings that belong to no single player; " + _WARNINGS,
        "audit": "with ?detail=true only: the game's part of the audit trail",
    },
    "PlayerReport": {
        "name": "the player's name",
        "legal": "false exactly when one of the player's errors is in their city (overlap, "
        "disconnected, unknown card, copy limit, unknown style or type)",
        "cards": "the cards scored (neither left out on a taken cell nor unresolved)",
        "open_connections": "the icons that are not half of a complete connection: facing "
        "an empty cell, a wall or an incompatible card",
        "stars": "requirements met plus one star for every three activated 1/3-star "
        "epiphanies; null in a military game",
        "requirements_met": "the ids of the requirements met, in the game's order; null in "
        "a military game",
        "requirements_declared": "the ids of requirements_met scored as the table declared "
        "them (cards the catalog cannot check against a city), not checked; null in a "
        "military game",
        "score": "the player's points, part by part",
        "place": "the player's place, competition ranking (1, 1, 3); given to every player, "
        "legal or not",
        "errors": "this player's errors; " + _ERRORS,
        "warnings": "this player's warnings; " + _WARNINGS,
        "audit": "with ?detail=true only: how every point of this player came about",
    },
    "Score": {
        "requirements": "the Populist part: each scored card's points when the player has "
        "the stars it needs, else 1, plus 15 for each star above three; 0 in a military "
        "game",
        "military": "the Military part; null in a populist game",
        "epiphanies": "the points of the epiphanies",
        "ten_cards": "5 with 10 or more scored cards, else 0",
        "bonuses": "the sum of the declared bonuses",
        "total": "the sum of the parts; the ranking's first criterion",
    },
    "Military": {
        "labs": "3 points a research lab",
        "shelters": "each group of k adjacent shelters scores k·min(k, 4)",
        "medical": "2 points for every distinct card next to a medical center",
        "towers": "with two towers or more: columns spanned times rows spanned",
        "bases": "the points of the bases' majority table for the player's place by bases",
        "total": "the sum of the military parts",
    },
    "ProblemItem": {
        "code": "a stable snake_case identifier (docs/report.md lists them)",
        "message": "a sentence with the numbers, in the answer's language",
        "path": "a JSON Pointer into the game sent (empty for the whole game)",
        "cells": "the cells of the cards involved, each [row, col]; empty when none",
    },
    "PlayerAudit": {
        "cards": "one entry per card of the input, in its order",
        "requirements": "each requirement in play, met or not and why; null in a military game",
        "stars": "where the player's stars come from; null in a military game",
        "epiphanies": "each declared epiphany and what it scored",
        "military": "the cells and counts behind each military part; null in a populist game",
        "components": "the number of connected parts of the city",
        "advice": "choices that would have scored more for the same city",
        "ranking": "the player's place and what set them apart",
    },
    "AuditCard": {
        "index": "the card's index in the player's city as given",
        "cell": _CELL,
        "scored": "kept in the geometry (false: left out, as a card on a taken cell)",
        "stars_required": "the stars the card needs; null when unresolved",
        "points": "the printed points; null when unresolved",
        "populist_points": "what it earned in the Populist part; null when it is not scored "
        "and in a military game",
        "why": "in words: why it earned that",
    },
    "AuditRequirement": {
        "id": "the requirement's catalog id",
        "met": "whether the player's city meets it (or, declared, whether the table "
        "declared it met)",
        "why": "in words, with the numbers",
        "declared": "true when it is scored as the table declared it (the catalog cannot "
        "check it against a city)",
    },
    "AuditStars": {
        "requirements": "stars from the requirements met",
        "epiphanies": "whole stars from activated 1/3-star epiphanies, three for a star",
        "total": "the player's stars",
    },
    "AuditEpiphany": {
        "index": "the epiphany's index in the player's list",
        "state": "held, validated or activated, as declared",
        "points": "its printed points",
        "effect": "its effect, if any",
        "scored": "the points it scored",
        "note": "in words: why it scored that",
        "condition_met": "with a catalog condition: whether the final city meets it; else null",
        "disjoint_sets": "for identical epiphanies with a condition: whether each can have "
        "its own cards (yes, no or unknown); else null",
    },
    "AuditMilitary": {
        "labs": "the number of research labs",
        "shelter_groups": "each group of adjacent shelters, a list of cells",
        "shelter_group_points": "the points of each group, k·min(k, 4)",
        "medical_cards": "the cells of the cards next to a medical center",
        "towers": "the number of towers",
        "tower_span": "the cells at the two ends of the towers' span; null with fewer than "
        "two towers",
        "bases": "the number of military bases",
        "bases_place": "the player's place by bases; null in a one-player game",
    },
    "TowerSpan": {"from": "one end: " + _CELL, "to": "the other end: " + _CELL},
    "Advice": {
        "code": "a stable snake_case identifier (third_star_choice)",
        "message": "the suggestion in words, in the answer's language",
        "stars_from_epiphanies": "the whole stars from 1/3-star epiphanies that would score more",
        "gain": "how many more points",
    },
    "AuditRanking": {
        "place": "the player's place",
        "decided_by": "the tie-breaker that set the player apart from the one just above: "
        "total, requirements_met, bases, cards, three_star_cards, two_star_cards or "
        "first_player; null for a first place or a tie",
        "compared": "the values the ranking compared",
    },
    "Compared": {
        "total": "the total",
        "requirements_met": "the number of requirements met; null in a military game",
        "bases": "the number of bases; null in a populist game",
        "cards": "the number of scored cards",
        "three_star_cards": "scored cards that need 3 stars",
        "two_star_cards": "scored cards that need 2 stars",
        "first_player_recency": "larger for who was first player more recently; null "
        "without a known first player",
    },
    "GameAudit": {
        "majority_table": "the bases' majority table used for this player count; null in "
        "a populist game",
        "majority_table_is_default": "true when it is the built-in default table",
        "bases": "every player's bases, place and points; null in a populist game",
        "first_player": "the first player's name, when known",
    },
    "AuditBases": {
        "player": "the player's name",
        "bases": "their number of bases",
        "place": "their place by bases",
        "points": "the points the majority table gives them",
    },
    "Validation": {
        "valid": "true when the game has no error at all",
        "players": "one entry per player; a lone city is one player named null",
        "errors": "the errors that belong to no single player; " + _ERRORS,
        "warnings": "the warnings that belong to no single player; " + _WARNINGS,
    },
    "PlayerValidation": {
        "name": "the player's name; null for a lone city",
        "legal": "false exactly when one of the player's errors is in their city",
        "cards": "the cards kept in the geometry",
        "open_connections": "the icons that are not half of a complete connection",
        "errors": "this player's errors; " + _ERRORS,
        "warnings": "this player's warnings; " + _WARNINGS,
    },
    "BatchRequest": {"games": "the games to score, at most 1,000 (each as for /v1/score)"},
    "BatchAnswer": {
        "results": "one entry per game, in order: its report, or {valid: false, errors} "
        "when it is not a readable game"
    },
    "ProblemDetails": {
        "type": "about:blank",
        "title": "the HTTP status in words, in the answer's language",
        "status": "the HTTP status",
        "detail": "what is wrong, in the answer's language",
        "errors": "every problem found (for a body that is not a game: every decode problem)",
    },
    "Health": {"status": "ok", "version": "the version of neweden"},
    "Unreadable": {"valid": "always false", "errors": "every decode problem of the entry"},
    "PlacementRequest": {
        "game": "the game, as for /v1/score",
        "player": "the name of the player whose city gets the card",
        "card": "the card: a catalog id, or an inline card as in a city",
        "best": "only the best placement",
    },
    "PlacementsAnswer": {
        "placements": "every legal placement: by total, highest first, then row, column, "
        "upright first"
    },
    "CardPlacement": {
        "row": "the cell's row",
        "col": "the cell's column",
        "rotated": "the card turned 180° (whether the player may turn it is the caller's to "
        "decide: an activated epiphany with the rotate effect)",
        "open_connections": "the city's open connections after the placement",
        "total": "the player's total after it, in the whole game (the others unchanged, the "
        "D5 majorities recomputed)",
        "delta": "total after minus total before",
    },
    "CatalogAnswer": {
        "name": "the catalog's name as reports give it: builtin, or the file's name and hash",
        "cards": "every card with an id, sorted by id",
        "requirements": "every requirement card, sorted by id",
        "epiphanies": "every epiphany card, sorted by id",
        "styles": "the styles a card may have; null when any identifier is accepted",
        "types": "the types a card may have; null when any identifier is accepted",
        "effects": "epiphany effects the catalog declares besides third_star, rotate and move",
    },
    "CatalogCard": {
        "id": "the id a city gives as `card`",
        "name": "the printed name; null when none",
        "wild": "true for a wild card: all four sides, fits any style or type",
        "style": "the architectural style; null for a wild card",
        "type": "the location type; null for a wild card",
        "facility": "the underground facility: lab, shelter, medical, tower or base; null "
        "when none",
        "points": "the printed points",
        "stars": "the stars the card needs to score its points",
        "sides": "the icons on the upright card (top, right, bottom, left order)",
        "copies": "how many copies a city may hold",
    },
    "CatalogRequirement": {
        "id": "the id a game gives in `requirements`",
        "deck": "the deck it belongs to (A, B or C)",
        "text": "the card's text, as the catalog gives it",
    },
    "CatalogEpiphany": {
        "id": "the id a player's epiphany gives as `card`",
        "points": "its printed points: 2 or 5",
        "effect": "its effect (third_star, rotate, move or the catalog's own); null when none",
        "text": "the card's text, as the catalog gives it",
    },
}
