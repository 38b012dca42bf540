"""The results view of the web page (`/results`, issue 41): a JSON Lines file of games, or the
games saved on the device, ranked as `neweden standings` ranks them, in Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neweden.cli.main import main
from tests.games import game, line, player
from tests.web.requests import READS, text_log

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
NAMES = ["Ana Souza", "Bruno", "Conceição", "Davi"]


def _games() -> list[dict[str, Any]]:
    """Three rounds of "Copa Éden" at one table of four, and a game of another event."""
    docs = [
        game(
            "military",
            *[player(n, line(2 + (i * 3 + r) % 5)) for i, n in enumerate(NAMES)],
            meta={"event": "Copa Éden", "round": r},
        )
        for r in (1, 2, 3)
    ]
    docs.append(
        game("military", player("Eva", line(3)), player("Fábio", line(4)), meta={"event": "Liga"})
    )
    return docs


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "copa.jsonl"
    lines = [json.dumps(d) for d in _games()]
    lines.insert(2, "{not json")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _standings(path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    assert main(["standings", str(path), "--json", "-", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def _shown(page: Any) -> list[list[list[str]]]:
    """Each event's table as the page shows it: its rows' cells."""
    tables = page.locator("section.standing table")
    return [
        [
            [cell.inner_text() for cell in row.locator("td").all()]
            for row in tables.nth(k).locator("tbody tr").all()
        ]
        for k in range(tables.count())
    ]


def _open(
    browser: Any, port: int, lang: str = "en", script: str | None = None, **context: Any
) -> tuple[Any, Any, list[str]]:
    """The results page in a new context (`script`: run in the page before its own)."""
    ctx = browser.new_context(**context)
    if script is not None:
        ctx.add_init_script(script)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"http://127.0.0.1:{port}/results?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    return ctx, page, errors


@pytest.mark.long
def test_a_file_of_games_is_ranked_as_neweden_standings_ranks_it(
    browser: Any, server: int, event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _standings(event, capsys)
    ctx, page, errors = _open(browser, server)
    page.set_input_files("#r-file", str(event))
    page.wait_for_selector("body[data-ranked]")
    assert _shown(page) == [
        [
            [str(p[key]) for key in ("place", "name", "points", "total", "wins")]
            + [str(p[key]) for key in ("requirements_met", "cards", "games")]
            for p in e["players"]
        ]
        for e in expected["events"]
    ]
    assert [h.inner_text() for h in page.locator("section.standing h3").all()] == [
        "Copa Éden — 3 games",
        "Liga — 1 game",
    ]
    left = page.locator("#r-left li").all_inner_texts()
    said = "not JSON: a line of a JSON Lines file is one game or one result"
    assert left == [f"{event.name}:3 — unreadable: {said}"]
    assert errors == []
    ctx.close()


@pytest.mark.long
def test_points_that_rise_are_refused_with_the_services_words(
    browser: Any, server: int, event: Path
) -> None:
    ctx, page, _errors = _open(browser, server)
    page.locator("details summary").click()
    page.fill("#r-points", "3,5")
    page.set_input_files("#r-file", str(event))
    page.wait_for_selector("body[data-ranked]")
    alert = page.locator("#r-error")
    assert alert.is_visible()
    assert '"3,5" rises' in alert.inner_text()
    assert page.locator("section.standing").count() == 0
    ctx.close()


@pytest.mark.long
def test_the_games_saved_on_a_phone_are_ranked_in_portuguese(
    browser: Any, server: int, event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = [
        {"id": f"g{k}", "name": f"Mesa {k}", "saved": "2026-12-06T10:00:00Z", "game": doc}
        for k, doc in enumerate(_games())
    ]
    ctx, page, errors = _open(browser, server, "pt-BR", **PHONE)
    page.evaluate("kept => localStorage.setItem('neweden.saved', JSON.stringify(kept))", kept)
    page.locator("#r-kept").click()
    page.wait_for_selector("body[data-ranked]")
    expected = _standings(event, capsys)
    names = [[row[1] for row in table] for table in _shown(page)]
    assert names == [[p["name"] for p in e["players"]] for e in expected["events"]]
    assert page.locator("h2").inner_text() == "Resultados de um evento"
    assert page.locator("section.standing h3").first.inner_text() == "Copa Éden — 3 partidas"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == []
    ctx.close()


def _ranked(page: Any, times: int) -> None:
    page.wait_for_selector(f'body[data-ranked="{times}"]')


@pytest.mark.long
def test_saved_games_of_one_name_are_each_counted(
    browser: Any, server: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Three saved games named "Table 1" (their table, as the page names them) are three
    games, not one and two duplicates."""
    docs = _games()[:3]
    kept = [
        {"id": f"g{k}", "name": "Table 1", "saved": "2026-12-06T10:00:00Z", "game": doc}
        for k, doc in enumerate(docs)
    ]
    ctx, page, errors = _open(browser, server)
    page.evaluate("kept => localStorage.setItem('neweden.saved', JSON.stringify(kept))", kept)
    page.locator("#r-kept").click()
    _ranked(page, 1)
    assert page.locator("section.standing h3").first.inner_text() == "Copa Éden — 3 games"
    assert page.locator("#r-left li").count() == 0
    assert errors == []
    ctx.close()


