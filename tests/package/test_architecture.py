"""The shape of the package, checked: data flows one way (no import cycle, the folders
are layers), one module speaks to the native core, and every code a report gives is in the
registry."""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import json
from pathlib import Path

import neweden
from neweden.format import codes
from neweden.format.codes import CATALOG_CODES, DECODE_CODES, RULE_CODES, WARNING_CODES
from tests.games import problem_games

PACKAGE = Path(neweden.__file__).parent


def _module_name(path: Path) -> tuple[str, str]:
    """The dotted name of a module of the package, and the package its relative imports
    start from."""
    parts = ("neweden", *path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), ".".join(parts[:-1])
    return ".".join(parts), ".".join(parts[:-1])


def _modules() -> dict[str, tuple[ast.Module, str]]:
    """Each module of the package: its syntax tree and the package its relative imports
    start from."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name, package = _module_name(path)
        found[name] = (ast.parse(path.read_text()), package)
    return found


def _public_functions() -> set[tuple[str, str]]:
    """The public functions (`neweden.__all__`, and `neweden.dask`'s with the dask extra)
    as (the module that defines it, name)."""
    faces = [neweden]
    with contextlib.suppress(ImportError):
        faces.append(importlib.import_module("neweden.dask"))
    return {
        (function.__module__, function.__name__)
        for face in faces
        for function in (getattr(face, name) for name in face.__all__)
        if inspect.isroutine(function)  # (a function, or one a build compiled)
    }


#: The public functions. Their docstrings are the API's manual, with numpydoc sections and
#: examples that run (tests/package/test_public_docstrings.py): the sizes below count the
#: code, not them.
MANUAL = _public_functions()


def _manual_lines(module: str, tree: ast.Module, node: ast.AST) -> int:
    """The lines of `node`'s docstring when it is a public function of `module` (else 0)."""
    if not isinstance(node, ast.FunctionDef) or (module, node.name) not in MANUAL:
        return 0
    first = node.body[0]
    if node not in tree.body or not isinstance(first, ast.Expr):
        return 0
    if not isinstance(first.value, ast.Constant) or not isinstance(first.value.value, str):
        return 0
    return (first.end_lineno or first.lineno) - first.lineno + 1


def _imports(name: str, tree: ast.Module, package: str, known: set[str]) -> set[str]:
    """The package's modules `name` imports, at any depth of its code (a lazy import inside
    a function is still a dependency)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else node.module
            target = target or base
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.add(full if full in known else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in known and m != name}


def test_the_package_has_no_import_cycle() -> None:
    modules = _modules()
    known = set(modules)
    graph = {
        name: _imports(name, tree, package, known) - {"neweden"}
        for name, (tree, package) in modules.items()
    }
    assert "neweden.runners.results" in graph["neweden.runners.dask"]  # the graph is read
    assert "neweden.catalog.catalog" in graph["neweden.rules.names"]
    assert "neweden.rules.names" in graph["neweden.scoring.report"]
    state: dict[str, int] = {}  # 1: on the path, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


#: The folders of the package from the bottom up (docs/architecture.md): a module imports
#: only from its own folder and the folders before it. The package's private top-level
#: modules (`_gc.py`, `_version.py`, ...) come first; its public face (`__init__.py`,
#: `__main__.py`, `dask.py`) last.
LAYERS = (
    "_private",
    "i18n",
    "format",
    "catalog",
    "geometry",
    "rules",
    "scoring",
    "present",
    "runners",
    "http",
    "cli",
    "_public",
)


def _layer(module: str) -> str:
    """The layer of a module of the package: its folder, or one of the top level's two."""
    parts = module.split(".")
    if len(parts) > 2 or (PACKAGE / parts[-1]).is_dir():
        return parts[1]
    return "_private" if parts[-1].startswith("_") and module != "neweden.__main__" else "_public"


def _folder_imports() -> dict[tuple[str, str], list[str]]:
    """Each pair (folder, folder it imports from) and the modules that import that way."""
    modules = _modules()
    known = {*modules, "neweden._core"}  # the native core sits below everything it serves
    found: dict[tuple[str, str], list[str]] = {}
    for name, (tree, package) in modules.items():
        for target in _imports(name, tree, package, known):
            pair = (_layer(name), _layer(target))
            if pair[0] != pair[1]:
                found.setdefault(pair, []).append(f"{name} -> {target}")
    return found


def test_the_folders_are_layers() -> None:
    found = _folder_imports()
    assert {layer for pair in found for layer in pair} == set(LAYERS)  # every folder is read
    assert ("scoring", "rules") in found
    assert ("runners", "scoring") in found
    upward = {
        pair: modules
        for pair, modules in found.items()
        if LAYERS.index(pair[0]) < LAYERS.index(pair[1])
    }
    assert upward == {}


def test_every_folder_has_a_layer() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(LAYERS) - {"_private", "_public"}


def test_one_module_speaks_to_the_native_core() -> None:
    speaking = sorted(
        name
        for name, (tree, _) in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module == "_core" or any(a.name == "_core" for a in node.names))
    )
    assert speaking == ["neweden.geometry.native"]


