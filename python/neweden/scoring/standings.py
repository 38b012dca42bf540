"""Standings across rounds (docs/standings.md): the results of an event's games, each a
report of `validate --out` (or of the batch service), turned into tournament points by place,
then ranked by the sum of totals, wins and the game's own tie-breakers.

This module reads reports already made; it scores no game. The places inside a game are the
report's (RULES §4e); the standing uses the same competition ranking
(:func:`neweden.rules.ranking.competition`)."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Any, NamedTuple

import msgspec

from neweden.format.descriptions import described
from neweden.format.problems import problem_words
from neweden.i18n import _
from neweden.rules.ranking import competition
from neweden.scoring.standings_options import MAX_PLAYERS, Aliases, Points, player_key

__all__ = [
    "FORMAT",
    "Counted",
    "EventStandings",
    "GameResult",
    "LeftOut",
    "Note",
    "PlayerStanding",
    "Result",
    "Seat",
    "Standings",
    "read_result",
    "standings",
]

FORMAT = "new-eden/standings@1"


# --- what a game's result says --------------------------------------------------------

Round = int | str | None


class Seat(NamedTuple):
    """One player of a counted game."""

    name: str
    total: int
    place: int
    requirements_met: int
    cards: int


class Counted(NamedTuple):
    """A game that counts: its source, event, round and players."""

    source: dict[str, Any]
    event: str | None
    round: Round
    seats: tuple[Seat, ...]


_SOURCE = described(
    "where the game was read: its file and line (null: a file of one game); in POST "
    "/v1/standings, a result's own `source`, else its JSON Pointer in the body"
)
_EVENT = described("the event, the games' meta.event; null: games without one")
_ROUND = described("the round, the game's meta.round (a number or a text); null when none")


class LeftOut(msgspec.Struct):
    """A game (or line) the standings could not count, and why."""

    source: Annotated[dict[str, Any], _SOURCE]
    event: Annotated[str | None, _EVENT]
    round: Annotated[Round, _ROUND]
    code: Annotated[
        str,
        described(
            "why: invalid_game, unreadable, not_a_result, one_player, duplicate_game or "
            "same_player_twice (docs/standings.md)"
        ),
    ]
    message: Annotated[str, described("what is wrong, in the request's language")]


Result = Counted | LeftOut


class _Total(msgspec.Struct):
    total: int


class _Seat(msgspec.Struct):
    name: str
    place: Annotated[int, msgspec.Meta(ge=1)]
    cards: int
    score: _Total
    requirements_met: list[str] | None = None


class _Problem(msgspec.Struct):
    code: str
    message: str = ""
    path: str = ""


class _Player(msgspec.Struct):
    errors: list[_Problem] = []


class _Loose(msgspec.Struct):
    """What is read of any result, valid or not."""

    valid: bool
    meta: dict[str, Any] | None = None
    errors: list[_Problem] = []
    players: list[_Player] = []


class _Valid(msgspec.Struct):
    players: Annotated[list[_Seat], msgspec.Meta(max_length=MAX_PLAYERS)]


def _pointer(error: msgspec.ValidationError) -> tuple[str, str]:
    """(what is wrong, where as a JSON Pointer) of msgspec's `... - at `$.a[0].b``."""
    text = str(error)
    what, _sep, at = text.partition(" - at `$")
    pointer = re.sub(r"\[(\d+)\]", r"/\1", at.rstrip("`")).replace(".", "/")
    return what, pointer or "/"


def _event_label(value: Any) -> str | None:
    """An event as a text (`1` and `"1"` are one event); None when there is none (an empty
    text is none)."""
    if isinstance(value, str):
        return value if value.strip() else None
    if value is None:
        return value
    return msgspec.json.encode(value).decode()


def _round_label(value: Any) -> Round:
    """A round as a whole number when it is one (`2`, `2.0` and `"2"` are one round), else
    as a text; None when there is none."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,9}", value.strip()):
        return int(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        return int(value)
    if value is None or isinstance(value, str) or type(value) is int:
        return value
    return msgspec.json.encode(value).decode()


def _source(doc: Any, where: dict[str, Any]) -> dict[str, Any]:
    """Where a result's game came from: its `source` (a `validate --out` line), else `where`."""
    given = doc.get("source") if isinstance(doc, dict) else None
    if isinstance(given, dict) and isinstance(given.get("path"), str):
        line = given.get("line")
        return {"path": given["path"], "line": line if type(line) is int else None}
    return where


