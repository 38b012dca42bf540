"""Pictures of cities: golden files, well-formed SVG, the CLI, validate --svg, a browser."""

from __future__ import annotations

import json
import os
import re
import struct
import textwrap
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from bench.mixes import mistaken_games
from neweden.catalog.catalog import BUILTIN
from neweden.cli.main import example_game, main
from neweden.i18n import speaking
from neweden.present.render import NOTE_WIDTH, OVERLAYS, _greedy_lines, _wrapped, render
from neweden.runners.batch import validate
from neweden.runners.results import score_entries
from neweden.runners.sources import Entry
from tests.browser import CHROMIUM, FLAGS
from tests.games import card, game, line, player

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def cases() -> dict[str, tuple[Any, dict[str, Any]]]:
    legal = json.loads(example_game())
    illegal = game(
        "military",
        player(
            "Ana",
            [
                *line(3),
                card(0, 0, "r"),
                card(4, 4, "t"),
                {"row": 1, "col": 0, "card": "EX-unknown"},
            ],
        ),
    )
    rotated = game(
        "military",
        player("Rui", [card(0, 0, "r"), card(0, 1, "r", rotated=True)]),
    )
    wild = game(
        "military", player("Wil", [card(0, 0, "r"), {"row": 0, "col": 1, "card": "new-eden"}])
    )
    return {
        "render-legal.svg": (legal, {"player": "Sarah", "overlays": list(OVERLAYS)}),
        "render-illegal.svg": (illegal, {}),
        "render-rotated.svg": (rotated, {}),
        "render-wild.svg": (wild, {}),
    }


@pytest.mark.parametrize("name", sorted(cases()))
def test_render_matches_its_golden_file(name: str) -> None:
    doc, options = cases()[name]
    picture = render(doc, **options)
    assert picture == render(doc, **options)  # deterministic
    assert picture == (GOLDEN / name).read_text(encoding="utf-8"), (
        f"regenerate with: python -m tests.present.test_render {name}"
    )


def test_the_svg_parses_and_has_a_card_per_card() -> None:
    tree = ET.fromstring(render(example_game()))
    assert tree.tag == f"{SVG}svg"
    players = tree.findall(f"{SVG}g[@class='player']")
    assert [p.get("data-name") for p in players] == ["Sarah", "Bruno", "Carla"]
    cards = [g for p in players for g in p.iter(f"{SVG}g") if g.get("class") == "card"]
    assert len(cards) == 10 + 7 + 8
    titles = [t.text for t in tree.iter(f"{SVG}text") if t.get("class") == "score"]
    assert titles[0].startswith("Sarah: 78 points, place 1")


def test_problems_are_marked_with_their_codes() -> None:
    doc, _ = cases()["render-illegal.svg"]
    tree = ET.fromstring(render(doc))
    codes = sorted(t.text or "" for t in tree.iter(f"{SVG}text") if t.get("class") == "problem")
    assert codes == ["disconnected", "overlap", "unknown_card"]


def test_far_apart_cards_fold_the_empty_rows_and_columns() -> None:
    doc = game("military", player("Far", [card(0, 0, "t"), card(900, 900, "t")]))
    root = ET.fromstring(render(doc))
    assert float(root.get("width", "0")) < 1200
    assert float(root.get("height", "0")) < 600


def test_unknown_player_and_overlay_are_refused() -> None:
    with pytest.raises(ValueError, match="no player is named"):
        render(example_game(), player="Zed")
    with pytest.raises(ValueError, match="unknown overlay"):
        render(example_game(), overlays=["clouds"])


