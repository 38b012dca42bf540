"""A plain-Python scorer of New Eden Project games: the fair baseline of issue 38.

What a careful programmer would write to score the bench's games without neweden: the
standard library only (`json` to parse; see below), a dict of cells, a breadth-first search
over the complete connections, no messages. It imports nothing from `neweden`.

:func:`score` takes one game's JSON bytes (FORMAT §1) and returns
``{"valid": bool, "players": [{"name", "legal", "total", "place"}, ...]}``, `valid` being
"every city legal" (the geometry only: neweden's `valid` also counts problems that are not
the city's, such as an activated 5-point epiphany). A document that is not a game it can
score raises :class:`NotAGame` (or the KeyError / TypeError / ValueError of the field it
missed: the baseline checks what it reads, not the whole format).

Scored as RULES.md decides (sections cited at each rule):

- the grid and connections (§2): icons on facing sides, compatible when either card is wild
  or they share the style or the type; a rotated card turned 180°; the open connections
  are the icons less twice the complete connections (each icon is one or the other);
- legality (§3): the first card on a cell stays and each later one is left out; a card id
  that is not a built-in wild card (`atomic-waste`, `new-eden`) is left out; the copy limits
  of the two wild ids (Atomic Waste players + 1, New Eden 2, counted over players in order,
  every placed card counted); the cards kept must form one project through complete
  connections; a disconnected card is still scored as placed;
- the Populist part (§4a): A1, B1 and C1 as the built-in catalog writes them (see
  :data:`REQUIREMENTS`), stars = requirements met + a star a whole group of three activated
  1/3-star epiphanies, a card's points when its star requirement is at most the stars, else
  1, and 15 a star above three; any other requirement id is never met;
- the Military part (§4a D1-D5): labs, shelter groups, medical-center neighbours, the tower
  rectangle, the base majority with the game's `majority_table` or the default table, alone
  scoring 0; Elitist adds both;
- epiphanies (§4b), the ten-card bonus (§4c), bonuses (§4d), the total and the ranking with
  its six tie-breakers and competition places (§4e).

Left out (none of it occurs in the bench's mixes, bench.conftest.transcribed_games and
bench.mixes.mistaken_games): folding names (accents, case, Portuguese aliases: §1), closed
vocabularies and `misspelled_name` (§1, a city neweden calls illegal for a name), a catalog
(epiphanies by id score nothing, as under the built-in catalog), `requirements_met`
declarations (§4a), and every check of the format beyond the fields read (decode problems).

**Parsing**: `json.loads` of the standard library. msgspec's `msgspec.json.decode` into
plain dicts parses these games in about half the time, but it is a third-party package, and
the point of a plain baseline is what one writes with nothing installed; :data:`loads` can be
swapped for it (the benchmark of bench/test_bench_plain.py measures both).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = ["REQUIREMENTS", "NotAGame", "loads", "score"]

#: The parser: the standard library's (see the module's docstring).
loads: Callable[[bytes], Any] = json.loads


class NotAGame(ValueError):
    """The document is not a game this scorer can score."""


# A cell (row, col) is the int row * _W + col: one int hashes and adds faster than a tuple
# is made. Columns stay within ±1,000 (FORMAT §1), so no two cells share a key.
_W = 1 << 16
_UP, _RIGHT, _DOWN, _LEFT = -_W, 1, _W, -1
_NEIGHBOURS = (_UP, _RIGHT, _DOWN, _LEFT)

# The icons as bits: top 1, right 2, bottom 4, left 8. Turned 180°, top and bottom swap, and
# left and right: the four bits rotate by two.
_SIDE = {"top": 1, "right": 2, "bottom": 4, "left": 8}
_ALL_SIDES = 15
_ROTATED = tuple(((m << 2) | (m >> 2)) & 15 for m in range(16))
# The right and bottom icons of a card by its bits: (step to the cell it faces, the bit of
# the side facing it there); and how many icons it has.
_ICONS = tuple(
    tuple((step, facing) for bit, step, facing in ((2, _RIGHT, 8), (4, _DOWN, 1)) if m & bit)
    for m in range(16)
)
_BITS = tuple(bin(m).count("1") for m in range(16))

_DEFAULT_TABLE = {2: (5, 0), 3: (7, 3, 0), 4: (10, 6, 3, 0)}


class _City:
    """What the rules read of one player's city (the cards kept: neither on a taken cell nor
    an unknown id)."""

    __slots__ = (
        "bases",
        "by_row",
        "cards",
        "counts",
        "facility_points",
        "legal",
        "open_connections",
        "points",
        "styles",
    )

    def __init__(self) -> None:
        self.legal = True
        self.cards = 0
        self.open_connections = 0
        self.styles = 0  # distinct styles of the common cards
        self.by_row = 0  # the most cards in one row
        self.points = [0, 0, 0, 0]  # potential points of the cards requiring 0-3 stars
        self.counts = [0, 0, 0, 0]  # the cards requiring 0-3 stars
        self.facility_points = 0  # D1-D4
        self.bases = 0


# --- the three requirement cards of the bench's games, as the built-in catalog writes them
# (python/neweden/catalog/catalog.py, BUILTIN.requirements) -------------------------------


def a1(city: _City) -> bool:
    """A1 `{">=": [{"distinct": "style"}, {"all_styles": {}}]}`: the city has cards of all 5
    styles (wild cards have none; the vocabulary is open, so "all" is 5)."""
    return city.styles >= 5


def b1(city: _City) -> bool:
    """B1 `{">": [{"row_cards": {}}, 5]}`: some grid row holds more than 5 cards."""
    return city.by_row > 5


def c1(city: _City) -> bool:
    """C1 `{"<=": [{"open_connections": {}}, 4]}`: at most 4 open connections."""
    return city.open_connections <= 4


REQUIREMENTS: dict[str, Callable[[_City], bool]] = {"A1": a1, "B1": b1, "C1": c1}


# --- one city -----------------------------------------------------------------------------


def _city(
    placed: list[dict[str, Any]],
    copies: dict[str, int],
    limit: dict[str, int],
    populist: bool,
    military: bool,
) -> _City:
    """The figures of one city (RULES §2-§4a), `copies` counting the wild ids over the game."""
    city = _City()
    on = {}  # cell -> index of the card kept there
    cells: list[int] = []
    sides: list[int] = []
    styles: list[Any] = []  # None for a wild card
    kinds: list[Any] = []
    rows: list[int] = []
    # the cells of each facility's cards (a wild card has none)
    labs: list[int] = []
    shelters: list[int] = []
    medical: list[int] = []
    towers: list[int] = []
    bases: list[int] = []
    facilities = {"lab": labs, "shelter": shelters, "medical": medical, "tower": towers}
    facilities["base"] = bases
    points = city.points
    counts = city.counts
    for entry in placed:
        card = entry["card"]
        if type(card) is str:  # a catalog id: only the two wild cards are built in
            if card not in limit:
                city.legal = False  # unknown_card: left out
                continue
            copies[card] += 1
            if copies[card] > limit[card]:
                city.legal = False  # copy_limit: still scored
            style = kind = facility = None
            mask = _ALL_SIDES
            worth = need = 0
        elif card.get("wild"):
            style = kind = facility = None
            mask = _ALL_SIDES
            worth = card.get("points", 0)
            need = card.get("stars", 0)
        else:
            style = card["style"]
            kind = card["type"]
            facility = facilities.get(card["facility"])
            if facility is None:
                raise NotAGame(f"facility {card['facility']!r}")
            mask = 0
            for side in card["sides"]:
                mask |= _SIDE[side]
            if entry.get("rotated"):
                mask = _ROTATED[mask]
            worth = card["points"]
            need = card["stars"]
        row = entry["row"]
        cell = row * _W + entry["col"]
        if cell in on:
            city.legal = False  # overlap: left out
            continue
        on[cell] = len(cells)
        cells.append(cell)
        sides.append(mask)
        styles.append(style)
        kinds.append(kind)
        rows.append(row)
        if facility is not None:
            facility.append(cell)
        points[need] += worth
        counts[need] += 1

    n = len(cells)
    city.cards = n
    if populist:
        city.by_row = max(Counter(rows).values(), default=0)
        city.styles = len(set(styles) - {None})

    # Connections (RULES §2): a complete connection joins two facing icons of compatible
    # cards; every other icon is open. Each pair of cells is looked at once, from its left or
    # upper card.
    joined: list[list[int]] = [[] for _ in range(n)]
    complete = 0
    icons = 0
    for i in range(n):
        mask = sides[i]
        icons += _BITS[mask]
        for step, facing in _ICONS[mask]:
            j = on.get(cells[i] + step)
            if j is not None and sides[j] & facing:
                style = styles[i]
                if style is None or styles[j] is None or style == styles[j] or kinds[i] == kinds[j]:
                    complete += 1
                    joined[i].append(j)
                    joined[j].append(i)
    city.open_connections = icons - 2 * complete

    # One project (RULES §3.2): a breadth-first search from the first card kept.
    if n > 1 and city.legal:
        seen = [False] * n
        seen[0] = True
        todo = [0]
        reached = 1
        for i in todo:  # the list grows while it is walked: a queue without a deque
            for j in joined[i]:
                if not seen[j]:
                    seen[j] = True
                    reached += 1
                    todo.append(j)
        city.legal = reached == n

    # Military (RULES §4a D1-D4; D5 across the game), by orthogonal adjacency.
    city.bases = len(bases)
    if not military:
        return city
    found = 3 * len(labs)
    if shelters:
        left = set(shelters)
        while left:
            todo = [left.pop()]
            for here in todo:
                for step in _NEIGHBOURS:
                    if here + step in left:
                        left.discard(here + step)
                        todo.append(here + step)
            k = len(todo)
            found += k * min(k, 4)
    if medical:
        found += 2 * len({here + step for here in medical for step in _NEIGHBOURS} & on.keys())
    if len(towers) > 1:
        # a cell's row and column back from its int: divmod rounds towards minus infinity
        spots = [divmod(here + _W // 2, _W) for here in towers]
        tower_rows = [r for r, _ in spots]
        tower_cols = [c for _, c in spots]
        found += (max(tower_rows) - min(tower_rows) + 1) * (max(tower_cols) - min(tower_cols) + 1)
    city.facility_points = found
    return city


# --- the game -----------------------------------------------------------------------------


def _majority(bases: list[int], table: Any) -> list[int]:
    """D5 (RULES §4a): places by bases, most first, ties sharing (1, 1, 3); the k-th place
    scores table[k - 1]; no base, or the fewest when someone has more, scores 0; alone, 0."""
    if len(bases) < 2:
        return [0] * len(bases)
    fewest = min(bases)
    full_tie = max(bases) == fewest
    out = []
    for mine in bases:
        place = sum(1 for other in bases if other > mine)  # 0-based
        if mine == 0 or (mine == fewest and not full_tie) or place >= len(table):
            out.append(0)
        else:
            out.append(table[place])
    return out


def _epiphanies(found: list[dict[str, Any]]) -> tuple[int, int]:
    """RULES §4b: (points, stars). Held 0, validated its points, activated 0; activated
    1/3-star ones count in whole groups of three, the last ones left over score as
    validated; a 5-point one cannot be activated (0, no icon). An epiphany by id is unknown
    to the built-in catalog: nothing."""
    points = 0
    thirds = []
    for epiphany in found:
        if "card" in epiphany:
            continue
        state = epiphany["state"]
        if state == "validated":
            points += epiphany["points"]
        elif (
            state == "activated"
            and epiphany.get("effect") == "third_star"
            and epiphany["points"] != 5
        ):
            thirds.append(epiphany["points"])
    stars, left = divmod(len(thirds), 3)
    if left:
        points += sum(thirds[-left:])
    return points, stars


def score(data: bytes) -> dict[str, Any]:
    """One game's JSON bytes scored: see the module's docstring."""
    game = loads(data)
    if type(game) is not dict:
        raise NotAGame("not an object")
    mode = game["mode"]
    if mode not in ("populist", "military", "elitist"):
        raise NotAGame(f"mode {mode!r}")
    populist = mode != "military"
    military = mode != "populist"
    players = game["players"]
    n = len(players)
    if not 1 <= n <= 4:
        raise NotAGame(f"{n} players")
    requirements = [REQUIREMENTS.get(r) for r in game["requirements"]] if populist else []
    copies = {"atomic-waste": 0, "new-eden": 0}
    limit = {"atomic-waste": min(5, n + 1), "new-eden": 2}
    cities = [_city(player["city"], copies, limit, populist, military) for player in players]

    base_points = [0] * n
    if military:
        table = game.get("majority_table") or _DEFAULT_TABLE.get(n, ())
        base_points = _majority([city.bases for city in cities], table)

    first = game.get("first_player")
    seat_first = next((s for s, p in enumerate(players) if p["name"] == first), None)

    keys = []  # what the ranking compares, the criteria in order (RULES §4e)
    for seat, (player, city) in enumerate(zip(players, cities, strict=True)):
        total = 0
        met = 0
        epiphany_points, stars = _epiphanies(player.get("epiphanies", ()))
        if populist:
            met = sum(1 for test in requirements if test is not None and test(city))
            stars += met
            # a card scores its points when the stars reach its requirement, else 1
            total += city.points[0]
            for level in (1, 2, 3):
                total += city.points[level] if level <= stars else city.counts[level]
            if stars > 3:
                total += 15 * (stars - 3)
        if military:
            total += city.facility_points + base_points[seat]
        total += epiphany_points
        if city.cards >= 10:
            total += 5
        for bonus in player.get("bonuses", ()):
            total += bonus["points"]
        keys.append(
            (
                total,
                met,
                city.bases if military else 0,
                city.cards,
                city.counts[3],
                city.counts[2],
                0 if seat_first is None else n - (seat_first - seat) % n,
            )
        )

    # Competition places (1, 1, 3): one more than the players ranked strictly higher.
    out = []
    for player, city, key in zip(players, cities, keys, strict=True):
        place = 1 + sum(1 for other in keys if other > key)
        out.append({"name": player["name"], "legal": city.legal, "total": key[0], "place": place})
    return {"valid": all(city.legal for city in cities), "players": out}
