"""A round reviewed as an organiser would (issue 40's test): a folder of 30 generated games,
10 of them with one transcription mistake each (a wrong icon, a card in the wrong cell, a
typo, an extra copy) and a photo each (the picture of the correct city drawn by the service,
turned a little, made a PNG by the browser). The queue lists the 10 first; each is opened
from it, its photo shown, its mistake fixed by clicks and saved; the queue then counts 0
left and 10 fixed, and `neweden validate DIR` agrees; the history holds the 10 originals,
and one restored from the page comes back byte for byte. The clicks and keys are counted.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import neweden
from neweden.catalog.catalog import BUILTIN
from neweden.format import codes
from neweden.geometry.synth import city_json, grow_city
from neweden.present.render import render
from neweden.runners.review import ReviewFolder
from tests.servers import running_server
from tests.web.requests import save_keys
from tests.web.test_page import Page, cell, in_a_browser

pytest.importorskip("starlette", reason="the serve extra")

#: The generator's names made the box's (the same cards: a typo of a known name is an error).
NAMES = {
    "ex_amber": "gothic",
    "ex_cobalt": "futurist",
    "ex_crimson": "renaissance",
    "ex_jade": "sustainable",
    "ex_harbor": "building",
    "ex_meadow": "green_area",
}
TYPO = {
    "gothic": "gothc",
    "futurist": "futurst",
    "renaissance": "renaisance",
    "sustainable": "sustainabel",
}
KINDS = ("icon", "cell", "typo", "copy")


@dataclass
class Mistake:
    """A mistake made in game `game_id`, player `player`, and the clicks that fix it."""

    game_id: str
    player: int
    kind: str
    at: tuple[int, int]  # the card's cell as transcribed
    fix: Any  # the side to toggle back, the cell to move to, the style to pick


def _valid(game: dict[str, Any]) -> bool:
    return bool(neweden.score(json.dumps(game).encode(), detail=False)["valid"])


def _named(city: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for entry in city:
        card = entry["card"]
        if isinstance(card, dict) and not card.get("wild"):
            card["style"], card["type"] = NAMES[card["style"]], NAMES[card["type"]]
    return city


def _game(rng: random.Random) -> dict[str, Any]:
    """A valid two-player military game of 5 to 9 cards a city (two New Eden cards in the
    first player's city, by id)."""
    while True:
        players = [
            {
                "name": name,
                "city": _named(city_json(grow_city(rng, rng.randint(5, 9), styles=4, types=2))),
            }
            for name in ("Ana", "Bruno")
        ]
        game = {"mode": "military", "majority_table": [5, 0], "players": players}
        if _valid(game) and _with_wild(game, 2):
            return game


def _empty_neighbours(city: list[dict[str, Any]]) -> list[tuple[int, int]]:
    taken = {(e["row"], e["col"]) for e in city}
    cells = {(r + dr, c + dc) for r, c in taken for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    return sorted(cells - taken)


def _with_wild(game: dict[str, Any], copies: int) -> bool:
    """New Eden cards added next to the first city until it holds `copies` (the game still
    valid); False when none fits."""
    city = game["players"][0]["city"]
    while sum(1 for e in city if e["card"] == "new-eden") < copies:
        for row, col in _empty_neighbours(city):
            city.append({"row": row, "col": col, "card": "new-eden"})
            if _valid(game):
                break
            city.pop()
        else:
            return False
    return True


def _mistaken(game: dict[str, Any], kind: str, rng: random.Random) -> tuple[int, Any, Any] | None:
    """`game` with one mistake of `kind` (in place): (player, cell as transcribed, fix), or
    None when this game has no card for it (the game unchanged)."""
    for p, player in enumerate(game["players"]):
        city = player["city"]
        order = list(range(len(city)))
        rng.shuffle(order)
        for k in order:
            entry = city[k]
            card = entry["card"]
            if not isinstance(card, dict) or card.get("wild"):
                continue
            at = (entry["row"], entry["col"])
            if kind == "typo":
                card["style"], right = TYPO[card["style"]], card["style"]
                return p, at, right
            if kind == "icon":
                for side in list(card["sides"]):
                    card["sides"].remove(side)
                    if card["sides"] and not _valid(game):
                        return p, at, side
                    card["sides"] = sorted([*card["sides"], side])
            if kind == "cell":
                entry["row"] += 4
                if not _valid(game) and (entry["row"], entry["col"]) not in {
                    (e["row"], e["col"]) for e in city if e is not entry
                }:
                    return p, (entry["row"], entry["col"]), at
                entry["row"] -= 4
        if kind == "copy" and p == 0:
            for row, col in _empty_neighbours(city):
                city.append({"row": row, "col": col, "card": "new-eden"})
                errors = neweden.score(json.dumps(game).encode())["players"][0]["errors"]
                if errors and {e["code"] for e in errors} == {codes.COPY_LIMIT}:
                    return 0, (row, col), None  # joined, but three New Eden: copy_limit
                city.pop()
    return None


@pytest.fixture(scope="module")
def round_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[Mistake], dict[str, bytes]]:
    rng = random.Random(40)
    root = tmp_path_factory.mktemp("round")
    mistakes: list[Mistake] = []
    originals: dict[str, bytes] = {}
    for n in range(30):
        game = _game(rng)
        game_id = f"table-{n:02d}.json"
        if len(mistakes) < 10 and n % 3 == 0:
            correct = json.loads(json.dumps(game))
            kind = KINDS[len(mistakes) % 4]
            made = _mistaken(game, kind, rng)
            assert made is not None, (n, kind)
            assert not _valid(game), (n, kind)
            player, at, fix = made
            mistakes.append(Mistake(game_id, player, kind, at, fix))
            game["meta"] = {"photo": f"photos/{game_id}.png", "table": str(n)}
            (root / "photos").mkdir(exist_ok=True)
            (root / "photos" / f"{game_id}.svg").write_text(render(json.dumps(correct).encode()))
        data = (json.dumps(game, indent=1) + "\n").encode()
        (root / game_id).write_bytes(data)
        originals[game_id] = data
    return root, mistakes, originals


def _photos(browser: Any, root: Path) -> None:
    """Each correct city's picture as the photo of its table: turned 2°, made a PNG."""
    context = browser.new_context(viewport={"width": 900, "height": 700})
    page = context.new_page()
    for svg in sorted((root / "photos").glob("*.svg")):
        page.set_content(
            '<body style="margin:20px;background:#ddd">'
            f'<div style="transform:rotate(2deg);width:800px">{svg.read_text()}</div></body>'
        )
        page.screenshot(path=str(svg.with_suffix(".png")))  # table-03.json.png
        svg.unlink()
    context.close()


@pytest.fixture(scope="module")
def served(
    browser: Any, round_folder: tuple[Path, list[Mistake], dict[str, bytes]]
) -> Iterator[int]:
    root = round_folder[0]
    _photos(browser, root)
    with running_server({"NEWEDEN_REVIEW": str(root)}) as (port, _):
        yield port


class Clicks:
    """The clicks and keys given to the page, counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def click(self, target: Any) -> None:
        target.click()
        self.count += 1


def _fix(page: Page, clicks: Clicks, mistake: Mistake) -> None:
    if mistake.player:
        clicks.click(page.page.locator(f"#player-tabs [role=tab]:nth-child({mistake.player + 1})"))
    clicks.click(cell(page, *mistake.at))
    if mistake.kind == "typo":
        clicks.click(page.page.locator(f'#c-style .chip[data-value="{mistake.fix}"]'))
    elif mistake.kind == "icon":
        clicks.click(page.page.locator(f"#f-icon-{mistake.fix}"))
    elif mistake.kind == "cell":
        clicks.click(page.page.locator("#t-move"))
        clicks.click(cell(page, *mistake.fix))
    else:  # the extra copy
        clicks.click(page.page.locator("#t-delete"))


@pytest.mark.long
@in_a_browser
def test_a_round_of_30_games_is_reviewed_by_clicks(
    browser: Any,
    served: int,
    round_folder: tuple[Path, list[Mistake], dict[str, bytes]],
) -> None:
    root, mistakes, originals = round_folder
    page = Page(browser, served, "/review?lang=en")
    assert page.page.locator("#q-counts").inner_text() == "10 left to fix, 0 fixed, of 30 games"
    listed = page.page.locator("#q-games li a").all_inner_texts()
    assert set(listed[:10]) == {m.game_id for m in mistakes}
    clicks = Clicks(page)
    for mistake in mistakes:
        clicks.click(page.page.locator("#q-games li a", has_text=mistake.game_id))
        page.page.locator("#review:not([hidden])").wait_for()
        page.page.wait_for_function(
            "() => document.getElementById('review-photo').naturalWidth > 800"
        )
        _fix(page, clicks, mistake)
        save_keys(page.page)
        clicks.count += 2
        page.page.wait_for_function(
            "() => document.getElementById('review-status').textContent.startsWith('Saved')"
        )
        clicks.click(page.page.locator("#review-back"))
        page.page.wait_for_selector("#q-games li")
    print(f"10 games fixed with {clicks.count} clicks and keys")
    assert page.page.locator("#q-counts").inner_text() == "0 left to fix, 10 fixed, of 30 games"
    done = subprocess.run(
        [sys.executable, "-m", "neweden", "validate", str(root), "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # every game valid
    review = ReviewFolder(root, BUILTIN)
    for mistake in mistakes:  # the history holds each original, byte for byte
        (version,) = review.history(mistake.game_id)
        kept = root / ".neweden" / "history" / mistake.game_id / version["version"]
        assert kept.read_bytes() == originals[mistake.game_id]
    # one restored from the page: the file is the original again
    first = mistakes[0].game_id
    page.page.goto(f"http://127.0.0.1:{served}/?review={first}&lang=en")
    page.page.locator("#review-versions > summary").click()
    page.page.locator("#review-history button").first.click()
    page.page.wait_for_function(
        "() => document.getElementById('review-status').textContent.startsWith('The version')"
    )
    assert (root / first).read_bytes() == originals[first]
    page.close()
