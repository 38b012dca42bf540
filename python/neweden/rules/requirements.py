"""Bid requirements (RULES §4a, Populist): each requirement card's condition, and the
card points by stars.

Conditions are data in the condition language (:mod:`neweden.catalog.conditions`); the built-in
A1, B1 and C1 are written in it in :data:`neweden.catalog.catalog.BUILTIN`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from msgspec import UNSET

from neweden.catalog.catalog import RequirementSpec
from neweden.format import codes
from neweden.format.model import Game
from neweden.format.problems import Problem, join
from neweden.geometry.figures import ScoreFigures
from neweden.i18n import _, current
from neweden.rules.conditions import CityContext, Test, Value, compiled, values_and_words

__all__ = [
    "POINTS_PER_EXTRA_STAR",
    "Declared",
    "RequirementJudge",
    "RequirementResult",
    "card_points",
    "cards_points",
    "checked",
    "declarations_ignored",
    "declared_requirements",
    "declared_result",
    "declared_warning",
    "disagreements",
    "populist_points",
    "requirement_judges",
    "requirement_tests",
]

#: How many stars above three are worth (RULES §4a.2).
POINTS_PER_EXTRA_STAR = 15


class RequirementResult(NamedTuple):
    id: str
    met: bool
    why: str  # the verdict in words: "C1 not met: 6 open connections; at most 4 allowed"
    words: str = ""  # what the condition found: "6 open connections; at most 4 allowed"
    declared: bool = False  # scored as the table declared it, not checked against the city


RequirementJudge = Callable[[CityContext], RequirementResult]


def requirement_judges(
    requirement_ids: Sequence[str], specs: Sequence[RequirementSpec | None]
) -> list[RequirementJudge]:
    """The judge of each requirement in play (`specs`: the ids looked up), in play order:
    its result over a city with the figures that decided it in words, in the current
    language. A game's players share them (the report makes them once a game); each
    judge says a sentence once for each verdict it meets, as the conditions' words are
    made once for each set of values."""
    return [
        _requirement_judge(req_id, spec)
        for req_id, spec in zip(requirement_ids, specs, strict=True)
    ]


#: The judges made, by (requirement id, catalog entry's identity, language), each with its
#: entry (kept alive, so that the identity stays its own): a requirement's sentences are made
#: once for all the games of a catalog, not once a game.
_JUDGES: dict[tuple[str, int, str], tuple[RequirementSpec | None, RequirementJudge]] = {}
_MAX_JUDGES = 1024  # (a catalog holds few requirements; a bound all the same)
_MAX_RESULTS = 1024  # sentences kept a judge (a few verdicts recur)


def _requirement_judge(req_id: str, spec: RequirementSpec | None) -> RequirementJudge:
    key = (req_id, id(spec), current())
    found = _JUDGES.get(key)
    if found is None or found[0] is not spec:
        if len(_JUDGES) >= _MAX_JUDGES:
            _JUDGES.clear()
        found = _JUDGES[key] = (spec, _new_judge(req_id, spec))
    return found[1]


def _new_judge(req_id: str, spec: RequirementSpec | None) -> RequirementJudge:
    if spec is None or spec.condition is None:
        result = _unmet(req_id, spec)
        return lambda city: result
    values, verdict_of = values_and_words(spec.condition)
    results: dict[tuple[int, ...], RequirementResult] = {}  # by the values read
    read_all = _reader(values)

    def judged_requirement(city: CityContext) -> RequirementResult:
        read = read_all(city)
        found = results.get(read)
        if found is None:
            if len(results) >= _MAX_RESULTS:
                results.clear()
            met, words = verdict_of(read)
            if met:
                why = _("{id} met: {words}", id=req_id, words=words)
            else:
                why = _("{id} not met: {words}", id=req_id, words=words)
            found = results[read] = RequirementResult(req_id, met, why, words)
        return found

    return judged_requirement


def _reader(values: Sequence[Value]) -> Callable[[CityContext], tuple[int, ...]]:
    """The values of a city, in order. Most conditions compare two values (a figure and a
    number): theirs are read without a loop."""
    if len(values) == 2:
        first, second = values
        return lambda city: (first(city), second(city))
    return lambda city: tuple([value(city) for value in values])


def _unmet(req_id: str, spec: RequirementSpec | None) -> RequirementResult:
    """The result of a requirement that cannot be met: an unknown id, or a catalog entry
    without a condition."""
    if spec is None:
        return RequirementResult(req_id, False, _("unknown id: not met"))
    return RequirementResult(req_id, False, _("no condition in the catalog: not met"))


def requirement_tests(
    requirement_ids: Sequence[str], specs: Sequence[RequirementSpec | None]
) -> list[tuple[str, Test]]:
    """(id, test of a city) of each requirement in play that can be met, in play order:
    :func:`requirement_judges` without the words (the lean report), `specs` being the
    ids looked up. An unknown id, or one without a condition, is never met."""
    key = (tuple(requirement_ids), tuple(map(id, specs)))
    found = _TESTS.get(key)
    if found is None:
        if len(_TESTS) >= _TESTS_LIMIT:
            _TESTS.clear()
        tests = [(i, compiled(spec.condition)) for i, spec in testable(requirement_ids, specs)]
        found = _TESTS[key] = (tuple(specs), tests)
    return list(found[1])


#: The tests of the requirement lists met (games repeat a few): by their ids and the
#: identities of their specs (the specs are kept with the tests: an identity held is not
#: reused).
_TESTS: dict[
    tuple[tuple[str, ...], tuple[int, ...]],
    tuple[tuple[RequirementSpec | None, ...], list[tuple[str, Test]]],
] = {}
_TESTS_LIMIT = 1024


def testable(
    requirement_ids: Sequence[str], specs: Sequence[RequirementSpec | None]
) -> list[tuple[str, RequirementSpec]]:
    """(id, spec) of each requirement in play that can be met (known, with a condition), in
    play order: what the lean report and a chunk's columns test."""
    return [
        (req_id, spec)
        for req_id, spec in zip(requirement_ids, specs, strict=True)
        if spec is not None and spec.condition is not None
    ]


