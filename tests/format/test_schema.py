"""`neweden schema`: the JSON Schema generated from the model validates the examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from neweden.cli.main import main
from neweden.format.schema import city_schema, game_schema
from tests.conftest import EXAMPLES

GAMES = [p for p in sorted(EXAMPLES.glob("*.json")) if p.name != "lone-city.json"]


def test_the_schema_is_a_valid_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(game_schema())
    jsonschema.Draft202012Validator.check_schema(city_schema())


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_the_schema_validates_each_example(path: Path) -> None:
    jsonschema.validate(json.loads(path.read_text()), game_schema())


def test_the_city_schema_validates_the_lone_city() -> None:
    jsonschema.validate(json.loads((EXAMPLES / "lone-city.json").read_text()), city_schema())


@pytest.mark.parametrize(
    "card",
    [
        {"wild": True, "style": "gothic"},
        {"style": "gothic", "type": "plaza", "facility": "lab", "points": 1, "stars": 0},
        {
            "style": "gothic",
            "type": "plaza",
            "facility": "lab",
            "points": 1,
            "stars": 4,
            "sides": ["top"],
        },
    ],
)
def test_the_schema_refuses_what_the_decoder_refuses(
    format_example: dict[str, Any], card: dict[str, Any]
) -> None:
    format_example["players"][0]["city"][1]["card"] = card
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(format_example, game_schema())


def test_neweden_schema_prints_the_game_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == game_schema()
    assert main(["schema", "--city"]) == 0
    assert json.loads(capsys.readouterr().out) == city_schema()


def test_the_schema_says_its_types_words_not_the_fields_own() -> None:
    """A field's own words (`described`) are /openapi.json's; the game's schema gives the
    words of the types (an id, a style name, the D5 table) and the docstrings, as it always
    has."""
    defs = game_schema()["$defs"]
    assert "description" not in defs["Player"]
    assert "description" not in defs["Player"]["properties"]["name"]
    assert "description" not in defs["Game"]["properties"]["mode"]
    assert defs["Game"]["properties"]["majority_table"]["description"].endswith("(RULES §4a)")
    assert defs["InlineCard"]["properties"]["style"]["description"].startswith("a name written")
    assert defs["Bonus"]["description"] == "A Company or Professional reward (RULES §4d)."
