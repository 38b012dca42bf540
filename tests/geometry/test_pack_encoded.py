"""The native packer of players as msgspec encodes them in MessagePack
(`neweden.geometry.native.pack_encoded`, used by placements): the same rows and offsets as
the Python packer (`pack_games`) on generated games, None where only the Python packer can
pack (a card given by catalog id), and never a crash or a read past the bytes, whatever they
are."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from neweden.catalog.catalog import BUILTIN
from neweden.format.decode import decode_game
from neweden.format.model import Game
from neweden.geometry.compact import pack_games
from neweden.geometry.native import pack_encoded
from neweden.geometry.synth import city_json, grow_city

_encode = msgspec.msgpack.Encoder().encode

#: Names as players write them: accents, quotes, a backslash, an emoji, a long one.
NAMES = ("Sarah", "João", 'Zé "o grande"', "back\\slash", "🎲 dados", "x" * 90)


def _game(seed: int) -> Game:
    """A decoded game of 1-4 players, cities grown by legal placement (wild cards and
    rotations among them), now and then a card moved onto a taken cell or far away, names
    to escape, epiphanies and bonuses (which the packer skips)."""
    rng = random.Random(seed)
    players: list[dict[str, Any]] = []
    for p in range(rng.randint(1, 4)):
        city = city_json(grow_city(rng, rng.randint(0, 16), tries=400))
        if city and rng.random() < 0.3:
            city.append({**city[-1], "row": city[0]["row"], "col": city[0]["col"]})
        if city and rng.random() < 0.2:
            city.append({**city[-1], "row": 400, "col": -400})
        player: dict[str, Any] = {"name": f"{rng.choice(NAMES)} {p}", "city": city}
        if rng.random() < 0.5:
            player["epiphanies"] = [{"points": 2, "state": "activated", "effect": "rotate"}]
        if rng.random() < 0.3:
            player["bonuses"] = [{"name": "Company", "points": 3}]
        players.append(player)
    return decode_game({"mode": "elitist", "requirements": ["A1", "B1", "C1"], "players": players})


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_encoded_packer_packs_as_the_python_packer(seed: int) -> None:
    game = _game(seed)
    packed = pack_games([game], BUILTIN)
    assert pack_encoded(_encode(game.players)) == (packed.flat, packed.offsets)


def test_a_large_batch_of_games_packs_alike_wild_and_rotated_cards_included() -> None:
    games = [_game(seed) for seed in range(300)]
    flat = [x for game in games for x in pack_games([game], BUILTIN).flat]
    rows = [flat[i : i + 9] for i in range(0, len(flat), 9)]
    assert any(row[6] == 1 for row in rows)  # wild
    assert sum(1 for game in games for p in game.players for c in p.city if c.rotated) > 50
    for game in games:
        packed = pack_games([game], BUILTIN)
        assert pack_encoded(_encode(game.players)) == (packed.flat, packed.offsets)


def test_a_card_given_by_catalog_id_is_left_to_the_python_packer() -> None:
    game = _game(3)
    assert game.players[0].city, "the seed gives a first city with cards"
    game.players[0].city[0].card = "atomic-waste"
    assert pack_encoded(_encode(game.players)) is None


def test_every_cut_and_any_trailing_byte_is_refused() -> None:
    data = _encode(_game(11).players)
    for cut in range(len(data)):
        assert pack_encoded(data[:cut]) is None, cut
    assert pack_encoded(data + b"\xc0") is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_packed_or_refused_never_a_crash(data: bytes) -> None:
    found = pack_encoded(data)
    assert found is None or (len(found[0]) % 9 == 0 and found[1][0] == 0)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_an_encoding_with_bytes_changed_is_packed_or_refused(
    seed: int, data: st.DataObject
) -> None:
    encoded = bytearray(_encode(_game(seed % 50).players))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(encoded) - 1))
        encoded[at] = data.draw(st.integers(0, 255))
    found = pack_encoded(bytes(encoded))
    assert found is None or (len(found[0]) % 9 == 0 and found[1][-1] * 9 == len(found[0]))
