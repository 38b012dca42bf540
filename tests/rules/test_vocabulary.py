"""RULES §1 and §4a: a typo must not change a score silently. Names the box holds, Portuguese
aliases, close names, unknown effects, a requirement listed twice, Atomic Waste copies.

The scores below are derived by hand from the rules (each case says how)."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import neweden
from neweden.catalog.files import parse_catalog
from neweden.format.decode import decode_game
from neweden.format.schema import city_schema, game_schema
from neweden.present.render import render
from neweden.rules.names import batch_quiet
from neweden.scoring.report import reference_geometry, score_game
from tests.games import card, decode_places, game, player, six_in_a_row
from tests.servers import running_server

REAL = ["gothic", "futurist", "renaissance", "sustainable", "ex_quinta"]


def codes(problems: list[dict[str, Any]]) -> list[str]:
    return [p["code"] for p in problems]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neweden", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


# --- 1. more than the box holds is an error ------------------------------------------------


def test_rule_1_more_styles_than_the_box_holds_is_an_error() -> None:
    # Ana: five real styles and "gotic": A1 (6 distinct names >= 5), B1 (6 in a row) and
    # C1 (0 open) are met, 3 stars: every card scores its 5 points, 6 x 5 = 30. Bia: the
    # same with "gothic" for "gotic". The game shows gothic 3, gotic 1, the others 2 each.
    # The score stands as given, but the game is not valid; "gotic", a near miss of
    # "gothic", is also misspelled_name at its card (so Ana's city is not legal).
    doc = game(
        "populist",
        player("Ana", six_in_a_row([*REAL, "gotic"])),
        player("Bia", six_in_a_row([*REAL, "gothic"])),
    )
    report = neweden.score(doc, detail=False)
    (error,) = report["errors"]
    assert error["code"] == "too_many_styles"
    assert error["path"] == "/players"
    assert error["cells"] == [[0, 5]]
    assert (
        '"gotic": 1 card (Ana, row 0, column 5) — did you mean "gothic", 3 cards?'
        in (error["message"])
    )
    assert "6 styles; the box holds 5" in error["message"]
    assert report["valid"] is False
    ana = report["players"][0]
    assert [(e["code"], e["path"]) for e in ana["errors"]] == [
        ("misspelled_name", "/players/0/city/5/card/style")
    ]
    assert ana["legal"] is False
    assert report["players"][1]["legal"] is True
    assert ana["score"]["total"] == 30
    assert ana["requirements_met"] == ["A1", "B1", "C1"]


def test_rule_1_more_styles_than_the_box_holds_counts_all_players_together() -> None:
    # Each city alone shows 3 styles; the game shows 6. The rarest name is blamed: "futurst"
    # (1 card, Bia's), nearest "futurist".
    a = six_in_a_row(["gothic", "gothic", "futurist", "futurist", "renaissance", "renaissance"])
    b = six_in_a_row(["sustainable", "sustainable", "ex_quinta", "ex_quinta", "futurst", "gothic"])
    report = neweden.score(game("populist", player("Ana", a), player("Bia", b)), detail=False)
    (error,) = report["errors"]
    assert error["code"] == "too_many_styles"
    assert error["cells"] == [[0, 4]]
    assert (
        '"futurst": 1 card (Bia, row 0, column 4) — did you mean "futurist", 2 cards?'
        in (error["message"])
    )
    assert (
        "By cards: gothic 3, futurist 2, renaissance 2, sustainable 2, ex_quinta 2, futurst 1"
        in (error["message"])
    )


def test_rule_1_more_types_than_the_box_holds_is_an_error() -> None:
    # Seven types, all cards one style (so they still join): one name too many, and every
    # name has one card, so all seven tie as the rarest and all are told.
    types = ["building", "green_area", "ex_port", "ex_plaza", "ex_farm", "ex_mine", "ex_dock"]
    city = six_in_a_row(["gothic"] * 7, types)
    report = neweden.score(game("military", player("Ana", city)), detail=False)
    (error,) = report["errors"]
    assert error["code"] == "too_many_types"
    assert "7 types; the box holds 6" in error["message"]
    assert len(error["cells"]) == 7
    assert report["valid"] is False
    assert report["players"][0]["legal"] is True


def test_rule_1_the_box_count_itself_is_fine() -> None:
    report = neweden.score(game("populist", player("Ana", six_in_a_row([*REAL, "gothic"]))))
    assert report["valid"] is True
    assert report["errors"] == []
    assert "similar_names" not in codes(report["warnings"])


def test_rule_1_wild_and_unknown_cards_have_no_style() -> None:
    city = six_in_a_row([*REAL, "gothic"])
    city += [{"row": 1, "col": 0, "card": {"wild": True}}, {"row": 1, "col": 1, "card": "EX-x"}]
    report = neweden.score(game("populist", player("Ana", city)), detail=False)
    assert "too_many_styles" not in codes(report["errors"])


# --- 2. close names warn ------------------------------------------------------------------


def test_rule_1_close_unknown_names_warn_similar_names() -> None:
    # "ex_quintas" is one edit from "ex_quinta", and the manual gives neither: a warning;
    # the game stays valid. (A near miss of a name the manual gives is misspelled_name:
    # tests/rules/test_misspelled_names.py.)
    city = six_in_a_row(["ex_quinta"] * 5 + ["ex_quintas"])
    report = neweden.score(game("military", player("Ana", city)), detail=False)
    assert report["valid"] is True
    (warning,) = [w for w in report["warnings"] if w["code"] == "similar_names"]
    assert warning["path"] == "/players"
    assert warning["cells"] == [[0, 5]]
    assert warning["message"] == (
        'the style "ex_quintas", 1 card (Ana, row 0, column 5), looks like "ex_quinta", 5 '
        "cards: is one of them mistyped?"
    )


def test_rule_1_a_name_close_to_an_alias_is_misspelled() -> None:
    # "goticos" is two edits from "gothic" but one from its alias "gotico".
    city = six_in_a_row(["gothic"] * 5 + ["goticos"])
    report = neweden.score(game("military", player("Ana", city)), detail=False)
    assert [(e["code"], e["path"]) for e in report["players"][0]["errors"]] == [
        ("misspelled_name", "/players/0/city/5/card/style")
    ]
    assert "similar_names" not in codes(report["warnings"])


def test_rule_1_names_three_edits_apart_do_not_warn() -> None:
    city = six_in_a_row(["ex_amber"] * 5 + ["ex_onyx"])
    report = neweden.score(game("military", player("Ana", city)), detail=False)
    assert "similar_names" not in codes(report["warnings"])


# --- 3. Portuguese names fold ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "folded"),
    [
        ("gótico", "gothic"),
        ("GÓTICO", "gothic"),
        ("Gotica", "gothic"),
        ("gotico", "gothic"),
        ("futurista", "futurist"),
        ("Renascentista", "renaissance"),
        ("sustentável", "sustainable"),
        ("SUSTENTAVEL", "sustainable"),
    ],
)
def test_rule_1_portuguese_style_names_fold_to_the_english_name(given: str, folded: str) -> None:
    # With the alias, the city shows 5 styles, not 6: valid, A1 met, 30 points.
    styles = [*REAL, "gothic"]
    styles[styles.index(folded)] = given
    report = neweden.score(game("populist", player("Ana", six_in_a_row(styles))), detail=True)
    assert report["valid"] is True, report["errors"]
    assert report["players"][0]["score"]["total"] == 30
    assert report["players"][0]["requirements_met"] == ["A1", "B1", "C1"]
    svg = render(json.dumps(game("populist", player("Ana", six_in_a_row(styles)))))
    assert given not in svg  # the picture shows the English name


@pytest.mark.parametrize(
    ("given", "folded"),
    [("área_verde", "green_area"), ("Area_Verde", "green_area"), ("CONSTRUÇÃO", "building")],
)
def test_rule_1_portuguese_type_names_fold_to_the_english_name(given: str, folded: str) -> None:
    doc = game("military", player("Ana", [card(0, 0, "t", type=given, style="gothic")]))
    decoded = decode_game(doc)
    assert decoded.players[0].city[0].card.type == folded  # type: ignore[union-attr]
    assert neweden.score(doc)["valid"] is True


def test_rule_1_aliases_fold_on_both_decoding_passes() -> None:
    # The every-problem pass (taken when another field is wrong) accepts the alias too and
    # reports only the real problem.
    doc = game("military", player("Ana", [card(0, 0, "t", style="gótico", type="área_verde")]))
    doc["players"][0]["city"][0]["card"]["stars"] = 7
    assert decode_places(doc) == [("bad_value", "/players/0/city/0/card/stars")]


def test_rule_1_an_alias_folds_within_its_attribute_only() -> None:
    # "área_verde" is a type's alias: as a style it is folded ("area_verde") but not made
    # green_area, and the vocabulary is open, so it is a style of its own.
    doc = game("military", player("Ana", [card(0, 0, "t", style="área_verde")]))
    decoded = decode_game(doc)
    assert decoded.players[0].city[0].card.style == "area_verde"  # type: ignore[union-attr]


def test_rule_1_a_capitalised_name_folds_and_one_still_no_name_gets_a_suggestion() -> None:
    doc = game("military", player("Ana", [card(0, 0, "t", style="Gothic")]))
    assert decode_game(doc).players[0].city[0].card.style == "gothic"  # type: ignore[union-attr]
    doc = game("military", player("Ana", [card(0, 0, "t", style="Gothic!")]))
    with pytest.raises(neweden.GameDecodeError) as caught:
        neweden.score(doc)
    assert 'did you mean "gothic"?' in caught.value.problems[0].message


CATALOG = """
format = "new-eden/catalog@1"
styles = ["gótico", "futurista", "renascentista", "sustentável", "ex_quinta"]
effects = ["ex_bloom"]

