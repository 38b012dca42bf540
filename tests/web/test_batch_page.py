"""The page of a `neweden validate` batch (`--html`) and of `neweden standings`, as a person
sees them in Chromium, opened from the disk: the counts are validate's summary, the filters
show what they say, a phone scrolls nothing sideways, the console stays clean (issue 41)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from neweden.cli.main import main
from tests.games import game, line, player, problem_games

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round as transcribed: 30 games with problems (often several), 20 valid ones, and a
    line that is not JSON."""
    where = tmp_path_factory.mktemp("batch")
    valid = [
        game("military", player(f"A{i}", line(2 + i % 5)), player(f"B{i}", line(3)))
        for i in range(20)
    ]
    docs = [json.dumps(d) for d in problem_games(30, seed=11)] + [json.dumps(d) for d in valid]
    docs.insert(7, '{"mode": "military", "players": [')
    (where / "round.jsonl").write_text("\n".join(docs) + "\n", encoding="utf-8")
    return where


def _validate(batch: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    page, out = batch / f"report-{lang}.html", batch / f"out-{lang}.jsonl"
    args = ["validate", str(batch / "round.jsonl"), "--html", str(page), "--out", str(out)]
    assert main([*args, "--quiet", "--lang", lang]) == 1
    return page, capsys.readouterr().out


def _open(browser: Any, path: Path, **context: Any) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return ctx, page, errors


def _visible_games(page: Any) -> int:
    count: int = page.locator("li.game:visible").count()
    return count


@pytest.mark.long
def test_the_counts_are_validates_summary_and_the_filters_show_what_they_say(
    browser: Any, batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, said = _validate(batch, "en", capsys)
    games, valid, invalid = map(
        int, re.findall(r"(\d+) games: (\d+) valid, (\d+) invalid", said)[0]
    )
    reports = [json.loads(x) for x in (batch / "out-en.jsonl").read_text().splitlines()]
    unreadable = sum(1 for r in reports if "players" not in r)
    assert (games, unreadable) == (51, 1)  # the batch as made, so the checks below mean something
    ctx, page, errors = _open(browser, path)
    counted = {
        key: int(page.locator(f'[data-count="{key}"]').inner_text())
        for key in ("games", "valid", "invalid", "unreadable")
    }
    assert counted == {
        "games": games,
        "valid": valid,
        "invalid": invalid - unreadable,
        "unreadable": unreadable,
    }
    assert _visible_games(page) == games
    page.select_option("#verdict", "valid")
    assert _visible_games(page) == valid
    assert page.locator("#shown").inner_text() == f"shown: {valid}"
    page.select_option("#verdict", "unreadable")
    assert _visible_games(page) == 1
    page.select_option("#verdict", "")
    having = sum(
        1
        for r in reports
        if "overlap"
        in {e["code"] for e in r["errors"] + [e for p in r.get("players", []) for e in p["errors"]]}
    )
    assert having > 0
    page.select_option("#problem", "overlap")
    assert _visible_games(page) == having
    page.select_option("#verdict", "valid")  # both filters: no valid game has a problem
    assert _visible_games(page) == 0
    page.select_option("#verdict", "invalid")
    page.select_option("#problem", "")
    assert _visible_games(page) == invalid - unreadable
    summary = page.locator("li.game[data-verdict=invalid] summary").first
    summary.click()  # the picture of an invalid game, held in the page
    page.wait_for_function(
        "() => [...document.querySelectorAll('details[open] img')].some(i => i.naturalWidth > 0)"
    )
    assert errors == []
    ctx.close()


@pytest.mark.long
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_batch_page_on_a_phone_scrolls_nothing_sideways(
    browser: Any, batch: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _said = _validate(batch, lang, capsys)
    ctx, page, errors = _open(browser, path, **PHONE)
    for details in page.locator("li.game details").all()[:5]:
        details.locator("summary").click()
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    title = page.locator("h1").inner_text()
    assert title == ("Results of the batch" if lang == "en" else "Resultados do lote")
    assert errors == []
    ctx.close()


def test_the_standings_page_on_a_phone(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "event.jsonl"
    names = ["Ana Beatriz Figueiredo", "Bruno", "Conceição Albuquerque", "Davi"]
    docs = [
        game(
            "military",
            *[player(n, line(2 + (i + r) % 4)) for i, n in enumerate(names)],
            meta={"event": "Copa_New_Eden_2026_Etapa_Sao_Paulo_Regional", "round": r},
        )
        for r in (1, 2, 3)
    ]
    games.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    page_path = tmp_path / "standings.html"
    assert main(["standings", str(games), "--html", str(page_path), "--lang", "pt-BR"]) == 0
    shown = capsys.readouterr().out
    ctx, page, errors = _open(browser, page_path, **PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    rows = page.locator("tbody tr")
    assert rows.count() == 4
    first = rows.first.locator("td")
    # the terminal's first line of the table and the page's first row agree
    place, name, points = (first.nth(i).inner_text() for i in range(3))
    assert re.search(rf"^\s*{place} {re.escape(name)}\s+{points}\b", shown, re.MULTILINE)
    heading = page.locator("h2").first.inner_text()  # a long word wraps, not the page
    assert heading.startswith("Copa_New_Eden_2026_Etapa_Sao_Paulo_Regional — 3 rodadas")
    assert errors == []
    ctx.close()


@pytest.mark.long
def test_the_svg_index_loads_a_picture_only_when_it_is_opened(
    browser: Any, batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5,000 games made 2,500 picture requests at once: now a closed game asks for none."""
    pictures = batch / "pictures"
    args = ["validate", str(batch / "round.jsonl"), "--svg", str(pictures), "--quiet"]
    assert main(args) == 1
    capsys.readouterr()
    ctx, page, errors = _open(browser, pictures / "index.html")
    page.wait_for_load_state("load")
    loaded = (
        "() => [...document.querySelectorAll('li.game img')].filter(i => i.naturalWidth > 0).length"
    )
    assert page.locator("li.game img").count() > 1
    page.wait_for_timeout(300)
    assert page.evaluate(loaded) == 0
    page.locator("li.game[data-verdict=invalid] summary").first.click()
    page.wait_for_function(f"({loaded})() === 1")
    assert errors == []
    ctx.close()
