"""Every module, function or constant a comment, a docstring or a document names as
`neweden.x.y` exists: a name that moved is a name that lies."""

from __future__ import annotations

import re
from pathlib import Path

from tests.dotted import MISSING, resolve

ROOT = Path(__file__).resolve().parents[2]
#: A dotted name of the package (one part at least after `neweden`).
DOTTED = re.compile(r"(?<![\w./-])neweden(?:\.[A-Za-z_]\w*)+")
#: The texts read: the package's code and stubs, the core's sources, the docs, the READMEs.
TEXTS = ("python/neweden/**/*.py", "python/neweden/**/*.pyi", "cpp/**/*.[ch]pp", "docs/*.md")


#: Dotted names that are not the package's: the web page's storage keys, a file the
#: TypeScript generator writes, the service's logger.
NOT_OURS = {
    "neweden.game",
    "neweden.game.opening",
    "neweden.game.set",
    "neweden.saved",
    "neweden.zoom",
    "neweden.majority",
    "neweden.ts",
    "neweden.serve",
}


def _named() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    paths = [p for pattern in TEXTS for p in ROOT.glob(pattern)]
    paths += [ROOT / "README.md", ROOT / "README.pt-BR.md"]
    for path in sorted(paths):
        for number, text in enumerate(path.read_text().splitlines(), 1):
            for name in DOTTED.findall(text):
                found.setdefault(name.rstrip("."), []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


def _exists(name: str) -> bool:
    """Whether `name` is a module of the package, or an attribute reached from one."""
    return resolve(name) is not MISSING


def test_every_dotted_name_in_the_code_and_the_docs_exists() -> None:
    named = _named()
    assert "neweden.geometry.native" in named  # the texts are read
    missing = {
        name: where for name, where in named.items() if name not in NOT_OURS and not _exists(name)
    }
    assert missing == {}
