"""`neweden standings` (docs/standings.md), the issue's acceptance test: the standings of a
three-round event of 12 players, with ties at every level of the standing order, an alias and
an invalid game. The input is hand-written `validate --out` lines; every expected figure is a
literal derived by hand in the comment next to it, never computed by the test.

The event "Copa Éden": rounds 1, 2 and 3, three tables of four a round (lines 1-9 of
`results.jsonl`, in that order). Line 6 (round 2, table 3) is invalid and left out, so its
four players (Davi, Gisele, Hélio, Carla) have two games. Line 8 has a shared place 2 (Bruno
and Davi, equal on everything): each scores place 2's points and the next player is place 4.

Names: "Úrsula Lima" is written "ursula  lima" in round 2 (folding joins them); "João Pires"
is written three ways, one each ("João Pires", "JOÃO PIRES", "joão pires": the first seen is
shown); "Érica Nunes" is "Erica Nunes" in round 2; "Hélio Rocha" is "hélio rocha" in round 3;
"Ana Souza" is "Ana S." in round 2, joined by the alias file.

"Listed by name" (players who share a standing) is read as the folded name's order: "Íris
Costa" ("iris costa") comes before "João Pires" ("joao pires"), although "Í" (U+00CD) sorts
after "J" in plain code-point order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.cli.main import main

EVENT = "Copa Éden"
RESULTS = "results.jsonl"
ALIASES = "aliases.txt"
OUT = "standings.json"

# A seat of a game: (name as the table wrote it, total, place in the game, requirements met,
# cards).
Seat = tuple[str, int, int, int, int]

# The line of the invalid game and the error under its player 1.
INVALID_LINE = 6
DISCONNECTED = {
    "code": "disconnected",
    "message": (
        "1 card(s) at (0, 1) are not joined to the project (9 cards) by complete connections;"
        " no card of it touches another card of the city. They are scored as placed"
    ),
    "path": "/players/1/city/4",
    "cells": [[0, 1]],
}

# (round, seats) of results lines 1 to 9. In each game the places are the competition ranking
# of the totals (line 8: Bruno and Davi tie on total, requirements and cards: both place 2).
GAMES: list[tuple[int, list[Seat]]] = [
    # line 1: round 1, table 1
    (
        1,
        [
            ("Ana Souza", 90, 1, 3, 12),
            ("Úrsula Lima", 60, 2, 2, 10),
            ("Bruno Araújo", 51, 3, 2, 9),
            ("Carla Dias", 35, 4, 1, 7),
        ],
    ),
    # line 2: round 1, table 2
    (
        1,
        [
            ("Davi Melo", 69, 1, 3, 11),
            ("Gisele Prado", 48, 2, 2, 10),
            ("Érica Nunes", 34, 3, 2, 8),
            ("Fábio Gomes", 28, 4, 1, 6),
        ],
    ),
    # line 3: round 1, table 3
    (
        1,
        [
            ("João Pires", 70, 1, 3, 11),
            ("Íris Costa", 65, 2, 2, 10),
            ("Kátia Reis", 50, 3, 2, 9),
            ("Hélio Rocha", 40, 4, 1, 7),
        ],
    ),
    # line 4: round 2, table 1
    (
        2,
        [
            ("Íris Costa", 80, 1, 3, 12),
            ("Ana S.", 72, 2, 2, 11),
            ("Erica Nunes", 55, 3, 2, 10),
            ("Kátia Reis", 38, 4, 1, 8),
        ],
    ),
    # line 5: round 2, table 2
    (
        2,
        [
            ("ursula  lima", 85, 1, 3, 11),
            ("Bruno Araújo", 74, 2, 2, 10),
            ("Fábio Gomes", 66, 3, 2, 9),
            ("JOÃO PIRES", 60, 4, 1, 8),
        ],
    ),
    # line 6: round 2, table 3 -- INVALID (Gisele's city is disconnected): left out
    (
        2,
        [
            ("Davi Melo", 77, 1, 3, 12),
            ("Gisele Prado", 41, 4, 1, 7),
            ("Hélio Rocha", 58, 3, 2, 9),
            ("Carla Dias", 63, 2, 2, 10),
        ],
    ),
    # line 7: round 3, table 1
    (
        3,
        [
            ("Ana Souza", 88, 1, 3, 12),
            ("joão pires", 60, 2, 2, 10),
            ("Fábio Gomes", 52, 3, 2, 8),
            ("Íris Costa", 45, 4, 1, 7),
        ],
    ),
    # line 8: round 3, table 2 -- a shared place 2 (1, 2, 2, 4)
    (
        3,
        [
            ("Carla Dias", 80, 1, 3, 12),
            ("Bruno Araújo", 55, 2, 2, 9),
            ("Davi Melo", 55, 2, 2, 9),
            ("Úrsula Lima", 30, 4, 1, 7),
        ],
    ),
    # line 9: round 3, table 3
    (
        3,
        [
            ("Gisele Prado", 76, 1, 3, 12),
            ("hélio rocha", 64, 2, 2, 10),
            ("Kátia Reis", 58, 3, 1, 9),
            ("Érica Nunes", 26, 4, 1, 8),
        ],
    ),
]

KEYS = ("place", "name", "points", "total", "wins", "requirements_met", "cards", "games")

# The default points for four players: place 1 -> 4, 2 -> 3, 3 -> 2, 4 -> 1 (a shared place 2
# scores 3 each). Line 6 is left out. "L3 p2 -> 3" reads "line 3, place 2, scores 3".
DEFAULT = [
    # (place, name, points, total, wins, requirements met, cards, games)
    #
    # Ana (alias "Ana S." on line 4): L1 p1 -> 4, L4 p2 -> 3, L7 p1 -> 4 = 11 points;
    # total 90 + 72 + 88 = 250; wins 2 (L1, L7); requirements 3 + 2 + 3 = 8;
    # cards 12 + 11 + 12 = 35; 3 games. Alone at the top.
    (1, "Ana Souza", 11, 250, 2, 8, 35, 3),
    # Íris: L3 p2 -> 3, L4 p1 -> 4, L7 p4 -> 1 = 8; total 65 + 80 + 45 = 190; wins 1 (L4);
    # requirements 2 + 3 + 1 = 6; cards 10 + 12 + 7 = 29; 3 games.
    # João ("João Pires", "JOÃO PIRES", "joão pires", one each: the first seen is shown):
    # L3 p1 -> 4, L5 p4 -> 1, L7 p2 -> 3 = 8; total 70 + 60 + 60 = 190; wins 1 (L3);
    # requirements 3 + 1 + 2 = 6; cards 11 + 8 + 10 = 29; 3 games.
    # TIE ON EVERYTHING: they share place 2 (2, 2, 4), listed by folded name (iris < joao).
    (2, "Íris Costa", 8, 190, 1, 6, 29, 3),
    (2, "João Pires", 8, 190, 1, 6, 29, 3),
    # Bruno: L1 p3 -> 2, L5 p2 -> 3, L8 p2 shared -> 3 = 8; total 51 + 74 + 55 = 180;
    # wins 0; requirements 2 + 2 + 2 = 6; cards 9 + 10 + 9 = 28; 3 games.
    # Úrsula ("ursula  lima" on line 5): L1 p2 -> 3, L5 p1 -> 4, L8 p4 -> 1 = 8;
    # total 60 + 85 + 30 = 175; wins 1 (L5); requirements 2 + 3 + 1 = 6; cards 10 + 11 + 7 = 28.
    # TIE ON POINTS, SEPARATED BY TOTAL: Bruno 180 > Úrsula 175, although Úrsula has more wins.
    # (Both are below Íris and João, 190, on total too.) Place 4 follows the shared 2.
    (4, "Bruno Araújo", 8, 180, 0, 6, 28, 3),
    (5, "Úrsula Lima", 8, 175, 1, 6, 28, 3),
    # Gisele (line 6 left out): L2 p2 -> 3, L9 p1 -> 4 = 7; total 48 + 76 = 124; wins 1 (L9);
    # requirements 2 + 3 = 5; cards 10 + 12 = 22; 2 games.
    # Davi (line 6 left out): L2 p1 -> 4, L8 p2 shared -> 3 = 7; total 69 + 55 = 124;
    # wins 1 (L2); requirements 3 + 2 = 5; cards 11 + 9 = 20; 2 games.
    # TIE ON POINTS, TOTAL, WINS AND REQUIREMENTS, SEPARATED BY CARDS: Gisele 22 > Davi 20,
    # although "Davi" comes first by name.
    (6, "Gisele Prado", 7, 124, 1, 5, 22, 2),
    (7, "Davi Melo", 7, 124, 1, 5, 20, 2),
    # Fábio: L2 p4 -> 1, L5 p3 -> 2, L7 p3 -> 2 = 5; total 28 + 66 + 52 = 146; wins 0;
    # requirements 1 + 2 + 2 = 5; cards 6 + 9 + 8 = 23; 3 games.
    # Kátia: L3 p3 -> 2, L4 p4 -> 1, L9 p3 -> 2 = 5; total 50 + 38 + 58 = 146; wins 0;
    # requirements 2 + 1 + 1 = 4; cards 9 + 8 + 9 = 26; 3 games.
    # TIE ON POINTS, TOTAL AND WINS, SEPARATED BY REQUIREMENTS MET: Fábio 5 > Kátia 4,
    # although Kátia has more cards.
    (8, "Fábio Gomes", 5, 146, 0, 5, 23, 3),
    (9, "Kátia Reis", 5, 146, 0, 4, 26, 3),
    # Carla (line 6 left out): L1 p4 -> 1, L8 p1 -> 4 = 5; total 35 + 80 = 115; wins 1 (L8);
    # requirements 1 + 3 = 4; cards 7 + 12 = 19; 2 games.
    # Érica ("Erica Nunes" on line 4): L2 p3 -> 2, L4 p3 -> 2, L9 p4 -> 1 = 5;
    # total 34 + 55 + 26 = 115; wins 0; requirements 2 + 2 + 1 = 5; cards 8 + 10 + 8 = 26.
    # TIE ON POINTS AND TOTAL, SEPARATED BY WINS: Carla 1 > Érica 0, although Érica has more
    # requirements met and cards. (Both below Fábio and Kátia, 5 points too, on total:
    # 115 < 146, although Carla has more wins than they do.)
    (10, "Carla Dias", 5, 115, 1, 4, 19, 2),
    (11, "Érica Nunes", 5, 115, 0, 5, 26, 3),
    # Hélio ("hélio rocha" on line 9; line 6 left out): L3 p4 -> 1, L9 p2 -> 3 = 4;
    # total 40 + 64 = 104; wins 0; requirements 1 + 2 = 3; cards 7 + 10 = 17; 2 games.
    (12, "Hélio Rocha", 4, 104, 0, 3, 17, 2),
]

# `--points 5,3,2,0`: place 1 -> 5, 2 -> 3, 3 -> 2, 4 -> 0 (shared 2 -> 3 each). Totals, wins,
# requirements, cards and games do not change.
FIVE_THREE_TWO_NOTHING = [
    # Ana: L1 p1 -> 5, L4 p2 -> 3, L7 p1 -> 5 = 13.
    (1, "Ana Souza", 13, 250, 2, 8, 35, 3),
    # Six players on 8, ordered by total, wins, requirements, cards as above:
    # Íris: L3 p2 -> 3, L4 p1 -> 5, L7 p4 -> 0 = 8 (total 190);
    # João: L3 p1 -> 5, L5 p4 -> 0, L7 p2 -> 3 = 8 (total 190): still share place 2.
    (2, "Íris Costa", 8, 190, 1, 6, 29, 3),
    (2, "João Pires", 8, 190, 1, 6, 29, 3),
    # Bruno: L1 p3 -> 2, L5 p2 -> 3, L8 p2 shared -> 3 = 8 (total 180).
    (4, "Bruno Araújo", 8, 180, 0, 6, 28, 3),
    # Úrsula: L1 p2 -> 3, L5 p1 -> 5, L8 p4 -> 0 = 8 (total 175).
    (5, "Úrsula Lima", 8, 175, 1, 6, 28, 3),
    # Gisele: L2 p2 -> 3, L9 p1 -> 5 = 8 (total 124, cards 22).
    (6, "Gisele Prado", 8, 124, 1, 5, 22, 2),
    # Davi: L2 p1 -> 5, L8 p2 shared -> 3 = 8 (total 124, cards 20).
    (7, "Davi Melo", 8, 124, 1, 5, 20, 2),
    # Carla: L1 p4 -> 0, L8 p1 -> 5 = 5. ORDER CHANGES: now alone at 5, above Fábio and Kátia
    # (4 each), whom she followed with the default points.
    (8, "Carla Dias", 5, 115, 1, 4, 19, 2),
    # Fábio: L2 p4 -> 0, L5 p3 -> 2, L7 p3 -> 2 = 4 (total 146, requirements 5).
    (9, "Fábio Gomes", 4, 146, 0, 5, 23, 3),
    # Kátia: L3 p3 -> 2, L4 p4 -> 0, L9 p3 -> 2 = 4 (total 146, requirements 4).
    (10, "Kátia Reis", 4, 146, 0, 4, 26, 3),
    # Érica: L2 p3 -> 2, L4 p3 -> 2, L9 p4 -> 0 = 4 (total 115).
    (11, "Érica Nunes", 4, 115, 0, 5, 26, 3),
    # Hélio: L3 p4 -> 0, L9 p2 -> 3 = 3.
    (12, "Hélio Rocha", 3, 104, 0, 3, 17, 2),
]

# `--points 4:10,4,1,0`: for four players, place 1 -> 10, 2 -> 4, 3 -> 1, 4 -> 0
# (shared 2 -> 4 each).
FOUR_TEN_FOUR_ONE_NOTHING = [
    # Ana: L1 p1 -> 10, L4 p2 -> 4, L7 p1 -> 10 = 24.
    (1, "Ana Souza", 24, 250, 2, 8, 35, 3),
    # Íris: L3 p2 -> 4, L4 p1 -> 10, L7 p4 -> 0 = 14 (total 190).
    # João: L3 p1 -> 10, L5 p4 -> 0, L7 p2 -> 4 = 14 (total 190).
    (2, "Íris Costa", 14, 190, 1, 6, 29, 3),
    (2, "João Pires", 14, 190, 1, 6, 29, 3),
    # Úrsula: L1 p2 -> 4, L5 p1 -> 10, L8 p4 -> 0 = 14 (total 175). ORDER CHANGES: Bruno
    # falls below her (9 points).
    (4, "Úrsula Lima", 14, 175, 1, 6, 28, 3),
    # Gisele: L2 p2 -> 4, L9 p1 -> 10 = 14 (total 124, cards 22).
    (5, "Gisele Prado", 14, 124, 1, 5, 22, 2),
    # Davi: L2 p1 -> 10, L8 p2 shared -> 4 = 14 (total 124, cards 20).
    (6, "Davi Melo", 14, 124, 1, 5, 20, 2),
    # Carla: L1 p4 -> 0, L8 p1 -> 10 = 10.
    (7, "Carla Dias", 10, 115, 1, 4, 19, 2),
    # Bruno: L1 p3 -> 1, L5 p2 -> 4, L8 p2 shared -> 4 = 9.
    (8, "Bruno Araújo", 9, 180, 0, 6, 28, 3),
    # Hélio: L3 p4 -> 0, L9 p2 -> 4 = 4: above Fábio, Kátia and Érica now.
    (9, "Hélio Rocha", 4, 104, 0, 3, 17, 2),
    # Fábio: L2 p4 -> 0, L5 p3 -> 1, L7 p3 -> 1 = 2 (total 146, requirements 5).
    (10, "Fábio Gomes", 2, 146, 0, 5, 23, 3),
    # Kátia: L3 p3 -> 1, L4 p4 -> 0, L9 p3 -> 1 = 2 (total 146, requirements 4).
    (11, "Kátia Reis", 2, 146, 0, 4, 26, 3),
    # Érica: L2 p3 -> 1, L4 p3 -> 1, L9 p4 -> 0 = 2 (total 115).
    (12, "Érica Nunes", 2, 115, 0, 5, 26, 3),
]


def report_line(
    event: str,
    round_: int,
    line: int,
    seats: list[Seat],
    valid: bool = True,
    errors: dict[int, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A `validate --out` line (a lean `new-eden/report@1` with its `source`) for an elitist
    game of `seats`, validated from line `line` of `copa-eden.jsonl`; `errors` by player
    index. The score's parts are made up to add up to each total."""
    errors = errors or {}
    players = []
    for index, (name, total, place, met, cards) in enumerate(seats):
        own = errors.get(index, [])
        ten_cards = 5 if cards >= 10 else 0
        epiphanies = 2 if total >= 60 else 0
        military = (total - ten_cards - epiphanies) * 2 // 5
        labs, medical = military // 3, 2 * (military // 6)
        players.append(
            {
                "name": name,
                "legal": not any(e["path"].startswith(f"/players/{index}/city") for e in own),
                "cards": cards,
                "open_connections": cards // 3,
                "stars": met,
                "requirements_met": ["A1", "B1", "C1"][:met],
                "requirements_declared": [],
                "score": {
                    "requirements": total - ten_cards - epiphanies - military,
                    "military": {
                        "labs": labs,
                        "shelters": military - labs - medical,
                        "medical": medical,
                        "towers": 0,
                        "bases": 0,
                        "total": military,
                    },
                    "epiphanies": epiphanies,
                    "ten_cards": ten_cards,
                    "bonuses": 0,
                    "total": total,
                },
                "place": place,
                "errors": own,
                "warnings": [],
            }
        )
    return {
        "source": {"path": "copa-eden.jsonl", "line": line},
        "format": "new-eden/report@1",
        "neweden": neweden.__version__,
        "catalog": "builtin",
        "valid": valid,
        "mode": "elitist",
        "majority_table": "default",
        "meta": {"event": event, "round": round_, "photo": f"copa-eden-{line}.jpg"},
        "players": players,
        "errors": [],
        "warnings": [
            {
                "code": "default_majority_table",
                "message": (
                    "the D5 majority table for 4 players is the built-in default"
                    " [10, 6, 3, 0], not the printed card"
                ),
                "path": "",
                "cells": [],
            }
        ],
    }