def read_result(doc: Any, where: dict[str, Any]) -> Result:
    """What the standings take of one report (a decoded `validate --out` line, a batch
    answer's result): the game that counts, or why it is left out. `where` is the place
    the result was read (a file's line, a body's JSON Pointer): its source when it names
    none, and the place of a result that is not one."""
    try:
        loose = msgspec.convert(doc, _Loose)
    except msgspec.ValidationError as err:
        return LeftOut(where, None, None, "not_a_result", _not_a_result(*_pointer(err)))
    source = _source(doc, where)
    meta = loose.meta or {}
    event, round_ = _event_label(meta.get("event")), _round_label(meta.get("round"))
    if not loose.valid:
        first = [*loose.errors, *(e for p in loose.players for e in p.errors)]
        code = "invalid_game" if loose.players else "unreadable"
        why = (
            problem_words(first[0].code, first[0].path, first[0].message) if first else _("invalid")
        )
        return LeftOut(source, event, round_, code, why)
    try:
        seats = msgspec.convert(doc, _Valid).players
    except msgspec.ValidationError as err:
        return LeftOut(where, event, round_, "not_a_result", _not_a_result(*_pointer(err)))
    for at, seat in enumerate(seats):
        if seat.place > len(seats):
            what = _("a place past the players' ({n})", n=len(seats))
            return LeftOut(where, event, round_, "not_a_result", _not_a_result(what, at))
    if not _ranked([seat.place for seat in seats]):
        what = _("places that no ranking gives (1, 1, 3 is one; 2, 2 is none)")
        return LeftOut(where, event, round_, "not_a_result", _not_a_result(what, "/players"))
    if len(seats) < 2:
        return LeftOut(
            source,
            event,
            round_,
            "one_player",
            _("a game of one player: there is no one to be placed against"),
        )
    return Counted(
        source,
        event,
        round_,
        tuple(
            Seat(s.name, s.score.total, s.place, len(s.requirements_met or ()), s.cards)
            for s in seats
        ),
    )


def _ranked(places: list[int]) -> bool:
    """Whether places are a competition ranking's: in order, each the one before it (a tie)
    or its own position (1, 1, 3)."""
    ordered = sorted(places)
    return all(p in (ordered[k - 1], k + 1) if k else p == 1 for k, p in enumerate(ordered))


def _not_a_result(what: str, where: str | int) -> str:
    """Why a result is not one: what is wrong, where (a JSON Pointer, or the index of the
    player whose place is wrong)."""
    at = f"/players/{where}/place" if isinstance(where, int) else where
    return _("not a result of `neweden validate --out`: {what} at {where}", what=what, where=at)


# --- the standings ----------------------------------------------------------------------


class GameResult(msgspec.Struct):
    """A player's result in one counted game."""

    round: Annotated[Round, _ROUND]
    source: Annotated[dict[str, Any], _SOURCE]
    place: Annotated[int, described("the player's place in the game (1, 1, 3)")]
    players: Annotated[int, described("the players of the game")]
    points: Annotated[int, described("the tournament points of that place")]
    total: Annotated[int, described("the player's total in the game")]


class PlayerStanding(msgspec.Struct):
    """One player's standing in an event."""

    place: Annotated[int, described("the standing, competition ranking (1, 1, 3)")]
    name: Annotated[str, described("the name, as spelled most often (after aliases)")]
    points: Annotated[int, described("tournament points: the first criterion")]
    total: Annotated[int, described("the sum of the game totals: the second")]
    wins: Annotated[int, described("first places, shared ones included: the third")]
    requirements_met: Annotated[int, described("requirement cards met, summed: the fourth")]
    cards: Annotated[int, described("cards in the cities, summed: the fifth")]
    games: Annotated[int, described("the games counted")]
    results: Annotated[list[GameResult], described("each counted game, in the order read")]


class EventStandings(msgspec.Struct):
    """The standings of one event."""

    event: Annotated[str | None, _EVENT]
    rounds: Annotated[
        list[Round], described("the event's rounds: numbers in order, then texts, null last")
    ]
    games: Annotated[int, described("the games counted")]
    players: Annotated[list[PlayerStanding], described("the players in standing order")]


class Note(msgspec.Struct):
    """Something to look at that does not stop the standings."""

    code: Annotated[str, described("twice_in_round: a player in two games of one round")]
    event: Annotated[str | None, _EVENT]
    round: Annotated[Round, _ROUND]
    player: Annotated[str, described("the player")]
    message: Annotated[str, described("what was noticed, in the request's language")]


class Standings(msgspec.Struct):
    """The standings across rounds (docs/standings.md)."""

    format: Annotated[str, described("new-eden/standings@1")]
    points: Annotated[
        dict[str, list[int]], described("the tournament points by place, by player count")
    ]
    events: Annotated[list[EventStandings], described("each event, in the order first read")]
    left_out: Annotated[list[LeftOut], described("the games not counted, and why")]
    notes: Annotated[list[Note], described("things to look at (a missing alias)")]


