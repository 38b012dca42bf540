"""A test that replaces a function to watch or refuse its calls must see them in the package
as it is installed, where the modules of scripts/mypyc_build.py are compiled by mypyc. A
compiled module calls a function or class of another compiled module (or its own) directly,
past any patch of a module's attribute, and a method of a compiled class natively: such a
patch would watch nothing and a test built on it would pass without looking. Module globals
that are not compiled code (a function imported from a module left as Python, a constant)
are read at each use, compiled or not: those may be patched.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.dotted import MISSING, resolve

ROOT = Path(__file__).resolve().parents[2]

#: The calls that replace an attribute: `monkeypatch.setattr(...)` (any receiver's
#: `setattr`: `mp.setattr` of `MonkeyPatch.context()` too), `mock.patch.object(...)`, and the
#: dotted-string forms `monkeypatch.setattr("a.b.name", ...)` and `mock.patch("a.b.name")`.
_PATCH_OBJECT = ("patch", "object")


def compiled_modules() -> set[str]:
    """The dotted names of the modules the build compiles (read from the build script)."""
    tree = ast.parse((ROOT / "scripts" / "mypyc_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["MODULES"]:
            paths = ast.literal_eval(node.value)
            return {"neweden." + p.removesuffix(".py").replace("/", ".") for p in paths}
    raise AssertionError("scripts/mypyc_build.py has no MODULES")


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """Each name a test file binds by an import to a module or an object: its dotted name."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                names[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _patched(call: ast.Call) -> tuple[ast.expr | str, str] | None:
    """What a call patches, if it is a patch: (the target's expression, or its dotted
    name given as a string; the attribute)."""
    func = call.func
    owner = ""
    if isinstance(func, ast.Attribute):
        value = func.value
        owner = value.attr if isinstance(value, ast.Attribute) else ast.unparse(value)
        name = func.attr
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return None
    args = call.args
    first = args[0] if args else None
    dotted = first.value if isinstance(first, ast.Constant) else None
    setattr_call = name == "setattr" and bool(owner)
    if (name == "patch" or setattr_call) and isinstance(dotted, str) and "." in dotted:
        target, attribute = dotted.rsplit(".", 1)  # mock.patch("a.b.name"), setattr("a.b.name")
        return target, attribute
    second = args[1] if len(args) >= 2 else None
    replaces = setattr_call or (owner, name) == _PATCH_OBJECT
    if replaces and first is not None and isinstance(second, ast.Constant):
        return (first, second.value) if isinstance(second.value, str) else None
    return None


def _patches(path: Path) -> Iterator[tuple[int, str, str]]:
    """Each attribute a file patches: its line, the dotted name of the target, the attribute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _imported_names(tree)
    for node in ast.walk(tree):
        found = _patched(node) if isinstance(node, ast.Call) else None
        if found is None:
            continue
        target, attribute = found
        if isinstance(target, str):
            yield node.lineno, target, attribute
            continue
        head, *rest = ast.unparse(target).split(".")
        if head in names:
            yield node.lineno, ".".join([names[head], *rest]), attribute


def _resolve(dotted: str) -> object:
    found = resolve(dotted)
    assert found is not MISSING, f"{dotted} names nothing importable"
    return found


def _defined_in(value: Any) -> str | None:
    """The module a function or class was written in (None for anything else)."""
    if inspect.isroutine(value) or inspect.isclass(value):
        return getattr(value, "__module__", None)
    return None


def unwatchable(path: Path, compiled: set[str]) -> list[str]:
    """The patches of a file that a compiled module would call past."""
    found = []
    for line, target, attribute in _patches(path):
        owner = _resolve(target)
        if inspect.ismodule(owner):
            if owner.__name__ in compiled and _defined_in(getattr(owner, attribute)) in compiled:
                found.append(f"{path.name}:{line}: {target}.{attribute}")
        elif inspect.isclass(owner) and owner.__module__ in compiled:
            found.append(f"{path.name}:{line}: {target}.{attribute} (a compiled class)")
    return found


def test_no_test_patches_what_a_compiled_module_calls_directly() -> None:
    compiled = compiled_modules()
    files = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])
    assert [bad for path in files for bad in unwatchable(path, compiled)] == []


def test_a_patch_of_a_compiled_function_or_class_is_found(tmp_path: Path) -> None:
    """The check sees the patches it is written for, in both spellings."""
    compiled = compiled_modules()
    assert {"neweden.scoring.placing", "neweden.scoring.game_score"} <= compiled
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "from unittest import mock\n"
        "from neweden.scoring import placing\n"
        "import neweden.scoring.chunk as chunk\n"
        "def test_a(monkeypatch):\n"
        '    monkeypatch.setattr(placing, "_card_game", None)\n'
        '    monkeypatch.setattr(placing, "plain_card", None)\n'  # from format: read each call
        '    monkeypatch.setattr(chunk, "CHUNK_FROM", 1)\n'  # a constant: read each use
        '    with mock.patch.object(placing._Read, "placements", return_value=None):\n'
        "        pass\n"
        "import neweden.scoring.game_score\n"
        "def test_b(monkeypatch):\n"
        '    monkeypatch.setattr(neweden.scoring.game_score, "_game_score", None)\n'
        '    monkeypatch.setattr("neweden.scoring.placing._card_game", None)\n'
        '    with mock.patch("neweden.scoring.placing._totals"):\n'
        "        pass\n"
        "    with pytest.MonkeyPatch.context() as mp:\n"
        '        mp.setattr(placing, "_no_player", None)\n',
        encoding="utf-8",
    )
    assert sorted(unwatchable(sample, compiled)) == sorted(
        [
            "test_sample.py:5: neweden.scoring.placing._card_game",
            "test_sample.py:8: neweden.scoring.placing._Read.placements (a compiled class)",
            "test_sample.py:12: neweden.scoring.game_score._game_score",
            "test_sample.py:13: neweden.scoring.placing._card_game",
            "test_sample.py:14: neweden.scoring.placing._totals",
            "test_sample.py:17: neweden.scoring.placing._no_player",
        ]
    )
