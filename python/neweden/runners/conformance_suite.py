"""The conformance suite `new-eden/suite@1` (docs/conformance.md): games with the answers a
scorer speaking `new-eden/scorer@1` must give, written from the package, deterministic.

A hand-derived part, each case named and tagged with its rule area, each with a figure
derived by hand (the manual's worked examples, the rules' decisions) that the package's
answer must equal before the suite is written (the review of the expected answers); and a
generated part (seeded games, legal and illegal, every mode) for agreement at scale and for
timing."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import IO, Any

import msgspec

from neweden.catalog.catalog import BUILTIN
from neweden.format import codes
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.runners.results import scored
from neweden.runners.sources import Entry, read_lines
from neweden.scoring.types import Report

__all__ = [
    "SUITE_FORMAT",
    "Answer",
    "AnswerPlayer",
    "answer_lines",
    "answer_of",
    "answer_schema",
    "hand_cases",
    "write_suite",
]

SUITE_FORMAT = "new-eden/suite@1"
PROTOCOL = "new-eden/scorer@1"
#: The generated part: games and the seed they grow from.
GENERATED, SEED = 2000, 42


class AnswerPlayer(msgspec.Struct, omit_defaults=True):
    """One player of an answer: `name`, `total` and `place` always; the rest when the scorer
    gives them."""

    name: str
    total: int
    place: int
    legal: bool | msgspec.UnsetType = msgspec.UNSET
    open_connections: int | msgspec.UnsetType = msgspec.UNSET
    stars: int | msgspec.UnsetType | None = msgspec.UNSET
    parts: dict[str, int | None] | msgspec.UnsetType = msgspec.UNSET


class Answer(msgspec.Struct, omit_defaults=True):
    """What a scorer answers of one game (`new-eden/scorer@1`): `valid` and the players; the
    error codes (each once, sorted) when it gives them."""

    valid: bool
    players: list[AnswerPlayer] = []
    codes: list[str] | msgspec.UnsetType = msgspec.UNSET


def answer_schema() -> str:
    """The JSON Schema of an answer (docs/conformance.md shows it)."""
    return json.dumps(msgspec.json.schema(Answer), indent=2) + "\n"


def answer_of(report: Any) -> Answer:
    """neweden's answer in the protocol, from its report (a Report, an unreadable entry's
    `{"valid": false, "errors"}`, or their dicts)."""
    doc = msgspec.to_builtins(report) if not isinstance(report, dict) else report
    found = {e["code"] for e in doc.get("errors", [])}
    players = []
    for p in doc.get("players", []):
        found |= {e["code"] for e in p["errors"]}
        score = p["score"]
        military = score["military"]
        players.append(
            AnswerPlayer(
                p["name"],
                score["total"],
                p["place"],
                p["legal"],
                p["open_connections"],
                p["stars"],
                {
                    "requirements": score["requirements"],
                    "military": None if military is None else military["total"],
                    "epiphanies": score["epiphanies"],
                    "ten_cards": score["ten_cards"],
                    "bonuses": score["bonuses"],
                },
            )
        )
    return Answer(doc["valid"], players, sorted(found))


def answer_lines(
    source: IO[bytes], out: IO[bytes], *, reference: bool = False, chunk: int = 64
) -> int:
    """neweden as a scorer of the protocol: each line of `source` a game, each answer a line
    of `out` in order, a chunk of games scored at once (`reference`: the pure-Python core).
    A line over 1 MiB is answered `too_large`, read past in bounded pieces (a stream without
    a line end never fills the memory). The games answered."""
    answered = 0
    waiting: list[Entry] = []

    def flush() -> None:
        games, problems = [e.data for e in waiting], [e.problem for e in waiting]
        found = scored(games, problems, BUILTIN, False, reference=reference)
        out.write(b"".join(msgspec.json.encode(answer_of(r)) + b"\n" for r in found))
        out.flush()
        waiting.clear()

    for entry in read_lines(source, "-"):  # (blank lines skipped)
        waiting.append(entry)
        answered += 1
        if len(waiting) >= chunk:
            flush()
    if waiting:
        flush()
    return answered


# --- the hand-derived part ----------------------------------------------------------------

_SIDES = {"t": "top", "r": "right", "b": "bottom", "l": "left"}


def _card(row: int, col: int, sides: str, facility: str = "lab", **more: Any) -> dict[str, Any]:
    card = {"style": "ex_a", "type": "ex_plaza", "facility": facility, "points": 1, "stars": 0}
    card |= more
    return {"row": row, "col": col, "card": card | {"sides": [_SIDES[s] for s in sides]}}


def _line(n: int, facility: str = "lab", **more: Any) -> list[dict[str, Any]]:
    """n cards in a row, each joined to the next."""
    if n == 1:
        return [_card(0, 0, "t", facility, **more)]
    ends = {0: "r", n - 1: "l"}
    return [_card(0, c, ends.get(c, "rl"), facility, **more) for c in range(n)]


def _game(
    mode: str,
    *cities: list[dict[str, Any]],
    players_epiphanies: list[dict[str, Any]] | None = None,
    players_bonuses: dict[int, int] | None = None,
    **more: Any,
) -> dict[str, Any]:
    """A game of these cities (Ana, Bruno, Carla, Davi, Eva), the first player's epiphanies
    and a bonus of so many points for the players it names by seat."""
    names = ["Ana", "Bruno", "Carla", "Davi", "Eva"]
    players: list[dict[str, Any]] = [{"name": names[i], "city": c} for i, c in enumerate(cities)]
    if players_epiphanies:
        players[0]["epiphanies"] = players_epiphanies
    for seat, points in (players_bonuses or {}).items():
        players[seat]["bonuses"] = [{"name": "EX-Company", "points": points}]
    doc: dict[str, Any] = {"mode": mode, "players": players}
    if mode != "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    return doc | more


def _example() -> dict[str, Any]:
    text = resources.files("neweden").joinpath("data/final-scoring-example.json").read_text()
    return dict(json.loads(text))


def _with(city: list[dict[str, Any]], at: int, **card: Any) -> list[dict[str, Any]]:
    city[at]["card"] |= card
    return city


#: A check of a hand case: what it reads of the answer, and the figure derived by hand.
Check = tuple[Callable[[Answer], object], object]


def _total(i: int = 0) -> Callable[[Answer], object]:
    return lambda a: a.players[i].total


def _places(a: Answer) -> object:
    return [p.place for p in a.players]


def hand_cases() -> list[tuple[str, str, dict[str, Any], Check]]:
    """(id, rule area, game, the hand-derived check) of every hand case."""
    two_shelter_bonus = _game("military", _line(2), _line(2))
    two_shelter_bonus["players"][1]["bonuses"] = [{"name": "EX-Company", "points": 3}]
    rotated = _line(2)
    rotated[1] |= {"rotated": True}  # its left icon turned to the right: it joins nothing
    wild = [_card(0, 0, "r"), {"row": 0, "col": 1, "card": {"wild": True, "points": 0}}]
    wild.append(_card(0, 2, "l"))
    overlap = [*_line(2), _card(0, 1, "l")]
    return [
        ("manual-final-example", "manual", _example(), (_total(), 78)),  # 44 + 20 + 9 + 5
        ("manual-final-epiphanies", "epiphanies", _example(),
         (lambda a: (a.players[0].parts or {}).get("epiphanies"), 9)),  # 5 + 2 + 2
        ("d1-four-labs", "military", _game("military", _line(4)), (_total(), 12)),  # 4 x 3
        ("d2-a-shelter-group-of-five", "military",
         _game("military", _line(5, "shelter")), (_total(), 20)),  # 5 x min(5, 4)
        ("d3-a-medical-center-between-two", "military",
         _game("military", _with(_line(3), 1, facility="medical")),
         (_total(), 10)),  # two labs 6, two distinct neighbours 4
        ("d4-two-towers-four-columns-apart", "military",
         _game("military", _with(_with(_line(4), 0, facility="tower"), 3, facility="tower")),
         (_total(), 10)),  # two labs 6, towers 4 columns x 1 row
        ("4c-ten-cards", "ten_cards", _game("military", _line(10)), (_total(), 35)),  # 30 + 5
        ("4c-nine-cards", "ten_cards", _game("military", _line(9)), (_total(), 27)),
        ("4d-bonuses", "bonuses", two_shelter_bonus, (_total(1), 9)),  # 6 + 3
        ("4e-highest-total", "ranking", _game("military", _line(2), _line(3)), (_places, [2, 1])),
        ("4e-competition-1-1-3", "ranking",
         _game("military", _line(3), _line(3), _line(2)), (_places, [1, 1, 3])),
        ("4e-6-first-player", "ranking",
         _game("military", _line(2), _line(2), _line(2), first_player="Carla"),
         (_places, [3, 2, 1])),  # Carla first now, Bruno before her
        ("4a-c1-no-open-icon", "requirements",
         _game("populist", _line(2)), (lambda a: a.players[0].stars, 1)),  # C1 met
        ("open-connections-facing-nothing", "open_connections",
         _game("military", [_card(0, 0, "rt"), _card(0, 1, "rl"), _card(0, 2, "lb")]),
         (lambda a: a.players[0].open_connections, 2)),  # the top and the bottom icons
        ("rotated-card-joins-nothing", "rotation",
         _game("military", rotated), (lambda a: a.players[0].legal, False)),
        ("rotated-right-icon-is-a-left-one", "rotation",
         _game("military", [_card(0, 0, "r"), _card(0, 1, "r") | {"rotated": True}]),
         (lambda a: a.players[0].legal, True)),  # 180°: right to left, facing the first card
        ("rotated-bottom-icon-is-a-top-one", "rotation",
         _game("military", [_card(0, 0, "b"), _card(1, 0, "b") | {"rotated": True}]),
         (lambda a: a.players[0].legal, True)),  # 180°: bottom to top (90° would be left)
        ("wild-card-joins-both-sides", "wild",
         _game("military", wild), (lambda a: a.players[0].legal, True)),
        ("overlap-is-an-error", "errors", _game("military", overlap),
         (lambda a: codes.OVERLAP in (a.codes or []), True)),
        ("unknown-card-is-an-error", "errors",
         _game("military", [*_line(2), {"row": 1, "col": 0, "card": "EX-nothing"}]),
         (lambda a: codes.UNKNOWN_CARD in (a.codes or []), True)),
        ("no-mode-is-unreadable", "errors", {"players": [{"name": "Ana", "city": _line(2)}]},
         (lambda a: (a.valid, a.players), (False, []))),
        *_more_cases(),
        *_error_cases(),
    ]  # fmt: skip


def _styles(n: int, **more: Any) -> list[dict[str, Any]]:
    """n cards in a row, their styles cycling through five."""
    city = _line(n, **more)
    for k, card in enumerate(city):
        card["card"]["style"] = f"ex_{'abcde'[k % 5]}"
    return city


def _has(code: str) -> Check:
    return (lambda a: code in (a.codes or []), True)


def _stars(a: Answer) -> object:
    return [p.stars for p in a.players]


def _more_cases() -> list[tuple[str, str, dict[str, Any], Check]]:
    """The requirements and stars, D5 and every tie-breaker."""
    third = {"points": 2, "state": "activated", "effect": "third_star"}
    pricey = _line(2, points=7)
    pricey[1]["card"]["stars"] = 2
    starred = _line(2)
    starred[0]["card"]["stars"] = 3
    one_star, two_stars = _line(2), _line(2)
    one_star[0]["card"]["stars"], two_stars[0]["card"]["stars"] = 1, 2
    bases = _line(2, "base")
    shelters = [_with(c, 0, facility="shelter") for c in ([_line(2)[0]], [_line(2)[1]])]
    two_shelters = [shelters[0][0], shelters[1][0]]
    return [
        ("4a-a1-five-styles", "requirements", _game("populist", _styles(5)),
         (_stars, [2])),  # A1 and C1 (no open icon); B1 needs six in a row
        ("4a-b1-six-in-a-row", "requirements", _game("populist", _line(6)),
         (_stars, [2])),  # B1 and C1; one style: no A1
        ("4a-c1-five-open-icons", "requirements",
         _game("populist", [_card(0, 0, "rtb"), _card(0, 1, "ltbr")]),
         (_stars, [0])),  # 2 + 3 icons face nothing: C1 not met
        ("4a-1-three-requirements", "requirements", _game("populist", _styles(6)),
         (_stars, [3])),
        ("4a-1-three-third-stars-make-a-star", "epiphanies",
         _game("populist", _line(2), players_epiphanies=[third] * 3), (_stars, [2])),  # C1 + 1
        ("4a-2-fifteen-points-a-star-above-three", "requirements",
         _game("populist", _styles(6, points=2), players_epiphanies=[third] * 6),
         (_total(), 42)),  # 3 + 2 stars: 6 cards x 2 + 15 x 2
        ("4a-3-a-card-above-the-stars-scores-one", "requirements",
         _game("populist", pricey), (_total(), 8)),  # C1: 1 star; 7 + 1
        ("d5-majority-3-2-1", "military",
         _game("military", _line(3, "base"), _line(2, "base"), _line(1, "base")),
         (lambda a: [p.total for p in a.players], [7, 3, 0])),  # the 3-player table 7/3/0
        ("d5-alone-scores-nothing", "military", _game("military", bases), (_total(), 0)),
        # each tie-breaker: equal totals, the second seat ahead (not the first, nor by name)
        ("4e-1-requirements-met", "ranking",
         _game("populist", [_card(0, 0, "rtbl"), _card(0, 1, "ltb")], _line(2)),
         (_tie, ([2, 2], [2, 1]))),  # Bruno meets C1, Ana (5 open) does not
        ("4e-2-military-bases", "ranking",
         _game("military", two_shelters, bases, players_bonuses={0: 1}),
         (_tie, ([5, 5], [2, 1]))),  # Ana 4 + 1, Bruno 5 by D5: Bruno has the bases
        ("4e-3-more-cards", "ranking",
         _game("military", _line(2), _line(3), players_bonuses={0: 3}),
         (_tie, ([9, 9], [2, 1]))),  # Ana 6 + 3, Bruno 9: three cards to two
        ("4e-4-three-star-cards", "ranking", _game("military", _line(2), starred),
         (_tie, ([6, 6], [2, 1]))),
        ("4e-5-two-star-cards", "ranking", _game("military", one_star, two_stars),
         (_tie, ([6, 6], [2, 1]))),  # no 3-star card either side; Bruno's 2-star one
        ("d5-a-tie-shares-the-place", "military",
         _game("military", _line(2, "base"), _line(2, "base")),
         (_tie, ([5, 5], [1, 1]))),  # 2 bases each: both first, 5 each
        ("4a-c1-four-open-icons", "requirements",
         _game("populist", [_card(0, 0, "rtb"), _card(0, 1, "ltb")]),
         (_stars, [1])),  # 2 + 2 icons face nothing: at most four, C1 met
        *_worked_examples(),
    ]  # fmt: skip


def _tie(a: Answer) -> object:
    return ([p.total for p in a.players], [p.place for p in a.players])


def _worked_examples() -> list[tuple[str, str, dict[str, Any], Check]]:
    """RULES' worked checks of the Military figures (its section 5)."""
    shelters = [
        _card(0, 0, "br", "shelter"), _card(1, 0, "tb", "shelter"), _card(2, 0, "t", "shelter"),
        _card(0, 1, "lr"), _card(0, 2, "l", "shelter"),
    ]  # fmt: skip
    towers = [
        _card(0, 0, "r", "tower"), _card(0, 1, "lr"), _card(0, 2, "lr"), _card(0, 3, "lb"),
        _card(1, 3, "tb"), _card(2, 3, "t", "tower"),
    ]  # fmt: skip
    stacked = [_card(0, 0, "b", "tower"), _card(1, 0, "t", "tower")]
    return [
        ("worked-three-shelters-and-a-lone-one", "military", _game("military", shelters),
         (_total(), 13)),  # shelters 3 x 3 + 1 x 1 = 10, a lab 3
        ("worked-towers-over-4-columns-and-3-rows", "military", _game("military", towers),
         (_total(), 24)),  # towers 4 x 3 = 12, four labs 12
        ("worked-two-towers-one-above-the-other", "military", _game("military", stacked),
         (_total(), 2)),  # 1 column x 2 rows
    ]  # fmt: skip


