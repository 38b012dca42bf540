"""A card given by catalog id is read lean: the native reader packs it from the catalog the
game is scored with, exactly as the exact decoder and the Python packer do, and keeps its id
(copy limits); an id the catalog does not hold is packed unresolved, as the Python packer
packs it (the core leaves it out; the game's rules tell it). Every
report equals the exact path's, in both languages, alone and in a batch."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

import neweden
from neweden.catalog.catalog import BUILTIN, CardSpec, Catalog, resolve_city
from neweden.format.decode import decode_game
from neweden.format.model import SIDES
from neweden.format.problems import document_order
from neweden.geometry.compact import pack_games, reader_cards
from neweden.geometry.native import JsonGames
from neweden.geometry.synth import city_json, grow_city
from neweden.i18n import speaking
from neweden.rules.legality import copy_limit_problems
from neweden.scoring import game_score
from neweden.scoring.problems import problem_item
from neweden.scoring.report import score_inputs, score_reports
from tests.lean import padded, same, taken_lean

#: An invented catalog: the built-in wild cards and two common cards (ids EX-).
CATALOG = Catalog(
    name="EX-catalog",
    cards={
        **BUILTIN.cards,
        "EX-LAB": CardSpec(
            False,
            "ex_gothic",
            "ex_plaza",
            "lab",
            3,
            1,
            frozenset({"right", "top"}),
            "EX Lab",
            "EX-LAB",
            copies=2,
        ),
        "EX-BASE": CardSpec(
            False,
            "ex_cobalt",
            "ex_park",
            "base",
            2,
            0,
            frozenset(SIDES),
            "EX Base",
            "EX-BASE",
        ),
    },
    requirements=BUILTIN.requirements,
)


#: The problems of a game with cards by id that read the cards: copies over the limit, a
#: misspelled name (its path names a card by id or not), cards on a taken cell.
_CODES = ("copy_limit", "misspelled_name", "overlap")


def _game(rng: random.Random, ids: list[str], players: int = 3) -> dict[str, Any]:
    """A game whose cities hold cards given by the ids `ids`, some rotated, some on taken
    cells or apart, in a mode at random."""
    doc: dict[str, Any] = {"mode": rng.choice(["populist", "military", "elitist"]), "players": []}
    for p in range(players):
        city = city_json(grow_city(rng, rng.randint(2, 9), tries=500))
        for _ in range(rng.randint(1, 3)):
            near = rng.choice(city)
            entry: dict[str, Any] = {
                "row": near["row"] + rng.choice([-1, 0, 1, 5]),
                "col": near["col"] + rng.choice([-1, 1]),
                "card": rng.choice(ids),
            }
            if rng.random() < 0.3:
                entry["rotated"] = True
            city.append(entry)
        doc["players"].append({"name": f"P{p}", "city": city})
    if doc["mode"] != "military":
        doc["requirements"] = ["A1", "B1", "C1"]
    return doc


def test_a_card_by_id_is_packed_as_the_python_packer_packs_it() -> None:
    rng = random.Random(5)
    for _ in range(40):
        raw = json.dumps(_game(rng, list(CATALOG.cards))).encode()
        packer = JsonGames(CATALOG)
        assert packer.add(raw)
        native = packer.packed()
        python = pack_games([decode_game(raw)], CATALOG)
        assert list(native.flat) == list(python.flat)
        assert native.styles == python.styles
        assert native.types == python.types
        assert [c.ids for c in native.cards] == [c.ids for c in python.cards]
        assert [c.rotated for c in native.cards] == [c.rotated for c in python.cards]
        assert [c.id_places for c in native.cards] == [c.id_places for c in python.cards]


def test_an_id_the_catalog_does_not_hold_is_packed_unresolved_and_none_without_a_catalog() -> None:
    """An id the catalog does not hold (a transcriber's typo) is read as the Python packer
    packs it: an unresolved row the core leaves out, its id kept, its game marked; without a
    catalog no id is read, and a string that is no id is refused (the exact path tells it)."""
    doc = _game(random.Random(1), ["atomic-waste"])
    raw = json.dumps(doc).encode()
    assert JsonGames(BUILTIN).add(raw)
    assert not JsonGames().add(raw)  # no catalog: no id read
    doc["players"][0]["city"][0]["card"] = "EX-LAB"
    doc["players"][1]["city"][0]["rotated"] = True
    doc["players"][1]["city"][0]["card"] = "atomic-wast"
    raw = json.dumps(doc).encode()
    packer = JsonGames(BUILTIN)
    assert packer.add(raw)
    native, python = packer.packed(), pack_games([decode_game(raw)], BUILTIN)
    assert list(native.flat) == list(python.flat)
    assert [(c.ids, c.unresolved, c.rotated, c.id_places) for c in native.cards] == [
        (c.ids, c.unresolved, c.rotated, c.id_places) for c in python.cards
    ]
    assert native.cards[0].unresolved
    assert packer.unresolved() == [True]
    doc["players"][0]["city"][0]["card"] = "EX LAB"  # no id: the decoder says why
    assert not JsonGames(BUILTIN).add(json.dumps(doc).encode())


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_games_with_unknown_ids_score_lean_as_decoded(lang: str) -> None:
    """A game naming a card the catalog does not hold (`unknown_card`, its "did you mean")
    is read lean and scored as the exact path scores it, alone and in a batch."""
    rng = random.Random(41)
    ids = ["atomic-waste", "atomic-wast", "EX-NONE", "new-eden", "new-edem"]
    raws = [
        padded(json.dumps(_game(rng, ids, players=rng.randint(1, 4))).encode()) for _ in range(30)
    ]
    with speaking(lang):
        for k, raw in enumerate(raws):
            assert taken_lean(raw, BUILTIN)
            outcome = same(raw, detail=k % 3 == 0, taken=True, catalog=BUILTIN)
            named = [e["card"] for p in json.loads(raw)["players"] for e in p["city"]]
            unknown = any(isinstance(c, str) and c not in BUILTIN.cards for c in named)
            assert ("unknown_card" in str(outcome[1])) == unknown
        together = [msgspec.json.encode(r) for r in score_inputs(raws, catalog=BUILTIN)]
        exact = [msgspec.json.encode(r) for r in score_reports([decode_game(r) for r in raws])]
    assert together == exact
    assert sum(b"unknown_card" in t for t in together) >= 10


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_games_with_cards_by_id_score_lean_as_decoded(lang: str) -> None:
    """Alone, read lean (taken), each report equals the exact path's: copy limits over, a
    misspelled style beside a card by id (its path names the card's id), wild ids."""
    rng = random.Random(11)
    told: set[str] = set()
    with speaking(lang):
        for k in range(60):
            doc = _game(rng, list(CATALOG.cards), players=rng.randint(1, 4))
            if k % 4 == 0:  # a typo among the inline cards: the name check reads the cities
                for placed in doc["players"][0]["city"]:
                    if isinstance(placed["card"], dict) and "style" in placed["card"]:
                        placed["card"]["style"] = "gothik"  # a near miss of "gothic"
                        break
            raw = padded(json.dumps(doc).encode())
            assert taken_lean(raw, CATALOG)
            outcome = same(raw, detail=k % 3 == 0, taken=True, catalog=CATALOG)
            told.update(code for code in _CODES if code in str(outcome[1]))
    assert told == set(_CODES)  # each path a card by id takes was taken


def test_a_batch_with_cards_by_id_is_read_lean_and_equals_each_alone() -> None:
    rng = random.Random(23)
    wild = ["atomic-waste", "new-eden"]
    raws = [padded(json.dumps(_game(rng, wild)).encode()) for _ in range(40)]
    assert all(taken_lean(raw) for raw in raws)
    together = [msgspec.json.encode(r) for r in score_inputs(raws, catalog=BUILTIN)]
    exact = [msgspec.json.encode(r) for r in score_reports([decode_game(r) for r in raws])]
    alone = [json.dumps(neweden.score(r, detail=False)).encode() for r in raws]
    assert together == exact
    assert [json.loads(a) for a in alone] == [json.loads(t) for t in together]


def test_a_misspelled_name_is_told_at_its_own_card_beside_cards_by_id() -> None:
    """The name check reads the cities of a game read lean (decoded the exact way then):
    player 1's misspelled card 0 is inline where player 0's card 0 is given by id."""
    card = {"style": "gothik", "type": "ex_plaza", "facility": "lab", "points": 1, "stars": 0}
    doc = {
        "mode": "military",
        "players": [
            {"name": "Ana", "city": [{"row": 0, "col": 0, "card": "EX-BASE"}]},
            {"name": "Bia", "city": [{"row": 0, "col": 0, "card": {**card, "sides": ["top"]}}]},
        ],
    }
    raw = padded(json.dumps(doc).encode())
    outcome = same(raw, taken=True, catalog=CATALOG)
    assert "/players/1/city/0/card/style" in str(outcome[1])


def test_a_python_catalogs_cards_no_game_could_spell_are_left_to_the_exact_path() -> None:
    """A catalog built in Python may hold what no catalog file and no inline card holds: an
    id the format does not read, a name not as it reads (folded), no facility, points past
    the format's limit. The reader is not handed those cards; a game naming one is decoded
    the exact way, and a game naming none is scored as before."""
    odd = {
        "EX A": CATALOG.cards["EX-LAB"],
        "E" * 123: CATALOG.cards["EX-LAB"],
        "EX-CAPS": CATALOG.cards["EX-LAB"]._replace(style="Gothic"),
        "EX-SPACE": CATALOG.cards["EX-LAB"]._replace(type="ex plaza"),
        "EX-HOSPITAL": CATALOG.cards["EX-LAB"]._replace(facility="hospital"),
        "EX-RICH": CATALOG.cards["EX-LAB"]._replace(points=2**40),
    }
    catalog = Catalog(
        name="EX-odd", cards={**CATALOG.cards, **odd}, requirements=BUILTIN.requirements
    )
    assert {card[0] for card in reader_cards(catalog)} == set(CATALOG.cards)
    rng = random.Random(31)
    # (a card of no facility or of points past the table's ints is in the catalog but named
    # by no game: the exact path cannot score it either; EX-LAB's games show that the
    # catalog holding them is harmless)
    named = [i for i in odd if i not in ("EX-HOSPITAL", "EX-RICH")]
    for card_id in [*named, "EX-LAB"]:
        doc = _game(rng, [card_id], players=2)
        raw = padded(json.dumps(doc).encode())
        same(raw, catalog=catalog, taken=card_id == "EX-LAB")
        same(raw, detail=True, catalog=catalog)


def _counted_decodes(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The documents a game's rules decode again the exact way, from now on (a list that
    grows with each)."""
    decoded: list[bytes] = []
    decode = game_score.decode_game_bytes

    def counted(raw: bytes) -> Any:
        decoded.append(raw)
        return decode(raw)

    monkeypatch.setattr(game_score, "decode_game_bytes", counted)
    return decoded


def test_a_batch_decodes_a_lean_game_once_for_all_its_misspelled_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name check reads the cities of a lean game with a card by id through its rules,
    made once for the game: one exact decode however many cards are misspelled."""
    decoded = _counted_decodes(monkeypatch)
    card = {"style": "gothik", "type": "ex_plaza", "facility": "lab", "points": 1, "stars": 0}
    city = [{"row": 0, "col": c, "card": {**card, "sides": ["left", "right"]}} for c in range(8)]
    city.append({"row": 0, "col": 8, "card": "atomic-waste"})
    doc = {"mode": "military", "players": [{"name": f"P{p}", "city": city} for p in range(4)]}
    raws = [padded(json.dumps({**doc, "meta": {"k": k}}).encode()) for k in range(20)]
    reports = score_inputs(raws, catalog=BUILTIN)
    assert all(
        any(w.code == "misspelled_name" for p in r.players for w in p.warnings + p.errors)
        or any(w.code == "misspelled_name" for w in r.warnings + r.errors)
        for r in reports
    )
    assert len(decoded) == len(raws)


def test_unknown_ids_and_extra_copies_are_told_from_the_packing_not_a_second_decode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lean game's `unknown_card` and `copy_limit` come from where the packing left each
    card given by id (no exact decode of its cities), alone and in a batch, and equal the
    exact path's: the typo, the extra Atomic Waste (one rotated) at their own cards."""
    decoded = _counted_decodes(monkeypatch)
    rng = random.Random(8)
    raws = []
    for k in range(24):
        doc = _game(rng, ["atomic-waste"])
        doc["players"][0]["city"][0]["card"] = "atomic-wast"  # a typo: unknown_card
        for p, player in enumerate(doc["players"]):  # an Atomic Waste more than allowed
            player["city"][-1]["card"] = "atomic-waste"
            player["city"][-1]["rotated"] = p == 1
        raws.append(padded(json.dumps({**doc, "meta": {"k": k}}).encode()))
    lean = score_inputs(raws, catalog=BUILTIN) + [
        score_inputs([r], catalog=BUILTIN)[0] for r in raws[:3]
    ]
    assert decoded == []  # none decoded again
    exact = score_reports([decode_game(r) for r in raws], catalog=BUILTIN, detail=False)
    assert lean == exact + exact[:3]
    seen: set[str] = set()
    for raw, report in zip(raws, exact, strict=True):  # as resolving every card finds them
        game = decode_game(raw)
        paths = [f"/players/{p}/city" for p in range(len(game.players))]
        resolved = [
            resolve_city(pl.city, BUILTIN, path)
            for pl, path in zip(game.players, paths, strict=True)
        ]
        unknown = [problem for _cards, found in resolved for problem in found]
        copies = copy_limit_problems([cards for cards, _ in resolved], paths, len(paths))
        expected = sorted(unknown + copies, key=document_order)
        told = [e for p in report.players for e in p.errors if e.code in _BY_ID_CODES]
        assert told == [problem_item(problem) for problem in expected]
        seen.update(e.code for e in told)
    assert seen == _BY_ID_CODES


_BY_ID_CODES = {"unknown_card", "copy_limit"}
