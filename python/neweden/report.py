"""The score report (FORMAT §3): RULES §4 over the geometric figures of every city.

The geometry comes from a function of the resolved cards; by default the native core, and
:mod:`neweden.reference` for the twin path that the tests compare it with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from . import reference
from ._gc import collector_paused
from ._version import __version__
from .catalog import (
    BUILTIN,
    Catalog,
    EpiphanySpec,
    ResolvedCard,
    ResolvedGame,
    resolve_game,
)
from .compact import pack_table
from .conditions import CityContext, evaluate
from .decode import GameInput, decode_game
from .figures import CityFigures
from .geometry import analyse_table
from .model import EpiphanyEntry, Game
from .problems import Problem, join
from .rules.advice import third_star_advice
from .rules.epiphanies import EpiphanyResult, score_epiphanies
from .rules.epiphany_conditions import disjoint_sets
from .rules.legality import copy_limit_problems, duplicate_name_problems, geometry_problems
from .rules.military import base_majority, majority_table, military_points
from .rules.ranking import Standing, first_player_recency, rank
from .rules.requirements import evaluate_requirements, populist_points
from .rules.warnings import game_warnings

__all__ = [
    "REPORT_FORMAT",
    "Geometry",
    "native_geometry",
    "reference_geometry",
    "score",
    "score_game",
    "score_games",
    "score_resolved",
]

REPORT_FORMAT = "new-eden/report@1"
TEN_CARDS = 10
TEN_CARDS_POINTS = 5

#: The figures of every city of a game, in order.
Geometry = Callable[[Sequence[Sequence[ResolvedCard]]], list[CityFigures]]


def native_geometry(cities: Sequence[Sequence[ResolvedCard]]) -> list[CityFigures]:
    """The figures of a game's cities from the C++ core (packed once, one call)."""
    return analyse_table(*pack_table(cities))


def reference_geometry(cities: Sequence[Sequence[ResolvedCard]]) -> list[CityFigures]:
    """The same from :mod:`neweden.reference`, the pure-Python twin."""
    return [reference.analyse_city(city) for city in cities]


def score(
    game: GameInput, *, catalog: Catalog | None = None, detail: bool = True
) -> dict[str, Any]:
    """The report of FORMAT §3 for one game (bytes, str or a mapping).

    Raises :class:`neweden.GameDecodeError` when the input is not a readable game.
    """
    return score_game(decode_game(game), catalog=catalog, detail=detail)


def _sort_key(problem: Problem) -> tuple[tuple[int, int | str], ...]:
    """Document order of a pointer: array indices compare as numbers."""
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in problem.path.split("/")[1:])


_PLAYER_PATH = re.compile(r"^/players/(\d+)(?:/|$)")


def score_game(
    game: Game,
    *,
    catalog: Catalog | None = None,
    detail: bool = True,
    geometry: Geometry = native_geometry,
) -> dict[str, Any]:
    """The report of a decoded game; `geometry` computes each city's figures."""
    catalog = catalog or BUILTIN
    resolved = resolve_game(game, catalog)
    return score_resolved(
        game,
        resolved,
        geometry(resolved.cities),
        catalog=catalog,
        detail=detail,
        geometry=geometry,
    )


def score_games(
    games: Sequence[Game],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Geometry | None = None,
) -> list[dict[str, Any]]:
    """The reports of many decoded games, the cities of all of them analysed in one native
    call (the batch path of `neweden validate` and `neweden.score_many`)."""
    catalog = catalog or BUILTIN
    with collector_paused():
        return _score_games(games, catalog, detail, geometry)


def _score_games(
    games: Sequence[Game], catalog: Catalog, detail: bool, geometry: Geometry | None
) -> list[dict[str, Any]]:
    resolved = [resolve_game(game, catalog) for game in games]
    cities = [city for r in resolved for city in r.cities]
    geometry = geometry or native_geometry
    figures = geometry(cities)
    reports = []
    at = 0
    for game, r in zip(games, resolved, strict=True):
        n = len(r.cities)
        reports.append(
            score_resolved(
                game, r, figures[at : at + n], catalog=catalog, detail=detail, geometry=geometry
            )
        )
        at += n
    return reports


