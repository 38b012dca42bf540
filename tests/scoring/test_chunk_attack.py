"""Attacks on the chunk path (:mod:`neweden.scoring.chunk`): a batch's lean reports, their
players scored together over numpy columns, must be byte for byte those of each game scored
alone (player() and rank() game by game), in English and in Portuguese, and those of the
reference twin. Each case is a batch of at least CHUNK_FROM games (the real threshold unless
a test says otherwise) and checks that a chunk ran: ties on every tie-breaker, first players
and duplicate names, one-player games with bases, custom D5 tables, requirement conditions
(constant, on figures, on the cards, unknown ids), epiphanies at their corners, extreme
points, empty and 77-card cities, Portuguese aliases, lean, exact and undecodable documents
mixed, and seeded random batches."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import pytest

from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog, EpiphanySpec, RequirementSpec
from neweden.format.decode import decode_game
from neweden.format.model import BOM, Game
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.scoring import chunk, report
from neweden.scoring.report import reference_geometry, score_inputs, score_reports
from neweden.scoring.table import fits

Doc = dict[str, Any]

#: A `meta` that makes a document large enough to be read lean (report.LEAN_FROM_BYTES).
PAD: dict[str, str] = {"pad": "x" * 520}

#: Invented catalog entries (ids EX-): requirements whose conditions are constant, read the
#: figures, read the cards (scored alone), mix both (refused by the columns: scored alone),
#: or have none; epiphanies of 2 and 5 points; cards by id; a D5 table for some counts.
REQUIREMENTS: dict[str, Any] = {
    "EX-ALWAYS": {">=": [1, 0]},
    "EX-NEVER": {">": [1, 2]},
    "EX-TRUE": True,
    "EX-FALSE": False,
    "EX-NONE": None,
    "EX-STYLES": {">=": [{"all_styles": {}}, 5]},
    "EX-FIG": {">=": [{"open_connections": {}}, 3]},
    "EX-CC": {">": [{"complete_connections": {}}, 5]},
    "EX-DST": {">=": [{"distinct": "style"}, 3]},
    "EX-TWO": {"!=": [{"column_cards": {}}, {"row_cards": {}}]},
    "EX-NOT": {"not": {"<": [{"count": {}}, 4]}},
    "EX-AND": {"and": [{">=": [{"count": {}}, 2]}, {"<=": [{"open_connections": {}}, 6]}]},
    "EX-OR": {"or": [{"==": [{"row_cards": {}}, 1]}, {">=": [{"distinct": "style"}, 4]}]},
    "EX-BIG": {"<": [{"count": {}}, 10**30]},
    "EX-CARDS": {">=": [{"count": {"style": "ex_cobalt"}}, 2]},
    "EX-DTYPE": {">=": [{"distinct": "type"}, 3]},
    "EX-LINE": {">=": [{"row_cards": {"line": 0}}, 2]},
    "EX-GROUP": {">=": [{"largest_group": {"by": "style"}}, 3]},
    "EX-ADJ": {">=": [{"adjacent": [{"facility": "lab"}, {}]}, 1]},
    "EX-MIXED": {"or": [{">=": [1, 2]}, {">=": [{"count": {}}, 4]}]},
    "EX-MIXED2": {"and": [True, {">=": [{"open_connections": {}}, 2]}]},
}

EXAMPLES = dataclasses.replace(
    BUILTIN,
    cards={
        **BUILTIN.cards,
        "EX-LAB": CardSpec(
            False,
            "ex_amber",
            "ex_harbor",
            "lab",
            1000,
            3,
            frozenset(["left", "right"]),
            None,
            "EX-LAB",
        ),
        "EX-BASE": CardSpec(
            False,
            "ex_amber",
            "ex_harbor",
            "base",
            0,
            2,
            frozenset(["left", "right"]),
            None,
            "EX-BASE",
        ),
    },
    requirements={
        **BUILTIN.requirements,
        **{
            req_id: RequirementSpec(req_id, "ABC"[i % 3], "example", condition)
            for i, (req_id, condition) in enumerate(REQUIREMENTS.items())
        },
    },
    epiphanies={
        "EX-E2": EpiphanySpec("EX-E2", 2, "third_star"),
        "EX-E5": EpiphanySpec("EX-E5", 5, "third_star"),
        "EX-R": EpiphanySpec("EX-R", 2, "rotate"),
        "EX-ODD": EpiphanySpec("EX-ODD", 2, "ex_sparkle"),
    },
    majority_table={1: (9,), 2: (4, 4), 3: (7,), 4: (10, 6, 3, 0, 99)},
)

#: A catalog whose vocabularies are closed: A1 then counts the declared styles (the cards).
CLOSED = dataclasses.replace(
    EXAMPLES,
    styles=frozenset(["ex_amber", "ex_cobalt", "ex_crimson", "ex_jade"]),
    types=frozenset(["ex_harbor", "ex_meadow", "ex_quarry", "ex_citadel", "ex_bazaar"]),
)

#: Requirement lists a game may play (unknown ids among them).
PLAYED: list[list[str]] = [
    [],
    ["A1"],
    ["A1", "B1", "C1"],
    ["EX-ALWAYS", "EX-TRUE", "EX-NEVER", "EX-FALSE", "EX-NONE"],
    ["EX-STYLES", "EX-FIG", "EX-CC", "EX-DST"],
    ["EX-TWO", "EX-NOT", "EX-AND", "EX-OR", "EX-BIG"],
    ["EX-CARDS", "C1"],
    ["EX-DTYPE"],
    ["EX-LINE", "EX-ALWAYS"],
    ["EX-GROUP"],
    ["EX-ADJ", "B1"],
    ["EX-MIXED"],
    ["EX-MIXED2", "A1"],
    ["EX-NOPE", "B1", "EX-ALWAYS"],
    ["C1", "EX-ALWAYS", "EX-TRUE", "A1", "B1", "EX-FIG", "EX-NOT"],
]


# --- the comparison ----------------------------------------------------------------------


def _encoded(found: Sequence[Any]) -> list[bytes]:
    return [
        msgspec.json.encode(r) if not isinstance(r, Exception) else repr(r).encode() for r in found
    ]


def _decoded(inputs: Sequence[Any]) -> list[tuple[int, Game]]:
    out = []
    for i, given in enumerate(inputs):
        try:
            out.append((i, decode_game(given)))
        except Exception:  # an input that is no game: its place holds the error
            continue
    return out


def _same(found: Sequence[bytes], wanted: Sequence[bytes], what: str) -> None:
    assert len(found) == len(wanted)
    for i, (a, b) in enumerate(zip(found, wanted, strict=True)):
        assert a == b, f"{what}: game {i} differs\n{a[:2000]!r}\n{b[:2000]!r}"


def _agree(
    docs: Sequence[Any],
    catalog: Catalog,
    sizes: list[int],
    *,
    twin: bool = True,
    chunks: int = 1,
    threshold: int = chunk.CHUNK_FROM,
) -> None:
    """score_inputs of the batch (documents as given: mappings, bytes, str...) == each one
    alone == the exact decodes as a batch == the twin, in both languages; score_inputs
    scored at least `chunks` chunks (its lean documents, its exact ones); `threshold`:
    chunk.CHUNK_FROM (a test may lower it)."""
    inputs = list(docs)
    decoded = _decoded(inputs)
    games = [game for _i, game in decoded]
    for lang in ("en", "pt-BR"):
        with speaking(lang):
            sizes.clear()
            together = _encoded(score_inputs(inputs, catalog=catalog))
            assert len(sizes) >= chunks, f"chunks ran: {sizes}"
            assert min(sizes) >= threshold
            sizes.clear()
            alone = [_encoded(score_inputs([one], catalog=catalog))[0] for one in inputs]
            assert not sizes or threshold == 1, "a game alone was scored as a chunk"
            _same(together, alone, f"batch against alone ({lang})")
            exact = _encoded(score_reports(games, catalog=catalog))
            if len(games) >= threshold:
                assert sizes, "the exact batch was not scored as a chunk"
            _same(exact, [alone[i] for i, _g in decoded], f"exact batch against alone ({lang})")
            if twin:
                sizes.clear()
                found = score_reports(games, catalog=catalog, geometry=reference_geometry)
                assert not sizes
                _same(_encoded(found), [alone[i] for i, _g in decoded], f"twin ({lang})")


# --- cards and cities --------------------------------------------------------------------


def _card(
    style: str = "ex_amber",
    facility: str = "lab",
    *,
    kind: str = "ex_harbor",
    points: int = 1,
    stars: int = 0,
    sides: Sequence[str] = ("left", "right"),
) -> dict[str, Any]:
    return {
        "style": style,
        "type": kind,
        "facility": facility,
        "points": points,
        "stars": stars,
        "sides": list(sides),
    }


def _row(cards: Sequence[dict[str, Any] | str], row: int = 0) -> list[dict[str, Any]]:
    """Cards side by side in one row (each joins its neighbours: left and right icons, one
    style)."""
    return [{"row": row, "col": col, "card": card} for col, card in enumerate(cards)]


def _tiny(rng: random.Random) -> list[dict[str, Any]]:
    """A city of 0-3 cards from few facilities, stars and points: ties are frequent."""
    cards = [
        _card(
            rng.choice(["ex_amber", "ex_cobalt"]) if rng.random() < 0.2 else "ex_amber",
            rng.choice(["lab", "base", "shelter", "base"]),
            points=rng.choice([0, 1]),
            stars=rng.choice([0, 2, 3]),
        )
        for _ in range(rng.choice([0, 1, 1, 2, 3]))
    ]
    return _row(cards)


def _epiphany(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.2:
        card = rng.choice(["EX-E2", "EX-E5", "EX-R", "EX-ODD", "EX-NOPE"])
        return {"card": card, "state": rng.choice(["held", "validated", "activated"])}
    entry: dict[str, Any] = {
        "points": rng.choice([2, 2, 5]),
        "state": rng.choice(["held", "validated", "activated", "activated"]),
    }
    effect = rng.choice(["third_star", "third_star", "rotate", None, "move", "thrid_star"])
    if effect:
        entry["effect"] = effect
    return entry


def _random_game(rng: random.Random) -> Doc:
    n = rng.randint(1, 4)
    players: list[Doc] = []
    for i in range(n):
        size = rng.choice([0, rng.randint(1, 6), rng.randint(8, 14)])
        grown = grow_city(rng, size, styles=rng.choice([3, 5, 6]), types=6)
        city = city_json(grown) if rng.random() < 0.6 else _tiny(rng)
        roll = rng.randint(0, 12)
        if city and roll == 0:  # a card on a taken cell
            city.append({**city[0], "card": city[-1]["card"]})
        elif len(city) > 1 and roll == 1:  # a card far from the rest
            city[-1] = {**city[-1], "row": city[-1]["row"] + 30}
        elif roll == 2:  # a card by catalog id, one the catalog holds or not
            city.append({"row": 500, "col": 500, "card": rng.choice(["EX-LAB", "EX-MISSING"])})
        player: Doc = {"name": rng.choice([f"P{i}", f"P{i}", "Same"]), "city": city}
        if rng.random() < 0.6:
            player["epiphanies"] = [_epiphany(rng) for _ in range(rng.choice([0, 1, 3, 4, 7, 12]))]
        if rng.random() < 0.4:
            player["bonuses"] = [
                {"name": "b", "points": rng.choice([-1000, -3, 0, 7, 1000])}
                for _ in range(rng.randint(1, 3))
            ]
        players.append(player)
    if n > 1 and rng.random() < 0.4:  # the last player the same as the first: a tie
        players[-1] = {**players[0], "name": f"Q{n - 1}"}
    mode = rng.choice(["populist", "military", "elitist"])
    doc: Doc = {"mode": mode, "players": players}
    if mode != "military" or rng.random() < 0.5:
        doc["requirements"] = rng.choice(PLAYED)
    if rng.random() < 0.6:
        doc["first_player"] = rng.choice([p["name"] for p in players] + ["nobody"])
    if rng.random() < 0.85:
        doc["meta"] = PAD
    return doc


# --- the cases -----------------------------------------------------------------------------


def test_full_ties_on_every_tie_breaker(sizes: list[int]) -> None:
    """Players identical in everything, every number of players and mode, the first player
    each seat, unnamed or no player (the last tie-breaker decides, is skipped, or warns)."""
    rng = random.Random(1)
    docs: list[Doc] = []
    for mode in ("populist", "military", "elitist"):
        for n in range(1, 5):
            city = city_json(grow_city(rng, 11, styles=5))
            epiphanies = [{"points": 2, "state": "activated", "effect": "third_star"}] * 4
            names = [f"P{i}" for i in range(n)]
            for first in [None, "nobody", *names]:
                players = [{"name": name, "city": city, "epiphanies": epiphanies} for name in names]
                doc: Doc = {"mode": mode, "players": players, "meta": PAD}
                if mode != "military":
                    doc["requirements"] = ["A1", "B1", "C1", "EX-ALWAYS"]
                if first is not None:
                    doc["first_player"] = first
                docs.append(doc)
    assert len(docs) >= chunk.CHUNK_FROM
    _agree(docs, EXAMPLES, sizes)


def test_ties_broken_at_each_criterion(sizes: list[int]) -> None:
    """Two players with the same total, set apart by one tie-breaker each time."""
    lab3 = _card(facility="lab", stars=3)
    lab2 = _card(facility="lab", stars=2)
    lab0 = _card(facility="lab", stars=0)
    base = _card(facility="base")
    shelter = _card(facility="shelter")
    pairs: list[tuple[str, list[Any], list[Any]]] = [
        ("military", [lab3], [lab0]),  # three-star cards
        ("military", [lab2], [lab0]),  # two-star cards
        ("military", [lab3, lab0], [lab2, lab2]),  # three-star first
        ("military", [base], [shelter, lab0, shelter]),  # bases (D5 5 against 1+3+1)
        ("military", [lab0, lab0], [shelter, shelter, shelter, base]),
        ("elitist", [lab0], [lab0]),
        ("populist", [lab3], [lab3]),
    ]
    docs: list[Doc] = []
    for mode, a, b in pairs:
        for first in (None, "A", "B", "C"):
            for order in (0, 1):
                cities = [_row(a), _row(b)] if order == 0 else [_row(b), _row(a)]
                players = [{"name": "AB"[i], "city": c} for i, c in enumerate(cities)]
                doc: Doc = {"mode": mode, "players": players, "meta": PAD}
                if mode != "military":
                    doc["requirements"] = ["EX-TWO", "EX-NEVER"]
                if first is not None:
                    doc["first_player"] = first
                docs.append(doc)
    _agree(docs, BUILTIN, sizes)
    _agree(docs, EXAMPLES, sizes)


def test_duplicate_names_and_first_player(sizes: list[int]) -> None:
    """Two players of one name (an error): first_player names the first of them, the other
    name, or nobody; ties between the twins."""
    rng = random.Random(2)
    docs: list[Doc] = []
    for g in range(40):
        city = _tiny(rng)
        names = [["A", "A"], ["A", "B", "A"], ["B", "A", "A", "B"], ["A"]][g % 4]
        players = [
            {"name": name, "city": city if rng.random() < 0.7 else _tiny(rng)} for name in names
        ]
        doc: Doc = {"mode": ["military", "elitist", "populist"][g % 3], "players": players}
        doc["requirements"] = ["EX-ALWAYS", "B1"]
        if g % 5:
            doc["first_player"] = ["A", "B", "nobody", "a"][g % 4]
        doc["meta"] = PAD
        docs.append(doc)
    _agree(docs, EXAMPLES, sizes)


@pytest.mark.parametrize("catalog", [BUILTIN, EXAMPLES], ids=["default-table", "custom-table"])
def test_one_player_games_with_bases(catalog: Catalog, sizes: list[int]) -> None:
    """One player with bases scores 0 for D5 (and a warning), whatever the catalog's table for
    one player; among games of two to four players with tables given for some counts."""
    rng = random.Random(3)
    docs: list[Doc] = []
    for g in range(48):
        n = 1 if g % 2 == 0 else rng.randint(2, 4)
        players = [
            {"name": f"P{p}", "city": _row([_card(facility="base")] * rng.randint(0, 3))}
            for p in range(n)
        ]
        doc: Doc = {"mode": ["military", "elitist"][g % 4 // 2], "players": players, "meta": PAD}
        if doc["mode"] == "elitist":
            doc["requirements"] = ["C1"]
        docs.append(doc)
    _agree(docs, catalog, sizes)


@pytest.mark.parametrize(
    "table",
    [
        {2: (5, 0)},
        {3: (7,), 4: (10, 6, 3, 0, 99)},
        {1: (9,), 2: (), 3: (1, 2, 3), 4: (0, 0, 0, 0)},
        {2: (-4, 7), 4: (1000, 1000, 1000, 1000)},
    ],
)
def test_custom_majority_tables(table: dict[int, tuple[int, ...]], sizes: list[int]) -> None:
    """D5 by tables given for some player counts (the default for the rest: a warning),
    short, long, zero or negative, over games of mixed player counts."""
    catalog = dataclasses.replace(BUILTIN, majority_table=table)
    rng = random.Random(len(table))
    docs: list[Doc] = []
    for g in range(40):
        n = rng.randint(1, 4) if g % 3 else 3
        players = []
        for p in range(n):
            cards = [_card(facility="base")] * rng.choice([0, 1, 1, 2, 3])
            cards += [_card(facility=rng.choice(["lab", "tower"]))] * rng.randint(0, 2)
            players.append({"name": f"P{p}", "city": _row(cards)})
        doc: Doc = {"mode": ["military", "elitist"][g % 2], "players": players, "meta": PAD}
        if doc["mode"] == "elitist":
            doc["requirements"] = ["A1"]
        if g % 4 == 0:
            doc["first_player"] = f"P{n - 1}"
        docs.append(doc)
    _agree(docs, catalog, sizes)


def test_requirement_conditions(sizes: list[int]) -> None:
    """Every requirement list of PLAYED (constant conditions, conditions on figures, on the
    cards, mixed, none, unknown ids) over the same cities, in every mode."""
    rng = random.Random(4)
    docs: list[Doc] = []
    for g, played in enumerate(PLAYED * 3):
        players = [
            {
                "name": f"P{p}",
                "city": city_json(grow_city(rng, rng.choice([0, 3, 7, 12]), styles=5)),
                "epiphanies": [{"points": 2, "state": "activated", "effect": "third_star"}]
                * rng.choice([0, 3, 6]),
            }
            for p in range(1 + g % 4)
        ]
        mode = ["populist", "elitist", "military"][g // len(PLAYED)]
        docs.append({"mode": mode, "requirements": played, "players": players, "meta": PAD})
    _agree(docs, EXAMPLES, sizes)
    met = [
        p.requirements_met
        for r in score_inputs(docs, catalog=EXAMPLES)
        if not isinstance(r, Exception)
        for p in r.players
    ]
    assert any(ids and "EX-ALWAYS" in ids for ids in met)
    on_cards = {"EX-CARDS", "EX-DTYPE", "EX-LINE", "EX-GROUP", "EX-ADJ"}
    assert any(ids and on_cards & set(ids) for ids in met)  # a condition on the cards met


def test_closed_vocabulary(sizes: list[int]) -> None:
    """A catalog that closes styles and types: A1 and `distinct` read the cards (scored
    alone), unknown names are errors; mixed with games scored in the chunk."""
    rng = random.Random(5)
    docs: list[Doc] = []
    for g in range(40):
        players = [
            {"name": f"P{p}", "city": city_json(grow_city(rng, rng.randint(1, 11), styles=6))}
            for p in range(1 + g % 3)
        ]
        played = [["A1", "C1"], ["EX-DST"], ["B1", "EX-FIG"], ["EX-STYLES"]][g % 4]
        docs.append(
            {
                "mode": ["populist", "elitist"][g % 2],
                "requirements": played,
                "players": players,
                "meta": PAD,
            }
        )
    _agree(docs, CLOSED, sizes)


def test_epiphanies_at_their_corners(sizes: list[int]) -> None:
    """Up to 40 epiphanies a player: 1/3-star activations in whole groups and leftovers,
    5-point ones activated (errors), ids known and unknown, unknown effects; stars above 3."""
    rng = random.Random(6)
    docs: list[Doc] = []
    for g in range(36):
        players = []
        for p in range(1 + g % 4):
            count = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 40][(g + p) % 11]
            if g % 3 == 0:
                entries = [{"points": 2, "state": "activated", "effect": "third_star"}] * count
            elif g % 3 == 1:
                entries = [{"card": "EX-E2", "state": "activated"}] * count
            else:
                entries = [_epiphany(rng) for _ in range(count)]
            if g % 5 == 0:
                entries = [
                    *entries[:-1],
                    {"points": 5, "state": "activated", "effect": "third_star"},
                ]
            players.append(
                {
                    "name": f"P{p}",
                    "city": city_json(grow_city(rng, 10, styles=5)),
                    "epiphanies": entries,
                }
            )
        mode = ["populist", "elitist", "military"][g % 3]
        docs.append(
            {"mode": mode, "requirements": ["A1", "B1", "C1"], "players": players, "meta": PAD}
        )
    _agree(docs, EXAMPLES, sizes)


def test_extreme_points_bonuses_and_77_cards(sizes: list[int]) -> None:
    """77-card cities (one row, B1 met), cards of 1000 points at every star requirement, 20
    bonuses of +-1000, many stars: the totals at the decoder's limits."""
    docs: list[Doc] = []
    for g in range(34):
        players = []
        for p in range(1 + g % 4):
            stars = (g + p) % 4
            cards = [
                _card(
                    "ex_amber",
                    ["lab", "shelter", "medical", "tower", "base"][(i + g) % 5],
                    points=1000 if (i + p) % 3 else 0,
                    stars=stars if i % 2 else 3,
                )
                for i in range([77, 76, 10, 9, 1, 0][(g + p) % 6])
            ]
            bonus = [1000, -1000][(g + p) % 2]
            players.append(
                {
                    "name": f"P{p}",
                    "city": _row(cards),
                    "bonuses": [{"name": "b", "points": bonus}] * 20,
                    "epiphanies": [{"points": 2, "state": "activated", "effect": "third_star"}]
                    * (40 if g % 2 else 39),
                }
            )
        docs.append(
            {
                "mode": ["populist", "elitist", "military"][g % 3],
                "requirements": ["B1", "EX-ALWAYS", "EX-TRUE", "EX-NOT", "EX-BIG"],
                "players": players,
                "first_player": "P0",
            }
        )
    _agree(docs, EXAMPLES, sizes)