@pytest.fixture
def event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`results.jsonl` (the nine games) and `aliases.txt` in the current folder."""
    monkeypatch.chdir(tmp_path)
    lines = []
    for line, (round_, seats) in enumerate(GAMES, start=1):
        # The input is what `validate` would write: places are the competition ranking of
        # the totals (a check of the hand-written data, not of the command).
        assert [place for _n, _t, place, _r, _c in seats] == [
            1 + sum(other[1] > total for other in seats) for _n, total, _p, _r, _c in seats
        ]
        invalid = line == INVALID_LINE
        errors = {1: [DISCONNECTED]} if invalid else None
        report = report_line(EVENT, round_, line, seats, valid=not invalid, errors=errors)
        lines.append(json.dumps(report, ensure_ascii=False))
    (tmp_path / RESULTS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / ALIASES).write_text(
        "# Copa Éden: the names the tables wrote differently\n\nAna S. = Ana Souza\n",
        encoding="utf-8",
    )
    return tmp_path


def standings(*options: str) -> dict[str, Any]:
    """`neweden standings results.jsonl --alias aliases.txt --json standings.json OPTIONS`:
    the JSON it wrote (it exits 0: left-out games are listed, not fatal)."""
    assert main(["standings", RESULTS, "--alias", ALIASES, "--json", OUT, *options]) == 0
    doc: dict[str, Any] = json.loads(Path(OUT).read_text(encoding="utf-8"))
    return doc


def table(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The one event's players as (place, name, points, total, wins, requirements met, cards,
    games), in standing order."""
    assert [e["event"] for e in doc["events"]] == [EVENT]
    return [tuple(player[key] for key in KEYS) for player in doc["events"][0]["players"]]


