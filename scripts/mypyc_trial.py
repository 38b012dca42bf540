"""A trial, not the package's build: the rules' Python compiled by mypyc (it comes with mypy,
the dev extras' type checker) and put beside the `.py` files of a non-editable install of
this checkout, to measure what compiling would give (docs/benchmarks.md, session 47):

    python scripts/mypyc_trial.py /venv-trial/bin/python           # the modules below
    python scripts/mypyc_trial.py /venv-trial/bin/python --remove  # that install as it was
    /venv-trial/bin/python scripts/ab_figures.py trial REALISTIC.jsonl HEAVY.jsonl

Run it with a Python that has mypy (the dev venv) and the same version as the target's: the
modules compiled are this checkout's `python/neweden` (copied to a temporary folder), so the
target must be an install of the same tree. A compiled module is what runs in its place
(Python imports an extension module before a `.py` of the same name), so a test that
patches one of its functions no longer reaches the calls made inside it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The modules compiled: the worker's and a game's report path, but not those whose rules run
#: over numpy columns as well as ints (scoring/table.py, rules/requirements.py,
#: rules/military.py: mypyc checks each value against its annotation, and theirs speak of
#: one city's ints), nor those that define msgspec structs (runners/results.py: compiled,
#: its `_MetaOnly` refused every `meta` object, and `--csv` lost its meta columns).
MODULES = (
    "catalog/catalog.py",
    "format/checks.py",
    "geometry/native.py",
    "rules/epiphanies.py",
    "rules/legality.py",
    "rules/names.py",
    "rules/warnings.py",
    "scoring/chunk.py",
    "scoring/chunk_reports.py",
    "scoring/core.py",
    "scoring/game_score.py",
    "scoring/majority.py",
    "scoring/problems.py",
    "scoring/report.py",
)


#: The files a trial put in place, listed in the package it put them in: all it removes.
MANIFEST = ".mypyc-trial"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("python", help="the Python of the venv to put the compiled modules in")
    parser.add_argument("--remove", action="store_true", help="take them out again")
    parser.add_argument("modules", nargs="*", default=MODULES, help="paths under neweden/")
    args = parser.parse_args(argv)
    package = _package(args.python)
    suffix = subprocess.run(
        [args.python, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if suffix != sysconfig.get_config_var("EXT_SUFFIX"):
        print(f"the target's extensions end in {suffix}: run this with its Python version")
        return 2
    _remove(package)
    if args.remove:
        print(f"removed the compiled modules from {package}")
        return 0
    with tempfile.TemporaryDirectory(prefix="neweden-mypyc-") as work:
        shutil.copytree(ROOT / "python" / "neweden", Path(work) / "neweden")
        paths = [f"neweden/{m}" for m in args.modules]
        subprocess.run([sys.executable, "-m", "mypyc", *paths], cwd=work, check=True)
        made = [
            p.relative_to(work)
            for p in Path(work).rglob("*.so")
            if "build" not in p.relative_to(work).parts
        ]
        for inside in made:
            shutil.copy2(Path(work) / inside, package.parent / inside)
            print(f"{inside} -> {package.parent / inside}")
        (package / MANIFEST).write_text("".join(f"{p}\n" for p in made), encoding="utf-8")
    return 0


def _remove(package: Path) -> None:
    """The files an earlier trial listed in `package` removed (nothing else is touched)."""
    manifest = package / MANIFEST
    if not manifest.exists():
        return
    for line in manifest.read_text(encoding="utf-8").splitlines():
        placed = package.parent / line
        if line.endswith(".so") and placed.resolve().is_relative_to(package.parent.resolve()):
            placed.unlink(missing_ok=True)
    manifest.unlink()


def _package(python: str) -> Path:
    """The folder of the neweden package `python` imports (from outside the checkout)."""
    where = subprocess.run(
        [python, "-c", "import neweden, os; print(os.path.dirname(neweden.__file__))"],
        check=True,
        capture_output=True,
        text=True,
        cwd="/",
    ).stdout.strip()
    package = Path(where).resolve()
    if "site-packages" not in package.parts:
        raise SystemExit(f"{package} is no installed package (an editable install?): use one")
    return package


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
