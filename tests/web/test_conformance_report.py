"""`neweden conformance run ... --html report.html` as a person sees it in Chromium, opened
from the disk: a row a scorer, a column a rule area, and a click on a cell where a scorer
differs shows those games with the picture of their cities (issue 42)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from neweden.cli.main import main
from neweden.runners import conformance_suite
from tests.conformance.test_harness import PRELUDE, WRONG


def test_the_report_page_shows_each_scorer_by_area_and_the_games_that_differ(
    browser: Any, tmp_path: Path
) -> None:
    suite = tmp_path / "suite"
    conformance_suite.write_suite(str(suite), generated=40)
    wrong = tmp_path / "no_ten_cards.py"
    wrong.write_text(PRELUDE + WRONG["forgets-the-ten-card-bonus"][1], encoding="utf-8")
    page_path, out = tmp_path / "report.html", tmp_path / "report.json"
    args = ["conformance", "run", str(suite), "--html", str(page_path), "--json", str(out)]
    args += ["--cmd", f"neweden={sys.executable} -m neweden conformance answer"]
    args += ["--cmd", f"wrong={sys.executable} {wrong}"]
    assert main(args) == 1
    report = json.loads(out.read_text())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(page_path.as_uri())
    rows = page.locator("tbody tr")
    assert rows.count() == 2
    areas = sorted(report["scorers"][1]["areas"])
    assert page.locator("thead th").all_inner_texts()[1:] == areas
    right = rows.nth(0).locator("td")
    assert right.nth(0).inner_text() == "neweden"
    assert page.locator("tbody tr:first-child td.bad").count() == 0
    ten = areas.index("ten_cards") + 1
    cell = rows.nth(1).locator("td").nth(ten)
    assert "bad" in (cell.get_attribute("class") or "")
    assert cell.inner_text() == "1/2"  # ten cards: 35 wanted, 30 given; nine cards agree
    assert not page.locator("section.diff").first.is_visible()
    cell.locator("a").click()
    shown = page.locator("section.diff:target")
    assert shown.locator("h2").inner_text() == "wrong: ten_cards"
    item = shown.locator("li")
    assert item.count() == 1
    assert "4c-ten-cards" in item.inner_text()
    assert "totals: expected [35], got [30]" in item.inner_text()
    page.wait_for_function(
        "() => document.querySelector('section.diff:target img').naturalWidth > 0"
    )
    assert errors == []
    context.close()
