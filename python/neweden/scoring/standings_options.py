"""What the standings are asked (docs/standings.md): who is who (a player's name folded, the
aliases of an alias file) and the tournament points by place (`--points`)."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from neweden.i18n import _, ngettext, number

__all__ = [
    "MAX_PLAYERS",
    "MAX_POINTS",
    "Aliases",
    "Points",
    "StandingsError",
    "aliases_from_lines",
    "aliases_from_mapping",
    "player_key",
    "points_from",
]

#: The most players a game has (FORMAT §1): the points table goes up to it.
MAX_PLAYERS = 4
#: The most tournament points a place scores.
MAX_POINTS = 1_000_000


class StandingsError(ValueError):
    """A bad option of the standings (`--points`, an alias file): the sentence says what."""


# --- who is who -------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


def player_key(name: str) -> str:
    """A player's name folded: accents off, case, runs of spaces and invisible characters
    (zero-width spaces, marks of direction: Unicode's format characters) not counted
    (`"Úrsula  Lima"` → `"ursula lima"`)."""
    bare = "".join(
        c
        for c in unicodedata.normalize("NFKD", name)
        if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )
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
    with two names, or when a name is itself an alias (say the final name at once). A name
    given as its own alias says nothing and is left out."""
    names: dict[str, str] = {}
    places: dict[str, str] = {}
    for (alias, name), place in zip(pairs, where, strict=True):
        alias, name = alias.strip(), name.strip()
        if not alias or not name:
            raise StandingsError(_("{where}: an alias needs a name on each side of =", where=place))
        key = player_key(alias)
        if key == player_key(name):
            continue
        if key in names and player_key(names[key]) != player_key(name):
            raise StandingsError(
                _(
                    '{where}: "{alias}" is already an alias of "{name}"',
                    where=place,
                    alias=alias,
                    name=names[key],
                )
            )
        names[key], places[key] = name, place
    for key, name in names.items():
        if player_key(name) in names:
            raise StandingsError(
                _(
                    '{where}: "{name}" is an alias itself: write the name it stands for instead',
                    where=places[key],
                    name=name,
                )
            )
    return Aliases(names)


def _comment_off(line: str) -> str:
    """A line of an alias file without its comment: from a `#` that starts the line or
    follows a space (`Ana#1 = Ana` keeps its `#`)."""
    found = re.search(r"(^|\s)#", line)
    return (line[: found.start()] if found else line).strip()


def aliases_from_lines(text: str, source: str) -> Aliases:
    """Aliases from a text of `ALIAS = NAME` lines (`#` after a space starts a comment)."""
    pairs: list[tuple[str, str]] = []
    where: list[str] = []
    for at, line in enumerate(text.splitlines(), 1):
        words = _comment_off(line)
        if not words:
            continue
        if words.count("=") != 1:
            raise StandingsError(
                _(
                    "{source}, line {line}: write ALIAS = NAME, with one =",
                    source=source,
                    line=at,
                )
            )
        alias, name = words.split("=", 1)
        pairs.append((alias, name))
        where.append(_("{source}, line {line}", source=source, line=at))
    return aliases_from_mapping(pairs, where)


# --- tournament points ----------------------------------------------------------------


class Points:
    """Tournament points by place for each player count (2 to MAX_PLAYERS) the option gives;
    `option` names it in an error (`--points`, or `points` in a request)."""

    def __init__(self, by_count: Mapping[int, Sequence[int]], option: str = "--points") -> None:
        self.by_count = {n: list(values) for n, values in sorted(by_count.items())}
        self.option = option

    def of(self, players: int, place: int) -> int:
        """The points of `place` (1 to `players`) in a game of `players`."""
        return self.by_count[players][place - 1]

    def check(self, counts: Iterable[int]) -> None:
        """StandingsError when a game of one of `counts` players has no points."""
        for n in sorted(set(counts)):
            if n not in self.by_count:
                raise StandingsError(
                    _(
                        "{option}: no points for games of {n} players: give at least {n} "
                        "values, or {n}:…",
                        option=self.option,
                        n=n,
                    )
                )

    def table(self) -> dict[str, list[int]]:
        return {str(n): values for n, values in self.by_count.items()}


def _values(text: str, spec: str, option: str) -> list[int]:
    """The points of one list of `spec` (the option's value, named in an error)."""
    words = [w.strip() for w in text.split(",")]
    if not all(re.fullmatch(r"[0-9]{1,7}", w) and int(w) <= MAX_POINTS for w in words):
        raise StandingsError(
            _(
                '{option}: "{spec}" is not a list of whole numbers from 0 to {most} separated '
                "by commas",
                option=option,
                spec=spec,
                most=number(MAX_POINTS),
            )
        )
    values = [int(w) for w in words]
    if any(b > a for a, b in itertools.pairwise(values)):
        raise StandingsError(
            _(
                '{option}: "{spec}" rises; points by place must not increase',
                option=option,
                spec=spec,
            )
        )
    return values


def _one_count(spec: str, head: str, rest: str, option: str) -> tuple[int, list[int]]:
    """(n, points) of `n:v,v,…`."""
    if not re.fullmatch(r"[0-9]", head.strip()) or not 2 <= int(head) <= MAX_PLAYERS:
        raise StandingsError(
            _(
                '{option}: "{spec}" — before ":" comes a player count, 2 to {most}',
                option=option,
                spec=spec,
                most=MAX_PLAYERS,
            )
        )
    n = int(head)
    values = _values(rest, spec, option)
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
    return n, values


def points_from(specs: Sequence[str], option: str = "--points") -> Points:
    """The points table of `--points` values: `5,3,2,0` for every player count (a game of n
    uses the first n; given once), `3:4,2,1` for one count; none: n, n-1, …, 1. A count the
    values do not reach has no points (:meth:`Points.check`)."""
    general: list[int] | None = None
    counts: dict[int, list[int]] = {}
    for spec in specs:
        head, colon, rest = spec.partition(":")
        if colon:
            n, values = _one_count(spec, head, rest, option)
            if n in counts:
                raise StandingsError(
                    _(
                        "{option}: give the points of games of {n} players once",
                        option=option,
                        n=n,
                    )
                )
            counts[n] = values
        elif general is not None:
            raise StandingsError(
                _("{option}: give one list for every player count, not two", option=option)
            )
        else:
            general = _values(spec, spec, option)
    table: dict[int, list[int]] = {}
    for n in range(2, MAX_PLAYERS + 1):
        if n in counts:
            table[n] = counts[n]
        elif general is None:
            table[n] = list(range(n, 0, -1))
        elif len(general) >= n:
            table[n] = general[:n]
    return Points(table, option)