def test_options_read_as_the_command_line_reads_them(
    browser: Any, server: int, event: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`3:4,2,1` and `Davi#2 = …` mean what they mean to `neweden standings`; what it
    refuses is refused, and a refusal leaves no table of other options on the screen."""
    aliases = event.parent / "aliases.txt"
    aliases.write_text("Davi = Bruno  # the same person\n", encoding="utf-8")
    capsys.readouterr()
    args = [
        "standings",
        str(event),
        "--points",
        "4:5,3,1,0",
        "--alias",
        str(aliases),
        "--json",
        "-",
    ]
    assert main([*args, "--quiet"]) == 0
    expected = json.loads(capsys.readouterr().out)
    ctx, page, _errors = _open(browser, server)
    page.locator("details summary").click()
    page.fill("#r-points", "4:5,3,1,0")
    page.fill("#r-aliases", "Davi = Bruno  # the same person")
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    shown = _shown(page)
    assert [[row[1] for row in table] for table in shown] == [
        [p["name"] for p in e["players"]] for e in expected["events"]
    ]
    assert [[row[2] for row in table] for table in shown] == [
        [str(p["points"]) for p in e["players"]] for e in expected["events"]
    ]
    for text, said in (
        ("Davi = Bruno = Ana", "line 1 of the aliases: write ALIAS = NAME, with one ="),
        ("Davi = Bruno\nDavi = Ana", 'line 2 of the aliases: "Davi" is already an alias'),
    ):
        page.fill("#r-aliases", text)
        page.locator("#r-aliases").dispatch_event("change")
        page.wait_for_selector("#r-error:not([hidden])")
        assert said in page.locator("#r-error").inner_text()
        assert page.locator("section.standing").count() == 0  # no table of other options
    page.fill("#r-aliases", "")
    page.fill("#r-points", "4/3/2/1")
    page.locator("#r-points").dispatch_event("change")
    page.wait_for_function("() => document.getElementById('r-error').innerText.includes('4/3/2/1')")
    assert "is neither 5,3,2,0 nor 3:4,2,1" in page.locator("#r-error").inner_text()
    ctx.close()


@pytest.mark.long
def test_a_second_choice_while_the_first_is_ranked_shows_only_the_second(
    browser: Any, server: int, event: Path, tmp_path: Path
) -> None:
    big = _one_event(tmp_path / "big.jsonl", "Big", copies=2500)
    ctx, page, _errors = _open(browser, server)
    page.set_input_files("#r-file", str(big))
    page.set_input_files("#r-file", str(event))  # at once, before the first is ranked
    _settled(page, 2)  # both choices done with: the first's answers came back and were dropped
    assert _titles(page) == ["Copa Éden — 3 games", "Liga — 1 game"]
    ctx.close()


@pytest.mark.long
def test_a_first_file_read_after_the_second_is_chosen_is_not_shown(
    browser: Any, server: int, event: Path, tmp_path: Path
) -> None:
    first = _one_event(tmp_path / "held-first.jsonl", "Old")
    ctx, page, _errors = _open(browser, server, script=READS)
    page.set_input_files("#r-file", str(first))  # its reading held
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    page.evaluate("window.releaseReads()")  # the first file read at last
    _settled(page, 2)
    assert _titles(page) == ["Copa Éden — 3 games", "Liga — 1 game"]
    assert page.locator("#r-status").inner_text() == "Ranked: copa.jsonl"
    ctx.close()


#: Every text the status line shows, in order (`window.said`).
_STATUS_LOG = text_log("r-status", "said")


@pytest.mark.long
def test_an_option_changed_while_a_new_file_is_read_ranks_the_old_one_no_more(
    browser: Any, server: int, event: Path, tmp_path: Path
) -> None:
    other = _one_event(tmp_path / "held-other.jsonl", "Other")
    ctx, page, _errors = _open(browser, server, script=READS + _STATUS_LOG)
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    page.set_input_files("#r-file", str(other))  # its reading held
    chosen = page.evaluate("window.said.length")
    page.locator("details summary").click()
    page.fill("#r-points", "3,0")
    page.locator("#r-points").dispatch_event("change")  # nothing read to rank yet
    assert page.evaluate(f"window.said.slice({chosen})") == []  # copa not scored again
    page.evaluate("window.releaseReads()")
    _settled(page, 2)
    assert _titles(page) == ["Other — 1 game"]
    assert page.evaluate("document.body.dataset.ranked") == "2"  # copa, then other
    ctx.close()


@pytest.mark.long
def test_an_outrun_ranking_sends_no_more_batches_and_leaves_the_status_alone(
    browser: Any, server: int, event: Path, tmp_path: Path
) -> None:
    big = _one_event(tmp_path / "big.jsonl", "Big", copies=2500)  # three batches
    ctx, page, _errors = _open(browser, server)
    held: list[Any] = []
    sent: list[int] = []

    def batch(route: Any) -> None:
        sent.append(len(json.loads(route.request.post_data)["games"]))
        if held or len(sent) > 1:
            route.continue_()
        else:
            held.append(route)  # the big file's first batch answered late

    page.route("**/v1/score/batch*", batch)  # (with the language asked, if any)
    page.set_input_files("#r-file", str(big))
    page.wait_for_function(
        "() => document.getElementById('r-status').textContent.startsWith('Scoring')"
    )
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    held[0].continue_()
    _settled(page, 2)
    assert sent == [1000, 4]  # the big file's other batches never sent
    assert page.locator("#r-status").inner_text() == "Ranked: copa.jsonl"
    assert _titles(page) == ["Copa Éden — 3 games", "Liga — 1 game"]
    ctx.close()


@pytest.mark.long
def test_a_file_that_cannot_be_read_says_so_and_shows_no_standings(
    browser: Any, server: int, event: Path, tmp_path: Path
) -> None:
    gone = _one_event(tmp_path / "unreadable-table.jsonl", "Gone")
    ctx, page, errors = _open(browser, server, script=READS)
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    page.set_input_files("#r-file", str(gone))
    _settled(page, 2)
    assert page.locator("#r-error").inner_text() == (
        "The file unreadable-table.jsonl could not be read: the disk is gone"
    )
    assert _titles(page) == []
    assert page.locator("#r-status").inner_text() == ""
    assert errors == []
    ctx.close()


def _titles(page: Any) -> list[str]:
    return list(page.locator("section.standing h3").all_inner_texts())


def _one_event(path: Path, event: str, copies: int = 1) -> Path:
    """A JSON Lines file of `copies` times one game of `event`."""
    doc = game("military", player("Zé", line(3)), player("Ivo", line(2)), meta={"event": event})
    path.write_text((json.dumps(doc) + "\n") * copies, encoding="utf-8")
    return path


def _settled(page: Any, choices: int) -> None:
    """Waits until the page is done with `choices` files chosen (each shown or dropped)."""
    page.wait_for_function(f"() => document.body.dataset.settled === '{choices}'")


@pytest.mark.long
def test_a_json_file_is_one_game_and_a_phone_keeps_long_names_inside(
    browser: Any, server: int, tmp_path: Path
) -> None:
    name = "Copa_New_Eden_2026_Etapa_Sao_Paulo_Regional_Final"
    doc = game("military", player("Ana", line(3)), player("Bia", line(2)), meta={"event": name})
    pretty = tmp_path / f"{name}_mesa_1.json"
    pretty.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    ctx, page, errors = _open(browser, server, **PHONE)
    page.set_input_files("#r-file", str(pretty))
    _ranked(page, 1)
    assert page.locator("section.standing h3").inner_text() == f"{name} — 1 game"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_input_files("#r-file", str(empty))
    _ranked(page, 2)
    assert page.locator("#r-status").inner_text() == "No game could be counted for the standings."
    assert page.locator("section.standing").count() == 0
    assert errors == []
    ctx.close()


@pytest.mark.long
def test_a_choice_emptied_keeps_the_standings_and_their_options(
    browser: Any, server: int, event: Path
) -> None:
    ctx, page, _errors = _open(browser, server)
    page.set_input_files("#r-file", str(event))
    _ranked(page, 1)
    page.set_input_files("#r-file", [])  # (a browser empties it when its picker is cancelled)
    page.locator("details summary").click()
    page.fill("#r-points", "3,2,1,0")
    page.locator("#r-points").dispatch_event("change")
    _ranked(page, 2)  # the file shown is ranked again with the option
    assert _titles(page) == ["Copa Éden — 3 games", "Liga — 1 game"]
    ctx.close()