def test_neweden_render_writes_the_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_file = tmp_path / "g.json"
    game_file.write_bytes(example_game())
    out = tmp_path / "city.svg"
    assert (
        main(
            [
                "render",
                str(game_file),
                "--player",
                "Sarah",
                "-o",
                str(out),
                "--overlay",
                "shelters,towers",
            ]
        )
        == 0
    )
    assert out.read_text() == render(
        example_game(), player="Sarah", overlays=["shelters", "towers"], source=str(game_file)
    )
    assert main(["render", str(game_file)]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert main(["render", str(game_file), "--player", "Nobody"]) == 2


def test_validate_svg_writes_a_picture_per_invalid_game(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(example_game())
    bad = tmp_path / "games.jsonl"
    doc, _ = cases()["render-illegal.svg"]
    bad.write_text(json.dumps(doc) + "\n{\n")
    pictures = tmp_path / "pictures"
    validate([str(good), str(bad)], svg_dir=str(pictures), jobs=1, quiet=True)
    names = sorted(p.name for p in pictures.iterdir() if p.name != "index.html")
    assert len(names) == 1  # the unreadable line has nothing to draw; the valid game none
    assert names[0].endswith(".svg")
    assert "games.jsonl_L1-" in names[0]  # then a digest of the source: see test_validate
    ET.fromstring((pictures / names[0]).read_text())


# --- in a browser ---------------------------------------------------------------------------


def _png_colours(png: bytes) -> int:
    """How many distinct colours an RGB(A) 8-bit PNG holds (enough to tell a blank one)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, width, height, kind, data = 8, 0, 0, 0, b""
    while at < len(png):
        size, tag = struct.unpack(">I4s", png[at : at + 8])
        chunk = png[at + 8 : at + 8 + size]
        if tag == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", chunk[:10])
        elif tag == b"IDAT":
            data += chunk
        at += 12 + size
    channels = {2: 3, 6: 4}[kind]
    raw = zlib.decompress(data)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind_byte, line_ = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line_[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind_byte == 1:
                line_[i] = (line_[i] + left) & 255
            elif kind_byte == 2:
                line_[i] = (line_[i] + up) & 255
            elif kind_byte == 3:
                line_[i] = (line_[i] + (left + up) // 2) & 255
            elif kind_byte == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line_[i] = (line_[i] + pred) & 255
        rows.append(bytes(line_))
        previous = line_
    return len({row[i : i + 3] for row in rows[::7] for i in range(0, stride, channels * 7)})


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
def test_the_picture_in_a_real_browser(tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package")
    picture = tmp_path / "city.svg"
    picture.write_text(render(example_game()))
    profile = tmp_path / "profile"
    with playwright.sync_playwright() as p:
        # A fresh profile folder: playwright's way of passing --user-data-dir.
        browser = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=FLAGS,
            headless=True,
            viewport={"width": 1000, "height": 900},
        )
        page = browser.new_page()
        page.goto(picture.as_uri())
        assert page.locator("g.card").count() == 25
        assert "Sarah: 78 points" in page.locator("text.score").first.text_content()
        shot = page.screenshot()
        browser.close()
    assert _png_colours(shot) > 8  # not a blank page


if __name__ == "__main__":  # write the golden files after a deliberate change
    import sys

    for name, (doc, options) in cases().items():
        if len(sys.argv) > 1 and name not in sys.argv[1:]:
            continue
        (GOLDEN / name).write_text(render(doc, **options), encoding="utf-8")


#: Characters XML 1.0 cannot hold, even escaped (a parser refuses the whole document).
NOT_XML = ["\u0000", "\u0001", "\u0008", "\u000b", "\u001b", "\u001f", "\ufffe", "\uffff"]


def _named(name: str) -> dict[str, Any]:
    """A game with `name` everywhere a game holds text: player and first player, a card's
    name, a bonus's name, meta."""
    city = line(2)
    city[0]["card"]["name"] = name
    return game(
        "military",
        player(name, city, bonuses=[{"name": name, "points": 1}]),
        player("B" + name, line(1)),
        first_player=name,
        meta={"event": name, name: [name]},
    )


@pytest.mark.parametrize("char", NOT_XML, ids=[f"U+{ord(c):04X}" for c in NOT_XML])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_characters_xml_cannot_hold_are_replaced(char: str, where: str) -> None:
    name = {"start": char + "Ana", "middle": "An" + char + "a", "end": "Ana" + char}[where]
    for source in (json.dumps(_named(name)), _named(name)):
        picture = render(source, overlays=list(OVERLAYS))
        tree = ET.fromstring(picture.encode("utf-8"))  # a strict parser, from the bytes
        names = [p.get("data-name") for p in tree.findall(f"{SVG}g[@class='player']")]
        expected = name.replace(char, "\ufffd")
        assert names == [expected, "B" + expected]
        assert char not in picture


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab c-.,é…\t\n\x0b\r\u00a0\u2003")), max_size=130)
    | st.text(max_size=130)
    | st.lists(st.text(alphabet="abcé…-\u00a0", min_size=1, max_size=14), max_size=90).map(" ".join)
    | st.lists(st.text(alphabet="abcé…1", min_size=1, max_size=14), max_size=90).map(" ".join)
)
def test_a_note_is_wrapped_as_textwrap_wraps_it(words: str) -> None:
    """The notes' lines (a note that fits one line taken as it is, without textwrap): what
    textwrap gives, white space of every kind, at the ends and inside, around the width."""
    expected = textwrap.wrap(words, NOTE_WIDTH, max_lines=4, placeholder=" …") or [""]
    assert _wrapped(words) == expected


#: Words _greedy_lines takes (printable, none empty) and words it leaves to textwrap.
_PLAIN_WORDS = st.lists(st.text(alphabet="abé_18…", min_size=1, max_size=9), min_size=1)
_HYPHENED_WORDS = st.lists(st.text(alphabet="abé_18…-", min_size=1, max_size=9), min_size=1)
_ANY_WORDS = st.lists(st.text(alphabet="abé_18…-\u00a0 \t", max_size=9), min_size=1)


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(_PLAIN_WORDS, _PLAIN_WORDS, _HYPHENED_WORDS, _ANY_WORDS).map(lambda w: w[:30]),
    st.integers(2, 40),
    st.integers(1, 5),
    st.sampled_from([" …", "…", " [...]", "X"]),
)
@example(["abcd-efgh", "abcd-efgh"], 15, 4, " …")  # textwrap breaks after "abcd-"
@example(["ab", "a-b-cd", "ab"], 8, 4, " …")  # and after "a-b-"
@example(["ab", "ab--cd", "ab"], 7, 4, " …")  # and at a dash
@example(["abcdefghi", "jk"], 10, 1, "X")  # the placeholder just fits the last line
@example(["a", "a", "a"], 3, 1, " …")  # a word and its space give room for the placeholder
@example(["a", "ab", "a"], 2, 2, "…")  # the placeholder ends the line before, just fitting
@example(["a", "a"], 2, 1, " …")  # alone on its line, the placeholder without its space
def test_plain_words_are_wrapped_as_textwrap_wraps_them(
    words: list[str], width: int, most: int, placeholder: str
) -> None:
    """The notes' lines of plain words (`_greedy_lines`): textwrap's, at any width, line
    count and placeholder; any other text (a hyphen, white space but single spaces, a word
    wider than a line) is left to textwrap (None)."""
    text = " ".join(words)
    lines = _greedy_lines(text, width, most, placeholder)
    event("wrapped" if lines is not None else "left to textwrap")
    if lines is not None:
        assert lines == textwrap.wrap(text, width, max_lines=most, placeholder=placeholder)


