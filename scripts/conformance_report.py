"""The harness's report for the shipped scorers on this machine, and its screenshot in
docs/: neweden through its command line, through HTTP (`neweden serve`), its pure-Python
twin, and the plain-Python baseline of bench/ (scripts/plain_scorer.py); plus, to show a
difference on the page, a scorer written here that forgets the ten-card bonus.

    python scripts/conformance_report.py     # prints the table, writes docs/conformance-report.png

Then the five scorers of tests/conformance/test_harness.py, each wrong in one rule, on the
same suite: the table that shows each caught in its rule's area.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neweden.cli.main import main  # noqa: E402
from neweden.runners.conformance_suite import write_suite  # noqa: E402
from scripts.web_screenshots import shoot  # noqa: E402
from tests.browser import CHROMIUM, FLAGS  # noqa: E402
from tests.conformance.test_harness import PRELUDE, WRONG  # noqa: E402
from tests.servers import running_server  # noqa: E402


def _opened(page: Page, _phone: bool) -> None:
    """The first cell where a scorer differs, clicked: its games and their pictures."""
    page.locator("td.bad a").first.click()
    page.wait_for_timeout(400)
    page.evaluate("window.scrollTo(0, 0)")  # the table, and below it what the click opened


def run() -> None:
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp, running_server({}) as (port, _pid):
        folder = Path(tmp)
        write_suite(str(folder / "suite"))
        wrong = folder / "no_ten_cards.py"
        wrong.write_text(PRELUDE + WRONG["forgets-the-ten-card-bonus"][1], encoding="utf-8")
        page = folder / "report.html"
        main(
            [
                "conformance", "run", str(folder / "suite"), "--html", str(page),
                "--cmd", f"neweden={python} -m neweden conformance answer",
                "--cmd", f"twin={python} -m neweden conformance answer --reference",
                "--url", f"http=http://127.0.0.1:{port}/v1/score",
                "--cmd", f"plain={python} {ROOT / 'scripts' / 'plain_scorer.py'}",
                "--cmd", f"no-ten-card-bonus={python} {wrong}",
            ]
        )  # fmt: skip
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            shots = {"conformance-report.png": (page.as_uri(), 1280, 1300, False)}
            shoot(browser, "", shots, _opened, full_page=False)
            browser.close()
        wrong_ones = []
        for name, (_area, body) in sorted(WRONG.items()):
            script = folder / f"{name}.py"
            script.write_text(PRELUDE + body, encoding="utf-8")
            wrong_ones += ["--cmd", f"{name}={python} {script}"]
        print()
        main(["conformance", "run", str(folder / "suite"), *wrong_ones])


if __name__ == "__main__":
    run()
