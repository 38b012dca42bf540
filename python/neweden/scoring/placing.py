"""The legal placements of a card and the player's total after each: the work behind
:func:`neweden.placements` (:mod:`neweden.scoring.placements`, which says what is asked and
answered) and the HTTP service's placements request. A module of the report path compiled
by mypyc in a built package (scripts/mypyc_build.py).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

import msgspec

from neweden.catalog.catalog import BUILTIN, Catalog, resolve_extras
from neweden.format import codes
from neweden.format.decode import (
    GameInput,
    decode_card,
    decode_game,
    decode_game_bytes,
    game_bytes,
    not_json,
    plain_card,
)
from neweden.format.lean import LeanGame, decode_lean
from neweden.format.model import MAX_CARDS, MAX_COORDINATE, Game, Player
from neweden.format.modes import MODES
from neweden.format.problems import GameDecodeError, Problem
from neweden.format.untyped import shallow_value
from neweden.geometry.compact import FLAGS, UNRESOLVED, WIDTH, pack_games
from neweden.geometry.figures import ScoreFigures
from neweden.geometry.native import JsonGames, Placed
from neweden.geometry.native import placements as native_placements
from neweden.i18n import _
from neweden.rules.conditions import CityContext, Test
from neweden.rules.epiphanies import score_epiphanies
from neweden.rules.majority import base_majority, game_majority_table
from neweden.rules.military import facility_points
from neweden.rules.requirements import (
    declared_requirements,
    populist_points,
    requirement_tests,
)
from neweden.rules.ten_cards import ten_cards_points
from neweden.rules.totals import player_stars, player_total
from neweden.scoring.types import PlacementError

__all__ = ["answer_request", "placed"]

_TOTAL = operator.itemgetter("total")


def placed(
    game: GameInput | Game, player: Any, card: str | Mapping[str, Any], catalog: Catalog | None
) -> list[dict[str, Any]]:
    """The legal placements, in the answer's order, as the answer's dicts (CardPlacement's
    fields, in its order). `player` as the caller gives it: one that is not a str names no
    player (PlacementError), compiled or not."""
    catalog = catalog or BUILTIN
    read = _Read(game, catalog)
    decoded = read.game
    names = [p.name for p in decoded.players]
    if player not in names:
        raise PlacementError([_no_player(player, names)])
    if names.count(player) > 1:
        raise PlacementError([_two_players(player, names)])
    seat = names.index(player)
    if read.cards(seat) >= MAX_CARDS:
        return []  # one more card and the game is over the format's limit: nowhere is legal
    native = read.placements(card, seat)
    if native is None:  # the card decoded the exact way (its problems said), the Python packer
        native = _placed_by_id(read.whole(), _card_game(decoded, card), seat, card, catalog)
    now, bases, figures, legal = native
    before, *totals = _totals(decoded, seat, [now, *figures], bases, catalog)
    found = [
        {
            "row": row,
            "col": col,
            "rotated": rotated,
            "open_connections": figures[k].open_connections,
            "total": totals[k],
            "delta": totals[k] - before,
        }
        for row, col, rotated, k in legal
        # a cell past the format's coordinates is no placement: the game would not decode
        if abs(row) <= MAX_COORDINATE and abs(col) <= MAX_COORDINATE
    ]
    # highest total first; stable (reverse too): the native order (row, column, upright first)
    found.sort(key=_TOTAL, reverse=True)
    return found


class _Read:
    """The game a question asks about, decoded, and its cities packed by the core's strict
    reader (the reader of every game scored): a document's as it is read (lean), a decoded
    game's written as the format writes them (of the player's city alone where the mode has
    no D5 to read the others' bases for)."""

    __slots__ = ("_raw", "game", "packer")

    def __init__(self, game: GameInput | Game, catalog: Catalog) -> None:
        self.packer = JsonGames(catalog)  # (a card by an id of the catalog read natively)
        self._raw: bytes | None = None
        if isinstance(game, Game):
            self.game = game
            return
        raw = self._raw = game_bytes(game)
        lean = self.packer.read_many([raw], 0, decode_lean)[0]
        self.game = decode_game_bytes(raw) if lean is None else lean

    def cards(self, seat: int) -> int:
        """The number of cards of the player's city."""
        if isinstance(self.game, LeanGame):
            return self.packer.cards(seat)
        return len(self.game.players[seat].city)

    def placements(self, card: Any, seat: int) -> Placed | None:
        """The core's placements of `card` (as the question gives it) next to city `seat`;
        None where the card is not JSON's own types, where the strict reader refuses the game
        or the card (a card that is no card, a name the reader does not take as it is, such
        as one with an escape, or an id the catalog does not hold), where msgspec cannot
        write a game built by hand, or where such a game names a style or type otherwise than
        the decoder reads it: the card is decoded the exact way then, and the game packed in
        Python (`_placed_by_id`)."""
        packer = self.packer
        added = _card_document(card)
        if added is None:
            return None
        try:
            if not len(packer):  # a decoded game: its cities as the format writes them
                players = self.game.players
                if not MODES[self.game.mode].military:
                    players, seat = [players[seat]], 0
                game = _encode(Game(mode="military", players=players))
                if not packer.add(game, folded=True):
                    return None  # (one built by hand: a name not as the decoder reads it)
        except (TypeError, ValueError, OverflowError):
            return None
        if not packer.add(added) or packer.unresolved()[-1]:
            return None  # (what is wrong with it, or the id the catalog does not hold)
        return packer.placements(seat)

    def whole(self) -> Game:
        """The game with its cities decoded (a document read lean is decoded again)."""
        if self._raw is not None and isinstance(self.game, LeanGame):
            return decode_game_bytes(self._raw)
        return self.game