def test_empty_cities(sizes: list[int]) -> None:
    """Every city empty, or some: warnings, zero figures, full ties."""
    docs: list[Doc] = []
    for g in range(36):
        players = [
            {"name": f"P{p}", "city": [] if (g + p) % 3 else _row([_card()] * (p + 1))}
            for p in range(1 + g % 4)
        ]
        doc: Doc = {"mode": ["populist", "elitist", "military"][g % 3], "players": players}
        doc["requirements"] = [["C1"], ["EX-NOT", "EX-ALWAYS"], []][g % 3]
        if g % 2:
            doc["first_player"] = "P0"
        doc["meta"] = PAD
        docs.append(doc)
    _agree(docs, EXAMPLES, sizes)


def test_portuguese_aliases(sizes: list[int]) -> None:
    """Style and type names as the manual's Portuguese aliases, accented, decomposed or in
    capitals, beside the English ones, in one batch (folded names, similar_names)."""
    styles = ["gótico", "GOTICO", "gotica", "futurista", "renascentista", "sustentável", "gothic"]
    styles.append("go\u0301tico")  # decomposed accent
    kinds = ["área_verde", "construção", "CONSTRUCAO", "building", "green_area", "plaza"]
    rng = random.Random(7)
    docs: list[Doc] = []
    for g in range(40):
        players = []
        for p in range(1 + g % 3):
            cards = [
                _card(rng.choice(styles), rng.choice(["lab", "base"]), kind=rng.choice(kinds))
                for _ in range(rng.randint(1, 6))
            ]
            players.append({"name": f"P{p}", "city": _row(cards)})
        docs.append(
            {
                "mode": ["populist", "elitist"][g % 2],
                "requirements": ["A1", "EX-DST"],
                "players": players,
                "meta": PAD,
            }
        )
    _agree(docs, EXAMPLES, sizes)