def results_of(doc: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """A player's results, each as round, source line, place, players, points and total (the
    source's path is the subject of its own test below)."""
    (player,) = [p for p in doc["events"][0]["players"] if p["name"] == name]
    keys = ("round", "place", "players", "points", "total")
    return [
        {"line": result["source"]["line"], **{key: result[key] for key in keys}}
        for result in player["results"]
    ]


@pytest.mark.usefixtures("event")
def test_standings_of_a_three_round_event_with_ties_at_every_level() -> None:
    doc = standings()
    assert doc["format"] == "new-eden/standings@1"
    assert doc["points"] == {"2": [2, 1], "3": [3, 2, 1], "4": [4, 3, 2, 1]}
    (copa,) = doc["events"]
    assert copa["event"] == EVENT
    assert copa["rounds"] == [1, 2, 3]
    assert copa["games"] == 8  # nine lines, line 6 left out
    assert table(doc) == DEFAULT
    # Bruno: the shared place 2 of line 8 scores place 2's points (3).
    assert results_of(doc, "Bruno Araújo") == [
        {"line": 1, "round": 1, "place": 3, "players": 4, "points": 2, "total": 51},
        {"line": 5, "round": 2, "place": 2, "players": 4, "points": 3, "total": 74},
        {"line": 8, "round": 3, "place": 2, "players": 4, "points": 3, "total": 55},
    ]
    # Úrsula: after the shared place 2 of line 8 comes place 4 (1 point), not 3.
    assert results_of(doc, "Úrsula Lima") == [
        {"line": 1, "round": 1, "place": 2, "players": 4, "points": 3, "total": 60},
        {"line": 5, "round": 2, "place": 1, "players": 4, "points": 4, "total": 85},
        {"line": 8, "round": 3, "place": 4, "players": 4, "points": 1, "total": 30},
    ]
    # Davi: his invalid game (line 6) is simply not there.
    assert results_of(doc, "Davi Melo") == [
        {"line": 2, "round": 1, "place": 1, "players": 4, "points": 4, "total": 69},
        {"line": 8, "round": 3, "place": 2, "players": 4, "points": 3, "total": 55},
    ]
    # Ana: "Ana S." of line 4 is hers through the alias file.
    assert results_of(doc, "Ana Souza") == [
        {"line": 1, "round": 1, "place": 1, "players": 4, "points": 4, "total": 90},
        {"line": 4, "round": 2, "place": 2, "players": 4, "points": 3, "total": 72},
        {"line": 7, "round": 3, "place": 1, "players": 4, "points": 4, "total": 88},
    ]
    (left_out,) = doc["left_out"]
    assert {key: left_out[key] for key in ("event", "round", "code")} == {
        "event": EVENT,
        "round": 2,
        "code": "invalid_game",
    }
    assert left_out["source"]["line"] == INVALID_LINE
    assert "disconnected" in left_out["message"]  # its first error is quoted
    assert doc["notes"] == []  # no one twice in a round: the spellings and the alias joined


@pytest.mark.usefixtures("event")
def test_points_for_every_player_count() -> None:
    doc = standings("--points", "5,3,2,0")
    assert doc["points"]["4"] == [5, 3, 2, 0]
    assert table(doc) == FIVE_THREE_TWO_NOTHING
    assert doc["events"][0]["games"] == 8
    assert [entry["code"] for entry in doc["left_out"]] == ["invalid_game"]


@pytest.mark.usefixtures("event")
def test_points_for_four_players_win_over_the_general_list() -> None:
    doc = standings("--points", "4:10,4,1,0")
    assert doc["points"]["4"] == [10, 4, 1, 0]
    assert table(doc) == FOUR_TEN_FOUR_ONE_NOTHING
    # Every game has four players: the list for four wins over the general one.
    both = standings("--points", "5,3,2,0", "--points", "4:10,4,1,0")
    assert both["points"]["4"] == [10, 4, 1, 0]
    assert table(both) == FOUR_TEN_FOUR_ONE_NOTHING


@pytest.mark.usefixtures("event")
def test_the_terminal_shows_each_place_name_and_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["standings", RESULTS, "--alias", ALIASES]) == 0
    shown = capsys.readouterr().out
    assert EVENT in shown
    lines = shown.splitlines()
    where = []
    for place, name, points, *_rest in DEFAULT:
        row = next(n for n, text in enumerate(lines) if name in text)
        numbers = re.findall(r"\d+", lines[row])
        assert str(place) in numbers, lines[row]
        assert str(points) in numbers, lines[row]
        where.append(row)
    assert where == sorted(where)  # in standing order, Íris before João


@pytest.mark.usefixtures("event")
def test_a_source_is_the_game_the_result_line_reports_on() -> None:
    """docs/standings.md: a result read from a `validate --out` line names the game it
    reports on (the line's own `source`, here "copa-eden.jsonl"), not the results file: an
    organiser mends the game, not the line of results."""
    doc = standings()
    (left_out,) = doc["left_out"]
    assert left_out["source"] == {"path": "copa-eden.jsonl", "line": INVALID_LINE}
    assert RESULTS != "copa-eden.jsonl"
    (ana,) = [p for p in doc["events"][0]["players"] if p["name"] == "Ana Souza"]
    assert [result["source"] for result in ana["results"]] == [
        {"path": "copa-eden.jsonl", "line": 1},
        {"path": "copa-eden.jsonl", "line": 4},
        {"path": "copa-eden.jsonl", "line": 7},
    ]
