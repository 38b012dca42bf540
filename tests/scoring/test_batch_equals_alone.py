"""A batch gives each game the bytes it gets alone: a batch whose games each score alone
with batch-wide name checks, a lone city and its game, catalog conditions out of range, games
whose head msgspec refuses in the middle (a batch's reports against each game alone, in both
languages), a .jsonl block read at once against line by line, and the %-form of the rotated
warning against str.format."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

import neweden
from neweden.catalog.catalog import BUILTIN, CardSpec, EpiphanySpec
from neweden.catalog.files import CatalogError, load_catalog
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import _, speaking
from neweden.runners import sources
from neweden.scoring import chunk
from neweden.scoring.report import score_inputs

PAD = {"pad": "x" * 520}  # read lean (report.LEAN_FROM_BYTES)


def _encoded(found: list[Any]) -> list[bytes]:
    return [
        msgspec.json.encode(r) if not isinstance(r, Exception) else repr(r).encode() for r in found
    ]


def _inline(style: str, kind: str = "ex_harbor", facility: str = "lab") -> dict[str, Any]:
    return {
        "style": style,
        "type": kind,
        "facility": facility,
        "points": 1,
        "stars": 0,
        "sides": ["left", "right"],
    }


# --- differences found ------------------------------------------------------------------------

#: A catalog built in Python (as the tests build theirs) whose card EX-NS is not wild and has
#: no style: the catalog type allows it (CardSpec.style is `str | None`).
NO_STYLE = dataclasses.replace(
    BUILTIN,
    cards={
        **BUILTIN.cards,
        "EX-NS": CardSpec(
            False, None, "ex_harbor", "lab", 1, 0, frozenset(["left", "right"]), None, "EX-NS", 99
        ),
    },
)


def test_batch_quiet_does_not_crash_a_batch_whose_games_each_score_alone() -> None:
    """A game showing only EX-NS (style None) and another showing only "ex_amber" are scored
    together as each alone: rules/names.py's batch_quiet, which looks at the names of the
    whole batch at once, leaves a batch with a name that is not a string to the per-game
    checks (it once sorted them together: TypeError, no game of the batch scored)."""
    g1 = {
        "mode": "military",
        "players": [{"name": "A", "city": [{"row": 0, "col": 0, "card": "EX-NS"}]}],
    }
    g2 = {
        "mode": "military",
        "players": [{"name": "B", "city": [{"row": 0, "col": 0, "card": _inline("ex_amber")}]}],
    }
    alone = [_encoded(score_inputs([g], catalog=NO_STYLE))[0] for g in (g1, g2)]
    assert _encoded(score_inputs([g1, g2], catalog=NO_STYLE)) == alone


def test_a_card_without_a_style_beside_named_ones_does_not_stop_the_name_checks() -> None:
    """EX-NS (style None) in the same city as named styles, some alike, some too many: the
    name checks sort, compare and suggest names, and a missing name is none of theirs (they
    once raised TypeError on 159 of 400 such games). Each game scores alone, lean and
    detailed, and the batch gives each the bytes it gets alone; the alike names are still
    told."""
    rnd = random.Random(5)
    pool = [
        "EX-NS",
        "ex_amber",
        "ex_ambar",
        "ex_amberr",
        "crimson",
        *[f"ex_{c}" for c in "bcdefghi"],
    ]
    games = []
    for _game in range(120):
        n = rnd.randint(2, 14)
        city = []
        for col in range(n):
            style = rnd.choice(pool)
            kind = rnd.choice(["ex_harbor", "ex_harbour", "ex_x"])
            card = "EX-NS" if style == "EX-NS" else _inline(style, kind)
            city.append({"row": 0, "col": col, "card": card})
        city[rnd.randrange(n)]["card"] = "EX-NS"
        players = [{"name": "A", "city": city}, {"name": "B", "city": city[: max(1, n // 2)]}]
        games.append({"mode": "military", "players": players})
    alone = [_encoded(score_inputs([g], catalog=NO_STYLE))[0] for g in games]
    assert _encoded(score_inputs(games, catalog=NO_STYLE)) == alone
    assert not any(b"Error" in one for one in alone)  # (an exception is encoded as its repr)
    for game in games[:20]:
        assert neweden.score(game, catalog=NO_STYLE, detail=True)["players"]
    told = {w["code"] for one in alone for w in msgspec.json.decode(one)["warnings"]}
    assert "similar_names" in told


def test_style_count_over_box_of_a_named_style_and_a_missing_one_together() -> None:
    """15 EX-NS (style None) and 15 "ex_amber" cards: `style_count_over_box` of each, the
    named style first, in a game and in a lone city (sorting them together once raised
    TypeError)."""
    city = [{"row": 0, "col": c, "card": "EX-NS"} for c in range(15)]
    city += [{"row": 1, "col": c, "card": _inline("ex_amber")} for c in range(15)]
    game = neweden.score(
        {"mode": "military", "players": [{"name": "A", "city": city}]}, catalog=NO_STYLE
    )
    lone = neweden.validate({"city": city}, catalog=NO_STYLE)["players"][0]["warnings"]
    for told in (game["warnings"], lone):
        over = [w["message"] for w in told if w["code"] == "style_count_over_box"]
        assert len(over) == 2
        assert '"ex_amber"' in over[0]
        assert '"None"' in over[1]


def test_lone_city_warns_style_count_over_box_as_its_game_does() -> None:
    """15 EX-NS cards (style None) warn `style_count_over_box` as a lone city ('the city
    shows 15 common cards of the style "None"...') as they do as a game ('the game shows
    ...'): the two are told by one function (a version that counted only styles that are
    not None lost the lone city's warning)."""
    city = [{"row": 0, "col": c, "card": "EX-NS"} for c in range(15)]
    lone = neweden.validate({"city": city}, catalog=NO_STYLE)["players"][0]["warnings"]
    game = neweden.validate(
        {"mode": "military", "players": [{"name": "A", "city": city}]}, catalog=NO_STYLE
    )["warnings"]
    assert [w["code"] for w in game] == ["style_count_over_box"]
    assert [w["code"] for w in lone] == ["style_count_over_box"]


def test_catalog_condition_out_of_range_number_problems_unchanged(tmp_path: Path) -> None:
    """A catalog's `condition` holding a number Python does not hold is told as before: one
    bad_type at its place (the walk that looks for such numbers nested in `meta`, a
    dict[str, Any], does not walk a condition, typed Any; a version that walked every Any
    value told a second problem there)."""
    path = tmp_path / "catalog.json"
    path.write_text(
        '{"requirements": {"EX-Q": {"deck": "A", "example": true,'
        ' "condition": {">=": [{"count": {}}, 1e999]}}}}'
    )
    with pytest.raises(CatalogError) as caught:
        load_catalog(str(path))
    found = [(p.code, p.path) for p in caught.value.problems]
    assert found == [("bad_type", "/requirements/EX-Q/condition/>=/1")]


# --- checks that pass: the new path keeps the old bytes ------------------------------------

EXAMPLES = dataclasses.replace(
    BUILTIN,
    epiphanies={
        "EX-E2": EpiphanySpec("EX-E2", 2, "third_star"),
        "EX-E5": EpiphanySpec("EX-E5", 5, "third_star"),
        "EX-R": EpiphanySpec("EX-R", 2, "rotate"),
        "EX-R5": EpiphanySpec("EX-R5", 5, "rotate"),
        "EX-ODD": EpiphanySpec("EX-ODD", 2, "ex_sparkle"),
    },
    majority_table={2: (4, 4), 4: (10, 6, 3, 0)},
)
DECLARED = dataclasses.replace(EXAMPLES, effects=frozenset(["ex_sparkle", "thrid_star"]))


def _epiphany(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.3:
        card = rng.choice(["EX-E2", "EX-E5", "EX-R", "EX-R5", "EX-ODD", "EX-NOPE"])
        return {"card": card, "state": rng.choice(["held", "validated", "activated"])}
    entry: dict[str, Any] = {
        "points": rng.choice([2, 5]),
        "state": rng.choice(["held", "validated", "activated"]),
    }
    effect = rng.choice(["third_star", "rotate", None, "move", "thrid_star", "ex_sparkle"])
    if effect:
        entry["effect"] = effect
    return entry


def _game(rng: random.Random, styles: list[str]) -> dict[str, Any]:
    n = rng.randint(1, 4)
    players = []
    for i in range(n):
        if rng.random() < 0.5:
            city = city_json(grow_city(rng, rng.choice([0, 4, 11, 16]), styles=3, types=3))
        else:
            m = rng.choice([0, 2, 10, 16])
            city = [
                {
                    "row": 0,
                    "col": c,
                    "card": _inline(rng.choice(styles)),
                    "rotated": rng.random() < 0.2,
                }
                for c in range(m)
            ]
        if city and rng.random() < 0.1:
            city.append({**city[0], "card": city[-1]["card"]})  # on a taken cell
        elif len(city) > 1 and rng.random() < 0.1:
            city[-1] = {**city[-1], "row": city[-1]["row"] + 30}  # far from the rest
        player: dict[str, Any] = {"name": rng.choice([f"P{i}", "Same"]), "city": city}
        if rng.random() < 0.7:
            player["epiphanies"] = [_epiphany(rng) for _ in range(rng.randint(0, 4))]
        players.append(player)
    mode = rng.choice(["populist", "military", "elitist"])
    doc: dict[str, Any] = {"mode": mode, "players": players, "meta": PAD}
    if mode != "military" or rng.random() < 0.5:
        doc["requirements"] = rng.choice([[], ["A1"], ["A1", "B1", "C1"], ["C1", "EX-NOPE"]])
    if rng.random() < 0.6:
        doc["first_player"] = rng.choice([players[0]["name"], "nobody"])
    return doc


def _refused_head(doc: dict[str, Any], k: int) -> bytes:
    """A document whose cities the strict reader packs (a typo'd style, a rotated card: new
    names and rows) but whose rest msgspec refuses: packed, then dropped."""
    doc = {
        **doc,
        "players": [
            {
                **doc["players"][0],
                "city": [
                    {"row": 0, "col": 0, "card": _inline("ex_ambr", "ex_harbr"), "rotated": True}
                ],
            },
            *doc["players"][1:],
        ],
    }
    if k % 3 == 0:
        doc["mode"] = "populista"
    elif k % 3 == 1:
        doc["surprise"] = 1
    else:
        doc["first_player"] = ""
    return msgspec.json.encode(doc)


@pytest.mark.parametrize(
    ("seed", "styles", "catalog"),
    [
        (1, ["ex_amber", "ex_cobalt"], EXAMPLES),  # the batch's names quiet
        (2, ["ex_amber", "ex_ambr", "gotico", "gothic"], EXAMPLES),  # alike, an alias
        (3, ["ex_amber", "ex_jade", "ex_onyx", "ex_ivory", "ex_cobalt", "ex_crimson"], DECLARED),
    ],
)
def test_batch_with_refused_heads_is_each_game_alone(
    seed: int, styles: list[str], catalog: Any, sizes: list[int]
) -> None:
    """A lean batch (a chunk) with games msgspec refuses after the strict reader packed them
    (their typo'd names and rotated rows dropped), in both languages: each report is the
    game's alone."""
    rng = random.Random(seed)
    docs: list[Any] = [msgspec.json.encode(_game(rng, styles)) for _ in range(40)]
    for k in range(3):
        docs.insert(7 + 11 * k, _refused_head(_game(rng, styles), k))
    for lang in ("en", "pt-BR"):
        with speaking(lang):
            sizes.clear()
            together = _encoded(score_inputs(docs, catalog=catalog))
            assert sizes
            assert min(sizes) >= chunk.CHUNK_FROM
            alone = [_encoded(score_inputs([d], catalog=catalog))[0] for d in docs]
            assert together == alone
            assert sum(b"GameDecodeError" in r for r in together) == 3


def test_rotated_form_is_str_format_in_each_language() -> None:
    from neweden.i18n import form

    sentence = (
        "card {card} at row {row}, column {col} is rotated, but the player lists no "
        "activated epiphany with the rotate effect (the game turns cards only through one)"
    )
    for lang in ("en", "pt-BR"):
        with speaking(lang):
            filler = form(sentence, ("card", "row", "col"))
            assert filler is not None
            for values in [(0, -3, 7), (76, 100, -100)]:
                assert filler.fill(values) == _(
                    sentence, card=values[0], row=values[1], col=values[2]
                )


def test_plain_block_is_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """read_block (a block read at once) against _lines over the whole file, on CRLF, blank
    and whitespace lines (\\x0b, \\x0c, \\x1c), lines around the (patched) limit, a BOM, no
    final newline, every block size from 1 byte."""
    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 40)
    rng = random.Random(29)
    path = tmp_path / "g.jsonl"
    for _t in range(60):
        parts = [b"\xef\xbb\xbf{}\n"] if rng.random() < 0.2 else []  # (a BOM'd first line
        # near the limit is split by _lines itself, at 10ccb71 too: kept short here)
        for _k in range(rng.randint(0, 12)):
            n = rng.choice([0, 1, 5, 38, 39, 40, 41, 80])
            body = bytes(rng.choice(b"ab{} \t\r\x0b\x0c\x1c") for _i in range(n))
            parts.append(body + rng.choice([b"\n", b"\r\n", b"\r\r\n", b"\n\n"]))
        data = b"".join(parts)
        if rng.random() < 0.3:
            data = data.rstrip(b"\n")
        path.write_bytes(data)
        with path.open("rb") as handle:
            wanted = list(sources._lines(handle, "g"))
        for blocksize in (1, 3, 7, 40, 41, 64, 1000):
            found = []
            line = 1
            for start in range(0, len(data), blocksize):
                end = min(start + blocksize, len(data))
                with path.open("rb") as handle:
                    found += sources.read_block(handle, "g", start, end, line)
                line += data[start:end].count(b"\n")
            assert found == wanted, (data, blocksize)