class _Tally:
    """One player's figures over an event's games, as they are counted."""

    def __init__(self) -> None:
        self.spellings: Counter[str] = Counter()
        self.results: list[GameResult] = []
        self.points = self.total = self.wins = self.requirements_met = self.cards = 0

    def add(self, spelled: str, seat: Seat, game: Counted, points: int) -> None:
        self.spellings[spelled] += 1
        self.points += points
        self.total += seat.total
        self.wins += seat.place == 1
        self.requirements_met += seat.requirements_met
        self.cards += seat.cards
        self.results.append(
            GameResult(game.round, game.source, seat.place, len(game.seats), points, seat.total)
        )

    def key(self) -> tuple[int, ...]:
        return (self.points, self.total, self.wins, self.requirements_met, self.cards)

    def name(self) -> str:
        """The spelling used most, the first seen on a tie (Counter keeps first-seen order)."""
        return self.spellings.most_common(1)[0][0]


def _round_order(value: Round) -> tuple[int, int, str]:
    if isinstance(value, int):
        return (0, value, "")
    if isinstance(value, str):
        return (1, 0, value)
    return (2, 0, "")


def _standing(place: int, tally: _Tally) -> PlayerStanding:
    return PlayerStanding(
        place=place,
        name=tally.name(),
        points=tally.points,
        total=tally.total,
        wins=tally.wins,
        requirements_met=tally.requirements_met,
        cards=tally.cards,
        games=len(tally.results),
        results=tally.results,
    )


def _event(
    event: str | None, games: list[Counted], points: Points, aliases: Aliases
) -> tuple[EventStandings, list[Note]]:
    tallies: dict[str, _Tally] = {}
    rounds: dict[Round, Counter[str]] = {}
    for game in games:
        for seat in game.seats:
            spelled = aliases.name(seat.name)
            key = player_key(spelled)
            tallies.setdefault(key, _Tally()).add(
                spelled, seat, game, points.of(len(game.seats), seat.place)
            )
            rounds.setdefault(game.round, Counter())[key] += 1
    keys = sorted(tallies, key=lambda k: (player_key(tallies[k].name()), k))
    order, places = competition([tallies[k].key() for k in keys])
    players = [_standing(places[i], tallies[keys[i]]) for i in order]
    notes = [
        Note(
            "twice_in_round",
            event,
            round_,
            tallies[key].name(),
            _(
                "{player} plays in {n} games of round {round}: is an alias missing?",
                player=tallies[key].name(),
                n=n,
                round=round_,
            ),
        )
        for round_, seen in rounds.items()
        if round_ is not None
        for key, n in seen.items()
        if n > 1
    ]
    return (
        EventStandings(event, sorted(rounds, key=_round_order), len(games), players),
        notes,
    )


#: What tells one game from another: its file's name (not the folder: a path is spelled
#: from wherever `validate` ran), its line, and each player's name, total and place.
GameKey = tuple[str, Any, tuple[Seat, ...]]


def _sifted(result: Result, seen: dict[GameKey, str], aliases: Aliases) -> Result:
    """The result, or why it is left out after all: its game was read before (the same file
    name and line with the same players, totals and places: a file given twice, however its
    path is spelled, or a results file beside its games), or two of its players are one
    person once names are folded and aliases applied."""
    if isinstance(result, LeftOut):
        return result
    path, line = result.source.get("path"), result.source.get("line")
    key = (posixpath.basename(str(path).replace("\\", "/")), line, result.seats)
    if key in seen:
        said = _("the same game as {first}, counted once", first=seen[key])
        return LeftOut(result.source, result.event, result.round, "duplicate_game", said)
    seen[key] = str(path) if line is None else f"{path}:{line}"
    names: dict[str, str] = {}
    for seat in result.seats:
        key_name = player_key(aliases.name(seat.name))
        if key_name in names:
            said = _(
                '"{first}" and "{second}" are one player once names are folded: write them '
                "apart, or mend the alias",
                first=names[key_name],
                second=seat.name,
            )
            return LeftOut(result.source, result.event, result.round, "same_player_twice", said)
        names[key_name] = seat.name
    return result


def standings(results: Iterable[Result], points: Points, aliases: Aliases) -> Standings:
    """The standings of every event of `results`, in the order events first appear, and the
    games left out. StandingsError when a game's player count has no points."""
    events: dict[str | None, list[Counted]] = {}
    left: list[LeftOut] = []
    seen: dict[GameKey, str] = {}
    for result in results:
        result = _sifted(result, seen, aliases)
        if isinstance(result, LeftOut):
            left.append(result)
        else:
            events.setdefault(result.event, []).append(result)
    points.check(len(game.seats) for games in events.values() for game in games)
    made = [_event(event, games, points, aliases) for event, games in events.items()]
    return Standings(
        FORMAT,
        points.table(),
        [one for one, _notes in made],
        left,
        [note for _one, notes in made for note in notes],
    )