def _error_cases() -> list[tuple[str, str, dict[str, Any], Check]]:
    """A case for each error code a hand can make: the rules' and the format's."""
    twice = _game("military", _line(2), _line(2))
    twice["players"][1]["name"] = "Ana"
    five = _game("military", *[_line(2)] * 5)
    return [
        ("disconnected-is-an-error", "errors",
         _game("military", [*_line(2), _card(5, 5, "t")]), _has(codes.DISCONNECTED)),
        ("copy-limit-of-new-eden", "errors",
         _game("military", [*_line(2), *({"row": 1, "col": c, "card": "new-eden"}
                                         for c in range(3))]),
         _has(codes.COPY_LIMIT)),
        ("duplicate-name-is-an-error", "errors", twice, _has(codes.DUPLICATE_NAME)),
        ("unknown-requirement-is-an-error", "errors",
         _game("populist", _line(3), requirements=["A1", "EX-Z9", "C1"]),
         _has(codes.UNKNOWN_REQUIREMENT)),
        ("activated-five-point-epiphany", "errors",
         _game("military", _line(2), players_epiphanies=[{"points": 5, "state": "activated"}]),
         _has(codes.ACTIVATED_FIVE_POINT)),
        ("five-players-are-too-many", "errors", five, _has(codes.TOO_LARGE)),
        ("an-unknown-field-is-refused", "errors", _game("military", _line(2), colour="red"),
         _has(codes.UNKNOWN_FIELD)),
        ("players-must-be-a-list", "errors", {"mode": "military", "players": "Ana"},
         _has(codes.BAD_TYPE)),
        *_naming_cases(),
    ]  # fmt: skip


