"""Native core == pure-Python reference on many generated cities (the long version of
tests/geometry/test_core_properties.py).

    python scripts/check_core_agreement.py --cities 10000

Runs the same hypothesis strategies as the test suite with a larger budget and prints how
many cities were compared (the per-card figures and the score figures of each). Exits 1
on the first disagreement (hypothesis shrinks it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from neweden.catalog.catalog import ResolvedCard
from neweden.geometry import reference
from neweden.geometry.compact import pack_cities, pack_table
from neweden.geometry.native import analyse_city, score_figures
from tests.strategies import cities


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cities", type=int, default=10_000)
    args = parser.parse_args()
    seen = {"cities": 0, "cards": 0, "legal": 0}

    @settings(
        max_examples=args.cities,
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(cities)
    def agree(city: list[ResolvedCard]) -> None:
        native = analyse_city(pack_cities([city]))
        assert native == reference.analyse_city(city)
        assert score_figures(*pack_table([city])) == [reference.score_figures(city)]
        seen["cities"] += 1
        seen["cards"] += len(city)
        seen["legal"] += native.legal

    started = time.perf_counter()
    agree()
    elapsed = time.perf_counter() - started
    print(
        f"native == reference on {seen['cities']:,} cities ({seen['cards']:,} cards, "
        f"{seen['legal']:,} legal) in {elapsed:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
