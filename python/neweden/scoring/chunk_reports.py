"""The lean reports of a chunk's games, from the players scored over its columns
(:mod:`neweden.scoring.chunk`) and the problems each game has."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any, Final

import msgspec

from neweden.catalog.catalog import (
    Catalog,
    ResolvedExtras,
)
from neweden.format.model import Game
from neweden.format.modes import MODES as _MODES
from neweden.format.problems import Problem
from neweden.geometry.compact import PackedGames, city_columns
from neweden.rules.legality import (
    geometry_problems,
)
from neweden.rules.majority import MajoritySource, majority_source
from neweden.rules.names import NamesMemo
from neweden.rules.warnings import game_warnings, rotated_cards
from neweden.scoring.chunk import ChunkPlayers
from neweden.scoring.core import GameFigures, native_geometry
from neweden.scoring.game_score import _game_names, _game_score, _GameScore, _names
from neweden.scoring.problems import (
    _activated_five_point,
    _assembled,
    _city_path,
    _unknown_first_player,
    majority_warnings,
    table_problems,
)
from neweden.scoring.types import (
    PlayerReport,
    Report,
)


class _ChunkReports:
    """The lean reports of a chunk's games whose players were scored over columns
    (:func:`~neweden.scoring.chunk.chunk_players`): each game's problems told by the same
    functions as :meth:`_GameScore.report`, in the same order, but each looked for in what
    the chunk found (its facts, the packed rows) and told only where there is one; a game's
    cards (its :class:`_GameScore`) are looked at only when a card rule speaks of them."""

    def __init__(
        self,
        games: Sequence[Game],
        extras: Sequence[ResolvedExtras],
        packed: PackedGames,
        found: GameFigures,
        chunk: ChunkPlayers,
        catalog: Catalog,
        *,
        sources: Sequence[bytes | None] | None,
        told: bool,
    ) -> None:
        self.games, self.extras, self.packed, self.chunk = games, extras, packed, chunk
        self.figures, self.over_box, self.listed, _columns = found
        self.catalog, self.sources = catalog, sources
        self.told = told  # a game's names may have a problem
        self.names = _names(packed)
        self.alone = len(games) == 1
        self._majority: dict[tuple[str, int, int], _Majority] = {}
        # the few games a rule of the whole city speaks of, found once for the chunk: the
        # players of each game whose city is illegal, or empty; the cities with an epiphany
        # declared activated with 5 points; the games with an effect no rule knows
        facts, offsets = chunk.told, packed.offsets
        self.illegal = _players_of(
            packed.first_city, [k for k, f in enumerate(self.figures) if not f.legal]
        )
        self.empty = _players_of(
            packed.first_city, [k for k in range(len(offsets) - 1) if offsets[k] == offsets[k + 1]]
        )
        self.five_point = _players_of(
            packed.first_city, [k for k, five in enumerate(facts.five_point) if five]
        )
        self.odd_effect = _players_of(
            packed.first_city, [k for k, odd in enumerate(facts.odd_effect) if odd]
        )

    def majority(self, game: Game, first_bases: int) -> _Majority:
        """:func:`majority_warnings` of a game and where its table comes from: the same for
        every game of a mode, a number of players and (with one player) of bases (a game
        that gives its own table is scored alone), so found once a chunk for each."""
        n = len(game.players)
        key = (game.mode, n, first_bases if n == 1 else 0)
        told = self._majority.get(key)
        if told is None:
            found: list[Problem] = []
            majority_warnings(game, self.catalog, first_bases, found)
            told = self._majority[key] = (tuple(found), majority_source(game, self.catalog))
        return told

    def score(self, g: int) -> _GameScore:
        """Game g's rules with its cards (a card rule speaks of them)."""
        game, extras, catalog = self.games[g], self.extras[g], self.catalog
        return _game_score(
            self.packed,
            g,
            game,
            extras,
            catalog,
            core=native_geometry,
            sources=self.sources,
            listed=self.listed,
        )

    def geometry(self, g: int, first: int, p: int) -> list[Problem]:
        """`overlap` and `disconnected` of game g's player p's city (an illegal one; `first`:
        the game's first city), from its per-card figures the chunk's pass listed."""
        found = self.listed.get(first + p)
        if found is None:  # not listed (a pass that lists none): the game's rules find them
            return self.score(g).geometry(p)
        city = city_columns(self.packed.flat, self.packed.offsets, first + p)
        return geometry_problems(_city_path(p), city, found)

    def report(self, g: int, quiet: NamesMemo) -> Report:
        errors, warnings, source = self.problems(g, quiet)
        first, stop = self.packed.first_city[g], self.packed.first_city[g + 1]
        # (a game the chunk scored, the only one asked here: its entries are all reports)
        players: list[PlayerReport] = self.chunk.entries[first:stop]  # type: ignore[assignment]
        game = self.games[g]
        rotated = self.packed.cards[g].rotated
        if rotated:  # (the player's rotate effect, from the chunk's columns)
            rotated = rotated_cards(rotated, self.chunk.told.rotates, first)
        return _assembled(
            game,
            self.catalog,
            players,
            errors,
            warnings,
            msgspec.UNSET,
            source=source,
            rotated=rotated,
        )

    def problems(
        self, g: int, quiet: NamesMemo
    ) -> tuple[list[Problem], list[Problem], MajoritySource | None]:
        """Game g's errors and warnings, in the order the rules tell them (but
        `rotated_without_epiphany`'s: :meth:`report`), and where its D5 table comes from."""
        game, extras, facts, packed = self.games[g], self.extras[g], self.chunk.told, self.packed
        first = packed.first_city[g]
        info = packed.cards[g]
        shown = _game_names(packed, g, self.names, self.alone, quiet) if self.told else None
        made: list[_GameScore] = []  # the game's rules with its cards: made once, if asked

        def score() -> _GameScore:
            if not made:
                made.append(self.score(g))
            return made[0]

        errors, warnings = table_problems(
            game,
            extras,
            info,
            self.catalog,
            illegal=self.illegal.get(g, ()),
            empty=self.empty.get(g, ()),
            shown=shown,
            odd_effects=g in self.odd_effect,
            score=score,
            geometry=lambda p: self.geometry(g, first, p),
        )
        d5, source = self.majority(game, self.figures[first].bases)
        warnings.extend(d5)
        if isinstance(game.first_player, str) and facts.first[g] < 0:
            warnings.append(_unknown_first_player(game.first_player))
        # what game_warnings reads of the 1/3 stars, made only where it reads them (a game
        # without stars)
        thirds: Callable[[int], Sequence[int]] = _unread
        if not _MODES[game.mode].populist:
            thirds = lambda p: facts.thirds[first + p]  # noqa: E731
        warnings.extend(
            game_warnings(
                game,
                self.over_box.get(g, _NO_COUNTS),
                facts.most_cards[g],
                extras.requirements,
                thirds,
            )
        )
        for p in self.five_point.get(g, ()):
            errors.extend([_activated_five_point(p, k) for k in facts.five_point[first + p]])
        return errors, warnings, source


def _players_of(first_city: Sequence[int], cities: Sequence[int]) -> dict[int, list[int]]:
    """The players, game by game, whose cities are `cities` (indices in the table, in
    order; `first_city`: each game's first, one more at the end)."""
    found: dict[int, list[int]] = {}
    for k in cities:
        g = bisect.bisect_right(first_city, k) - 1
        found.setdefault(g, []).append(k - first_city[g])
    return found


_NO_COUNTS: Final[dict[str, int]] = {}

#: D5's warnings of a game and where its table comes from (None: it scores no D5).
_Majority = tuple[tuple[Problem, ...], MajoritySource | None]


def _unread(*args: int) -> Any:
    """What game_warnings is given for what it does not read of a game (see problems)."""
    raise AssertionError("game_warnings read what a chunk's game did not give it")