def _naming_cases() -> list[tuple[str, str, dict[str, Any], Check]]:
    """The errors of names and declarations, and two more of the format. (Those of a closed
    vocabulary or a catalog's requirement need a catalog file, and `not_found` a batch path:
    not in a suite of games.)"""
    six = _styles(6)
    six[5]["card"]["style"] = "ex_f"  # six styles: the box holds five
    seven = _line(7)
    for k, card in enumerate(seven):
        card["card"]["type"] = f"ex_type_{'abcdefg'[k]}"  # seven types: the box holds six
    typo = _with(_line(2), 0, style="gothc")  # two edits from gothic
    declared = _game("populist", [_card(0, 0, "rtb"), _card(0, 1, "ltbr")])
    declared["players"][0]["requirements_met"] = ["C1"]  # five open icons: C1 is not met
    no_row = _line(2)
    del no_row[1]["row"]
    return [
        ("six-styles-are-too-many", "errors", _game("military", six),
         _has(codes.TOO_MANY_STYLES)),
        ("seven-types-are-too-many", "errors", _game("military", seven),
         _has(codes.TOO_MANY_TYPES)),
        ("a-near-miss-of-gothic-is-an-error", "errors", _game("military", typo),
         _has(codes.MISSPELLED_NAME)),
        ("an-unknown-epiphany-is-an-error", "errors",
         _game("military", _line(2), players_epiphanies=[{"card": "EX-nothing",
                                                          "state": "held"}]),
         _has(codes.UNKNOWN_EPIPHANY)),
        ("a-requirement-the-city-contradicts", "errors", declared,
         _has(codes.REQUIREMENT_DISAGREES)),
        ("four-stars-are-a-bad-value", "errors",
         _game("military", _with(_line(2), 0, stars=4)), _has(codes.BAD_VALUE)),
        ("a-card-without-its-row", "errors", _game("military", no_row),
         _has(codes.MISSING_FIELD)),
    ]  # fmt: skip