def _bad_documents() -> Iterator[Any]:
    """Inputs that are no game, each in its own way."""
    good = {"mode": "military", "players": [{"name": "A", "city": []}], "meta": PAD}
    yield b"{"
    yield b"[]"
    yield b""
    yield 42  # neither bytes, str nor a mapping: TypeError
    yield BOM + BOM + msgspec.json.encode(good)  # a second byte-order mark is no game's
    yield '{"mode": "military"}'  # no players
    yield msgspec.json.encode({**good, "mode": "populista"})
    yield msgspec.json.encode({**good, "surprise": 1})
    yield msgspec.json.encode({**good, "mode": "populist", "requirements": ["A1", "A1"]})
    yield msgspec.json.encode(
        {**good, "players": [{"name": "A", "city": _row([_card("Bad Name")])}]}
    )
    yield msgspec.json.encode({**good, "players": []})
    yield msgspec.json.encode(
        {**good, "players": [{"name": "A", "city": [], "bonuses": [{"name": "b", "points": 1001}]}]}
    )


def test_lean_exact_and_undecodable_documents_mixed(sizes: list[int]) -> None:
    """Documents read lean (with cards by catalog id, known or not, among them), small ones
    and ones the native reader refuses (a card's name with an escape: decoded the exact way),
    and documents that are no game, interleaved: both halves scored as chunks."""
    rng = random.Random(8)
    docs: list[Any] = []
    bad = list(_bad_documents())
    for g in range(80):
        doc = _random_game(rng)
        kind = g % 5
        if kind == 0:
            doc.pop("meta", None)
            for player in doc["players"]:
                player["city"] = player["city"][:1]
                player.pop("epiphanies", None)
        elif kind == 1:
            doc["players"][0]["city"].append({"row": 900, "col": 900, "card": "EX-LAB"})
        elif kind == 3:  # a name with an escape (a tab): the native reader refuses it
            doc["players"][0]["city"].append({"row": 901, "col": 900, "card": "EX-NO-SUCH-CARD"})
            card = {"wild": True, "name": "EX\tcard", "points": 1, "stars": 0}
            doc["players"][0]["city"].append({"row": 902, "col": 900, "card": card})
        elif kind == 2:
            doc["meta"] = PAD
            for player in doc["players"]:
                player["city"] = [c for c in player["city"] if not isinstance(c["card"], str)]
        docs.append(doc)
        if g % 7 == 3:
            docs.append(bad[(g // 7) % len(bad)])
    raws = [msgspec.json.encode(doc) for doc in docs if isinstance(doc, dict)]
    assert sum(len(raw) < report.LEAN_FROM_BYTES for raw in raws) >= 10
    _agree(docs, EXAMPLES, sizes, chunks=2)


def _odd(doc: Doc, k: int) -> Any:
    """A game given in an odd way the readers take: a mapping, a str, with a byte-order mark,
    with an escape or a repeated key (decoded the exact way), as a bytearray."""
    raw = msgspec.json.encode(doc)
    if k == 0:
        return doc
    if k == 1:
        return raw.decode()
    if k == 2:
        return BOM + raw
    if k == 3:  # an escaped name: the strict reader refuses it
        return raw.replace(b'"name":"P0"', b'"name":"P\\u0030"', 1)
    if k == 4:  # a key given twice inside a city's card
        return raw.replace(b'"points":', b'"points":7,"points":', 1)
    return bytearray(raw)


def test_inputs_given_in_odd_ways(sizes: list[int]) -> None:
    """Mappings, str, byte-order marks, escapes, repeated keys and bytearrays among lean
    documents, and inputs that are no game in the middle."""
    rng = random.Random(9)
    docs: list[Any] = []
    bad = list(_bad_documents())
    for g in range(70):
        doc = _random_game(rng)
        doc["meta"] = PAD
        for player in doc["players"]:
            player["city"] = [c for c in player["city"] if not isinstance(c["card"], str)]
        docs.append(_odd(doc, g % 6) if g % 2 else doc)
        if g % 6 == 5:
            docs.append(bad[(g // 6) % len(bad)])
    _agree(docs, EXAMPLES, sizes)


@pytest.mark.parametrize("seed", range(4))
def test_random_batches(seed: int, sizes: list[int]) -> None:
    """Seeded random batches at the real threshold (most documents read lean)."""
    rng = random.Random(100 + seed)
    docs = [_random_game(rng) for _ in range(rng.choice([60, 80]))]
    _agree(docs, EXAMPLES, sizes, twin=seed % 2 == 0)


@pytest.mark.parametrize("seed", range(6))
def test_random_small_chunks(seed: int, sizes: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """CHUNK_FROM lowered: chunks of a game or two (one city, one game of one player)."""
    monkeypatch.setattr(chunk, "CHUNK_FROM", 1)
    rng = random.Random(200 + seed)
    for count in (1, 2, 3):
        docs = [{**_random_game(rng), "meta": PAD} for _ in range(count)]
        for doc in docs:  # read lean: no card by catalog id
            for player in doc["players"]:
                player["city"] = [c for c in player["city"] if not isinstance(c["card"], str)]
        _agree(docs, EXAMPLES, sizes, twin=False, threshold=1)


# --- points beyond int64 --------------------------------------------------------------------


@pytest.mark.parametrize(
    "catalog",
    [
        dataclasses.replace(BUILTIN, majority_table={2: (2**63 - 1, 0)}),
        dataclasses.replace(BUILTIN, majority_table={2: (2**63, 0)}),
        dataclasses.replace(BUILTIN, epiphanies={"EX-HUGE": EpiphanySpec("EX-HUGE", 2**63, None)}),
    ],
    ids=["table-wraps", "table-overflows", "epiphany-overflows"],
)
def test_points_beyond_int64(catalog: Catalog, sizes: list[int]) -> None:
    lab, base = _card(facility="lab"), _card(facility="base")
    doc: Doc = {
        "mode": "military",
        "players": [
            {
                "name": "A",
                "city": _row([base, lab]),
                "epiphanies": [{"card": "EX-HUGE", "state": "validated"}],
            },
            {"name": "B", "city": _row([lab])},
        ],
    }
    """A catalog built in Python (not loaded: nothing bounds its points) with D5 or epiphany
    points beyond int64: its batches are scored game by game, in Python ints (a chunk sums
    in int64 and would wrap, or raise for the whole batch)."""
    assert not fits(catalog)
    alone = _encoded(score_inputs([doc], catalog=catalog))
    together = _encoded(score_inputs([doc] * chunk.CHUNK_FROM, catalog=catalog))
    assert not sizes
    _same(together, alone * chunk.CHUNK_FROM, "batch against alone")
