"""The decoder: the fast path, and the pass that lists every problem with its pointer."""

from __future__ import annotations

import json
import time
import tracemalloc
from collections import OrderedDict
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import msgspec
import pytest

import neweden
from neweden.format.decode import decode_game, find_problems, game_bytes
from neweden.format.model import Game, InlineCard
from neweden.format.problems import DECODE_CODES
from tests.conftest import EXAMPLES


def problems(game: Any) -> list[tuple[str, str]]:
    with pytest.raises(neweden.GameDecodeError) as info:
        decode_game(game)
    found = [(p.code, p.path) for p in info.value.problems]
    assert all(p.code in DECODE_CODES for p in info.value.problems)
    # Every problem says what is wrong in words, beyond its code.
    assert all(len(p.message) > 20 and p.code not in p.message for p in info.value.problems)
    return found


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_example_decodes(path: Any) -> None:
    raw = path.read_bytes()
    if b'"city"' in raw[:20]:
        doc: Any = neweden.decode_city(raw)
        assert doc.city
    else:
        doc = decode_game(raw)
        assert doc.players
    assert find_problems(raw, type(doc)) == []


def test_the_format_example_decodes_field_by_field(format_example: dict[str, Any]) -> None:
    game = decode_game(format_example)
    assert game.mode == "elitist"
    assert game.requirements == ["A1", "B1", "C1"]
    assert game.first_player == "Sarah"
    assert game.meta == {"photo": "table3-round2.jpg", "transcribed_by": "Ana"}
    sarah = game.players[0]
    assert [(c.row, c.col, c.rotated) for c in sarah.city] == [
        (0, 0, False),
        (0, 1, False),
        (1, 1, True),
    ]
    assert sarah.city[0].card == "atomic-waste"
    medical = sarah.city[1].card
    assert isinstance(medical, InlineCard)
    assert (medical.style, medical.facility, medical.points, medical.stars) == (
        "gothic",
        "medical",
        5,
        2,
    )
    assert [e.state for e in sarah.epiphanies] == ["validated", "activated", "activated"]
    assert sarah.bonuses[0].points == 3


def test_bytes_str_mapping_and_byte_order_mark_decode_alike(format_example: dict[str, Any]) -> None:
    text = json.dumps(format_example)
    as_bytes = decode_game(text.encode())
    assert decode_game(text) == as_bytes
    assert decode_game(format_example) == as_bytes
    assert decode_game(b"\xef\xbb\xbf" + text.encode()) == as_bytes
    assert decode_game("\ufeff" + text) == as_bytes


# --- each decode code, with its pointer -----------------------------------------------------


def test_bad_json_is_one_problem_at_the_root() -> None:
    assert problems(b'{"mode": "populist",') == [("bad_json", "")]
    assert problems(b"") == [("bad_json", "")]
    assert problems(b"\xff\xfe{}") == [("bad_json", "")]


def test_bad_type_names_the_value(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][0]["row"] = "0"
    assert problems(format_example) == [("bad_type", "/players/0/city/0/row")]


def test_a_document_that_is_not_an_object_is_bad_type() -> None:
    assert problems(b"[1, 2]") == [("bad_type", "")]


def test_missing_field(format_example: dict[str, Any]) -> None:
    del format_example["players"][0]["name"]
    assert problems(format_example) == [("missing_field", "/players/0/name")]


def test_unknown_field_is_refused_not_ignored(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][1]["card"]["colour"] = "red"
    assert problems(format_example) == [("unknown_field", "/players/0/city/1/card/colour")]


