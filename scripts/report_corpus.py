"""Every output of a seeded corpus, one line each, to compare two versions byte for byte.

For each of N generated games (1-4 players, 1-16 cards a city grown by legal placement, all
three modes, epiphanies; about a third with an overlap, a lost card or an Atomic Waste too
many) and each example game: the lean report, the detailed report, the text table and the
SVG picture; decode problems for a game that does not decode. Run it at two commits and
compare the files with `cmp`:

    python scripts/report_corpus.py before.txt 1500     # at the old commit
    python scripts/report_corpus.py after.txt 1500      # at the new one
    cmp before.txt after.txt

(`neweden validate corpus.jsonl --out --csv` covers the batch lines and CSV rows:
`--jsonl FILE` writes the generated games as JSON Lines for it.)
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import msgspec

import neweden
from neweden.geometry.synth import city_json, grow_city
from neweden.present.render import render
from neweden.present.text import report_table

ROOT = Path(__file__).resolve().parent.parent


def _player(rng: random.Random, p: int) -> dict[str, Any]:
    city = city_json(grow_city(rng, rng.randint(1, 16)))
    r = rng.random()
    if r < 0.15 and len(city) > 1:  # a card on a taken cell
        city[-1]["row"], city[-1]["col"] = city[0]["row"], city[0]["col"]
    elif r < 0.3 and len(city) > 1:  # a card away from the rest
        city[-1]["row"] += 50
    elif r < 0.4:
        city.append({"row": 99, "col": 99, "card": "atomic-waste"})
    epiphanies = []
    for _ in range(rng.randint(0, 4)):
        points = rng.choice([2, 5])
        entry: dict[str, Any] = {
            "points": points,
            "state": rng.choice(["held", "validated", "activated"]),
        }
        if points == 2 and rng.random() < 0.7:
            entry["effect"] = rng.choice(["third_star", "rotate", "move"])
        epiphanies.append(entry)
    return {"name": f"P{p}", "city": city, "epiphanies": epiphanies}


def game(rng: random.Random) -> dict[str, Any]:
    """One generated game."""
    n = rng.randint(1, 4)
    mode = rng.choice(["populist", "military", "elitist"])
    doc: dict[str, Any] = {"mode": mode, "players": [_player(rng, p) for p in range(n)]}
    if mode != "military" or rng.random() < 0.2:
        doc["requirements"] = ["A1", "B1", "C1"]
    if rng.random() < 0.5:
        doc["first_player"] = f"P{rng.randrange(n)}"
    return doc


def outputs(raw: str) -> list[str]:
    """The lines of one game: lean, detail, text table, SVG (or its decode problems)."""
    try:
        lean = neweden.score(raw, detail=False)
        full = neweden.score(raw, detail=True)
    except neweden.GameDecodeError as err:
        return ["DECODE " + json.dumps([p.to_dict() for p in err.problems])]
    return [
        msgspec.json.encode(lean).decode(),
        msgspec.json.encode(full).decode(),
        json.dumps(report_table(full)),
        json.dumps(render(raw)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the file to write")
    parser.add_argument("games", type=int, nargs="?", default=1500)
    parser.add_argument("--jsonl", help="also write the generated games here, one a line")
    args = parser.parse_args()
    rng = random.Random(1234)
    games = [json.dumps(game(rng)) for _ in range(args.games)]
    examples = sorted((ROOT / "examples").glob("*.json"))
    games += [p.read_text() for p in examples if "catalog" not in p.name]
    if args.jsonl:
        Path(args.jsonl).write_text("".join(g + "\n" for g in games[: args.games]))
    with open(args.out, "w") as out:
        for raw in games:
            out.writelines(line + "\n" for line in outputs(raw))


if __name__ == "__main__":
    main()