# --- the generated part -------------------------------------------------------------------


def _generated(count: int, seed: int) -> list[dict[str, Any]]:
    """Games grown by legal placement, 1 to 4 players, 0 to 14 cards a city, every mode; a
    third of them with a mistake (a card on a taken cell, a card apart, one turned)."""
    rng = random.Random(seed)
    games = []
    for n in range(count):
        cities = []
        for _p in range(rng.randint(1, 4)):
            city = city_json(grow_city(rng, rng.randint(0, 14)), wild_id="atomic-waste")
            if city and n % 3 == 0:
                kind = rng.randrange(3)
                if kind == 0:
                    city.append({**city[0]})
                elif kind == 1:
                    city.append({**city[-1], "row": 40, "col": 40})
                else:
                    city[-1] = {**city[-1], "rotated": True}
            cities.append(city)
        games.append(_game(rng.choice(["populist", "military", "elitist"]), *cities))
    return games


# --- writing it -----------------------------------------------------------------------------


def _answers(games: list[dict[str, Any]]) -> list[Answer]:
    with speaking("en"):
        found = scored([json.dumps(g).encode() for g in games], [None] * len(games), BUILTIN, False)
    return [answer_of(r if isinstance(r, Report) else msgspec.to_builtins(r)) for r in found]


def _checked(cases: list[tuple[str, str, dict[str, Any], Check]]) -> list[Answer]:
    """The package's answers to the hand cases, each equal to its hand-derived figure;
    AssertionError naming the case otherwise (a rule changed, or a case was built wrong)."""
    answers = _answers([game for _id, _area, game, _check in cases])
    for (case, _area, _doc, (read, figure)), answer in zip(cases, answers, strict=True):
        got = read(answer)
        if got != figure:
            raise AssertionError(f"{case}: the package answers {got!r}, the hand {figure!r}")
    return answers


