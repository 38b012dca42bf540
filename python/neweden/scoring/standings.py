"""Standings across rounds (docs/standings.md): the results of an event's games, each a
report of `validate --out` (or of the batch service), turned into tournament points by place,
then ranked by the sum of totals, wins and the game's own tie-breakers.

This module reads reports already made; it scores no game. The places inside a game are the
report's (RULES §4e); the standing uses the same competition ranking
(:func:`neweden.rules.ranking.competition`)."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, NamedTuple

import msgspec

from neweden.format.descriptions import described
from neweden.i18n import _, ngettext
from neweden.rules.ranking import competition

__all__ = [
    "FORMAT",
    "MAX_PLAYERS",
    "Aliases",
    "Counted",
    "EventStandings",
    "GameResult",
    "LeftOut",
    "Note",
    "PlayerStanding",
    "Points",
    "Result",
    "Seat",
    "Standings",
    "StandingsError",
    "aliases_from_lines",
    "aliases_from_mapping",
    "player_key",
    "points_from",
    "read_result",
    "standings",
]

FORMAT = "new-eden/standings@1"
#: The most players a game has (FORMAT §1): the points table goes up to it.
MAX_PLAYERS = 4


class StandingsError(ValueError):
    """A bad option of the standings (`--points`, an alias file): the sentence says what."""


# --- who is who -------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


def player_key(name: str) -> str:
    """A player's name folded: accents off, case and runs of spaces not counted
    (`"Úrsula  Lima"` → `"ursula lima"`)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return _SPACES.sub(" ", bare).strip().casefold()


class Aliases:
    """The alias file: a folded spelling → the name it stands for (as written there)."""

    def __init__(self, names: Mapping[str, str] | None = None) -> None:
        self.names: dict[str, str] = dict(names or {})

    def name(self, written: str) -> str:
        """The name a player's written name stands for: its alias's, else itself."""
        return self.names.get(player_key(written), written)


def aliases_from_mapping(pairs: Iterable[tuple[str, str]], where: Sequence[str]) -> Aliases:
    """Aliases from (alias, name) pairs, `where` naming each pair for an error (a line of the
    file, a key of the JSON): refused when a side is empty, when an alias is given twice
    with two names, or when a name is itself an alias (say the final name at once)."""
    names: dict[str, str] = {}
    for (alias, name), place in zip(pairs, where, strict=True):
        alias, name = alias.strip(), name.strip()
        if not alias or not name:
            raise StandingsError(_("{where}: an alias needs a name on each side of =", where=place))
        key = player_key(alias)
        if key in names and player_key(names[key]) != player_key(name):
            raise StandingsError(
                _(
                    '{where}: "{alias}" is already an alias of "{name}"',
                    where=place,
                    alias=alias,
                    name=names[key],
                )
            )
        names[key] = name
    for key, name in names.items():
        if player_key(name) in names and player_key(name) != key:
            raise StandingsError(
                _(
                    '"{name}" is an alias itself: write the name it stands for instead',
                    name=name,
                )
            )
    return Aliases(names)


def aliases_from_lines(text: str, source: str) -> Aliases:
    """Aliases from a text of `ALIAS = NAME` lines (`#` starts a comment)."""
    pairs: list[tuple[str, str]] = []
    where: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].strip()
        if not words:
            continue
        if "=" not in words:
            raise StandingsError(
                _(
                    "{source}, line {line}: write ALIAS = NAME (no = found)",
                    source=source,
                    line=number,
                )
            )
        alias, name = words.split("=", 1)
        pairs.append((alias, name))
        where.append(_("{source}, line {line}", source=source, line=number))
    return aliases_from_mapping(pairs, where)


# --- tournament points ----------------------------------------------------------------


class Points:
    """Tournament points by place for each player count (2 to MAX_PLAYERS)."""

    def __init__(self, by_count: Mapping[int, Sequence[int]]) -> None:
        self.by_count = {n: list(values) for n, values in sorted(by_count.items())}

    def of(self, players: int, place: int) -> int:
        """The points of `place` (1-based) in a game of `players`."""
        return self.by_count[players][place - 1]

    def table(self) -> dict[str, list[int]]:
        return {str(n): values for n, values in self.by_count.items()}


def _values(text: str, option: str) -> list[int]:
    words = [w.strip() for w in text.split(",")]
    if not all(re.fullmatch(r"[0-9]+", w) for w in words):
        raise StandingsError(
            _(
                '{option}: "{text}" is not a list of whole numbers ≥ 0 separated by commas',
                option=option,
                text=text,
            )
        )
    values = [int(w) for w in words]
    if any(b > a for a, b in itertools.pairwise(values)):
        raise StandingsError(
            _(
                '{option}: "{text}" rises; points by place must not increase',
                option=option,
                text=text,
            )
        )
    return values