def checked(spec: RequirementSpec | None) -> bool:
    """Whether a requirement card is judged by the city (RULES §4a): the catalog knows it and
    gives its condition. Any other card in play is scored as the table declared it."""
    return spec is not None and spec.condition is not None


class Declared(NamedTuple):
    """What a player declared of the requirement cards in play (RULES §4a): `met`, the cards
    the city cannot judge that are scored as met on the table's word, in play order;
    `checked`, the (place in `requirements_met`, id) of each card the city judges that the
    player declared (each checked against the city)."""

    met: list[str]
    checked: list[tuple[int, str]]


_NOTHING_DECLARED = Declared([], [])


def declared_requirements(game: Game, p: int, specs: Sequence[RequirementSpec | None]) -> Declared:
    """Player p's declaration read against the cards in play (`specs`: the game's
    requirement ids looked up, in play order). Once some player of the game declares, a
    player without `requirements_met` met none of the cards the city cannot judge."""
    listed = game.players[p].requirements_met
    if listed is UNSET or not listed:
        return _NOTHING_DECLARED
    said = set(listed)
    in_play = list(zip(game.requirement_ids(), specs, strict=True))
    met = [req_id for req_id, spec in in_play if req_id in said and not checked(spec)]
    judged = {req_id for req_id, spec in in_play if checked(spec)}
    return Declared(met, [(k, req_id) for k, req_id in enumerate(listed) if req_id in judged])


def declared_result(req_id: str, met: bool) -> RequirementResult:
    """The audit's result of a card scored as the table declared it."""
    if met:
        why = _("{id} met: as the table declared (no condition to check it against)", id=req_id)
    else:
        why = _("{id} not met: the table did not declare it for this player", id=req_id)
    return RequirementResult(req_id, met, why, "", True)


def disagreements(
    p: int, declared: Declared, results: Sequence[RequirementResult]
) -> list[Problem]:
    """`requirement_disagrees`: each card the player declared met that the city, judged,
    does not meet (`results`: the judges' results of the cards in play, by id)."""
    if not declared.checked:
        return []
    by_id = {result.id: result for result in results}
    return [
        Problem(
            code=codes.REQUIREMENT_DISAGREES,
            message=_(
                "{id} is declared met, but the city does not meet it: {words}; the score "
                "follows the city (check the city and the declaration against the photo)",
                id=req_id,
                words=by_id[req_id].words,
            ),
            path=join("", "players", p, "requirements_met", k),
        )
        for k, req_id in declared.checked
        if req_id in by_id and not by_id[req_id].met
    ]


def declarations_ignored(game: Game) -> list[Problem]:
    """`requirements_ignored` of each player's `requirements_met` in a Military game."""
    if not game.declares():
        return []
    return [
        Problem(
            code=codes.REQUIREMENTS_IGNORED,
            message=_("a military game scores no requirement cards; `requirements_met` is ignored"),
            path=join("", "players", p, "requirements_met"),
        )
        for p, player in enumerate(game.players)
        if player.requirements_met is not UNSET
    ]


def declared_warning(game: Game, specs: Sequence[RequirementSpec | None]) -> Problem | None:
    """`requirements_declared`: the game's players declare what they met, and some cards in
    play cannot be judged by a city (the catalog does not know them, or gives no condition):
    one warning naming them, scored as declared."""
    if not game.declares():
        return None
    ids = [
        req_id
        for req_id, spec in zip(game.requirement_ids(), specs, strict=True)
        if not checked(spec)
    ]
    if not ids:
        return None
    return Problem(
        code=codes.REQUIREMENTS_DECLARED,
        message=_(
            "{ids}: the catalog cannot check these requirement cards against a city; each "
            "player is scored as the table declared (`requirements_met`)",
            ids=", ".join(ids),
        ),
        path="/requirements",
    )


def card_points(points: int, stars_required: int, stars: int) -> int:
    """A card whose star requirement is at most the player's `stars` scores its potential
    points; any other card 1 (RULES §4a.3)."""
    return points if stars_required <= stars else 1


def cards_points(points: Iterable[int], stars_required: Iterable[int], stars: int) -> list[int]:
    """:func:`card_points` of each card of a city, in one pass (the audit's card lines)."""
    return [
        worth if need <= stars else 1 for worth, need in zip(points, stars_required, strict=True)
    ]


def populist_points(figures: ScoreFigures, stars: int) -> int:
    """The Populist part of a city (RULES §4a.2-3): its kept cards' points by
    :func:`card_points`, taken a star level at a time from the core's tallies, plus 15 a
    star above three.

    Written in arithmetic only, so the same lines score one city (ints) and whole columns of
    cities at once (numpy arrays, :mod:`neweden.scoring.table`)."""
    # card_points of each card of a level: all their points, or 1 each; every player has
    # at least 0 stars, so the 0-star level always scores its points.
    f = figures
    total = (
        f.points_0_stars
        + f.points_1_star * (stars >= 1)
        + f.cards_1_star * (stars < 1)
        + f.points_2_stars * (stars >= 2)
        + f.cards_2_stars * (stars < 2)
        + f.points_3_stars * (stars >= 3)
        + f.cards_3_stars * (stars < 3)
    )
    return total + POINTS_PER_EXTRA_STAR * (stars - 3) * (stars > 3)
