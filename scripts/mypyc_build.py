"""A build step (CMakeLists.txt runs it when the package is built, not for an editable
install): the modules of the report path compiled by mypyc, each an extension module that
runs in place of its `.py` (Python imports an extension module first):

    python scripts/mypyc_build.py SOURCE OUT

SOURCE is the folder holding `neweden/` (python/), OUT a build folder: the compiled modules
land in OUT/lib (a `neweden/.../name.*.so` each and their group's library at the top), and
OUT/stamp says the step is done. The modules are checked by mypy as they are compiled, with
the libraries they import taken as untyped whatever the environment holds (`no_site_packages`:
a fresh venv has no numpy when the package is built, a developer's has; the compiled code
must not differ): mypyc checks each value against its annotation as the code runs, and an
untyped library's values are not checked. docs/architecture.md ("The build") says why these
modules and not others.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

#: The modules compiled: the worker's and a game's report path, but not those whose rules run
#: over numpy columns as well as ints (scoring/table.py, rules/requirements.py,
#: rules/military.py: their annotations speak of one city's ints), nor those that define
#: msgspec structs (runners/results.py: compiled, its `_MetaOnly` refused every `meta`), nor
#: scoring/report.py, whose calls tests watch (a compiled module calls a function of its
#: group directly, past a patch of the module's attribute), nor catalog/catalog.py (a
#: compiled frozen dataclass does not unpickle: Dask sends catalogs to its workers), nor
#: geometry/native.py (a thin layer over the core whose import-time check a test reloads).
MODULES = (
    "format/checks.py",
    "format/game_bytes.py",
    "format/walk.py",
    "rules/epiphanies.py",
    "rules/legality.py",
    "rules/majority.py",
    "rules/names.py",
    "rules/ranking.py",
    "rules/ten_cards.py",
    "rules/totals.py",
    "rules/warnings.py",
    "runners/cells.py",
    "scoring/audit.py",
    "scoring/chunk.py",
    "scoring/chunk_reports.py",
    "scoring/core.py",
    "scoring/game_score.py",
    "scoring/majority.py",
    "scoring/placing.py",
    "scoring/problems.py",
)

_MYPY_CONFIG = """[mypy]
ignore_missing_imports = True
follow_imports = silent
warn_unused_ignores = False
no_site_packages = True
"""


def main(argv: list[str]) -> int:
    source, out = Path(argv[0]).resolve(), Path(argv[1]).resolve()
    work = out / "src"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(
        source / "neweden",
        work / "neweden",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"),
    )
    config = out / "mypy.ini"
    config.write_text(_MYPY_CONFIG, encoding="utf-8")
    os.chdir(work)  # mypyc names the modules by their paths from here
    from mypyc.build import mypycify
    from setuptools import setup

    extensions = mypycify(
        ["--config-file", str(config), *[f"neweden/{m}" for m in MODULES]], opt_level="3"
    )
    setup(
        name="neweden-compiled",
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(out / "lib"),
            "--build-temp",
            str(out / "temp"),
        ],
    )
    (out / "stamp").write_text("\n".join(MODULES) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
