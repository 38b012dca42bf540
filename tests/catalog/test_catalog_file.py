"""Catalog files: JSON and TOML alike, extend or replace the built-in catalog, every problem
listed, closed vocabularies, the D5 table, epiphany conditions in the report."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN
from neweden.catalog.files import CatalogError, load_catalog, parse_catalog
from neweden.cli.main import main
from tests.conftest import EXAMPLES
from tests.games import card, game, line, player

TEMPLATE = EXAMPLES / "catalog-template.toml"


def problems_of(text: str, name: str = "c.json") -> list[tuple[str, str]]:
    with pytest.raises(CatalogError) as info:
        parse_catalog(text.encode(), name)
    return [(p.code, p.path) for p in info.value.problems]


def test_the_template_loads_and_every_entry_is_an_invented_example() -> None:
    catalog = load_catalog(TEMPLATE)
    digest = hashlib.sha256(TEMPLATE.read_bytes()).hexdigest()
    assert catalog.name == f"catalog-template.toml sha256:{digest}"
    added = (
        (set(catalog.cards) - set(BUILTIN.cards))
        | set(catalog.epiphanies)
        | (set(catalog.requirements) - set(BUILTIN.requirements))
    )
    assert added
    assert all(entry_id.startswith("EX-") for entry_id in added)
    assert catalog.majority_table == {2: (5, 0), 3: (7, 3, 0), 4: (10, 6, 3, 0)}
    assert set(BUILTIN.cards) <= set(catalog.cards)


def test_json_and_toml_give_the_same_catalog(tmp_path: Path) -> None:
    import tomllib

    as_json = tmp_path / "copy.json"
    as_json.write_text(json.dumps(tomllib.loads(TEMPLATE.read_text())))
    a, b = load_catalog(TEMPLATE), load_catalog(as_json)
    assert (a.cards, a.requirements, a.epiphanies, a.majority_table) == (
        b.cards,
        b.requirements,
        b.epiphanies,
        b.majority_table,
    )
    assert b.name.startswith("copy.json sha256:")


def test_an_entry_with_a_builtin_id_replaces_it_whole() -> None:
    text = json.dumps(
        {
            "cards": {"new-eden": {"wild": True, "points": 3, "copies": 2}},
            "requirements": {"A1": {"deck": "A", "condition": True}},
        }
    )
    catalog = parse_catalog(text.encode(), "c.json")
    assert catalog.cards["new-eden"].points == 3
    assert catalog.requirements["A1"].condition is True
    assert catalog.requirements["A1"].text == ""


def test_a_bad_catalog_lists_every_problem() -> None:
    text = json.dumps(
        {
            "colour": "red",
            "majority_table": {"3": [7, 3], "9": [1]},
            "cards": {
                "EX-a": {
                    "example": True,
                    "style": "gothic",
                    "facility": "lab",
                    "points": 1,
                    "stars": 0,
                    "sides": ["top"],
                },
                "bad id": {"wild": True},
                "EX-b": {"wild": True},
            },
            "requirements": {"A9": {"deck": "D", "condition": {"maybe": 1}}},
            "epiphanies": {"E1": {"points": 3}},
        }
    )
    # In the order of the walk: each object's fields, then its cross-field checks.
    assert problems_of(text) == [
        ("unknown_field", "/colour"),
        ("bad_value", "/majority_table/9"),
        ("missing_field", "/cards/EX-a/type"),
        ("bad_value", "/cards/bad id"),
        ("bad_value", "/cards/EX-b/example"),
        ("bad_value", "/requirements/A9/deck"),
        ("bad_value", "/requirements/A9/condition/maybe"),
        ("bad_value", "/epiphanies/E1/points"),
        ("bad_value", "/majority_table/3"),
    ]


def test_bad_toml_and_bad_json_and_a_missing_file() -> None:
    assert problems_of("cards = [", "c.toml") == [("bad_toml", "")]
    assert problems_of("{", "c.json") == [("bad_json", "")]
    with pytest.raises(CatalogError) as info:
        load_catalog("/nowhere/c.toml")
    assert [p.code for p in info.value.problems] == ["not_found"]


def test_catalog_cards_must_use_the_declared_vocabulary() -> None:
    text = json.dumps(
        {
            "styles": ["gothic"],
            "cards": {
                "X1": {
                    "style": "baroque",
                    "type": "plaza",
                    "facility": "lab",
                    "points": 1,
                    "stars": 0,
                    "sides": ["top"],
                }
            },
        }
    )
    assert problems_of(text) == [("unknown_style", "/cards/X1/style")]


def closed_catalog(tmp_path: Path) -> str:
    path = tmp_path / "closed.json"
    path.write_text(json.dumps({"styles": ["ex_gothic", "ex_futurist"], "types": ["ex_plaza"]}))
    return str(path)


def test_rule_1_closed_vocabulary_turns_unknown_styles_into_unknown_style(tmp_path: Path) -> None:
    catalog = load_catalog(closed_catalog(tmp_path))
    # (0,2) joins (0,1) by type, (0,3) joins (0,2) by style: a connected city.
    city = [
        *line(2),
        card(0, 2, "lr", style="ex_baroque", type="ex_plaza"),
        card(0, 3, "l", style="ex_baroque", type="ex_market"),
    ]
    city[1]["card"]["sides"] = ["left", "right"]
    report = neweden.score(game("military", player("P", city)), catalog=catalog)
    p = report["players"][0]
    assert [(e["code"], e["path"], e["cells"]) for e in p["errors"]] == [
        ("unknown_style", "/players/0/city/2/card/style", [[0, 2]]),
        ("unknown_style", "/players/0/city/3/card/style", [[0, 3]]),
        ("unknown_type", "/players/0/city/3/card/type", [[0, 3]]),
    ]
    assert p["legal"] is False
    assert p["cards"] == 4  # still scored as given


def test_rule_4a_a1_with_a_closed_vocabulary_asks_for_every_declared_style(
    tmp_path: Path,
) -> None:
    catalog = load_catalog(closed_catalog(tmp_path))
    city = line(2)
    city[1]["card"]["style"] = "ex_futurist"
    report = neweden.score(game("populist", player("P", city)), catalog=catalog)
    assert report["players"][0]["requirements_met"] == ["A1", "C1"]


def test_rule_d5_the_catalog_table_replaces_the_default(tmp_path: Path) -> None:
    path = tmp_path / "d5.toml"
    path.write_text('[majority_table]\n"2" = [8, 2]\n')
    doc = game(
        "military", player("A", line(2, facility="base")), player("B", line(1, facility="base"))
    )
    report = neweden.score(doc, catalog=load_catalog(path))
    assert [p["score"]["military"]["bases"] for p in report["players"]] == [8, 0]
    assert [w["code"] for w in report["warnings"]] == ["game_not_ended"]  # not the D5 default
    assert report["catalog"].startswith("d5.toml sha256:")


def epiphany_catalog(tmp_path: Path) -> Any:
    path = tmp_path / "e.toml"
    path.write_text(
        '[epiphanies.EX-labs]\nexample = true\npoints = 2\neffect = "third_star"\n'
        'condition = { ">=" = [{ count = { facility = "lab" } }, 2] }\n'
    )
    return load_catalog(path)


def audit_lines(catalog: Any, city: list[dict[str, Any]], copies: int) -> list[dict[str, Any]]:
    eps = [{"card": "EX-labs", "state": "validated"}] * copies
    report = neweden.score(game("military", player("P", city, epiphanies=eps)), catalog=catalog)
    lines: list[dict[str, Any]] = report["players"][0]["audit"]["epiphanies"]
    return lines


def test_rule_4b_the_report_says_whether_the_final_city_meets_an_epiphany(tmp_path: Path) -> None:
    catalog = epiphany_catalog(tmp_path)
    assert audit_lines(catalog, line(2, facility="lab"), 1)[0]["condition_met"] is True
    assert audit_lines(catalog, line(1, facility="lab"), 1)[0]["condition_met"] is False
    assert audit_lines(catalog, line(2, facility="lab"), 1)[0]["disjoint_sets"] is None


def test_rule_4b_identical_epiphanies_need_disjoint_sets_of_cards(tmp_path: Path) -> None:
    catalog = epiphany_catalog(tmp_path)
    three_labs = line(3, facility="lab")
    assert [x["disjoint_sets"] for x in audit_lines(catalog, three_labs, 2)] == ["no", "no"]
    four_labs = line(4, facility="lab")
    assert [x["disjoint_sets"] for x in audit_lines(catalog, four_labs, 2)] == ["yes", "yes"]
    # Past the documented bound (14 scored cards) the answer is unknown, never a guess.
    many = line(15, facility="lab")
    assert audit_lines(catalog, many, 2)[0]["disjoint_sets"] == "unknown"


def test_catalog_check_prints_what_the_file_defines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", "check", str(TEMPLATE)]) == 0
    described = json.loads(capsys.readouterr().out)
    assert "EX-gothic-garden" in described["cards"]
    assert described["requirements"]["EX-A2"]["deck"] == "A"
    assert described["majority_table"]["3"] == [7, 3, 0]


def test_catalog_check_lists_every_problem_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"cards": {"X": {"wild": False}}, "epiphanies": {"E": {}}}))
    assert main(["catalog", "check", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("neweden: the catalog")
    assert err[1:] == [
        "/cards/X/wild: bad_value: `wild` is false; it must be one of true",
        "/epiphanies/E/points: missing_field: an epiphany needs `points`",
    ]


def test_score_with_a_catalog_that_does_not_load_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("styles = 3\n")
    assert main(["score", "--example", "--catalog", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "/styles: bad_type" in captured.err


def test_schema_checks_its_catalog_and_prints_the_same_schema_with_a_good_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("styles = 3\n")
    assert main(["schema", "--catalog", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "/styles: bad_type" in captured.err
    assert main(["schema"]) == 0
    plain = capsys.readouterr().out
    good = tmp_path / "good.toml"
    good.write_text('name = "mine"\n')
    assert main(["schema", "--catalog", str(good)]) == 0
    assert capsys.readouterr().out == plain
    assert main(["schema", "--city", "--catalog", str(tmp_path / "missing.toml")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "missing.toml does not load" in captured.err
    assert "not_found" in captured.err


@pytest.mark.parametrize("command", [["score", "--example"], ["schema"], ["validate", "x.jsonl"]])
@pytest.mark.parametrize("path", ["", "  "])
def test_an_empty_catalog_path_is_refused_not_taken_as_none(
    command: list[str], path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--catalog "$CATALOG"` with the variable unset must not score with the built-in one."""
    with pytest.raises(SystemExit) as exited:
        main([*command, "--catalog", path])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "argument --catalog: the catalog file's path is empty" in captured.err


