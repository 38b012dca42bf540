"""The screenshots of an organiser's results in docs/: the page of a batch
(`validate --html`) and the standings (`neweden standings --html`), on a desktop and on a
phone, made from generated games and opened from the disk in Debian's chromium.

    python scripts/results_screenshots.py        # writes docs/batch-page*.png, docs/standings*.png
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neweden.cli.main import main  # noqa: E402
from scripts.web_screenshots import shoot  # noqa: E402
from tests.browser import CHROMIUM, FLAGS  # noqa: E402
from tests.games import game, line, player, problem_games  # noqa: E402

NAMES = ["Ana Souza", "Bruno Lima", "Carla Dias", "Davi Melo", "Érica Nunes", "Fábio Gomes"]
NAMES += ["Gisele Prado", "Hélio Rocha", "Íris Costa", "João Pires", "Kátia Reis", "Úrsula Lima"]


def _event(folder: Path) -> Path:
    """Three rounds of "Copa Éden", three tables of four, one table transcribed with a gap."""
    rng = random.Random(41)
    lines = []
    for round_ in (1, 2, 3):
        seats = rng.sample(NAMES, len(NAMES))
        for table in range(3):
            four = seats[4 * table : 4 * table + 4]
            players = [player(n, line(rng.randint(3, 9), row=0)) for n in four]
            if round_ == 2 and table == 1:
                players[2]["city"][-1]["col"] += 2  # a card apart: this game is left out
            meta = {"event": "Copa Éden", "round": round_, "table": f"T{table + 1}"}
            lines.append(json.dumps(game("military", *players, meta=meta)))
    path = folder / "copa.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _batch(folder: Path) -> Path:
    docs = [json.dumps(d) for d in problem_games(8, seed=7)]
    docs += [json.dumps(game("military", player("Ana", line(4)), player("Bia", line(3))))] * 4
    path = folder / "round.jsonl"
    path.write_text("\n".join(docs) + "\n", encoding="utf-8")
    return path


def main_() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.chdir(folder)  # the sources shown are the short names an organiser types
        batch, event = _batch(Path(".")), _event(Path("."))
        pages = {}
        for lang in ("en", "pt-BR"):
            pages["batch", lang] = Path(f"batch-{lang}.html")
            pages["standings", lang] = Path(f"standings-{lang}.html")
            main(["validate", str(batch), "--html", str(pages["batch", lang]), "--quiet",
                  "--lang", lang])  # fmt: skip
            main(["standings", str(event), "--html", str(pages["standings", lang]), "--quiet",
                  "--lang", lang])  # fmt: skip
        shots = {
            "batch-page.png": (pages["batch", "en"], 1280, 900, False),
            "batch-page-phone-pt-BR.png": (pages["batch", "pt-BR"], 390, 1500, True),
            "standings.png": (pages["standings", "en"], 1280, 900, False),
            "standings-phone-pt-BR.png": (pages["standings", "pt-BR"], 390, 844, True),
        }
        addresses = {
            name: (path.resolve().as_uri(), *rest) for name, (path, *rest) in shots.items()
        }
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            shoot(browser, "", addresses, _opened, full_page=False)
            browser.close()


def _opened(page: Page, _phone: bool) -> None:
    """A batch page with its first invalid game opened (its picture), seen from the top."""
    if page.locator("li.game").count():
        page.locator("li.game[data-verdict=invalid] summary").first.click()
        page.wait_for_timeout(300)
        page.evaluate("window.scrollTo(0, 0)")


if __name__ == "__main__":
    main_()
