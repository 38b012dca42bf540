"""A game decoded but for its cities: the fast path of a game's score.

The native core reads the cities into the score table
(:class:`neweden.geometry.native.JsonGames`) without a Python object per card; msgspec
reads everything else (names, epiphanies, bonuses, requirements, meta) into the same structs
as :func:`neweden.format.decode.decode_game`, with every check of theirs, from the document
with each city given as `[]` (:meth:`~neweden.geometry.native.JsonGames.head`: the core's
reader only skipped past the rest). Each city is a :class:`msgspec.Raw` here, and only a
placeholder: the rules that need the cards decode the whole document the exact way.
Whatever either reader does not take exactly (a decode problem, a card given by an id the
catalog does not hold, an escape, a repeated key...) makes the caller decode that game the
exact way: both paths
give the same report, byte for byte (tests/format/test_lean_decode.py).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from neweden.format.checks import head_is_sound
from neweden.format.model import PLAYERS, Game, Player

__all__ = ["LeanGame", "LeanPlayer", "decode_lean"]


class LeanPlayer(Player, forbid_unknown_fields=True, omit_defaults=True):
    """A player whose city is left as raw JSON (`[]`: the core has read the cities)."""

    city: msgspec.Raw  # type: ignore[assignment]


class LeanGame(Game, forbid_unknown_fields=True, omit_defaults=True):
    """A game whose cities are JSON text (a :class:`Game` for every rule but the cards).
    Only the scoring pipeline holds one, with its document beside it (it decodes the game the
    exact way when a rule needs the cards): a function that takes a :class:`Game` refuses
    it."""

    players: Annotated[list[LeanPlayer], PLAYERS]  # type: ignore[assignment]


_DECODER = msgspec.json.Decoder(LeanGame)


def decode_lean(raw: bytes) -> LeanGame | None:
    """The game of a document's bytes (its byte-order mark and size already dealt with:
    :func:`neweden.format.decode.game_bytes`) with its cities left as JSON, or None when it
    does not decode or its fields outside the cities have a problem (the exact decoder
    then says which)."""
    try:
        game = _DECODER.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    return game if head_is_sound(game) else None
