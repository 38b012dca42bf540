"""Coverage-guided fuzzing of decode + core + rules with atheris (`pip install atheris`).

    mkdir -p build/fuzz/corpus-score
    python scripts/fuzz_score.py -runs=1000000 build/fuzz/corpus-score fuzz/corpus   # long run
    python scripts/fuzz_score.py -runs=20000 build/fuzz/corpus-score fuzz/corpus     # in CI

(libFuzzer adds what it finds to the first folder: a scratch one, so `fuzz/corpus` stays
the seeds.)

Any bytes go to `neweden.score`: the only acceptable failure is GameDecodeError (an input
that is not a game); anything else, a crash or a hang, is a finding. A few invariants of the
report are checked too. The same bytes are also made into the shapes that found the second
round of hardening (docs/hardening.md): deep nesting then an unclosed string of escaped
quotes, an integer of thousands of digits, special floats (1e999, -1e999, NaN, Infinity) in
place of every number; and they go, as JSON and as TOML, to the catalog loader (only a
CatalogError is acceptable), and to the comma count of batch envelopes (compared with the
decoded value). The seed corpus is `fuzz/corpus/` (games from the examples and the tests,
valid and not, and these shapes). The native core is fuzzed on its own by
scripts/fuzz-core.sh.

Under atheris the resident set grows with the number of runs when the inputs hold huge
integers (its tracing of comparisons, not neweden: the same inputs in a plain loop stay at
45 MB), so the special numbers stay below 4,300 digits and only one shape carries a longer
one; 20,000 runs end near 600 MB, under libFuzzer's 2 GB limit.
"""

from __future__ import annotations

import json
import re
import sys

import atheris

with atheris.instrument_imports():
    import msgspec

    import neweden
    from neweden.catalog.files import CatalogError, parse_catalog
    from neweden.format.jsonscan import count_commas
    from neweden.format.problems import GameDecodeError

_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SPECIAL = (b"1e999", b"-1e999", b"NaN", b"Infinity", b"-0", b"1e-999", b"18446744073709551616")


def hostile_shapes(data: bytes) -> list[bytes]:
    """The input made into the shapes that found uncaught exceptions and quadratic time."""
    depth = 1 + (data[0] if data else 0) * 8
    special = _SPECIAL[len(data) % len(_SPECIAL)]
    return [
        b"[" * depth + b'"' + b'\\"' * (len(data) * 4) + data,
        _NUMBER.sub(lambda _: special, data),
        data.replace(b"0", b"1" * 4400, 1),
    ]


def check_score(data: bytes) -> None:
    try:
        report = neweden.score(data, detail=len(data) % 2 == 0)
    except GameDecodeError as err:
        if not err.problems:
            raise RuntimeError("a decode error without any problem listed") from err
        if len(err.problems) > 101:
            raise RuntimeError(f"{len(err.problems)} problems listed; at most 101") from err
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


def check_catalog(data: bytes) -> None:
    for name in ("fuzz.json", "fuzz.toml"):
        try:
            parse_catalog(data, name)
        except CatalogError as err:
            if not err.problems:
                raise RuntimeError("a catalog error without any problem listed") from err


class _Object(list[tuple[str, object]]):
    """A JSON object as its pairs, repeated keys kept."""


def _items(value: object) -> list[object]:
    if isinstance(value, _Object):
        return [v for _, v in value]
    return value if isinstance(value, list) else []


def check_commas(data: bytes) -> None:
    try:
        msgspec.json.decode(data, type=msgspec.Raw)  # valid JSON: json.loads says the same
        doc = json.loads(data.decode(), object_pairs_hook=_Object, parse_int=lambda _: 0)
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        count_commas(data)  # must end, whatever it counts
        return

    def commas(value: object) -> int:
        return max(len(value) - 1, 0) if isinstance(value, list) else 0

    expected = (commas(doc), sum(commas(v) for v in _items(doc)))
    assert tuple(count_commas(data)) == expected, (data, expected)


def one_input(data: bytes) -> None:
    for shape in (data, *hostile_shapes(data)):
        check_score(shape)
    check_catalog(data)
    check_commas(data)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