def test_a_catalog_over_4_mib_is_too_large() -> None:
    big = b'{"name": "x", "cards": {}, "pad": "' + b"x" * (4 * 1024 * 1024) + b'"}'
    with pytest.raises(CatalogError) as info:
        parse_catalog(big, "big.json")
    assert [p.code for p in info.value.problems] == ["too_large"]


# --- hardening, round two ----------------------------------------------------------------


@pytest.mark.parametrize(
    "nesting", ["[" * 5000 + "]" * 5000, "{a=" * 5000 + "}" * 5000], ids=["arrays", "tables"]
)
def test_a_toml_catalog_nested_5000_deep_is_too_large_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], nesting: str
) -> None:
    # Once a RecursionError out of the TOML parser: a traceback and exit 1.
    path = tmp_path / "deep.toml"
    path.write_text(f"x = {nesting}\n")
    assert main(["catalog", "check", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[1].startswith("/: too_large: the TOML is nested too deep")
    assert "Traceback" not in "\n".join(err)


REQUIREMENT = (
    '[requirements.R9]\ndeck = "A"\n'
    'condition = {{ ">=" = [{{ count = {{ style = "gothic" }} }}, {} ] }}\n'
)


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("inf", "bad_value"),
        ("-inf", "bad_value"),
        ("nan", "bad_value"),
        ("1e999", "bad_value"),
        ("1979-05-27", "bad_type"),
        ("07:32:00", "bad_type"),
        ("1979-05-27T07:32:00Z", "bad_type"),
    ],
)
def test_toml_values_json_has_no_form_for_are_problems_at_their_pointer(
    value: str, code: str
) -> None:
    # Once silently a JSON null (inf, nan) or a string (a date), with a misleading message.
    found = problems_of(REQUIREMENT.format(value), "c.toml")
    assert found == [(code, "/requirements/R9/condition/>=/1")]