def _placed_by_id(game: Game, added: Game, seat: int, card: Any, catalog: Catalog) -> Placed:
    """The native placements of a game packed in Python (where the catalog resolves ids)."""
    # D5 reads every player's bases: every city is analysed; else the player's city alone
    military = MODES[game.mode].military
    players, at = (game.players, seat) if military else ([game.players[seat]], 0)
    packed = pack_games([msgspec.structs.replace(game, players=players), added], catalog)
    if packed.flat[FLAGS - WIDTH] & UNRESOLVED:
        raise PlacementError([_unknown_card(card, catalog)])
    now, bases, figures, legal = native_placements(packed.flat, packed.offsets, at)
    return now, bases if military else [], figures, legal


#: msgspec's JSON encoder: a decoded game as the format writes it, for the core to read.
_encode = msgspec.json.Encoder().encode


def _card_document(card: Any) -> bytes | None:
    """A game whose one city is `card` at (0, 0), as JSON for the core's strict reader (which
    checks the card as the decoder would, its names as written); None for a card that is
    not JSON's own types (decoded the exact way, which says what is wrong)."""
    if not plain_card(card):
        return None
    city = [{"row": 0, "col": 0, "card": card}]
    try:
        return _encode({"mode": "military", "players": [{"name": "card", "city": city}]})
    except (TypeError, ValueError, OverflowError):  # an int past 64 bits
        return None