def _codes(report: dict[str, object]) -> set[str]:
    text = json.dumps(report)
    found = set()
    for piece in text.split('"code": "')[1:]:
        found.add(piece.split('"', 1)[0])
    return found


def test_every_code_a_report_gives_is_registered() -> None:
    seen: set[str] = set()
    for doc in problem_games(200):
        seen |= _codes(neweden.score(doc))
    registry = DECODE_CODES | RULE_CODES | WARNING_CODES
    assert seen - registry == set()
    assert {"overlap", "unknown_card", "unknown_effect", "unknown_requirement"} <= seen


#: Strings spelled like a code that are something else: a function's name in `__all__`,
#: the `score_table` argument of the name of the report's field (its error messages name it).
NOT_CODES = {
    ("neweden.rules.legality", "copy_limit"),
    ("neweden.scoring.table", "requirements_declared"),
    # the CSV column of that report field (`requirements_declared`), and its name for people
    ("neweden.runners.outputs", "requirements_declared"),
    ("neweden.runners.results", "requirements_declared"),
}


def test_no_code_is_written_as_a_string_outside_the_registry() -> None:
    registry = DECODE_CODES | RULE_CODES | WARNING_CODES | CATALOG_CODES
    written = sorted(
        (name, node.lineno, node.value)
        for name, (tree, _) in _modules().items()
        if name != "neweden.format.codes"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in registry
        and (name, node.value) not in NOT_CODES
    )
    assert written == []


def test_the_registry_is_every_constant_of_the_codes_module() -> None:
    constants = {
        value for name, value in vars(codes).items() if name.isupper() and isinstance(value, str)
    }
    assert constants == DECODE_CODES | RULE_CODES | WARNING_CODES | CATALOG_CODES
    assert not DECODE_CODES & RULE_CODES
    assert not RULE_CODES & WARNING_CODES
    assert {codes.REQUIREMENT_DISAGREES, codes.OVERLAP} <= RULE_CODES


def test_every_function_can_be_read_at_once() -> None:
    longest = sorted(
        (node.end_lineno - node.lineno + 1 - _manual_lines(name, tree, node), name, node.name)
        for name, (tree, _) in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno
    )[-3:]
    assert all(lines <= 60 for lines, _, _ in longest), longest


def test_no_function_takes_a_long_row_of_positional_arguments() -> None:
    """Past seven, arguments are named at the call (keyword-only) or travel as a record."""
    long_rows = sorted(
        (name, node.name)
        for name, (tree, _) in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and len([a for a in node.args.posonlyargs + node.args.args if a.arg != "self"]) > 7
    )
    assert long_rows == []


def test_the_public_functions_docstrings_are_found() -> None:
    assert ("neweden.scoring.table", "score_table") in MANUAL
    assert len(MANUAL) >= 12
    modules = _modules()
    found = {
        (name, node.name)
        for name, (tree, _) in modules.items()
        for node in tree.body
        if _manual_lines(name, tree, node)
    }
    assert found == MANUAL


def test_every_module_is_a_small_room() -> None:
    sizes = {}
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        name, _ = _module_name(path)
        tree = ast.parse(text)
        manual = sum(_manual_lines(name, tree, node) for node in tree.body)
        sizes[path.relative_to(PACKAGE).as_posix()] = len(text.splitlines()) - manual
    assert sizes["scoring/report.py"] > 100  # the modules are read
    assert {name: lines for name, lines in sizes.items() if lines > 600} == {}


def test_the_modes_are_one_table() -> None:
    import typing

    from neweden.format.model import MODES, Mode
    from neweden.format.modes import MODES as MODE_RULES
    from neweden.format.modes import MODES_WITH_REQUIREMENTS
    from neweden.format.schema import game_schema

    assert typing.get_args(Mode) == MODES == tuple(MODE_RULES)
    rule = game_schema()["$defs"]["Game"]["if"]["properties"]["mode"]["enum"]
    assert rule == list(MODES_WITH_REQUIREMENTS) == ["populist", "elitist"]