def score_resolved(
    game: Game,
    resolved: ResolvedGame,
    figures: Sequence[CityFigures],
    *,
    catalog: Catalog,
    detail: bool,
    geometry: Geometry = native_geometry,
) -> dict[str, Any]:
    """The rules of RULES §4 over a game whose ids are resolved and whose cities' figures
    are computed; `geometry` serves only the epiphany-condition search of the trail."""
    mode = game.mode
    populist = mode in ("populist", "elitist")
    military = mode in ("military", "elitist")
    n = len(game.players)

    errors: list[Problem] = list(resolved.problems)
    warnings: list[Problem] = []
    kept = [
        [card for card, inside in zip(city, fig.included, strict=True) if inside]
        for city, fig in zip(resolved.cities, figures, strict=True)
    ]
    for p, (city, fig) in enumerate(zip(resolved.cities, figures, strict=True)):
        errors.extend(geometry_problems(join("", "players", p, "city"), city, fig))
        if not city:
            warnings.append(
                Problem(
                    code="empty_city",
                    message=f"{game.players[p].name} has no card in the city; it is legal "
                    "and scores nothing",
                    path=join("", "players", p, "city"),
                )
            )
    errors.extend(
        copy_limit_problems(resolved.cities, [join("", "players", p, "city") for p in range(n)])
    )
    errors.extend(duplicate_name_problems(game))

    requirement_ids = game.requirements if isinstance(game.requirements, list) else []
    if not populist and requirement_ids:
        warnings.append(
            Problem(
                code="requirements_ignored",
                message="a military game scores no requirement cards; `requirements` is ignored",
                path="/requirements",
            )
        )

    # D5: bases across every player, legal or not.
    bases = [fig.bases for fig in figures]
    table, default_table = majority_table(catalog.majority_table, n)
    base_points, base_places = base_majority(bases, table) if n > 1 else ([0], [1])
    if military and n == 1 and bases[0] > 0:
        warnings.append(
            Problem(
                code="one_player_bases",
                message=f"with one player, the {bases[0]} military base(s) have no majority "
                "to win and score 0",
                path=join("", "players", 0),
            )
        )
    elif military and n > 1 and default_table:
        warnings.append(
            Problem(
                code="default_majority_table",
                message=f"the D5 majority table for {n} players is the built-in default "
                f"{list(table)}, not the printed card; give it in a catalog",
                path="",
            )
        )

    first = next((i for i, p in enumerate(game.players) if p.name == game.first_player), None)
    if isinstance(game.first_player, str) and first is None:
        warnings.append(
            Problem(
                code="unknown_first_player",
                message=f'first_player "{game.first_player}" is not a player of this game; '
                "the last tie-breaker is skipped",
                path="/first_player",
            )
        )
    recency = first_player_recency(n, first) if first is not None else [None] * n
    warnings.extend(game_warnings(game, catalog, resolved.cities, kept, resolved.epiphanies))

    players: list[dict[str, Any]] = []
    standings: list[Standing] = []
    for p, player in enumerate(game.players):
        fig = figures[p]
        cards = kept[p]
        epiphanies: EpiphanyResult = score_epiphanies(player.epiphanies, resolved.epiphanies[p])
        for k in epiphanies.activated_five_point:
            errors.append(
                Problem(
                    code="activated_five_point",
                    message=f"epiphany {k} is worth 5 points and cannot be activated; "
                    "declared activated, it scores 0",
                    path=join("", "players", p, "epiphanies", k),
                )
            )
        stars: int | None = None
        met: list[str] | None = None
        requirement_points = 0
        card_points: list[int] | None = None
        results = []
        if populist:
            results = evaluate_requirements(
                requirement_ids, CityContext(cards, fig, catalog), explained=detail
            )
            met = [r.id for r in results if r.met]
            stars = len(met) + epiphanies.stars
            requirement_points, card_points = populist_points(cards, stars)
        mil = military_points(fig, base_points[p]) if military else None
        ten = TEN_CARDS_POINTS if len(cards) >= TEN_CARDS else 0
        star_counts = [c.spec.stars for c in cards if c.spec is not None]
        bonus = sum(b.points for b in player.bonuses)
        total = requirement_points + (mil.total if mil else 0) + epiphanies.points + ten + bonus
        standings.append(
            Standing(
                total=total,
                requirements_met=len(met) if met is not None else None,
                bases=fig.bases if military else None,
                cards=len(cards),
                three_star_cards=star_counts.count(3),
                two_star_cards=star_counts.count(2),
                first_player=recency[p],
            )
        )
        entry: dict[str, Any] = {
            "name": player.name,
            "legal": True,
            "cards": len(cards),
            "open_connections": fig.open_connections,
            "stars": stars,
            "requirements_met": met,
            "score": {
                "requirements": requirement_points,
                "military": mil.to_dict() if mil else None,
                "epiphanies": epiphanies.points,
                "ten_cards": ten,
                "bonuses": bonus,
                "total": total,
            },
            "place": 0,
            "errors": [],
            "warnings": [],
        }
        if detail:
            entry["audit"] = _audit(
                resolved.cities[p],
                fig,
                results,
                stars,
                epiphanies,
                card_points,
                cards,
                mil is not None,
                base_places[p] if n > 1 else None,
            )
            entry["audit"]["advice"] = (
                third_star_advice(
                    player.epiphanies, resolved.epiphanies[p], cards, len(met), epiphanies.stars
                )
                if met is not None
                else []
            )
            conditions = _epiphany_conditions(
                player.epiphanies, resolved.epiphanies[p], cards, fig, catalog, geometry
            )
            for line in entry["audit"]["epiphanies"]:
                line.update(conditions[line["index"]])
        players.append(entry)

    places, decided = rank(standings)
    for p, entry in enumerate(players):
        entry["place"] = places[p]
        if detail:
            entry["audit"]["ranking"] = {
                "place": places[p],
                "decided_by": decided[p],
                "compared": {
                    "total": standings[p].total,
                    "requirements_met": standings[p].requirements_met,
                    "bases": standings[p].bases,
                    "cards": standings[p].cards,
                    "three_star_cards": standings[p].three_star_cards,
                    "two_star_cards": standings[p].two_star_cards,
                    "first_player_recency": standings[p].first_player,
                },
            }

    top_errors, top_warnings = _place_problems(players, errors, warnings)
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "neweden": __version__,
        "catalog": catalog.name,
        "valid": not errors,
        "mode": mode,
        "meta": game.meta if isinstance(game.meta, dict) else None,
        "players": players,
        "errors": top_errors,
        "warnings": top_warnings,
    }
    if detail:
        report["audit"] = {
            "majority_table": list(table) if military else None,
            "majority_table_is_default": default_table if military else None,
            "bases": [
                {"player": player.name, "bases": count, "place": place, "points": points}
                for player, count, place, points in zip(
                    game.players, bases, base_places, base_points, strict=True
                )
            ]
            if military
            else None,
            "first_player": game.players[first].name if first is not None else None,
        }
    return report