def _totals(
    game: Game, seat: int, cities: list[ScoreFigures], bases: list[int], catalog: Catalog
) -> list[int]:
    """The player's total with each of `cities` as their city, the other players' cities
    unchanged (`bases`: every seat's bases as they are, for D5 in a Military mode): the
    report's own rules (RULES §4) a city at a time, over plain ints (a question has a handful
    of distinct figures to score: a numpy operation costs more than the whole rule on one
    city)."""
    mode = MODES[game.mode]
    extras = resolve_extras(game, catalog)
    me = game.players[seat]
    epiphanies = score_epiphanies(me.epiphanies, extras.epiphanies[seat], explained=False)
    bonus = sum([b.points for b in me.bonuses]) if me.bonuses else 0
    populist = [0] * len(cities)
    if mode.populist:
        ids = game.requirement_ids()
        tests = requirement_tests(ids, extras.requirements)
        checks = [test for _, test in tests]
        # the cards the city cannot judge, as the table declared them (RULES §4a)
        declared = len(declared_requirements(game, seat, extras.requirements).met)
        city = CityContext(_no_cards, None, catalog)
        try:
            for k, fig in enumerate(cities):
                city.show(_no_cards, fig)
                met = [test for test in checks if test(city)]
                stars = player_stars(len(met) + declared, epiphanies.stars)
                populist[k] = populist_points(fig, stars)
        except _CardsAsked:
            raise PlacementError([_reads_cards(ids, tests, city)]) from None
    military = [0] * len(cities)
    if mode.military:
        table = game_majority_table(game, catalog)[0]
        d5 = _bases_points(bases, seat, [f.bases for f in cities], table)
        military = [facility_points(fig) + d5[k] for k, fig in enumerate(cities)]
    return [
        player_total(
            populist[k], military[k], epiphanies.points, ten_cards_points(fig.cards), bonus
        )
        for k, fig in enumerate(cities)
    ]


class _CardsAsked(Exception):
    """A requirement's condition asked for the city's cards (placements has figures only)."""


def _no_cards() -> list[Any]:
    raise _CardsAsked


def _reads_cards(ids: list[str], tests: list[tuple[str, Test]], city: CityContext) -> Problem:
    """The problem of the first requirement in play whose condition reads the cards."""
    asking = ids[0]
    for req_id, test in tests:
        try:
            test(city)
        except _CardsAsked:
            asking = req_id
            break
    return Problem(
        code=codes.REQUIREMENT_READS_CARDS,
        message=_(
            'the condition of the requirement "{id}" looks at the cards themselves; placements '
            "read only the figures of a city: score such a game with neweden.score",
            id=asking,
        ),
        path=f"/game/requirements/{ids.index(asking)}",
    )


def _bases_points(
    everyone: list[int], seat: int, mine: list[int], table: tuple[int, ...]
) -> list[int]:
    """D5 for the player with each of `mine` bases, the others' (`everyone`) unchanged: the
    report's own :func:`~neweden.rules.majority.base_majority`, once a count (a placement
    adds one base at most: two counts at most)."""
    points: dict[int, int] = {}
    for count in mine:
        if count not in points:
            everyone[seat] = count
            points[count] = base_majority(everyone, table)[0][seat]
    return [points[count] for count in mine]


def _card_game(game: Game, card: str | Mapping[str, Any]) -> Game:
    """A game of one player whose city is the card, to pack the card as cities hold them.
    The card is decoded alone (the decoder's checks of a card, without a game's around
    it); its problems are said at `/card`."""
    try:
        lone = decode_card(card)
    except GameDecodeError as err:
        raise PlacementError([_at_card(p) for p in err.problems]) from None
    # a Military game: no requirements to list; the mode does not change a card
    return Game(mode="military", players=[Player(name="card", city=lone.city)])


def _at_card(problem: Problem) -> Problem:
    """A problem of the card decoded alone said of `/card` (the decoder says it of the one
    entry of a lone city, `/city/0/card...`)."""
    prefix = "/city/0/card"
    path = problem.path
    path = "/card" + path[len(prefix) :] if path.startswith(prefix) else "/card"
    return Problem(code=problem.code, message=problem.message, path=path)


def _no_player(player: Any, names: list[str]) -> Problem:
    return Problem(
        code=codes.NOT_FOUND,
        message=_(
            'no player of the game is called "{player}"; the players are {names}',
            player=player,
            names=", ".join(f'"{n}"' for n in names),
        ),
        path="/player",
    )


def _two_players(player: str, names: list[str]) -> Problem:
    seats = [str(k + 1) for k, name in enumerate(names) if name == player]
    return Problem(
        code=codes.DUPLICATE_NAME,
        message=_(
            'more than one player of the game is called "{player}" (seats {seats}): whose '
            "city is meant cannot be told; give each player a name of their own",
            player=player,
            seats=", ".join(seats),
        ),
        path="/player",
    )


