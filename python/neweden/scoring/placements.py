"""Where a card can go, and what each placement would score: the move generator for companion
apps, the web page and programs that play the game.

Candidates are every empty cell orthogonally next to a card of the player's city, upright
and, when that changes the card's icons, rotated 180° (listed whatever the player's
epiphanies: the caller decides whether rotating is allowed). A placement is kept when the
city is legal after it (no overlap, one project joined by complete connections). One native
call lists the candidates, analyses the city after each and hands back the legal ones; the
report's own rules (the requirement tests, Populist, D1-D4, ten cards, D5 across the game)
then score each of them over plain ints, as the report scores a player.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from neweden.catalog.catalog import Catalog
from neweden.format.decode import GameInput, as_declared
from neweden.format.model import Game
from neweden.scoring.placing import placed
from neweden.scoring.types import CardPlacement, PlacementError

__all__ = ["CardPlacement", "PlacementError", "placement_list", "placements"]


def placements(
    game: GameInput | Game,
    *,
    player: str,
    card: str | Mapping[str, Any],
    catalog: Catalog | None = None,
    best: bool = False,
) -> list[dict[str, Any]]:
    """Every legal placement of `card` in `player`'s city of `game`, and what each would score.

    The candidates are the empty cells orthogonally next to a card of the city, upright and,
    when that changes the card's icons, rotated 180° (whatever the player's epiphanies: the
    caller decides whether rotating is allowed); a placement is kept when the city is legal
    after it.

    Parameters
    ----------
    game : bytes, bytearray, memoryview, str, mapping or Game
        The game: its bytes, text, a mapping or a decoded :class:`~neweden.Game`.
    player : str
        The name of the player whose city takes the card.
    card : str or mapping
        A catalog id or an inline card, as in a city.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    best : bool, optional
        The first placement only (a list of one, or empty). Default is False.

    Returns
    -------
    list of dict
        Each placement as ``row``, ``col``, ``rotated``, the city's ``open_connections``
        after it, the player's ``total`` after it and the change (``delta``): sorted by
        total, highest first, then row, column, upright first. Empty when nowhere is legal.

    Raises
    ------
    GameDecodeError
        For a game that does not decode.
    TypeError
        For a game that is not bytes, str, a mapping or a Game.
    PlacementError
        (a ValueError) For an unknown player, a name two players share, a card that does not
        decode or is not in the catalog, or a requirement whose condition reads the cards;
        ``.problems`` says what and where (``/player``, ``/card...``,
        ``/game/requirements/N``).

    Examples
    --------
    >>> import neweden
    >>> card = {"style": "ex_gothic", "type": "ex_plaza", "facility": "lab", "points": 1,
    ...         "stars": 0, "sides": ["right"]}
    >>> game = {"mode": "military", "players": [
    ...     {"name": "Ana", "city": [{"row": 0, "col": 0, "card": card}]},
    ...     {"name": "Bruno", "city": []}]}
    >>> neweden.placements(game, player="Ana", card=card)
    [{'row': 0, 'col': 1, 'rotated': True, 'open_connections': 0, 'total': 6, 'delta': 3}]
    >>> neweden.placements(game, player="Ana", card=card | {"sides": ["top", "bottom"]})
    []
    >>> try:
    ...     neweden.placements(game, player="Ana", card="EX-card")
    ... except neweden.PlacementError as err:
    ...     print(err)
    /card: unknown_card: the card id "EX-card" is not in the catalog (builtin)
    """
    found = _placed(game, player, card, catalog)
    return found[:1] if best else found


def placement_list(
    game: GameInput | Game,
    *,
    player: str,
    card: str | Mapping[str, Any],
    catalog: Catalog | None = None,
) -> list[CardPlacement]:
    """:func:`placements` as typed :class:`CardPlacement` Structs."""
    return [CardPlacement(**p) for p in _placed(game, player, card, catalog)]


def _placed(
    game: GameInput | Game, player: Any, card: str | Mapping[str, Any], catalog: Catalog | None
) -> list[dict[str, Any]]:
    if isinstance(game, Game):  # (one built by hand, of other types than declared: as_declared)
        return as_declared(game, lambda g: placed(g, player, card, catalog))
    return placed(game, player, card, catalog)
