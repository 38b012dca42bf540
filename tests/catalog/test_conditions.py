"""The condition language: every operator on a hand-computed city, and its checks.

The city (rows grow downward; letters are styles g=gothic f=futurist, types P=plaza
G=green_area; every card has all four icons unless said):

    row 0:  (0,0) g P shelter s0   (0,1) g G shelter s1   (0,2) f G medical s2   (0,3) wild
    row 1:  (1,0) f P tower   s3                          (1,2) f P lab s2
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog, ResolvedCard
from neweden.catalog.conditions import check_condition
from neweden.catalog.files import CatalogError, load_catalog
from neweden.cli.main import main
from neweden.format.sides import ALL_SIDES
from neweden.geometry import reference
from neweden.rules.conditions import CityContext, evaluate, judge

SIDES4 = ALL_SIDES


def common(
    i: int,
    row: int,
    col: int,
    style: str,
    type_: str,
    facility: str,
    stars: int,
    sides: frozenset[str] = SIDES4,
) -> ResolvedCard:
    return ResolvedCard(
        i, row, col, False, CardSpec(False, style, type_, facility, 1, stars, sides)
    )


CARDS = [
    common(0, 0, 0, "gothic", "plaza", "shelter", 0),
    common(1, 0, 1, "gothic", "green_area", "shelter", 1),
    common(2, 0, 2, "futurist", "green_area", "medical", 2),
    ResolvedCard(3, 0, 3, False, CardSpec(True, None, None, None, 0, 0, SIDES4)),
    common(4, 1, 0, "futurist", "plaza", "tower", 3),
    common(5, 1, 2, "futurist", "plaza", "lab", 2),
]


def ctx(catalog: Catalog = BUILTIN, cards: list[ResolvedCard] = CARDS) -> CityContext:
    return CityContext(cards, reference.score_figures(cards), catalog)


def value(expr: dict[str, Any], catalog: Catalog = BUILTIN) -> int:
    """The value of a value expression, read through an == comparison."""
    c = ctx(catalog)
    found = [n for n in range(0, 40) if evaluate({"==": [expr, n]}, c)]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("filter_", "expected"),
    [
        ({}, 6),
        ({"style": "gothic"}, 2),
        ({"style": ["gothic", "futurist"]}, 5),
        ({"type": "plaza"}, 3),
        ({"facility": "shelter"}, 2),
        ({"facility": ["lab", "tower"]}, 2),
        ({"stars": 2}, 2),
        ({"stars": [0, 3]}, 3),  # the wild card has 0 stars
        ({"wild": True}, 1),
        ({"wild": False, "type": "green_area", "stars": 1}, 1),
    ],
)
def test_count_with_each_filter_key(filter_: dict[str, Any], expected: int) -> None:
    assert value({"count": filter_}) == expected


def test_distinct_styles_types_facilities_wild_counts_for_none() -> None:
    assert value({"distinct": "style"}) == 2
    assert value({"distinct": "type"}) == 2
    assert value({"distinct": "facility"}) == 4


def test_all_styles_is_five_or_the_declared_count() -> None:
    assert value({"all_styles": {}}) == 5
    closed = Catalog(
        "x", BUILTIN.cards, BUILTIN.requirements, styles=frozenset({"gothic", "futurist"})
    )
    assert value({"all_styles": {}}, closed) == 2


def test_distinct_with_a_closed_vocabulary_counts_declared_values_only() -> None:
    closed = Catalog("x", BUILTIN.cards, BUILTIN.requirements, styles=frozenset({"gothic"}))
    assert value({"distinct": "style"}, closed) == 1


def test_row_and_column_cards_any_a_given_one_and_filtered() -> None:
    assert value({"row_cards": {}}) == 4
    assert value({"row_cards": {"line": 1}}) == 2
    assert value({"row_cards": {"line": 7}}) == 0
    assert value({"row_cards": {"where": {"type": "plaza"}}}) == 2  # row 1
    assert value({"column_cards": {}}) == 2
    assert value({"column_cards": {"line": 3}}) == 1
    assert value({"column_cards": {"where": {"style": "futurist"}}}) == 2  # column 2


def test_open_and_complete_connections_come_from_the_core_figures() -> None:
    # All-icon cards: joins where cards meet and are compatible (wild joins anything).
    # Adjacent pairs: (0,0)-(0,1) gothic, (0,1)-(0,2) green_area, (0,2)-(0,3) wild,
    # (0,0)-(1,0) plaza, (0,2)-(1,2) futurist -> 5 complete connections.
    assert value({"complete_connections": {}}) == 5
    # 6 cards x 4 icons = 24 icons, 10 are halves of complete connections.
    assert value({"open_connections": {}}) == 14


def test_largest_group_by_attribute_and_value() -> None:
    assert value({"largest_group": {"by": "style"}}) == 2  # gothic pair; futurist (0,2)-(1,2)
    assert value({"largest_group": {"by": "type", "value": "plaza"}}) == 2  # (0,0),(1,0)
    assert value({"largest_group": {"by": "facility", "value": "shelter"}}) == 2
    assert value({"largest_group": {"by": "facility", "value": "lab"}}) == 1


def test_adjacent_counts_distinct_pairs_between_kinds() -> None:
    assert value({"adjacent": [{"facility": "shelter"}, {"facility": "shelter"}]}) == 1
    assert value({"adjacent": [{"facility": "medical"}, {}]}) == 3  # (0,1), (0,3), (1,2)
    assert value({"adjacent": [{"wild": True}, {"style": "gothic"}]}) == 0


@pytest.mark.parametrize(
    ("op", "truth"),
    [
        (">=", [True, True, False]),
        (">", [False, True, False]),
        ("<=", [True, False, True]),
        ("<", [False, False, True]),
        ("==", [True, False, False]),
        ("!=", [False, True, True]),
    ],
)
def test_comparisons(op: str, truth: list[bool]) -> None:
    # count = 6 against 6, 5 and 7
    assert [evaluate({op: [{"count": {}}, n]}, ctx()) for n in (6, 5, 7)] == truth


def test_and_or_not_and_literals() -> None:
    yes = {">=": [{"count": {}}, 1]}
    no = {">=": [{"count": {}}, 99]}
    c = ctx()
    assert evaluate({"and": [yes, yes]}, c) is True
    assert evaluate({"and": [yes, no]}, c) is False
    assert evaluate({"or": [no, yes]}, c) is True
    assert evaluate({"or": [no, no]}, c) is False
    assert evaluate({"not": no}, c) is True
    assert evaluate(True, c) is True
    assert evaluate({"not": True}, c) is False


def test_judge_fills_in_the_values() -> None:
    assert judge({">": [{"row_cards": {}}, 5]}, ctx()) == (
        False,
        "4 cards in the fullest row; more than 5 needed",
    )
    assert judge({"<=": [{"count": {"style": "gothic", "stars": [0, 1]}}, 1]}, ctx()) == (
        False,
        "2 gothic, 0 or 1-star cards; at most 1 allowed",
    )


@pytest.mark.parametrize(
    ("condition", "problems"),
    [
        ({"maybe": []}, [("bad_value", "/c/maybe")]),
        ({">=": [1]}, [("bad_type", "/c/>=")]),
        ({">=": [{"count": {"colour": "red"}}, 1]}, [("unknown_field", "/c/>=/0/count/colour")]),
        ({">=": [{"count": {"stars": 4}}, 1]}, [("bad_value", "/c/>=/0/count/stars")]),
        ({">=": [{"count": {"facility": "farm"}}, 1]}, [("bad_value", "/c/>=/0/count/facility")]),
        ({">=": [{"distinct": "colour"}, 1]}, [("bad_value", "/c/>=/0/distinct")]),
        ({">=": [{"sum": {}}, 1]}, [("bad_value", "/c/>=/0/sum")]),
        ({">=": ["5", 1]}, [("bad_type", "/c/>=/0")]),
        ({"and": []}, [("bad_type", "/c/and")]),
        (
            {"and": [{"x": 1}, {"<": [1, {"open_connections": 3}]}]},
            [("bad_value", "/c/and/0/x"), ("bad_value", "/c/and/1/</1/open_connections")],
        ),
        (
            {"==": [{"row_cards": {"line": "1", "at": 2}}, 1]},
            [("bad_type", "/c/==/0/row_cards/line"), ("unknown_field", "/c/==/0/row_cards/at")],
        ),
        ({">": [{"largest_group": {"by": "size"}}, 1]}, [("bad_value", "/c/>/0/largest_group/by")]),
        ({">": [{"adjacent": [{}]}, 1]}, [("bad_type", "/c/>/0/adjacent")]),
        ("always", [("bad_type", "/c")]),
        ({"a": 1, "b": 2}, [("bad_value", "/c")]),
    ],
)
def test_check_condition_lists_every_problem_with_its_pointer(
    condition: Any, problems: list[tuple[str, str]]
) -> None:
    assert [(p.code, p.path) for p in check_condition(condition, "/c")] == problems


def test_every_condition_in_the_builtin_catalog_checks_clean() -> None:
    for spec in BUILTIN.requirements.values():
        assert check_condition(spec.condition, "/") == []


def test_deep_nesting_is_too_large() -> None:
    condition: Any = True
    for _ in range(40):
        condition = {"not": condition}
    assert [p.code for p in check_condition(condition, "")] == ["too_large"]


def adjacent_terms(k: int) -> Any:
    """An `and` of k `adjacent` comparisons: 2 + 7k JSON values."""
    return {"and": [{">=": [{"adjacent": [{}, {}]}, 1]}] * k}


def test_a_condition_of_more_than_256_values_is_too_large() -> None:
    assert check_condition(adjacent_terms(36), "/c") == []  # 254 values
    problems = check_condition(adjacent_terms(37), "/c")  # 261
    assert [(p.code, p.path) for p in problems] == [("too_large", "/c")]
    assert "256" in problems[0].message
    wide = {">=": [{"count": {"style": [f"s{i}" for i in range(300)]}}, 1]}
    assert [(p.code, p.path) for p in check_condition(wide, "/c")] == [("too_large", "/c")]


def test_the_issue_a_60000_term_condition_fails_catalog_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's 2.2 MB catalog: an `and` of 60,000 `adjacent` terms was accepted, and
    one game then took 50 s. `neweden catalog check` refuses it at the condition."""
    entry = {"points": 2, "example": True, "condition": adjacent_terms(60_000)}
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"epiphanies": {"EX-e": entry}}))
    assert path.stat().st_size > 2_000_000
    assert main(["catalog", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "/epiphanies/EX-e/condition: too_large" in err
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("too_large", "/epiphanies/EX-e/condition")
    ]


def test_a_requirement_condition_is_bounded_too(tmp_path: Path) -> None:
    entry = {"deck": "A", "example": True, "condition": adjacent_terms(40)}
    path = tmp_path / "req.json"
    path.write_text(json.dumps({"requirements": {"EX-r": entry}}))
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("too_large", "/requirements/EX-r/condition")
    ]