def test_unknown_field_pointer_escapes_slash_and_tilde(format_example: dict[str, Any]) -> None:
    format_example["a/b~c"] = 1
    assert problems(format_example) == [("unknown_field", "/a~1b~0c")]


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("mode",), "democratic", "/mode"),
        (("format",), "new-eden/game@2", "/format"),
        (("players", 0, "city", 1, "card", "stars"), 4, "/players/0/city/1/card/stars"),
        (("players", 0, "city", 1, "card", "points"), -1, "/players/0/city/1/card/points"),
        (("players", 0, "city", 1, "card", "style"), "Goth/ic", "/players/0/city/1/card/style"),
        (("players", 0, "city", 1, "card", "facility"), "farm", "/players/0/city/1/card/facility"),
        (("players", 0, "city", 1, "card", "sides"), [], "/players/0/city/1/card/sides"),
        (("players", 0, "city", 1, "card", "sides"), ["up"], "/players/0/city/1/card/sides/0"),
        (("players", 0, "epiphanies", 0, "points"), 3, "/players/0/epiphanies/0/points"),
        (("players", 0, "epiphanies", 0, "state"), "used", "/players/0/epiphanies/0/state"),
        (("players", 0, "epiphanies", 1, "effect"), "Rotate!", "/players/0/epiphanies/1/effect"),
        (("players", 0, "name"), "", "/players/0/name"),
        (("players", 0, "city", 0, "card"), "atomic waste", "/players/0/city/0/card"),
        (("requirements", 0), "-A1", "/requirements/0"),
        (("players",), [], "/players"),
    ],
)
def test_bad_value(
    format_example: dict[str, Any], where: tuple[str | int, ...], value: Any, path: str
) -> None:
    target: Any = format_example
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert problems(format_example) == [("bad_value", path)]


def test_repeated_side_is_bad_value(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][1]["card"]["sides"] = ["left", "top", "left"]
    assert problems(format_example) == [("bad_value", "/players/0/city/1/card/sides/2")]


def test_five_sides_is_one_bad_value(format_example: dict[str, Any]) -> None:
    sides = ["left", "top", "right", "bottom", "left"]
    format_example["players"][0]["city"][1]["card"]["sides"] = sides
    assert problems(format_example) == [("bad_value", "/players/0/city/1/card/sides")]


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("players", 0, "city", 0, "row"), 1001, "/players/0/city/0/row"),
        (("players", 0, "city", 0, "col"), -(10**18), "/players/0/city/0/col"),
        (("players", 0, "city", 0, "col"), 10**30, "/players/0/city/0/col"),
        (("players", 0, "name"), "S" * 101, "/players/0/name"),
        (("players", 0, "city", 1, "card", "style"), "g" * 101, "/players/0/city/1/card/style"),
        (("first_player",), "x" * 1000, "/first_player"),
        (("players", 0, "bonuses"), [{"name": "b", "points": 1}] * 21, "/players/0/bonuses"),
        (
            ("players", 0, "epiphanies"),
            [{"points": 2, "state": "held"}] * 41,
            "/players/0/epiphanies",
        ),
    ],
)
def test_limits_are_too_large(
    format_example: dict[str, Any], where: tuple[str | int, ...], value: Any, path: str
) -> None:
    target: Any = format_example
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert problems(format_example) == [("too_large", path)]


def test_seventy_eight_cards_are_too_large(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"] = [
        {"row": 0, "col": i, "card": "atomic-waste"} for i in range(78)
    ]
    assert problems(format_example) == [("too_large", "/players/0/city")]
    format_example["players"][0]["city"].pop()
    assert len(decode_game(format_example).players[0].city) == 77


def test_five_players_are_too_large(format_example: dict[str, Any]) -> None:
    player = format_example["players"][0]
    format_example["players"] = [{**player, "name": f"P{i}"} for i in range(5)]
    assert problems(format_example) == [("too_large", "/players")]


def test_meta_over_16_kib_is_too_large(format_example: dict[str, Any]) -> None:
    format_example["meta"] = {f"k{i}": "v" * 90 for i in range(200)}
    assert problems(format_example) == [("too_large", "/meta")]


def test_meta_33_levels_deep_is_too_large_and_32_is_fine(format_example: dict[str, Any]) -> None:
    deep: Any = {}
    for _ in range(31):
        deep = {"x": deep}
    format_example["meta"] = deep  # 32 levels of objects
    assert decode_game(format_example).meta == deep
    format_example["meta"] = {"x": deep}
    assert problems(format_example) == [("too_large", "/meta")]


