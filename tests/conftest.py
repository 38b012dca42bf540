from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load_example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture
def format_example() -> dict[str, Any]:
    return copy.deepcopy(load_example("format-example.json"))


@pytest.fixture
def military_example() -> dict[str, Any]:
    return copy.deepcopy(load_example("military-two-players.json"))


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests read English output unless they ask for a language: a developer's own
    locale (LANG=pt_BR.UTF-8) must not change what `main()` or a `neweden` process says."""
    monkeypatch.setenv("NEWEDEN_LANG", "en")


@pytest.fixture(autouse=True)
def colour_by_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Colour as the output is (a terminal or not), whatever the developer's or CI's
    environment says: `NO_COLOR` and `FORCE_COLOR` are set only by the tests about them."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)


@pytest.fixture
def sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of games of each chunk scored over columns since the test began (so a
    test shows the path ran)."""
    from neweden.scoring import chunk, report

    found: list[int] = []
    real = chunk.chunk_players

    def counted(games: Any, *args: Any, **kwargs: Any) -> chunk.ChunkPlayers:
        found.append(len(games))
        return real(games, *args, **kwargs)

    monkeypatch.setattr(report, "chunk_players", counted)
    return found
