"""The type stubs of the native module name exactly what the module has."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import neweden
from neweden import _core


def test_stubs_match_the_native_module() -> None:
    stub = Path(neweden.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text())
    named: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            named.add(node.name)
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and ast.unparse(node.annotation) != "TypeAlias"  # (the stub's own shorthand)
        ):
            named.add(node.target.id)
    public = {n for n in dir(_core) if not n.startswith("_")} | {"__version__"}
    assert named == public


def test_the_core_is_this_version() -> None:
    assert _core.__version__ == neweden.__version__


def test_the_core_names_its_figures_and_a_mismatch_refuses_to_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib

    from neweden.geometry import native as geometry
    from neweden.geometry.figures import CityFigures, ScoreFigures

    assert ScoreFigures._fields == _core.SCORE_FIELDS
    assert CityFigures._fields == _core.CITY_FIELDS
    swapped = (_core.SCORE_FIELDS[1], _core.SCORE_FIELDS[0], *_core.SCORE_FIELDS[2:])
    monkeypatch.setattr(_core, "SCORE_FIELDS", swapped)
    with pytest.raises(ImportError, match="stale build"):
        importlib.reload(geometry)
    monkeypatch.undo()
    importlib.reload(geometry)