@pytest.mark.parametrize("as_mapping", [False, True])
def test_meta_nested_1000_deep_is_too_large_not_recursion_error(
    format_example: dict[str, Any], as_mapping: bool
) -> None:
    text = json.dumps(format_example)
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    raw = text.replace('{"photo"', '{"deep": ' + deep + ', "photo"', 1)
    game: Any = raw.encode()
    if as_mapping:
        game = msgspec.json.decode(raw.replace(deep, "{}"))
        inner: Any = {}
        node = inner
        for _ in range(999):
            node["a"] = {}
            node = node["a"]
        game["meta"]["deep"] = inner
    assert problems(game) == [("too_large", "/meta")]


# --- cross-field checks, in both passes -------------------------------------------------------


def test_wild_card_with_style_or_sides_is_unknown_field(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][0]["card"] = {
        "wild": True,
        "style": "gothic",
        "sides": ["top"],
    }
    assert problems(format_example) == [
        ("unknown_field", "/players/0/city/0/card/style"),
        ("unknown_field", "/players/0/city/0/card/sides"),
    ]


def test_wild_false_is_bad_value(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][0]["card"] = {"wild": False}
    assert problems(format_example) == [("bad_value", "/players/0/city/0/card/wild")]


def test_common_card_lists_each_missing_field(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][1]["card"] = {"style": "gothic", "points": 2}
    assert problems(format_example) == [
        ("missing_field", f"/players/0/city/1/card/{f}")
        for f in ("type", "facility", "stars", "sides")
    ]


def test_requirements_are_required_in_populist_and_elitist(
    format_example: dict[str, Any],
) -> None:
    del format_example["requirements"]
    assert problems(format_example) == [("missing_field", "/requirements")]
    format_example["mode"] = "populist"
    assert problems(format_example) == [("missing_field", "/requirements")]
    format_example["mode"] = "military"
    assert decode_game(format_example).mode == "military"


def test_epiphany_by_id_or_inline_not_both(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["epiphanies"][0]["card"] = "E7"
    assert problems(format_example) == [("unknown_field", "/players/0/epiphanies/0/points")]
    format_example["players"][0]["epiphanies"][0] = {"state": "held"}
    assert problems(format_example) == [("missing_field", "/players/0/epiphanies/0/points")]
    format_example["players"][0]["epiphanies"][0] = {"state": "held", "card": "E7"}
    assert decode_game(format_example).players[0].epiphanies[0].card == "E7"


def test_null_is_not_an_absent_field(format_example: dict[str, Any]) -> None:
    format_example["first_player"] = None
    assert problems(format_example) == [("bad_type", "/first_player")]


# --- N independent faults, N problems ----------------------------------------------------------

FAULTS: list[tuple[str, Any]] = [
    ("bad_value", lambda g: g.__setitem__("mode", "anarchist")),
    ("unknown_field", lambda g: g["players"][0].__setitem__("score", 3)),
    ("bad_type", lambda g: g["players"][0]["city"][0].__setitem__("rotated", "yes")),
    ("too_large", lambda g: g["players"][0]["city"][2].__setitem__("col", 5000)),
    ("missing_field", lambda g: g["players"][0]["city"][1]["card"].pop("stars")),
    ("bad_value", lambda g: g["players"][0]["epiphanies"][2].__setitem__("points", 4)),
    ("bad_type", lambda g: g["players"][0]["bonuses"][0].__setitem__("points", 2.5)),
    ("too_large", lambda g: g.__setitem__("first_player", "F" * 101)),
    ("unknown_field", lambda g: g["players"][0]["city"][2].__setitem__("flipped", True)),
    ("bad_value", lambda g: g["requirements"].__setitem__(1, "B 1")),
]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, len(FAULTS)])
def test_n_independent_faults_give_exactly_n_problems(
    format_example: dict[str, Any], n: int
) -> None:
    for _, fault in FAULTS[:n]:
        fault(format_example)
    found = problems(format_example)
    assert len(found) == n, found
    assert sorted(code for code, _ in found) == sorted(code for code, _ in FAULTS[:n])


