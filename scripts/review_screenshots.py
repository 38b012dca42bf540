"""The screenshots of `neweden review` in docs/ (docs/review.md): the queue of a small round
and a game under review with its photo, on a desktop and on a phone, in English and in
Brazilian Portuguese. Makes the round in a temporary folder (three games, one with a typo,
its photo the correct city's picture turned 2°), starts its own `neweden review` and drives
Debian's chromium through playwright.

    python scripts/review_screenshots.py            # writes docs/review-*.png
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neweden.present.render import render  # noqa: E402
from scripts.web_screenshots import shoot  # noqa: E402
from tests.browser import CHROMIUM, FLAGS  # noqa: E402
from tests.servers import running_server  # noqa: E402

EXAMPLE = json.loads((ROOT / "examples" / "final-scoring-example.json").read_bytes())
#: name -> (path, viewport width, height, phone)
SHOTS = {
    "review-queue.png": ("/review?lang=en", 1280, 700, False),
    "review-game.png": ("/?review=table-2.json&lang=en", 1280, 900, False),
    "review-game-phone.png": ("/?review=table-2.json&lang=en", 390, 844, True),
    "review-queue-pt-BR.png": ("/review?lang=pt-BR", 1280, 700, False),
    "review-game-pt-BR.png": ("/?review=table-2.json&lang=pt-BR", 1280, 900, False),
    "review-game-phone-pt-BR.png": ("/?review=table-2.json&lang=pt-BR", 390, 844, True),
}


def _round(folder: Path, browser: object) -> None:
    """Three tables; table 2's first card transcribed "gothc", its photo the picture of the
    correct city, turned 2° (no real photo exists)."""
    for n in (1, 3):
        (folder / f"table-{n}.json").write_text(json.dumps(EXAMPLE))
    mistaken = json.loads(json.dumps(EXAMPLE))
    mistaken["players"][0]["city"][0]["card"]["style"] = "gothc"
    mistaken["meta"] = {"table": "2", "photo": "table-2.png"}
    (folder / "table-2.json").write_text(json.dumps(mistaken))
    context = browser.new_context(viewport={"width": 900, "height": 640})  # type: ignore[attr-defined]
    page = context.new_page()
    picture = render(json.dumps(EXAMPLE).encode(), player="Sarah")
    page.set_content(
        '<body style="margin:24px;background:#cfc8bd">'
        f'<div style="transform:rotate(2deg);width:820px">{picture}</div></body>'
    )
    page.screenshot(path=str(folder / "table-2.png"))
    context.close()


def _photo_ready(page: Page, phone: bool) -> None:
    """The page drawn, with the photo of a game under review."""
    page.wait_for_selector("body[data-ready]", timeout=20_000)
    if "review=" in page.url:
        page.wait_for_function("() => document.getElementById('review-photo').naturalWidth > 0")
    page.wait_for_timeout(500)


def main() -> int:
    with tempfile.TemporaryDirectory() as temporary, sync_playwright() as p:
        folder = Path(temporary)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        _round(folder, browser)
        with running_server({"NEWEDEN_REVIEW": str(folder)}) as (port, _):
            shoot(browser, f"http://127.0.0.1:{port}", SHOTS, _photo_ready, full_page=False)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