@pytest.mark.parametrize(
    "words",
    [
        ["the card is not joined to the project"] * 12,
        ["x" * 110] * 3 + ["a" * 54, "b" * 53, "d", "ee"],  # a word and its space make room
        ["x" * 110] * 2 + ["y" * 108, "z" * 109, "w"],  # the placeholder on the line before
    ],
    ids=["sentence", "room", "line-before"],
)
def test_a_long_note_of_plain_words_is_wrapped_as_textwrap_wraps_it(words: list[str]) -> None:
    note = " ".join(words)
    lines = _greedy_lines(note, NOTE_WIDTH, 4, " …")
    assert lines is not None  # (not left to textwrap)
    assert lines == textwrap.wrap(note, NOTE_WIDTH, max_lines=4, placeholder=" …")
    assert _wrapped(note) == lines


@pytest.mark.parametrize("lang", ["en", "pt-BR"])
@pytest.mark.parametrize("detail", [False, True])
def test_a_batch_draws_each_invalid_game_as_render_does(detail: bool, lang: str) -> None:
    """A batch's pictures (`validate --svg`) are drawn from the reports it made: each is
    the picture render() makes of the game alone, which scores it again."""
    entries = [Entry("mix.jsonl", i + 1, data) for i, data in enumerate(mistaken_games(240, 45))]
    with speaking(lang):
        results = score_entries(entries, BUILTIN, detail, short=False, rows=False, svg=True)
        drawn = [(e, r.svg) for e, r in zip(entries, results, strict=True) if r.svg]
        assert len(drawn) > 40
        for entry, svg in drawn:
            assert svg == render(entry.data or b"", source=entry.label())