def points_from(specs: Sequence[str], option: str = "--points") -> Points:
    """The points table of `--points` values: `5,3,2,0` for every player count (a game of n
    uses the first n), `3:4,2,1` for one count; none: n, n-1, …, 1."""
    general: list[int] | None = None
    counts: dict[int, list[int]] = {}
    for spec in specs:
        head, colon, rest = spec.partition(":")
        if not colon:
            general = _values(spec, option)
            continue
        if not re.fullmatch(r"[0-9]+", head.strip()) or not 2 <= int(head) <= MAX_PLAYERS:
            raise StandingsError(
                _(
                    '{option}: "{spec}" — before ":" comes a player count, 2 to {most}',
                    option=option,
                    spec=spec,
                    most=MAX_PLAYERS,
                )
            )
        n = int(head)
        values = _values(rest, option)
        if len(values) != n:
            raise StandingsError(
                ngettext(
                    '{option}: "{spec}" gives {given} values for games of {n} player',
                    '{option}: "{spec}" gives {given} values for games of {n} players',
                    n,
                    option=option,
                    spec=spec,
                    given=len(values),
                )
            )
        counts[n] = values
    table: dict[int, list[int]] = {}
    for n in range(2, MAX_PLAYERS + 1):
        if n in counts:
            table[n] = counts[n]
        elif general is None:
            table[n] = list(range(n, 0, -1))
        elif len(general) >= n:
            table[n] = general[:n]
        else:
            raise StandingsError(
                _(
                    "{option}: no points for games of {n} players: give at least {n} values, "
                    "or {n}:…",
                    option=option,
                    n=n,
                )
            )
    return Points(table)


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
        described("why: invalid_game, unreadable, not_a_result or one_player (docs/standings.md)"),
    ]
    message: Annotated[str, described("what is wrong, in the request's language")]


Result = Counted | LeftOut


class _Total(msgspec.Struct):
    total: int


class _Seat(msgspec.Struct):
    name: str
    place: int
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
    players: list[_Seat]


def _pointer(error: msgspec.ValidationError) -> tuple[str, str]:
    """(what is wrong, where as a JSON Pointer) of msgspec's `... - at `$.a[0].b``."""
    text = str(error)
    what, _sep, at = text.partition(" - at `$")
    pointer = re.sub(r"\[(\d+)\]", r"/\1", at.rstrip("`")).replace(".", "/")
    return what, pointer or "/"


def _label(value: Any) -> Any:
    """An event or a round as given: a text or a whole number; anything else as JSON text."""
    if value is None or isinstance(value, str) or type(value) is int:
        return value
    return msgspec.json.encode(value).decode()


def _said(problem: _Problem) -> str:
    return _(
        "{code} at {path}: {message}",
        code=problem.code,
        path=problem.path or "/",
        message=problem.message,
    )


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
        return LeftOut(where, None, None, "not_a_result", _not_a_result(err))
    source = _source(doc, where)
    meta = loose.meta or {}
    event, round_ = _label(meta.get("event")), _label(meta.get("round"))
    if not loose.valid:
        first = [*loose.errors, *(e for p in loose.players for e in p.errors)]
        code = "invalid_game" if loose.players else "unreadable"
        why = _said(first[0]) if first else _("invalid")
        return LeftOut(source, event, round_, code, why)
    try:
        seats = msgspec.convert(doc, _Valid).players
    except msgspec.ValidationError as err:
        return LeftOut(where, event, round_, "not_a_result", _not_a_result(err))
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


def _not_a_result(error: msgspec.ValidationError) -> str:
    what, where = _pointer(error)
    return _("not a result of `neweden validate --out`: {what} at {where}", what=what, where=where)


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


def standings(results: Iterable[Result], points: Points, aliases: Aliases) -> Standings:
    """The standings of every event of `results`, in the order events first appear, and the
    games left out."""
    events: dict[str | None, list[Counted]] = {}
    left: list[LeftOut] = []
    for result in results:
        if isinstance(result, LeftOut):
            left.append(result)
        else:
            events.setdefault(result.event, []).append(result)
    made = [_event(event, games, points, aliases) for event, games in events.items()]
    return Standings(
        FORMAT,
        points.table(),
        [one for one, _notes in made],
        left,
        [note for _one, notes in made for note in notes],
    )
