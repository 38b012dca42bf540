"""Placement questions and their answers, to compare two trees byte for byte (part of
scripts/outputs_snapshot.sh):

    python scripts/placements_corpus.py --questions IN/placements.json   # from a checkout
    VENV/bin/python IN/placements_corpus.py IN/placements.json OUT.jsonl  # any tree

The questions: 150 generated games (tests.table_games: every mode, illegal cities), each
asked about a card of 27 kinds (valid, its names written as players write them, wild, by
catalog id, an unknown id, and 21 mistakes), of a random player. Each question is asked
with the game as a mapping, as JSON bytes and decoded, in English and in Portuguese: one
line a question, form and language, the placements or the error (its type and message).
The answering half imports only neweden's public API.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Card = dict[str, Any]

#: How each question's card is made from a generated one (the same order every run).
KINDS: list[Callable[[Card], Any]] = [
    lambda c: c,
    lambda c: {**c, "style": c["style"].upper()} if "style" in c else c,
    lambda c: {**c, "type": c["type"].replace("_", " ").title()} if "type" in c else c,
    lambda c: {**c, "points": -1},
    lambda c: {**c, "points": 1.5},
    lambda c: {**c, "stars": True},
    lambda c: {**c, "sides": ["top", "top"]},
    lambda c: {**c, "sides": []},
    lambda c: {**c, "facility": "labb"},
    lambda c: {**c, "extra": 1},
    lambda c: {k: v for k, v in c.items() if k != "stars"},
    lambda c: {"wild": True},
    lambda c: {"wild": True, "style": "ex_x"},
    lambda c: {"wild": False},
    lambda c: "atomic-waste",
    lambda c: "new-eden",
    lambda c: "EX-nope",
    lambda c: "bad id!",
    lambda c: {**c, "style": ""},
    lambda c: {**c, "style": "x" * 300},
    lambda c: {**c, "name": "Praça Central"},
    lambda c: {**c, "style": "ex_crímson"},
    lambda c: {**c, "points": 2**70},
    lambda c: {**c, "sides": "top"},
    lambda c: 17,
    lambda c: None,
    lambda c: {**c, "style": "Praça"},
]


def questions(path: str) -> None:
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from neweden.catalog.catalog import ResolvedCard
    from neweden.geometry.synth import _random_card, city_json
    from tests.table_games import table_games

    rng = random.Random(5)
    out = []
    for seed in range(150):
        (game,) = table_games(seed, 1)
        doc = {k: v for k, v in game.items() if k != "_cities"}
        names = [p["name"] for p in doc["players"]]
        for kind in KINDS:
            (entry,) = city_json([ResolvedCard(0, 0, 0, False, _random_card(rng, 5, 6))])
            out.append({"game": doc, "player": rng.choice(names), "card": kind(entry["card"])})
    Path(path).write_text(json.dumps(out))


def answers(asked: str, path: str) -> None:
    import neweden
    from neweden.i18n import speaking

    with open(path, "w", encoding="utf-8") as out:
        for lang in ("en", "pt-BR"):
            with speaking(lang):
                for q in json.loads(Path(asked).read_text()):
                    games = (
                        q["game"],
                        json.dumps(q["game"]).encode(),
                        neweden.decode_game(q["game"]),
                    )
                    for game in games:
                        try:
                            found: Any = neweden.placements(
                                game, player=q["player"], card=q["card"]
                            )
                        except Exception as err:  # (the error is the answer)
                            found = {"error": type(err).__name__, "message": str(err)}
                        out.write(json.dumps(found, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "--questions":
        questions(sys.argv[2])
    else:
        answers(sys.argv[1], sys.argv[2])
