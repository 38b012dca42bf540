"""The score report (FORMAT §3): RULES §4 over the figures of every city.

The rules read numbers only: the :class:`~neweden.geometry.figures.ScoreFigures` of each city,
computed for all the cities of a batch in one call to the native core for the games read lean
and one for those decoded the exact way (a document scored alone is read by its thread's
packer and scored by the same functions as a batch of one: :func:`score_report`), or by
:mod:`neweden.geometry.reference` for the twin path the tests compare it with.
The cards themselves are resolved and walked only for what needs them: the messages of
errors and warnings, conditions that filter cards, and the audit trail.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Final

import msgspec

from neweden._gc import collector_paused, detached
from neweden.catalog.catalog import (
    BUILTIN,
    Catalog,
    ResolvedExtras,
    resolve_all,
    resolve_extras,
)
from neweden.format.decode import GameInput, as_declared, decode_game_bytes, game_bytes
from neweden.format.lean import LeanGame, decode_lean
from neweden.format.model import Game
from neweden.format.problems import GameDecodeError
from neweden.geometry.compact import (
    PackedGames,
    pack_games,
)
from neweden.geometry.figures import CityFigures
from neweden.geometry.native import JsonGames
from neweden.i18n import speaking
from neweden.rules.names import NamesMemo, batch_quiet
from neweden.rules.warnings import CARDS_PER_STYLE
from neweden.scoring.chunk import chunk_players
from neweden.scoring.chunk_reports import _ChunkReports
from neweden.scoring.core import (
    ALL_DETAILS,
    ILLEGAL_DETAILS,
    Core,
    GameFigures,
    _together,
    native_found,
    native_geometry,
    reference_geometry,
)
from neweden.scoring.game_score import _game_names, _game_score, _names
from neweden.scoring.types import (
    REPORT_FORMAT,
    Report,
)

__all__ = [
    "REPORT_FORMAT",
    "Core",
    "lean_game",
    "native_geometry",
    "reference_geometry",
    "score",
    "score_game",
    "score_games",
    "score_inputs",
    "score_packed",
    "score_pictured",
    "score_report",
    "score_reports",
]


def score(
    game: GameInput | Game,
    *,
    catalog: Catalog | None = None,
    detail: bool = True,
    lang: str | None = None,
) -> dict[str, Any]:
    """Score one game: the report of FORMAT §3, as a plain dict.

    Parameters
    ----------
    game : bytes, bytearray, memoryview, str, mapping or Game
        The game: its JSON document, a mapping, or a :class:`~neweden.Game` already decoded
        by :func:`neweden.decode_game`.
    catalog : Catalog, optional
        The catalog the ids are looked up in (None: :data:`neweden.BUILTIN`).
    detail : bool, optional
        The detailed report, with the audit trail of every player and of the game
        (docs/report.md); False: the lean report, without it. Default is True.
    lang : str, optional
        The language of the messages: ``"en"`` or ``"pt-BR"`` (None: the current language,
        English unless set). Codes, keys and values are the same in every language.

    Returns
    -------
    dict
        The report: ``valid``, ``mode``, each player's score and place under ``players``,
        the game's ``errors`` and ``warnings``, and the rest of FORMAT §3.

    Raises
    ------
    GameDecodeError
        When the input is not a readable game (its problems in `lang`).
    TypeError
        For a game that is not bytes, str, a mapping or a Game.
    neweden.i18n.UnknownLanguage
        (a ValueError) For a language neweden does not speak.

    Examples
    --------
    >>> import neweden
    >>> from importlib.resources import files
    >>> example = files("neweden").joinpath("data/final-scoring-example.json").read_bytes()
    >>> report = neweden.score(example)  # the built-in example (neweden score --example)
    >>> report["valid"], [(p["name"], p["score"]["total"], p["place"]) for p in report["players"]]
    (True, [('Sarah', 78, 1), ('Bruno', 34, 3), ('Carla', 43, 2)])
    >>> [problem["code"] for problem in report["warnings"]]
    ['default_majority_table']
    >>> "audit" in report, "audit" in neweden.score(example, detail=False)
    (True, False)
    >>> neweden.score(example, lang="pt-BR")["warnings"][0]["code"]  # codes are not translated
    'default_majority_table'
    >>> try:
    ...     neweden.score({"mode": "military", "players": []})
    ... except neweden.GameDecodeError as err:
    ...     print(err)
    /players: bad_value: `players` is empty; at least 1 are needed
    """
    if lang is None:  # the current language: nothing to set
        return _to_dict(score_report(game, catalog=catalog, detail=detail))
    with speaking(lang):
        return _to_dict(score_report(game, catalog=catalog, detail=detail))


#: The smallest document read lean: below, a game of a card or two, the exact decoder costs
#: as little (measured: docs/benchmarks.md, "Cities read natively").
LEAN_FROM_BYTES = 512


def score_report(
    game: GameInput | Game, *, catalog: Catalog | None = None, detail: bool = True
) -> Report:
    """:func:`score`'s report as a :class:`~neweden.scoring.types.Report` (to encode or read
    by attribute)."""
    if isinstance(game, Game):
        return as_declared(game, lambda g: score_reports([g], catalog=catalog, detail=detail)[0])
    raw = game_bytes(game)  # (a LeanGame is a Game: score_reports refuses it)
    detail = bool(detail)  # (any truthy value, as Python reads it: the compiled rules take a bool)
    catalog = catalog or BUILTIN
    if len(raw) >= LEAN_FROM_BYTES:  # (below, the exact decoder costs as little)
        with collector_paused():  # (what _score_documents does for a batch of one, in one pass)
            lean = read_alone(raw, catalog, ALL_DETAILS if detail else ILLEGAL_DETAILS)
            if lean is not None:
                read, packed, figures = lean
                batch = _PackedBatch(
                    [read], packed, figures, catalog, detail, native_geometry, [raw]
                )
                return batch.alone(0)
    # the exact decoder's report, or its problems
    return score_reports([decode_game_bytes(raw)], catalog=catalog, detail=detail)[0]


#: Per thread, the packer of the games scored alone and its catalog (a packer reads by one
#: catalog; it is cleared for each game), or None while a game is being read with it.
_ALONE = threading.local()


def read_alone(
    raw: bytes, catalog: Catalog, details: int
) -> tuple[LeanGame, PackedGames, GameFigures] | None:
    """A document scored alone read lean and through the core's pass (`details`: whose
    per-card figures it lists), by the calling thread's packer: the game, its table and its
    figures; None when the lean readers refuse it (decode it the exact way). The packer is
    made once a thread and catalog (whose identity it keeps) and is taken from the thread
    while the game is read: a game scored meanwhile on the same thread (a signal handler, a
    hook called from the reader) gets a packer of its own, not the one this game is in."""
    held: tuple[Catalog, JsonGames] | None = getattr(_ALONE, "packer", None)
    _ALONE.packer = None
    if held is None or held[0] is not catalog:
        held = (catalog, JsonGames(catalog))
    try:
        packer = held[1]
        read = packer.read_alone(raw, decode_lean)
        if read is None:
            return None
        packed, found = packer.packed_scored(CARDS_PER_STYLE, details)
    finally:  # the table read: the packer free for the thread's next game
        _ALONE.packer = held
    return read, packed, native_found(packed, found)


def score_inputs(
    games: Sequence[GameInput],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[Report | GameDecodeError | TypeError]:
    """The report of each document (bytes, str or a mapping), or why it is not a readable
    game: :class:`~neweden.format.decode.GameDecodeError`, or TypeError for an input of
    another kind. A document is read lean where it can be (its cities by the native core,
    :mod:`neweden.format.lean`), the others are decoded the exact way; the same reports
    either way. The cities of all of them go through the core in one pass of each kind.
    An error is kept as data, without its traceback (:func:`neweden._gc.detached`)."""
    out: list[Any] = [_NOT_YET] * len(games)
    raws: list[bytes] = []
    at: list[int] = []
    for i, game in enumerate(games):
        try:
            raws.append(game_bytes(game))
            at.append(i)
        except (GameDecodeError, TypeError) as err:
            out[i] = detached(err)
    found = _score_documents(raws, catalog or BUILTIN, detail, geometry or native_geometry)
    for i, one in zip(at, found, strict=True):
        out[i] = one
    assert _NOT_YET not in out  # every place filled: a report or why there is none
    return out


def _score_documents(
    raws: Sequence[bytes], catalog: Catalog, detail: bool, core: Core
) -> list[Any]:
    """:func:`score_inputs` of documents through :func:`game_bytes` already (a byte-order
    mark taken off once: a second one is not a game's)."""
    detail = bool(detail)  # (any truthy value, as Python reads it: the compiled rules take a bool)
    out: list[Any] = [_NOT_YET] * len(raws)
    lean_at: list[int] = []  # the index, game and document of each game read lean
    lean: list[Game] = []
    sources: list[bytes | None] = []
    exact_at: list[int] = []  # and of each decoded the exact way
    exact: list[Game] = []
    packer: JsonGames | None = None
    with collector_paused():
        if core is native_geometry:  # the cities packed natively, the rest by msgspec
            packer = JsonGames(catalog)
            read_lean = packer.read_many(raws, _lean_from(raws, catalog, detail), decode_lean)
        else:
            read_lean = [None] * len(raws)
        for i, (raw, read) in enumerate(zip(raws, read_lean, strict=True)):
            if read is not None:
                lean_at.append(i)
                lean.append(read)
                sources.append(raw)
                continue
            try:
                exact.append(decode_game_bytes(raw))
                exact_at.append(i)
            except GameDecodeError as err:
                out[i] = detached(err)
        if packer is not None and lean:
            packed = packer.packed()
            found = core.games(packed, lean, catalog, ALL_DETAILS if detail else ILLEGAL_DETAILS)
            reports = score_packed(
                lean, packed, found, catalog=catalog, detail=detail, core=core, sources=sources
            )
            for i, report in zip(lean_at, reports, strict=True):
                out[i] = report
        if exact:
            made = score_reports(exact, catalog=catalog, detail=detail, geometry=core)
            for i, report in zip(exact_at, made, strict=True):
                out[i] = report
    assert _NOT_YET not in out  # every place filled
    return out


def lean_game(packer: JsonGames, raw: bytes) -> LeanGame | None:
    """A document read lean: its cities packed by the native core's strict reader, the rest
    (the document with each city given as `[]`) decoded by msgspec; None, nothing packed,
    when either refuses it (decode it the exact way: the same report, or the problem). The
    strict reader reads every byte of the cities and only skips past the rest; msgspec reads
    that rest, so every byte is read once and checked once. (:func:`score_inputs` reads a
    batch so, in one call: :meth:`JsonGames.read_many`.)"""
    return packer.read_many([raw], 0, decode_lean)[0]


def _lean_from(raws: Sequence[bytes], catalog: Catalog, detail: bool) -> int:
    """The smallest document of a batch read lean: LEAN_FROM_BYTES, but any size where the
    games read lean are scored together (a chunk: a small game is dearer alone, the exact
    way, than lean in a chunk)."""
    return 0 if _together(len(raws), detail, catalog) else LEAN_FROM_BYTES


#: A place of score_inputs' answer not filled yet (each is, before it returns).
_NOT_YET: Final = object()


def score_game(
    game: Game,
    *,
    catalog: Catalog | None = None,
    detail: bool = True,
    geometry: Core = native_geometry,
) -> dict[str, Any]:
    """The report of a decoded game, as a plain dict; `geometry` computes each city's
    figures."""
    return _to_dict(score_reports([game], catalog=catalog, detail=detail, geometry=geometry)[0])


def score_games(
    games: Sequence[Game],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[dict[str, Any]]:
    """The reports of many decoded games, as plain dicts (see :func:`score_reports`)."""
    found = score_reports(games, catalog=catalog, detail=detail, geometry=geometry)
    return [_to_dict(report) for report in found]


def _to_dict(report: Report) -> dict[str, Any]:
    """A report as the plain dict `neweden.score` gives (the Struct's fields as keys, in
    order; `audit` only when there). The audit is made of plain dicts and lists already
    (:mod:`neweden.scoring.types`): it is not copied, but set aside while the rest is
    converted and put back in its place, the last key of each player and of the report."""
    audit = report.audit
    if audit is msgspec.UNSET:
        return msgspec.to_builtins(report)  # type: ignore[no-any-return]
    players = report.players
    audits = []
    for player in players:
        audits.append(player.audit)
        player.audit = msgspec.UNSET
    report.audit = msgspec.UNSET
    try:
        out: dict[str, Any] = msgspec.to_builtins(report)
    finally:  # the report as it was
        for player, kept in zip(players, audits, strict=True):
            player.audit = kept
        report.audit = audit
    for entry, kept in zip(out["players"], audits, strict=True):
        if kept is not msgspec.UNSET:
            entry["audit"] = kept
    out["audit"] = audit
    return out


def score_reports(
    games: Sequence[Game],
    *,
    catalog: Catalog | None = None,
    detail: bool = False,
    geometry: Core | None = None,
) -> list[Report]:
    """The reports of many decoded games, the cities of all of them packed into one table
    and analysed in one native call: the exact half of :func:`score_inputs`, and the path of
    a :class:`~neweden.format.model.Game` given already decoded (a game alone is a batch of
    one). Raises TypeError for a :class:`~neweden.format.lean.LeanGame` (its cities are
    JSON: score its document)."""
    catalog = catalog or BUILTIN
    core = geometry or native_geometry
    detail = bool(detail)  # (any truthy value, as Python reads it: the compiled rules take a bool)
    for game in games:  # a loop, not any(): this runs for every game scored
        if game.__class__ is LeanGame:
            raise TypeError("a LeanGame holds its cities as JSON: score its document")
    with collector_paused():
        packed = pack_games(games, catalog)
        found = core.games(packed, games, catalog, ALL_DETAILS if detail else ILLEGAL_DETAILS)
        return score_packed(games, packed, found, catalog=catalog, detail=detail, core=core)


def score_pictured(
    game: Game, *, catalog: Catalog | None = None, report: Report | None = None
) -> tuple[Report, list[CityFigures]]:
    """The lean report of a decoded game and the per-card figures of every city, from one
    pass of the core (what a picture draws). `report`: the game's report when the caller
    has scored it already (a batch), used as it is."""
    catalog = catalog or BUILTIN
    with collector_paused():
        packed = pack_games([game], catalog)
        found = native_geometry.games(packed, [game], catalog, ALL_DETAILS)
        if report is None:
            (report,) = score_packed([game], packed, found, catalog=catalog, detail=False)
    return report, [found.listed[k] for k in range(len(game.players))]


def score_packed(
    games: Sequence[Game],
    packed: PackedGames,
    found: GameFigures,
    *,
    catalog: Catalog,
    detail: bool,
    core: Core = native_geometry,
    sources: Sequence[bytes | None] | None = None,
) -> list[Report]:
    """RULES §4 over packed games and what one pass of the core found of their cities (the
    rules stage of the pipeline); `core` gives the per-card figures that messages and audit
    trails need when that pass did not list them. `sources`: the document of each game
    decoded lean (:mod:`neweden.format.lean`; None for a game decoded the exact way)."""
    batch = _PackedBatch(games, packed, found, catalog, detail, core, sources)
    together = batch.together
    return [
        together.report(g, batch.quiet)
        if together is not None and not together.chunk.alone[g]
        else batch.alone(g)
        for g in range(len(games))
    ]


class _PackedBatch:
    """A batch of :func:`score_packed`: its names' checks and, when its players are scored
    together, its chunk (`together`)."""

    def __init__(
        self,
        games: Sequence[Game],
        packed: PackedGames,
        found: GameFigures,
        catalog: Catalog,
        detail: bool,
        core: Core,
        sources: Sequence[bytes | None] | None,
    ) -> None:
        self.games, self.packed, self.found = games, packed, found
        self.catalog, self.detail, self.core, self.sources = catalog, detail, core, sources
        self.quiet: NamesMemo = {}  # the batch's name checks
        self.names = _names(packed)
        self.told = len(games) == 1 or not batch_quiet(self.names)
        self.extras: list[ResolvedExtras] | None = None
        self.together: _ChunkReports | None = None
        if core is native_geometry and _together(len(games), detail, catalog):
            self.extras = resolve_all(games, catalog)
            figures, columns = found.figures, found.columns
            chunk = chunk_players(games, self.extras, figures, packed.first_city, catalog, columns)
            self.together = _ChunkReports(
                games, self.extras, packed, found, chunk, catalog, sources=sources, told=self.told
            )

    def alone(self, g: int) -> Report:
        """Game g's report from its own rules (a game not scored in the chunk)."""
        game, packed, found = self.games[g], self.packed, self.found
        first, stop = packed.first_city[g], packed.first_city[g + 1]
        alone = len(self.games) == 1
        shown = _game_names(packed, g, self.names, alone, self.quiet) if self.told else None
        ids = self.extras[g] if self.extras is not None else resolve_extras(game, self.catalog)
        score = _game_score(
            packed,
            g,
            game,
            ids,
            self.catalog,
            core=self.core,
            sources=self.sources,
            listed=found.listed,
        )
        box = found.over_box.get(g, {})
        return score.report(found.figures[first:stop], box, shown, self.detail)