def test_every_problem_of_a_game_and_its_messages(format_example: dict[str, Any]) -> None:
    for _, fault in FAULTS:
        fault(format_example)
    with pytest.raises(neweden.GameDecodeError) as info:
        decode_game(format_example)
    lines = list(info.value.lines())
    assert '/mode: bad_value: `mode` is "anarchist"; it must be one of ' in lines[0]
    assert any("`col` is 5000; it must be from -1,000 to 1,000" in line for line in lines)
    assert str(info.value).endswith(f"(and {len(FAULTS) - 1} more)")


# --- absurd inputs: refused quickly, nothing allocated in proportion ---------------------------


def _refuse_quickly(game: Any) -> list[tuple[str, str]]:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        found = problems(game)
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    elapsed = time.perf_counter() - started
    # Generous bounds: a correctness check that nothing scales with the input, not a benchmark.
    assert peak < 20 * 1024 * 1024, peak
    assert elapsed < 5.0, elapsed
    return found


def test_a_200_mb_string_is_too_large_at_once() -> None:
    body = b'{"mode": "populist", "players": [], "first_player": "' + b"x" * (200 << 20) + b'"}'
    assert _refuse_quickly(body) == [("too_large", "")]


def test_a_million_cards_are_too_large() -> None:
    card = b'{"row":0,"col":0,"card":"atomic-waste"},'
    body = b'{"mode":"military","players":[{"name":"A","city":[' + card * 10**6 + b"]}]}"
    assert _refuse_quickly(body) == [("too_large", "")]


def test_deep_nesting_anywhere_is_a_problem_not_a_crash() -> None:
    body = b'{"mode":"military","players":[{"name":"A","city":' + b"[" * 100_000
    body += b"]" * 100_000 + b"}]}"
    assert _refuse_quickly(body) == [("bad_type", "/players/0/city/0")]
    assert _refuse_quickly(b"[" * 500_000 + b"]" * 500_000) == [("bad_type", "")]


def test_coordinates_of_ten_to_the_eighteen_are_too_large(format_example: dict[str, Any]) -> None:
    format_example["players"][0]["city"][0]["row"] = 10**18
    format_example["players"][0]["city"][1]["col"] = -(10**18)
    assert _refuse_quickly(format_example) == [
        ("too_large", "/players/0/city/0/row"),
        ("too_large", "/players/0/city/1/col"),
    ]


def test_a_number_no_machine_holds_is_bad_value(format_example: dict[str, Any]) -> None:
    raw = json.dumps(format_example).replace('"points": 3,', '"points": 1e999,', 1)
    assert problems(raw.encode()) == [("bad_value", "/players/0/city/2/card/points")]


def test_a_mapping_with_a_non_json_value_is_bad_type(format_example: dict[str, Any]) -> None:
    format_example["meta"]["when"] = object()
    assert problems(format_example) == [("bad_type", "/meta/when")]


def test_a_huge_bytearray_or_memoryview_is_refused_before_it_is_copied() -> None:
    big = bytearray(b" " * (2 << 20))
    assert _refuse_quickly(big) == [("too_large", "")]
    assert _refuse_quickly(memoryview(big)) == [("too_large", "")]


def test_a_deep_mapping_with_a_non_json_value_is_bad_type() -> None:
    deep: Any = {}
    for _ in range(2000):
        deep = {"a": deep}
    meta = {"deep": deep, "when": object()}  # too deep first, then not JSON
    assert problems({"mode": "military", "players": [], "meta": meta}) == [
        ("bad_type", "/meta/when")
    ]


def test_game_bytes_refuses_a_huge_str_without_encoding_it() -> None:
    with pytest.raises(neweden.GameDecodeError) as info:
        game_bytes("x" * (2 << 20))
    assert [p.code for p in info.value.problems] == ["too_large"]


