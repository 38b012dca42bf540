"""Writes the seed corpus of the fuzz targets (fuzz/corpus/): the examples, a few games of
the tests' kinds, valid and not, and the hostile shapes of docs/hardening.md.
    python scripts/make_fuzz_corpus.py"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.games import card, game, line, player  # noqa: E402


def main() -> None:
    corpus = ROOT / "fuzz" / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for example in (ROOT / "examples").glob("*.json"):
        (corpus / example.name).write_bytes(example.read_bytes())
    third = {"points": 2, "state": "activated", "effect": "third_star"}
    seeds = {
        "illegal.json": game(
            "military",
            player("A", [*line(3), card(0, 0, "r"), card(4, 4, "t")]),
            player("B", line(2)),
        ),
        "populist.json": game(
            "populist", player("A", line(6, points=3, stars=2), epiphanies=[third] * 3)
        ),
        "ids.json": game(
            "elitist",
            player(
                "A",
                [
                    {"row": 0, "col": 0, "card": "atomic-waste"},
                    {"row": 0, "col": 1, "card": "new-eden"},
                    {"row": 0, "col": 2, "card": "EX-x"},
                ],
            ),
        ),
        "rotated.json": game(
            "military", player("A", [card(0, 0, "r"), card(0, 1, "r", rotated=True)])
        ),
    }
    for name, doc in seeds.items():
        (corpus / name).write_text(json.dumps(doc))
    (corpus / "broken.json").write_text('{"mode": "populist", "players": [{"name": 1}]')
    # The shapes that found the second round of hardening (docs/hardening.md).
    hostile = {
        "deep-then-escapes.json": b"[" * 2000 + b'"' + b'\\"' * 4000,
        "out-of-range-in-broken.json": b"[1e999,",
        "huge-integer.json": b'{"mode": "military", "players": [' + b"1" * 4400 + b"]}",
        "out-of-range-in-meta.json": b'{"mode": "military", "players": [], "meta": {"x": 1e999}}',
        "repeated-key.json": b'{"games": [], "games": [{}]}',
        "unknown-keys.json": b'{"mode": "military", "players": []'
        + b"".join(b', "k%d": 0' % i for i in range(300))
        + b"}",
    }
    for name, raw in hostile.items():
        (corpus / name).write_bytes(raw)


if __name__ == "__main__":
    main()
