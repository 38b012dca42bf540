"""Every test docs/limits.md names exists, so the document cannot drift from the suite."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_limit_names_an_existing_test() -> None:
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    named = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`", text)
    assert len(named) >= 15
    for path, name in named:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name in functions, f"{path}::{name} is named in docs/limits.md but missing"