def _epiphany_conditions(
    entries: Sequence[EpiphanyEntry],
    specs: Sequence[EpiphanySpec | None],
    cards: Sequence[ResolvedCard],
    fig: CityFigures,
    catalog: Catalog,
    geometry: Geometry,
) -> list[dict[str, Any]]:
    """Information only (RULES §4b): whether the final city meets each declared epiphany's
    known condition, and whether identical ones can each have their own cards."""
    counted = ("validated", "activated")
    copies: dict[str, int] = {}
    for entry, spec in zip(entries, specs, strict=True):
        if spec is not None and spec.id and entry.state in counted:
            copies[spec.id] = copies.get(spec.id, 0) + 1
    answers: dict[str, str] = {}
    out = []
    for entry, spec in zip(entries, specs, strict=True):
        info: dict[str, Any] = {"condition_met": None, "disjoint_sets": None}
        if spec is not None and spec.condition is not None:
            info["condition_met"] = evaluate(spec.condition, CityContext(cards, fig, catalog))
            if entry.state in counted and copies.get(spec.id, 0) > 1:
                if spec.id not in answers:
                    answers[spec.id] = disjoint_sets(
                        spec.condition,
                        copies[spec.id],
                        cards,
                        catalog,
                        lambda subset: geometry([subset])[0],
                    )
                info["disjoint_sets"] = answers[spec.id]
        out.append(info)
    return out