[cards.EX-tower]
style = "Gótico"
type = "Construção"
facility = "tower"
points = 2
stars = 0
sides = ["top"]
example = true

[requirements.EX-R1]
deck = "A"
text = "Two gothic cards."
condition = { ">=" = [{ count = { style = "gótico" } }, 2] }
example = true

[epiphanies.EX-E1]
points = 2
effect = "ex_bloom"
example = true
"""


def test_rule_1_aliases_fold_in_catalog_cards_vocabularies_and_conditions() -> None:
    catalog = parse_catalog(CATALOG.encode(), "mine.toml")
    assert catalog.styles == frozenset(
        ["gothic", "futurist", "renaissance", "sustainable", "ex_quinta"]
    )
    spec = catalog.card("EX-tower")
    assert spec is not None
    assert (spec.style, spec.type) == ("gothic", "building")
    city = [
        {"row": 0, "col": 0, "card": "EX-tower"},
        card(1, 0, "t", style="gothic", type="building"),
    ]
    doc = game("populist", player("Ana", city), requirements=["EX-R1", "B1", "C1"])
    report = neweden.score(doc, catalog=catalog)
    assert report["errors"] == []
    assert "EX-R1" in report["players"][0]["requirements_met"]


# --- 4. effects -------------------------------------------------------------------------------


def test_rule_1_unknown_effect_warns_with_the_nearest_known_one() -> None:
    # "thrid_star" activated: an unknown effect gives no star and, activated, 0 points.
    epiphanies = [{"points": 2, "state": "activated", "effect": "thrid_star"}]
    doc = game("populist", player("Ana", six_in_a_row([*REAL, "gothic"]), epiphanies=epiphanies))
    report = neweden.score(doc, detail=False)
    ana = report["players"][0]
    (warning,) = [w for w in ana["warnings"] if w["code"] == "unknown_effect"]
    assert warning["path"] == "/players/0/epiphanies/0/effect"
    assert 'did you mean "third_star"?' in warning["message"]
    assert report["valid"] is True
    assert ana["stars"] == 3
    assert ana["score"]["epiphanies"] == 0


@pytest.mark.parametrize("effect", ["third_star", "rotate", "move"])
def test_rule_1_known_effects_do_not_warn(effect: str) -> None:
    epiphanies = [{"points": 2, "state": "validated", "effect": effect}]
    doc = game("military", player("Ana", [card(0, 0, "t")], epiphanies=epiphanies))
    assert "unknown_effect" not in codes(neweden.score(doc)["players"][0]["warnings"])


def test_rule_1_an_effect_the_catalog_declares_does_not_warn() -> None:
    catalog = parse_catalog(CATALOG.encode(), "mine.toml")
    epiphanies = [
        {"points": 2, "state": "validated", "effect": "ex_bloom"},
        {"card": "EX-E1", "state": "validated"},
        {"points": 2, "state": "validated", "effect": "ex_blossom"},
    ]
    doc = game("military", player("Ana", [card(0, 0, "t")], epiphanies=epiphanies))
    warnings = neweden.score(doc, catalog=catalog)["players"][0]["warnings"]
    assert [(w["code"], w["path"]) for w in warnings if w["code"] == "unknown_effect"] == [
        ("unknown_effect", "/players/0/epiphanies/2/effect")
    ]
    assert "unknown_effect" in codes(neweden.score(doc)["players"][0]["warnings"])


# --- 5. a requirement listed twice --------------------------------------------------------------


def test_rule_4a_a_requirement_listed_twice_is_a_decode_problem() -> None:
    doc = game("populist", player("Ana", six_in_a_row([*REAL, "gothic"])))
    doc["requirements"] = ["A1", "B1", "C1", "B1"]
    with pytest.raises(neweden.GameDecodeError) as caught:
        neweden.score(doc)
    (problem,) = caught.value.problems
    assert (problem.code, problem.path) == ("bad_value", "/requirements/3")
    assert "listed twice" in problem.message


def test_rule_4a_a_requirement_listed_twice_with_another_problem_lists_both() -> None:
    doc = game("populist", player("Ana", six_in_a_row([*REAL, "gothic"])))
    doc["requirements"] = ["A1", "A1", "C1"]
    doc["players"][0]["city"][0]["row"] = "0"
    assert decode_places(doc) == [
        ("bad_type", "/players/0/city/0/row"),
        ("bad_value", "/requirements/1"),
    ]


# --- 6. Atomic Waste: players + 1 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "copies", "errors"),
    [(1, 2, 0), (1, 3, 1), (2, 3, 0), (2, 4, 1), (3, 4, 0), (3, 5, 1), (4, 5, 0), (4, 7, 2)],
)
def test_rule_1_atomic_waste_at_most_players_plus_one(
    players: int, copies: int, errors: int
) -> None:
    # All copies in the first player's city, in a column (wild cards join on every side).
    waste = [{"row": r, "col": 0, "card": "atomic-waste"} for r in range(copies)]
    others = [player(f"P{i}", [card(0, 0, "t")]) for i in range(1, players)]
    report = neweden.score(game("military", player("P0", waste), *others), detail=False)
    found = [e for e in report["players"][0]["errors"] if e["code"] == "copy_limit"]
    assert len(found) == errors
    if found:
        words = (
            "the box holds 5"
            if players == 4
            else f"a {players}-player game has {players + 1} (one per player and one in the Idea"
        )
        assert words in found[0]["message"]
        assert found[0]["path"] == f"/players/0/city/{players + 1}/card"


def test_rule_1_new_eden_stays_at_two() -> None:
    eden = [{"row": r, "col": 0, "card": "new-eden"} for r in range(3)]
    others = [player(f"P{i}", [card(0, 0, "t")]) for i in range(1, 4)]
    report = neweden.score(game("military", player("P0", eden), *others), detail=False)
    assert [e["path"] for e in report["players"][0]["errors"]] == ["/players/0/city/2/card"]


# --- every way in ---------------------------------------------------------------------------------


def test_the_reference_twin_reports_the_same_name_problems() -> None:
    a = six_in_a_row([*REAL, "gotic"])
    b = six_in_a_row(["gothik"] * 6, ["ex_a", "ex_b", "ex_c", "ex_d", "ex_e", "ex_f"])
    decoded = decode_game(game("elitist", player("Ana", a), player("Bia", b)))
    native = score_game(decoded)
    assert {"too_many_styles", "too_many_types"} <= set(codes(native["errors"]))
    assert native == score_game(decoded, geometry=reference_geometry)


def test_a_lone_city_gets_the_name_checks_at_its_own_path() -> None:
    answer = neweden.validate({"city": six_in_a_row([*REAL, "gotic"])})
    (error,) = [e for e in answer["players"][0]["errors"] if e["code"] == "too_many_styles"]
    assert error["path"] == ""
    assert "(row 0, column 5)" in error["message"]
    (typo,) = [e for e in answer["players"][0]["errors"] if e["code"] == "misspelled_name"]
    assert (typo["path"], typo["cells"]) == ("/city/5/card/style", [[0, 5]])
    assert answer["valid"] is False
    assert answer["players"][0]["legal"] is False  # the typo points into the city


def test_cli_score_exit_codes(tmp_path: Path) -> None:
    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps(game("populist", player("Ana", six_in_a_row([*REAL, "gotic"])))))
    run = cli("score", str(typo), "--format", "text")
    assert run.returncode == 1
    assert "too_many_styles" in run.stdout
    twice = game("populist", player("Ana", six_in_a_row([*REAL, "gothic"])))
    twice["requirements"] = ["A1", "B1", "C1", "A1"]
    run = cli("score", "-", stdin=json.dumps(twice))
    assert run.returncode == 2
    assert run.stdout == ""
    assert "/requirements/3: bad_value:" in run.stderr
    accented = game("populist", player("Ana", six_in_a_row(["gótico", *REAL[1:], "Gótico"])))
    run = cli("score", "-", "--format", "json", stdin=json.dumps(accented, ensure_ascii=False))
    assert run.returncode == 0, run.stdout
    assert json.loads(run.stdout)["players"][0]["score"]["total"] == 30


def test_cli_validate_summary_counts_the_new_codes(tmp_path: Path) -> None:
    lines = [
        json.dumps(game("populist", player("Ana", six_in_a_row([*REAL, "gotic"])))),
        json.dumps(game("populist", player("Ana", six_in_a_row([*REAL, "gothic"])))),
    ]
    (tmp_path / "round.jsonl").write_text("\n".join(lines) + "\n")
    run = cli("validate", str(tmp_path / "round.jsonl"))
    assert run.returncode == 1
    summary = run.stdout.splitlines()[-1]
    assert summary.startswith("2 games: 1 valid, 1 invalid")
    assert "most frequent errors: too_many_styles 1, misspelled_name 1;" in summary


def test_the_schema_accepts_aliases_and_names_them() -> None:
    schema = game_schema()
    doc = game("populist", player("Ana", six_in_a_row(["GÓTICO", *REAL[1:], "Sustentavel"])))
    jsonschema.validate(doc, schema)
    bad = game("populist", player("Ana", six_in_a_row(["Gotic/o", *REAL[1:], "gothic"])))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    text = json.dumps(schema, ensure_ascii=False)
    assert "gothic (also gotico, gótico, gotica, gótica)" in text
    assert "third_star" in text
    jsonschema.validate({"city": six_in_a_row(["gothic"] * 6, ["Área_Verde"] * 6)}, city_schema())


def test_http_answers_the_typo_rules(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the serve extra")  # installed by '.[test]'
    typo = game(
        "populist",
        player("Ana", six_in_a_row([*REAL, "gotic"])),
        player("Bia", six_in_a_row([*REAL, "gothic"])),
    )
    twice = game("populist", player("Ana", six_in_a_row([*REAL, "gótico"])))
    twice["requirements"] = ["A1", "B1", "C1", "C1"]
    with running_server({}, tmp_path / "server.log") as (port, _):

        def post(path: str, doc: dict[str, Any]) -> tuple[int, Any]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            body = json.dumps(doc, ensure_ascii=False).encode()
            conn.request("POST", path, body=body, headers={"content-type": "application/json"})
            response = conn.getresponse()
            answer = json.loads(response.read())
            conn.close()
            return response.status, answer

        status, report = post("/v1/score", typo)
        assert status == 200
        assert report["valid"] is False
        assert codes(report["errors"]) == ["too_many_styles"]
        assert [p["score"]["total"] for p in report["players"]] == [30, 30]
        status, problem = post("/v1/score", twice)
        assert status == 422
        assert [(e["code"], e["path"]) for e in problem["errors"]] == [
            ("bad_value", "/requirements/3")
        ]


# --- found by review: what a careless or hostile input does ------------------------------------


@pytest.mark.parametrize("broken", ["gothic\n", "gótico\n", "Gothic\n"])
def test_rule_1_a_name_with_a_trailing_newline_is_no_name(broken: str) -> None:
    # Python's `$` matches before a final newline: "gothic\n" passed as a sixth name.
    doc = game("populist", player("Ana", six_in_a_row([*REAL[:4], "ex_quinta", broken])))
    with pytest.raises(neweden.GameDecodeError) as fast:
        neweden.score(doc)
    assert [(p.code, p.path) for p in fast.value.problems] == [
        ("bad_value", "/players/0/city/5/card/style")
    ]
    doc["players"][0]["city"][0]["row"] = "0"  # the every-problem pass too
    with pytest.raises(neweden.GameDecodeError) as walked:
        neweden.score(doc)
    assert ("bad_value", "/players/0/city/5/card/style") in [
        (p.code, p.path) for p in walked.value.problems
    ]


def test_a_requirement_or_effect_with_a_trailing_newline_is_refused() -> None:
    doc = game("populist", player("Ana", six_in_a_row([*REAL, "gothic"])))
    doc["requirements"] = ["A1\n", "B1", "C1"]
    doc["players"][0]["epiphanies"] = [{"points": 2, "state": "held", "effect": "rotate\n"}]
    with pytest.raises(neweden.GameDecodeError) as caught:
        neweden.score(doc)
    assert [p.path for p in caught.value.problems] == [
        "/players/0/epiphanies/0/effect",
        "/requirements/0",
    ]


@pytest.mark.parametrize(("copies", "errors"), [(3, 0), (5, 0), (6, 1)])
def test_rule_1_a_lone_city_holds_the_box_of_atomic_waste(copies: int, errors: int) -> None:
    # A lone city's game is not known: the box's 5 hold, not a one-player game's 2.
    waste = [{"row": r, "col": 0, "card": "atomic-waste"} for r in range(copies)]
    answer = neweden.validate({"city": waste})
    found = [e for e in answer["players"][0]["errors"] if e["code"] == "copy_limit"]
    assert len(found) == errors
    if found:
        assert "the box holds 5" in found[0]["message"]


CLOSED = """
styles = ["gothic", "futurist", "renaissance", "sustainable", "ex_quinta"]
types = ["building", "green_area", "ex_park", "ex_bark", "ex_farm", "ex_pier"]
[requirements.EX-A9]
deck = "A"
condition = { ">=" = [{ count = { style = "gotic" } }, 1] }
example = true
[requirements.EX-A8]
deck = "B"
condition = { ">=" = [{ largest_group = { by = "style", value = "Gothic!" } }, 1] }
example = true
[epiphanies.EX-E1]
points = 2
condition = { ">=" = [{ count = { type = ["área_verde", "ex_parks"] } }, 1] }
example = true
"""


def test_rule_1_a_condition_asks_for_names_a_card_can_have(tmp_path: Path) -> None:
    path = tmp_path / "closed.toml"
    path.write_text(CLOSED)
    run = cli("catalog", "check", str(path))
    assert run.returncode == 2
    lines = sorted(run.stderr.splitlines()[1:])
    assert lines == [
        '/epiphanies/EX-E1/condition/>=/0/count/type/1: unknown_type: the condition of "EX-E1" '
        'asks for the type "ex_parks", which the catalog\'s `types` does not declare (did you '
        'mean "ex_park"?)',
        "/requirements/EX-A8/condition/>=/0/largest_group/value: bad_value: the style "
        '"Gothic!" is not a name a card can have: folded as players write it (spaces around it '
        "trimmed, Portuguese accents taken off, letters in lower case, inner spaces and hyphens "
        'made _) it reads "gothic!", and a name is a letter, then letters, digits or _ (did you '
        'mean "gothic"?)',
        "/requirements/EX-A9/condition/>=/0/count/style: unknown_style: the condition of "
        '"EX-A9" asks for the style "gotic", which the catalog\'s `styles` does not declare '
        '(did you mean "gothic"?)',
    ]


def test_rule_1_a_catalog_declares_no_more_than_the_box_holds() -> None:
    text = 'styles = ["a_one", "b_two", "c_three", "d_four", "e_five", "f_six"]\n'
    with pytest.raises(neweden.CatalogError) as caught:
        parse_catalog(text.encode(), "six.toml")
    assert [(p.code, p.path) for p in caught.value.problems] == [("bad_value", "/styles")]


def test_rule_1_names_a_closed_vocabulary_declares_are_not_alike() -> None:
    # "ex_park" and "ex_bark" are 1 edit apart, but the catalog vouches for both.
    catalog = parse_catalog(CLOSED.split("[requirements")[0].encode(), "closed.toml")
    types = ["ex_park", "ex_park", "ex_park", "ex_bark", "ex_bark", "ex_bark"]
    doc = game("military", player("Ana", six_in_a_row(["gothic"] * 6, types)))
    assert "similar_names" not in codes(neweden.score(doc, catalog=catalog)["warnings"])
    assert "similar_names" in codes(neweden.score(doc)["warnings"])


def test_rule_1_on_a_tie_the_manuals_name_is_not_the_typo() -> None:
    # A closed vocabulary (where "gothc" is unknown_style, not misspelled_name) still tells
    # the pair: on a tie of cards, the name the manual gives is not the one blamed.
    catalog = parse_catalog(CLOSED.split("[requirements")[0].encode(), "closed.toml")
    city = six_in_a_row(["gothc", "gothic", "ex_quinta", "ex_quinta", "ex_quinta", "ex_quinta"])
    report = neweden.score(game("military", player("Ana", city)), catalog=catalog)
    assert codes(report["players"][0]["errors"]) == ["unknown_style"]
    (warning,) = [w for w in report["warnings"] if w["code"] == "similar_names"]
    assert warning["message"].startswith('the style "gothc", 1 card (Ana, row 0, column 0)')
    assert warning["cells"] == [[0, 0]]


def test_rule_1_did_you_mean_only_a_close_name() -> None:
    types = ["building", "green_area", "ex_plaza", "ex_market", "ex_port", "ex_park", "ex_farm"]
    city = six_in_a_row(["gothic"] * 7, types)
    (error,) = neweden.score(game("military", player("Ana", city)))["errors"]
    assert 'did you mean "ex_farm"' not in error["message"].split('"green_area"')[1].split(";")[0]
    assert (
        '"ex_farm": 1 card (Ana, row 0, column 6) — did you mean "ex_park", 1 card?'
        in (error["message"])
    )


def test_rule_1_many_long_invented_names_cost_a_bounded_number_of_comparisons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 4 players x 77 cards, every card its own 100-character style and type, each 1-2 edits
    # from the others: comparing every pair took minutes. The work is counted, not timed.
    from neweden.format import vocabulary
    from neweden.rules import names as rules

    calls = 0
    real = vocabulary.distance_within.__wrapped__

    def counted(a: str, b: str, limit: int) -> int | None:
        nonlocal calls
        calls += 1
        return real(a, b, limit)

    monkeypatch.setattr(vocabulary, "distance_within", counted)
    vocabulary.looks_alike.cache_clear()
    rules._names_alike.cache_clear()
    letters = "abcdefghijklmnopqrstuvwxyz"

    def name(kind: str, k: int) -> str:
        return kind * 98 + letters[k // 26 % 26] + letters[k % 26]

    players = []
    for p in range(4):
        city = [
            card(0, c, "rl", style=name("s", 77 * p + c), type=name("t", 77 * p + c))
            for c in range(77)
        ]
        players.append(player(f"P{p}", city))
    report = neweden.score(game("military", *players), detail=False)
    assert {"too_many_styles", "too_many_types"} <= set(codes(report["errors"]))
    assert calls <= 2 * 2 * (10 * 10)  # the rarest names told x the likeliest names
    told = [e for e in report["errors"] if e["code"].startswith("too_many_")]
    assert all(len(json.dumps(e)) < 8 * 1024 for e in told)  # 10 names told, then "and N more"
    assert all("and 298 more" in e["message"] for e in told)


def test_the_schema_and_the_decoder_agree_on_accents() -> None:
    schema = game_schema()
    for name, accepted in [
        ("go\u0301tico", True),  # decomposed, as some systems store text
        ("GO\u0301TICO", True),
        ("gòtico", True),
        ("\uff47\uff4f\uff54\uff49\uff43\uff4f", False),  # fullwidth letters
        ("gotico\u0338", False),  # a slash drawn through: no accent of Portuguese
        ("GOTİCO", False),
    ]:
        doc = game("military", player("Ana", [card(0, 0, "t", style=name)]))
        try:
            decode_game(doc)
            decoded = True
        except neweden.GameDecodeError:
            decoded = False
        try:
            jsonschema.validate(doc, schema)
            valid = True
        except jsonschema.ValidationError:
            valid = False
        assert (decoded, valid) == (accepted, accepted), name


def test_unknown_effect_names_each_known_effect_once() -> None:
    catalog = parse_catalog(b'effects = ["rotate", "ex_swap"]', "fx.toml")
    epiphanies = [{"points": 2, "state": "validated", "effect": "rotat"}]
    doc = game("military", player("Ana", [card(0, 0, "t")], epiphanies=epiphanies))
    (warning,) = neweden.score(doc, catalog=catalog)["players"][0]["warnings"]
    assert "(third_star, rotate, move, ex_swap)" in warning["message"]


def test_the_picture_outlines_the_cards_of_a_blamed_name() -> None:
    # The error is the game's (its cells name no player): the picture outlines the cards of
    # the name it blames, in every city, and no card of another name on the same cell.
    import xml.etree.ElementTree as ET

    doc = game(
        "populist",
        player("Ana", six_in_a_row([*REAL, "gotic"])),
        player("Bia", six_in_a_row([*REAL, "gothic"])),
    )
    svg = ET.fromstring(render(json.dumps(doc)))
    ns = "{http://www.w3.org/2000/svg}"
    outlined = {}
    for block in svg.iter(f"{ns}g"):
        if block.get("class") != "player":
            continue
        for card_group in block.iter(f"{ns}g"):
            if card_group.get("class") != "card":
                continue
            codes = [t.text for t in card_group.iter(f"{ns}text") if t.get("class") == "problem"]
            outlined[(block.get("data-name"), card_group.get("data-index"))] = codes
    assert outlined[("Ana", "5")] == ["misspelled_name"]  # the card's own error first
    assert outlined[("Bia", "5")] == []
    assert sum(1 for codes in outlined.values() if codes) == 1


def test_a_batch_whose_names_are_quiet_together_needs_no_game_checked() -> None:
    """RULES §1's name checks, once for a batch: quiet when its names all together are
    within the limits, none is a near miss of a known name and none looks like another;
    otherwise each game is checked."""
    assert batch_quiet({"style": ["gothic", "modernist"], "type": ["building", "plaza"]})
    assert not batch_quiet({"style": ["gothic", "gothc"], "type": []})  # alike
    assert not batch_quiet({"style": ["gothc"], "type": []})  # a near miss, alone
    assert not batch_quiet({"style": [], "type": ["buildin"]})
    six = ["ex_amber", "ex_cobalt", "ex_crimson", "ex_jade", "ex_onyx", "ex_violet"]
    assert batch_quiet({"style": six[:5], "type": []})
    assert not batch_quiet({"style": six, "type": []})  # a game may show all six
