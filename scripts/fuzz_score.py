"""Coverage-guided fuzzing of decode + core + rules with atheris (`pip install atheris`).

    mkdir -p build/fuzz/corpus-score
    python scripts/fuzz_score.py -runs=1000000 build/fuzz/corpus-score fuzz/corpus   # long run
    python scripts/fuzz_score.py -runs=20000 build/fuzz/corpus-score fuzz/corpus     # in CI

(libFuzzer adds what it finds to the first folder: a scratch one, so `fuzz/corpus` stays
the seeds.)

Any bytes go to `neweden.score`: the only acceptable failure is GameDecodeError (an input
that is not a game); anything else, a crash or a hang, is a finding. A few invariants of the
report are checked too. The seed corpus is `fuzz/corpus/` (games from the examples and the
tests, valid and not). The native core is fuzzed on its own by scripts/fuzz-core.sh.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    import neweden
    from neweden.problems import GameDecodeError


def one_input(data: bytes) -> None:
    try:
        report = neweden.score(data, detail=len(data) % 2 == 0)
    except GameDecodeError as err:
        if not err.problems:
            raise RuntimeError("a decode error without any problem listed") from err
        return
    errors = report["errors"] + [e for p in report["players"] for e in p["errors"]]
    assert report["valid"] is (not errors)
    for player in report["players"]:
        score = player["score"]
        military = score["military"]["total"] if score["military"] else 0
        assert score["total"] == (
            score["requirements"]
            + military
            + score["epiphanies"]
            + score["ten_cards"]
            + score["bonuses"]
        )
        assert player["legal"] is not any(
            e["path"].startswith(f"/players/{report['players'].index(player)}/city")
            for e in player["errors"]
        )


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