def _place_problems(
    players: list[dict[str, Any]], errors: list[Problem], warnings: list[Problem]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Each problem once: under players[i] when its path starts with /players/i, otherwise
    at the top level; in document order. A player is illegal exactly when one of their
    errors points into their city."""
    top: dict[str, list[dict[str, object]]] = {"errors": [], "warnings": []}
    for kind, problems in (("errors", errors), ("warnings", warnings)):
        for problem in sorted(problems, key=_sort_key):
            match = _PLAYER_PATH.match(problem.path)
            if match is None:
                top[kind].append(problem.to_dict())
                continue
            p = int(match.group(1))
            players[p][kind].append(problem.to_dict())
            if kind == "errors" and problem.path.startswith(join("", "players", p, "city")):
                players[p]["legal"] = False
    return top["errors"], top["warnings"]


def _card_why(card: ResolvedCard, scored: bool, stars: int | None) -> str:
    """What a card earned in Populist, and why, in a few words."""
    if card.spec is None:
        return "unknown id: left out"
    if not scored:
        return "on a taken cell: left out"
    if stars is None:
        return "scored for its facility only (no Populist part in this mode)"
    need = card.spec.stars
    if need <= stars:
        return f"activated: needs {need} star(s), the player has {stars}"
    return f"1 point: needs {need} stars, the player has {stars}"


def _audit(
    city: Sequence[ResolvedCard],
    fig: CityFigures,
    results: Sequence[Any],
    stars: int | None,
    epiphanies: EpiphanyResult,
    card_points: list[int] | None,
    kept: Sequence[ResolvedCard],
    military: bool,
    bases_place: int | None,
) -> dict[str, Any]:
    """How every point of one player came about (the report's audit trail)."""
    scored = dict(zip((c.index for c in kept), card_points or [], strict=False))
    cell = {c.index: [c.row, c.col] for c in city}
    return {
        "cards": [
            {
                "index": c.index,
                "cell": [c.row, c.col],
                "scored": fig.included[c.index],
                "stars_required": c.spec.stars if c.spec else None,
                "points": c.spec.points if c.spec else None,
                "populist_points": scored.get(c.index) if card_points is not None else None,
                "why": _card_why(c, fig.included[c.index], stars),
            }
            for c in city
        ],
        "requirements": [{"id": r.id, "met": r.met, "why": r.why} for r in results]
        if stars is not None
        else None,
        "stars": {
            "requirements": stars - epiphanies.stars,
            "epiphanies": epiphanies.stars,
            "total": stars,
        }
        if stars is not None
        else None,
        "epiphanies": [
            {
                "index": line.number,
                "state": line.state,
                "points": line.points,
                "effect": line.effect,
                "scored": line.scored,
                "note": line.note,
            }
            for line in epiphanies.lines
        ],
        "military": {
            "labs": fig.labs,
            "shelter_groups": [[cell[i] for i in group] for group in fig.shelter_groups],
            "shelter_group_points": [len(g) * min(len(g), 4) for g in fig.shelter_groups],
            "medical_cards": [cell[i] for i in fig.medical_cards],
            "towers": fig.towers,
            "tower_span": None
            if fig.tower_span is None
            else {"from": list(fig.tower_span[:2]), "to": list(fig.tower_span[2:])},
            "bases": fig.bases,
            "bases_place": bases_place,
        }
        if military
        else None,
        "components": fig.components,
    }