def test_a_card_face_made_once_is_drawn_for_its_own_points_language_and_outline() -> None:
    # A card's face is made once and kept (city_picture._face_template): what it keeps
    # must not be given to a card that looks alike but is drawn otherwise.
    from neweden.catalog.catalog import CardSpec
    from neweden.present.city_picture import _face

    def face(points: Any, problem: str | None = None, lang: str = "en", at: float = 0) -> str:
        spec = CardSpec(False, "gothic", "plaza", "lab", points, 1, frozenset({"top"}))
        with speaking(lang):
            return _face(spec, 16.0 + at, 62.0 + at, {"gothic": "#cdb4db"}, problem)

    one = face(1)
    assert "1 pts · ★" in one
    assert "True pts" in face(True)  # equal to 1 as a key, shown otherwise
    assert face(1) == one
    outlined = face(1, "overlap")
    assert 'stroke-dasharray="7 4"' in outlined
    assert "stroke-dasharray" not in one
    portuguese = face(1, lang="pt-BR")
    assert "Gótico" in portuguese
    assert "gothic" not in portuguese
    assert face(1) == one
    # its place is its own: the same card further on is moved by as much, nothing else
    place = re.compile(r' (x|y)="(-?[0-9.]+)"')
    moved = face(1, at=110)
    assert place.sub("", moved) == place.sub("", one)
    assert [(k, float(v) - 110) for k, v in place.findall(moved)] == [
        (k, float(v)) for k, v in place.findall(one)
    ]
    assert len(place.findall(one)) == 10  # the rectangle and four lines
    # a card built by hand with None for wild is drawn as a card that is not wild
    unwild = CardSpec(None, "gothic", "plaza", "lab", 1, 1, frozenset({"top"}))  # type: ignore[arg-type]
    with speaking("en"):
        assert _face(unwild, 16.0, 62.0, {"gothic": "#cdb4db"}, None) == one
    # words are drawn as written, whatever a format would read in them
    odd = CardSpec(False, "50%s {0}", "plaza", "lab", 1, 1, frozenset({"top"}))
    assert ">50%s {0}</text>" in _face(odd, 16.0, 62.0, {}, None)


def test_a_text_line_kept_is_given_only_to_a_line_printed_alike() -> None:
    # text_after_place keeps a line's look as a key, where 12 and 12.0 are one
    from neweden.present.svg import text_line

    assert 'font-size="12"' in text_line(0, 0, "same words", size=12)
    assert 'font-size="12.0"' in text_line(0, 0, "same words", size=12.0)  # type: ignore[arg-type]
    assert 'font-size="12"' in text_line(0, 0, "same words", size=12)
    with speaking("pt-BR"):
        squeezed = text_line(0, 0, "palavras longas demais", size=11, fit=60)
        assert 'textLength="60"' in text_line(0, 0, "palavras longas demais", size=11, fit=60.0)
    assert 'textLength="60"' in squeezed