def _named(game: dict[str, Any], case: int) -> dict[str, Any]:
    """The game with each player's name made the case's own (`Ana` of case 7 is `Ana 7`,
    `first_player` too): an answer names the game it answers, so one given out of order is
    seen as such."""
    players = game.get("players")
    if not isinstance(players, list):
        return game
    renamed = {**game, "players": [
        {**p, "name": f"{p['name']} {case}"} if isinstance(p, dict) and "name" in p else p
        for p in players
    ]}  # fmt: skip
    if isinstance(game.get("first_player"), str):
        renamed["first_player"] = f"{game['first_player']} {case}"
    return renamed


def write_suite(folder: str, generated: int = GENERATED) -> dict[str, Any]:
    """The suite in `folder`: `cases.jsonl` (one case a line: id, area, part, game,
    expected) and `manifest.json` (counts by area and part, SHA-256 of the cases); the
    manifest, returned. The same package writes the same bytes."""
    hand = [(case, area, _named(game, k), check) for k, (case, area, game, check) in
            enumerate(hand_cases())]  # fmt: skip
    games = [_named(game, len(hand) + k) for k, game in enumerate(_generated(generated, SEED))]
    expected = _checked(hand) + _answers(games)
    rows = [(case, area, "hand", game) for case, area, game, _check in hand]
    rows += [(f"generated-{k:05d}", "generated", "generated", g) for k, g in enumerate(games)]
    os.makedirs(folder, exist_ok=True)
    lines = [
        msgspec.json.encode(
            {"id": case, "area": area, "part": part, "game": game, "expected": answer}
        )
        for (case, area, part, game), answer in zip(rows, expected, strict=True)
    ]
    body = b"\n".join(lines) + b"\n"
    with open(os.path.join(folder, "cases.jsonl"), "wb") as handle:
        handle.write(body)
    manifest = {
        "format": SUITE_FORMAT,
        "protocol": PROTOCOL,
        "cases": len(rows),
        "parts": dict(Counter(part for _c, _a, part, _g in rows)),
        "areas": dict(sorted(Counter(area for _c, area, _p, _g in rows).items())),
        "sha256": {"cases.jsonl": hashlib.sha256(body).hexdigest()},
    }
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=2, sort_keys=True)
        handle.write("\n")
    return manifest