def _unknown_card(card: str | Mapping[str, Any], catalog: Catalog) -> Problem:
    return Problem(
        code=codes.UNKNOWN_CARD,
        message=_(
            'the card id "{card}" is not in the catalog ({catalog})',
            card=card,
            catalog=catalog.name,
        ),
        path="/card",
    )


#: The fields of a placements request (`POST /v1/placements`): the game, the player, the card,
#: and whether only the best placement is wanted.
REQUEST_FIELDS = ("game", "player", "card", "best")


def answer_request(body: bytes, catalog: Catalog | None = None) -> dict[str, Any]:
    """The answer to a placements request, ``{"placements": [...]}``, from its JSON body
    ``{"game": GAME, "player": NAME, "card": ID_OR_CARD, "best": false}``.

    Raises :class:`neweden.GameDecodeError` listing every problem of the request with its
    JSON Pointer (into `/game`, or at `/player`, `/card`, `/best`)."""
    try:
        try:
            fields = _request_fields(body)
        except msgspec.ValidationError:
            shallow_value(body)  # not JSON at all is said first (however deep it nests)
            raise GameDecodeError([_request_problem(codes.BAD_TYPE, "", _REQUEST_WORDS)]) from None
    except msgspec.DecodeError as exc:
        raise GameDecodeError([not_json(exc)]) from None
    problems = [
        _request_problem(codes.UNKNOWN_FIELD, f"/{k}", k) for k in fields if k not in REQUEST_FIELDS
    ]
    problems += [
        _request_problem(codes.MISSING_FIELD, "", k) for k in REQUEST_FIELDS[:3] if k not in fields
    ]
    player = _field(fields, "player", str, problems)
    card = _field(fields, "card", str | dict[str, Any], problems)
    best = _field(fields, "best", bool, problems)
    game = None
    if "game" in fields:
        try:
            game = decode_game(bytes(fields["game"]))
        except GameDecodeError as err:
            problems += [_under("/game", p) for p in err.problems]
    if problems or game is None or player is None or card is None:
        raise GameDecodeError(problems)
    try:
        found = placed(game, player, card, catalog)
    except PlacementError as err:
        raise GameDecodeError(err.problems) from None
    return {"placements": found[:1] if best else found}


_REQUEST_WORDS = '{"game", "player", "card"}'


def _request_fields(body: bytes) -> dict[str, msgspec.Raw]:
    """The request's fields, unparsed. A body nested deeper than msgspec follows (a `card` of
    5,000 brackets) has its containers past CUT_DEPTH emptied first, as the decoder does: its
    problems are then told where they stand, never a RecursionError."""
    return shallow_value(body, _request_decoder)


_request_decoder = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode


def _field(fields: dict[str, msgspec.Raw], name: str, kind: Any, problems: list[Problem]) -> Any:
    if name not in fields:
        return None
    try:
        return msgspec.json.decode(fields[name], type=kind)
    except msgspec.ValidationError:
        problems.append(_request_problem(codes.BAD_TYPE, f"/{name}", name))
    except msgspec.DecodeError as exc:  # (a text no UTF-8: the request's decode skipped it)
        said = not_json(exc)
        problems.append(Problem(code=said.code, message=said.message, path=f"/{name}"))
    return None


def _request_problem(code: str, path: str, name: str) -> Problem:
    if code == codes.UNKNOWN_FIELD:
        message = _(
            "`{name}` is not a field of a placements request (game, player, card, best)",
            name=name,
        )
    elif code == codes.MISSING_FIELD:
        message = _("a placements request needs `{name}`", name=name)
    elif path == "":
        message = _("a placements request is a JSON object {fields}", fields=name)
    elif name == "card":
        message = _("`card` is a catalog id (a string) or an inline card (an object)")
    elif name == "best":
        message = _("`best` is true or false")
    else:
        message = _("`{name}` must be a string", name=name)
    return Problem(code=code, message=message, path=path)


def _under(prefix: str, problem: Problem) -> Problem:
    return Problem(
        code=problem.code, message=problem.message, path=prefix + problem.path, cells=problem.cells
    )
