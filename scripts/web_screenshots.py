"""The screenshots of the web page in docs/ (docs/web.md): the manual's example on a desktop
and on a phone, in English and in Brazilian Portuguese. Starts its own `neweden serve` and
drives Debian's chromium through playwright.

    python scripts/web_screenshots.py            # writes docs/web-*.png
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM, FLAGS  # noqa: E402
from tests.servers import running_server  # noqa: E402

#: name -> (path, viewport width, height, phone)
SHOTS = {
    "web-desktop.png": ("/?example=final&lang=en", 1280, 900, False),
    "web-desktop-pt-BR.png": ("/?example=final&lang=pt-BR", 1280, 900, False),
    "web-phone.png": ("/?example=final&lang=en", 390, 844, True),
    "web-phone-pt-BR.png": ("/?example=final&lang=pt-BR", 390, 844, True),
}


def _ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready]", timeout=20_000)
    page.wait_for_function(
        "() => document.querySelector('#score-rows td.total') && "
        "document.getElementById('picture').naturalWidth > 0",
        timeout=20_000,
    )
    page.wait_for_timeout(300)


def shoot(
    browser: Any,
    base: str,
    shots: dict[str, tuple[str, int, int, bool]],
    ready: Callable[[Page, bool], None],
    *,
    full_page: bool,
) -> None:
    """Each of `shots` (docs/NAME -> its path, viewport width, height, phone) taken from
    `base` + path (a server's `http://127.0.0.1:PORT`, or "" for `file:` addresses) once
    `ready(page, phone)` says the page is."""
    for name, (path, width, height, phone) in shots.items():
        context = browser.new_context(
            viewport={"width": width, "height": height},
            is_mobile=phone,
            has_touch=phone,
            device_scale_factor=1,
        )
        page = context.new_page()
        page.goto(f"{base}{path}")
        ready(page, phone)
        page.screenshot(path=str(ROOT / "docs" / name), full_page=full_page)
        print(f"docs/{name}: {(ROOT / 'docs' / name).stat().st_size:,} bytes")
        context.close()


def _example_ready(page: Page, phone: bool) -> None:
    _ready(page)
    if phone:  # the card at row 0, column 2 selected: the form shows a placed card
        page.locator('#grid [data-row="0"][data-col="2"]').click()
    else:  # the card to place: where it is legal, in green
        page.wait_for_selector("#grid .legal", timeout=20_000)
    page.wait_for_timeout(300)


def main() -> int:
    with running_server({}) as (port, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        shoot(browser, f"http://127.0.0.1:{port}", SHOTS, _example_ready, full_page=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
