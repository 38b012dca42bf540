"""Text from a game or a file name on a terminal (issue 35, finding 6): player names, names
quoted in messages, paths built from unknown keys, file names and `placements`' error text
reached the terminal raw: `ESC[2J` cleared the screen, an OSC sequence retitled the window,
and a name holding a newline forged a `validate` result line. Every control character of such
text is now shown as an escape (`\\x1b`, `\\n`); the tests read what a terminal receives (a
pseudo-terminal) and what it shows (tmux)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from neweden._visible import visible
from tests.cli.test_terminal import on_terminal
from tests.conftest import EXAMPLES

#: ESC[2J clears the screen, OSC 0 sets the window's title, BEL, a bidirectional override,
#: a C1 CSI, a newline that starts a forged result line.
HOSTILE = "Ana\x1b[2J\x1b]0;pwned\x07\u202e\x9b6n\nplayers/0: ok: forged line"
#: What a terminal may receive of neweden's own: newlines (a pseudo-terminal adds \r) and
#: the colours of validate's verdicts.
OWN = re.compile(r"\x1b\[(?:1;3[125]|0)m|\r?\n")
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _controls(shown: str) -> list[str]:
    return CONTROL.findall(OWN.sub("", shown))


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A folder with a game whose first player is HOSTILE, the same game under a file name
    holding ESC[2J, and a game with an unknown key holding controls."""
    game = json.loads((EXAMPLES / "format-example.json").read_text())
    game["players"][0]["name"] = HOSTILE
    (tmp_path / "named.json").write_text(json.dumps(game))
    (tmp_path / "file\x1b[2J\nforged.json").write_text(json.dumps(game))
    keyed = json.loads((EXAMPLES / "format-example.json").read_text())
    keyed["players"][0]["x\x1b]0;pwned\x07\ny"] = 1
    (tmp_path / "keyed.json").write_text(json.dumps(keyed))
    return tmp_path


def test_visible_shows_every_control_character_as_an_escape() -> None:
    assert visible("Ana") == "Ana"
    assert visible("é ✓ 😀 ação") == "é ✓ 😀 ação"
    assert visible(HOSTILE) == (
        "Ana\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x9b6n\\nplayers/0: ok: forged line"
    )
    assert visible("\t\r\x00\x7f\u2028") == "\\t\\r\\x00\\x7f\\u2028"


def test_score_on_a_terminal_shows_a_hostile_name_as_escapes(hostile: Path) -> None:
    code, shown = on_terminal("score", str(hostile / "named.json"))
    assert code == 0
    assert _controls(shown) == []
    assert "Ana\\x1b[2J" in shown  # the table's name cell, clipped
    assert not any(line.startswith("players/0") for line in shown.splitlines())


def test_decode_problems_show_an_unknown_key_as_escapes(hostile: Path) -> None:
    code, shown = on_terminal("score", str(hostile / "keyed.json"))
    assert code == 2
    assert _controls(shown) == []
    (line,) = shown.splitlines()
    assert line.startswith("/players/0/x\\x1b]0;pwned\\x07\\ny: unknown_field: ")


def test_validate_lines_cannot_be_forged_by_a_name_or_a_file_name(hostile: Path) -> None:
    """One result line a game and the summary, whatever the names; in colour too."""
    for env in ({}, {"FORCE_COLOR": "1"}):
        code, shown = on_terminal("validate", str(hostile), env=env)
        assert code == 1
        assert _controls(shown) == []
        lines = shown.splitlines()
        assert len(lines) == 4, lines  # three games, the summary
        assert lines[0].startswith(f"{hostile}/file\\x1b[2J\\nforged.json: ")
        assert (
            "Ana\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x9b6n\\nplayers/0: ok: forged line" in lines[0]
        )
        assert "unknown_field at /players/0/x\\x1b]0;pwned\\x07\\ny" in lines[1]


def test_placements_error_text_shows_the_names_as_escapes(hostile: Path) -> None:
    code, shown = on_terminal(
        "placements", str(hostile / "named.json"), "--player", "Bo\x1b[2J", "--card", "new-eden"
    )
    assert code == 2
    assert _controls(shown) == []
    (line,) = shown.splitlines()
    assert 'no player of the game is called "Bo\\x1b[2J"' in line
    assert '"Ana\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\x9b6n\\nplayers/0: ok: forged line"' in line


def test_a_missing_file_with_controls_in_its_name_is_said_with_escapes(tmp_path: Path) -> None:
    code, shown = on_terminal("validate", str(tmp_path / "gone\x1b]0;pwned\x07.jsonl"))
    assert code == 2
    assert _controls(shown) == []
    assert "gone\\x1b]0;pwned\\x07.jsonl: no such file or folder" in shown


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_terminal_keeps_its_screen_and_title_through_hostile_names(hostile: Path) -> None:
    """What a person sees, in tmux: the line before the run is still on the screen (ESC[2J
    would clear it), the pane's title is unchanged (OSC 0 would set it), and the output has
    one line a game."""
    session = f"neweden-{time.monotonic_ns()}"
    tmux = ["tmux", "-L", session]
    command = f"echo BEFORE; {sys.executable} -m neweden validate {hostile}; echo AFTER"
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "200", "-y", "50", "-s", "t", command + "; sleep 30"],
        check=True,
        env={"NEWEDEN_LANG": "en", "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"},
    )
    try:
        screen = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "AFTER" not in screen:
            time.sleep(0.2)
            screen = subprocess.run(
                [*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True
            ).stdout
        title = subprocess.run(
            [*tmux, "display-message", "-p", "-t", "t", "#{pane_title}"],
            capture_output=True,
            text=True,
        ).stdout.strip()
    finally:
        subprocess.run([*tmux, "kill-server"], check=False)
    lines = [line for line in screen.splitlines() if line.strip()]
    assert lines[0] == "BEFORE"
    assert lines[-1] == "AFTER"
    assert len(lines) == 6, lines  # BEFORE, three games, the summary, AFTER
    assert "pwned" not in title
    assert not any(line.startswith("players/0") for line in lines)