def test_decode_city_accepts_a_lone_city() -> None:
    raw = (EXAMPLES / "lone-city.json").read_bytes()
    city = neweden.decode_city(raw)
    assert len(city.city) == 8
    with pytest.raises(neweden.GameDecodeError) as info:
        neweden.decode_city(b'{"city": [{"row": 0}]}')
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("missing_field", "/city/0/col"),
        ("missing_field", "/city/0/card"),
    ]


def test_game_is_the_decoded_type() -> None:
    assert isinstance(decode_game((EXAMPLES / "format-example.json").read_bytes()), Game)


def test_the_fast_path_checks_every_field_that_carries_a_pattern() -> None:
    from msgspec import inspect as mi

    from neweden.format.checks import PATTERN_FIELDS

    found: set[tuple[type, str]] = set()

    def carries_pattern(t: mi.Type) -> bool:
        if isinstance(t, mi.Metadata):
            return "pattern" in (t.extra or {}) or carries_pattern(t.type)
        if isinstance(t, mi.ListType):
            return carries_pattern(t.item_type)
        if isinstance(t, mi.UnionType):
            return any(carries_pattern(m) for m in t.types)
        return False

    def visit(t: mi.Type, seen: set[type]) -> None:
        if isinstance(t, mi.Metadata):
            visit(t.type, seen)
        elif isinstance(t, (mi.ListType, mi.DictType)):
            visit(t.item_type if isinstance(t, mi.ListType) else t.value_type, seen)
        elif isinstance(t, mi.UnionType):
            for m in t.types:
                visit(m, seen)
        elif isinstance(t, mi.StructType) and t.cls not in seen:
            seen.add(t.cls)
            for field in t.fields:
                if carries_pattern(field.type):
                    found.add((t.cls, field.name))
                visit(field.type, seen)

    visit(mi.type_info(Game), set())
    assert found == PATTERN_FIELDS


def test_every_value_of_a_key_given_twice_is_checked() -> None:
    # Found by fuzzing: msgspec checks each value of a repeated key; the walk must too.
    raw = (
        b'{"mode": "military", "players": [{"name": "A", "city": '
        b'[{"row": 0, "col": 0, "card": 2, "card": "atomic-waste"}]}]}'
    )
    assert problems(raw) == [("bad_type", "/players/0/city/0/card")]
    # Both values valid: the last one is the card, as documented.
    ok = raw.replace(b'"card": 2', b'"card": "new-eden"')
    assert decode_game(ok).players[0].city[0].card == "atomic-waste"


# --- hardening, round two ----------------------------------------------------------------


def _worst_case_for_the_string_scan(n: int) -> bytes:
    """Deep nesting (so the every-problem pass cuts containers) and then an unclosed string
    of `n` escaped quotes: the shape that made the scan quadratic."""
    return b"[" * 2000 + b'"' + b'\\"' * n


def test_the_string_scan_never_starts_again_inside_a_string() -> None:
    # The scan is linear when every attempt that starts at a quote runs to the end of its
    # string (or of the text): then no byte is read twice. The old pattern failed on an
    # unclosed string and started again at each of its 40,000 inner quotes (1 MiB: an hour).
    from neweden.format.untyped import _STRING

    raw = _worst_case_for_the_string_scan(40_000)
    spans = [m.span() for m in _STRING.finditer(raw)]
    assert spans == [(2000, len(raw))]
    # Closed strings and escapes: each string is one match, from its quote to its quote.
    text = b'["a\\"b", "c\\\\", "d"] "open \\" [ {'
    assert [text[a:b] for a, b in (m.span() for m in _STRING.finditer(text))] == [
        b'"a\\"b"',
        b'"c\\\\"',
        b'"d"',
        b'"open \\" [ {',
    ]


def test_the_worst_case_of_the_string_scan_is_one_bad_json() -> None:
    raw = _worst_case_for_the_string_scan(40_000)
    assert problems(raw) == [("bad_json", "")]
    assert find_problems(raw) == find_problems(raw, repeated_keys=True)