def test_a_card_keyed_with_a_leading_zero_is_named_as_its_key_not_an_item() -> None:
    # Once "item 01 of `cards`": an array's index has no leading zero (RFC 6901).
    with pytest.raises(CatalogError) as info:
        parse_catalog(b'name = "x"\n[cards]\n"01" = nan\n', "c.toml")
    (problem,) = info.value.problems
    assert (problem.path, problem.message) == (
        "/cards/01",
        "`01` is nan; a catalog's numbers are finite",
    )


def test_a_toml_datetime_is_not_a_catalog_name() -> None:
    # Once accepted: the name became the date's ISO text.
    text = "name = 1979-05-27T07:32:00Z\nstyles = 3\n"
    assert problems_of(text, "c.toml") == [("bad_type", "/name"), ("bad_type", "/styles")]
    with pytest.raises(CatalogError) as info:
        parse_catalog(text.encode(), "c.toml")
    assert "a TOML date or time" in info.value.problems[0].message


@pytest.mark.parametrize(
    ("number", "line"),
    [
        ("1e999,", "/: bad_json: the input is not valid JSON: "),
        ("9" * 5000, "/majority_table/2/0: bad_value: item 0 of `2` is an integer of more than"),
    ],
    ids=["broken", "digits"],
)
def test_a_json_catalog_with_an_out_of_range_number_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str, line: str
) -> None:
    # Once a JSONDecodeError or a ValueError: a traceback and exit 1.
    path = tmp_path / "c.json"
    path.write_text('{"name": "x", "majority_table": {"2": [' + number + "]}}")
    assert main(["catalog", "check", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[1].startswith(line)


def test_a_catalog_of_deep_nesting_then_escaped_quotes_is_one_bad_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The every-problem pass was quadratic on this shape (80 KB: 23 s), in `catalog check` too.
    path = tmp_path / "c.json"
    path.write_bytes(b"[" * 2000 + b'"' + b'\\"' * 40_000)
    assert main(["catalog", "check", str(path)]) == 2
    assert capsys.readouterr().err.splitlines()[1].startswith("/: bad_json: ")


# --- hardening, round four ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a" + ".a" * 1000 + " = 1\n", "/: too_large: the TOML is nested too deep"),
        ("[a" + ".a" * 1000 + "]\nx = 1\n", "/: too_large: the TOML is nested too deep"),
        ("x = " + "7" * 5000 + "\n", "/: bad_toml: not valid TOML: an integer of more than"),
        ("x = 0x" + "f" * 5000 + "\n", "/: bad_toml: not valid TOML: an integer of more than"),
    ],
    ids=["dotted-keys", "table-header", "digits", "hex-digits"],
)
def test_toml_read_without_recursion_but_written_with_it_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    # Once a RecursionError (keys a thousand levels deep, built by tomllib without
    # recursing) or a ValueError (an integer of 5,000 digits): a traceback, exit 1.
    path = tmp_path / "odd.toml"
    path.write_text(text)
    assert main(["catalog", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err


def test_a_catalog_that_never_ends_is_read_only_past_its_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Once read whole: /dev/zero (or a pipe) filled the memory before the size was checked.
    assert main(["catalog", "check", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert "/: too_large: the catalog is more than 4,194,304 bytes" in err


@pytest.mark.parametrize(
    ("facility", "sides", "said"),
    [
        (None, ["left"], "its facility is None, not one of lab, shelter"),
        ("pool", ["left"], "its facility is 'pool'"),
        ("lab", ["up"], "its sides are ['up'], not one to four of top, right, bottom, left"),
        ("lab", [], "its sides are []"),
    ],
)
def test_a_python_catalogs_card_no_game_can_score_is_named_when_a_game_names_it(
    facility: str | None, sides: list[str], said: str
) -> None:
    """A catalog built in Python may hold a common card with no facility the format knows, or
    no sides it knows (a catalog file's schema refuses both): a game naming it gets a
    ValueError naming the card and what is wrong, not a KeyError from the scoring's tables,
    alone, validated, or read natively (a document long enough to be read lean)."""
    import dataclasses

    import neweden
    from neweden.catalog.catalog import BUILTIN, CardSpec

    spec = CardSpec(False, "gothic", "plaza", facility, 1, 0, frozenset(sides), None, "EX-BAD")
    catalog = dataclasses.replace(BUILTIN, cards={**BUILTIN.cards, "EX-BAD": spec})
    city = [{"row": 0, "col": 0, "card": "EX-BAD"}]
    game = {
        "mode": "military",
        "meta": {"pad": "x" * 600},
        "players": [{"name": "A", "city": city}],
    }
    for check in (neweden.score, neweden.validate):
        for given in (game, json.dumps(game).encode()):
            with pytest.raises(ValueError, match="the catalog's card 'EX-BAD' cannot be scored"):
                check(given, catalog=catalog)
            with pytest.raises(ValueError, match=re.escape(said)):
                check(given, catalog=catalog)


def test_a_python_catalogs_card_with_sides_as_a_tuple_scores_as_with_a_frozenset() -> None:
    """CardSpec.sides given as a tuple (a catalog built in Python) scores as a frozenset does,
    in a short document and in one long enough to be read natively."""
    import dataclasses

    import neweden
    from neweden.catalog.catalog import BUILTIN, CardSpec

    reports = []
    for sides in (("top", "left"), frozenset(["top", "left"])):
        spec = CardSpec(False, "gothic", "plaza", "lab", 1, 0, sides, None, "EX-T")  # type: ignore[arg-type]
        catalog = dataclasses.replace(BUILTIN, cards={**BUILTIN.cards, "EX-T": spec})
        city = [{"row": 0, "col": c, "card": "EX-T"} for c in range(2)]
        for meta in ({}, {"meta": {"pad": "x" * 600}}):
            game = {"mode": "military", **meta, "players": [{"name": "A", "city": city}]}
            reports.append(neweden.score(game, catalog=catalog)["players"])
    assert all(one == reports[0] for one in reports)