@pytest.mark.parametrize(
    "raw",
    [
        b"[1e999,",
        b'{"mode": 1e999, "players": [',
        b"[" * 3000 + b"1e999,",
        b'[1e999, "\xe2\x28"]',
    ],
    ids=["array", "object", "deep", "utf-8"],
)
def test_an_out_of_range_number_in_broken_json_is_bad_json(raw: bytes) -> None:
    # msgspec stops at the number before it sees the text is broken: once a JSONDecodeError
    # (a UnicodeDecodeError for a string that is not UTF-8: found by fuzzing).
    assert problems(raw) == [("bad_json", "")]


def test_an_integer_of_more_than_4300_digits_is_bad_value_where_it_stands(
    format_example: dict[str, Any],
) -> None:
    # Once a ValueError from int() (HTTP 500, `validate` stopped).
    raw = json.dumps(format_example).replace('"points": 3,', '"points": ' + "7" * 5000 + ",", 1)
    raw = raw.replace('"row": 0', '"row": -' + "1" * 4301, 1)
    found = problems(raw.encode())
    assert found == [
        ("bad_value", "/players/0/city/0/row"),
        ("bad_value", "/players/0/city/2/card/points"),
    ]
    with pytest.raises(neweden.GameDecodeError) as info:
        decode_game(raw)
    assert "an integer of more than 4,300 digits" in info.value.problems[0].message


@pytest.mark.parametrize("number", ["1e999", "-1e999", "9" * 4400])
def test_a_number_out_of_range_in_meta_is_bad_value_at_its_pointer(
    format_example: dict[str, Any], number: str
) -> None:
    # Once a TypeError: the `meta` size check encoded the stand-in of the number.
    raw = json.dumps(format_example).replace('"meta": {', '"meta": {"x": ' + number + ", ", 1)
    assert problems(raw.encode()) == [("bad_value", "/meta/x")]


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (float("nan"), "bad_value"),
        (float("-inf"), "bad_value"),
        (Decimal("1.5"), "bad_type"),
        ({1, 2}, "bad_type"),
        (b"bytes", "bad_type"),
    ],
    ids=["nan", "inf", "decimal", "set", "bytes"],
)
def test_a_mapping_value_json_cannot_carry_is_a_problem_not_coerced(
    format_example: dict[str, Any], value: Any, code: str
) -> None:
    # Once coerced silently: NaN to null, a Decimal to a string, a set to an array, bytes
    # to base64, and the game scored.
    format_example["meta"]["x"] = value
    format_example["players"][0]["city"][0]["row"] = value
    assert problems(format_example) == [(code, "/meta/x"), (code, "/players/0/city/0/row")]


def test_a_mapping_key_that_is_not_a_string_is_bad_type(format_example: dict[str, Any]) -> None:
    format_example["meta"][3] = "three"
    assert problems(format_example) == [("bad_type", "/meta")]


def test_any_mapping_is_a_game_not_only_a_dict(format_example: dict[str, Any]) -> None:
    # Once refused (bad_type at the root) although the API takes "a mapping".
    expected = neweden.score(format_example)
    proxy = MappingProxyType({**format_example, "meta": MappingProxyType(format_example["meta"])})
    assert neweden.score(proxy) == expected
    assert neweden.score(OrderedDict(format_example)) == expected
    players = tuple(format_example["players"])  # a tuple is an array
    assert neweden.score({**format_example, "players": players}) == expected


def test_a_decode_error_and_a_placement_error_pickle_as_they_were_said() -> None:
    """A worker process or a Dask worker sends its errors back pickled: the problems and
    the message come back as they were made (in the language they were said in), whatever
    the receiver speaks."""
    import pickle

    import neweden
    from neweden.i18n import speaking

    with speaking("pt-BR"), pytest.raises(neweden.GameDecodeError) as decoding:
        neweden.decode_game({"mode": "x", "players": []})
    from importlib.resources import files

    example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    with pytest.raises(neweden.PlacementError) as placing:
        neweden.placements(example, player="Nobody", card="atomic-waste")
    for error in (decoding.value, placing.value):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error)
        assert (str(back), back.args, back.problems) == (str(error), error.args, error.problems)
    assert "Nobody" in str(placing.value)
