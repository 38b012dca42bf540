"""The web page `neweden serve` answers at `/` (docs/web.md): plain ES modules and CSS of
this package's `web/` folder, no build step. The page is a client of the public API; its
own words are the gettext messages below (`GET /web/messages.json?lang=`), translated like
every other message of neweden.

Assets are served under `/web/{version}/`, `version` a hash of their contents: an asset is
cached for a year (immutable), and a new release names new URLs. The page itself and its
messages are revalidated (ETag)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from neweden.format.modes import MODES
from neweden.i18n import LANGUAGES, N_, Nn_, _, current, own_name, plural_pair

__all__ = [
    "MESSAGES",
    "PAGE_HEADERS",
    "asset",
    "messages",
    "page",
    "results_page",
    "review_page",
]

FOLDER = Path(__file__).parent / "web"
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}

#: The page's policy: its scripts, styles and pictures from this server only (the picture of
#: a city is shown from a blob: URL of the SVG /v1/render answers), its calls to this server
#: only, and never framed.
PAGE_HEADERS = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'",
}

#: The page's words by key (the keys are the page's; data-t="key" in index.html, t("key")
#: in the modules). `{name}` placeholders are filled by the page.
MESSAGES: dict[str, str] = {
    "page_title": N_("neweden: enter and score a New Eden Project game"),
    "new_game": N_("New game"),
    "open_example": N_("Open the manual's example"),
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "undo_keys": N_("Undo (Ctrl+Z)"),
    "redo_keys": N_("Redo (Ctrl+Y)"),
    "language": N_("Language"),
    "api_docs": N_("API documentation"),
    "compose": N_("Compose"),
    "settings": N_("Game settings"),
    "mode": N_("Mode"),
    "requirements": N_("Requirement cards"),
    "requirements_hint": N_(
        "One card a deck, as on the table: the catalog's, or any id typed. For a card the "
        "catalog does not know, tick the players the table agreed met it."
    ),
    "deck_n": N_("Deck {deck}"),
    "no_card": N_("no card"),
    "other_id": N_("other id…"),
    "other_id_of": N_("Another card of deck {deck}, its id typed"),
    "also_in_play": N_("Also in play: {id}"),
    "remove_requirement": N_("Remove"),
    "requirement_not_in_catalog": N_("{id} is not in the catalog: which players met it?"),
    "majority": N_("The D5 card (military base majority)"),
    "majority_game": N_(
        "This game's values, as typed (remembered on this device for {n}-player games)."
    ),
    "majority_catalog": N_("The catalog's values for {n} players: type the printed card's."),
    "majority_default": N_(
        "The built-in default for {n} players, not the printed card: type the card's values."
    ),
    "majority_bad": N_(
        "The D5 card has {n} values, each a whole number from 0 to {max}, none larger than "
        "the one before."
    ),
    "majority_reset": N_("Forget the values typed"),
    "majority_wrong": N_(
        "This game's D5 values are not {n} whole numbers, none larger than the one before: "
        "the service refuses the game. Forget them, or type the card's."
    ),
    "requirements_unscored": N_(
        "This mode scores no requirement cards: choose none in each deck (else the service "
        "warns that they are ignored)."
    ),
    "requirement_bad_id": N_(
        "“{id}” is not an id: a letter or a digit, then letters, digits, _ or -."
    ),
    "first_player": N_("First player"),
    "nobody": N_("(not known)"),
    "table": N_("Table"),
    "photo": N_("Photo"),
    "catalog": N_("Catalog:"),
    "players": N_("Players"),
    "player": N_("Player"),
    "player_n": N_("Player {n}"),
    "player_name": N_("Player's name"),
    "move_player_up": N_("Move the player earlier in seat order"),
    "move_player_down": N_("Move the player later in seat order"),
    "remove_player": N_("Remove player"),
    "add_player": N_("Add player"),
    "grid_hint": N_(
        "Click or tap a cell, or move with the arrow keys and press Enter: an empty cell "
        "gets the card below, which stays selected to be edited; a card is selected. Green "
        "cells are where the card is legal."
    ),
    "grid_label": N_("{name}'s city"),
    "grid_zoom": N_("Size of the grid"),
    "zoom_out": N_("Smaller cells"),
    "zoom_in": N_("Larger cells"),
    "zoom_fit": N_("Fit the screen"),
    "picture_hint": N_("Tap the picture to see it larger (then drag to move around it)."),
    "move_hint": N_("Choose an empty cell to move the selected card to."),
    "cell_empty": N_("Empty cell, row {row}, column {col}"),
    "cell_legal": N_("Empty cell, row {row}, column {col}: the card is legal here"),
    "cell_card": N_("Row {row}, column {col}: {card}"),
    "card_words": N_("{style} {type}, {points}, {stars}"),
    "wild_card": N_("wild card"),
    "rotated": N_("rotated"),
    "card_to_place": N_("Card to place"),
    "selected_card": N_("Selected card: row {row}, column {col}"),
    "style": N_("Style"),
    "type": N_("Type"),
    "facility": N_("Facility"),
    "facility_lab": N_("Research lab"),
    "facility_shelter": N_("Shelter"),
    "facility_medical": N_("Medical center"),
    "facility_tower": N_("Communication tower"),
    "facility_base": N_("Military base"),
    # TRANSLATORS: one or two letters on a small cell of the grid
    "facility_short_lab": N_("Lab"),
    "facility_short_shelter": N_("Sh"),
    "facility_short_medical": N_("Med"),
    "facility_short_tower": N_("Tw"),
    "facility_short_base": N_("Base"),
    "points": N_("Points"),
    "stars": N_("Stars"),
    "icons": N_("Connection icons"),
    "side_top": N_("Top"),
    "side_right": N_("Right"),
    "side_bottom": N_("Bottom"),
    "side_left": N_("Left"),
    "other_name": N_("other…"),
    "other_style": N_("Another style, typed"),
    "other_type": N_("Another type, typed"),
    "points_typed": N_("Points, typed"),
    "stars_n": N_("Stars: {n}"),
    "quick_entry": N_("Quick entry (Enter puts the card on the outlined cell)"),
    # TRANSLATORS: an example of the quick-entry line: style, type, facility, points, stars,
    # icons (t r b l: top, right, bottom, left; the line also reads c d b e: cima, direita,
    # baixo, esquerda); the names may be typed in either language
    "quick_placeholder": N_("g b lab 5 2 trb"),
    "quick_where": N_("row {row}, column {col}"),
    "quick_replaces": N_("in place of the card at row {row}, column {col}"),
    "quick_icons": N_("icons: {icons}"),
    "quick_twice": N_("“{word}”: the icons are given twice"),
    "quick_unread": N_(
        "“{word}” is neither a name the format takes (once folded: a letter a to z, then "
        "letters, digits or _), a number nor icons"
    ),
    "quick_no_facility": N_("“{word}” is not a facility (lab, shelter, medical, tower, base)"),
    "quick_numbers": N_("at most two numbers: the points, then the stars"),
    "quick_points": N_("the points go from 0 to {max}"),
    "quick_stars": N_("the stars go from 0 to {max}"),
    "wild": N_("Wild"),
    "catalog_id": N_("Catalog id"),
    "rotate": N_("Rotate 180°"),
    "move": N_("Move"),
    "copy": N_("Copy"),
    "delete": N_("Delete"),
    "place_new": N_("Place a new card"),
    "epiphanies_and_bonuses": N_("Epiphanies and bonuses"),
    "epiphanies": N_("Epiphanies"),
    "add_epiphany": N_("Add epiphany"),
    "remove_epiphany": N_("Remove this epiphany"),
    "state": N_("State"),
    "state_held": N_("held"),
    "state_validated": N_("validated"),
    "state_activated": N_("activated"),
    "effect": N_("Effect"),
    "no_effect": N_("no effect"),
    "effect_third_star": N_("third star"),
    "effect_rotate": N_("rotate a card"),
    "effect_move": N_("move the project's cards"),
    "bonuses": N_("Bonuses"),
    "bonus": N_("Bonus"),
    "bonus_name": N_("Name"),
    "add_bonus": N_("Add bonus"),
    "remove_bonus": N_("Remove this bonus"),
    "live": N_("Score"),
    "scoring": N_("Scoring…"),
    "service_unreachable": N_("The service did not answer: {reason}"),
    "placements_failed": N_("Where the card may go is not known: {reason}"),
    "language_failed": N_("The page could not change its language: {reason}"),
    "catalog_failed": N_("The cards' names could not be read in this language: {reason}"),
    "not_an_id": N_("\u201c{id}\u201d is not a catalog id (letters, digits, _ and -, no space)"),
    "game_valid": N_("The game is valid."),
    "game_invalid": N_("The game is NOT valid: see the problems."),
    "total": N_("Total"),
    "part_requirements": N_("Populist"),
    "part_military": N_("Military"),
    "part_epiphanies": N_("Epiphanies"),
    "part_ten_cards": N_("10 cards"),
    "part_bonuses": N_("Bonuses"),
    "place": N_("Place"),
    "legal": N_("Legal"),
    "illegal": N_("Not legal"),
    "audit": N_("How?"),
    "audit_of": N_("How {name} scored"),
    "audit_cards": N_("Cards"),
    "audit_requirements": N_("Requirements"),
    "audit_stars": N_("Stars"),
    "audit_epiphanies": N_("Epiphanies"),
    "audit_military": N_("Military"),
    "audit_advice": N_("Advice"),
    "audit_ranking": N_("Ranking"),
    "points_n": N_("{n} pts"),
    "place_n": N_("place {n}"),
    "totals": N_("Each player's total and place"),
    "totals_entry": N_("{name}: {total} · {place}"),
    "military_labs": N_("Research labs"),
    "military_shelters": N_("Shelters"),
    "military_medical": N_("Medical centers"),
    "military_towers": N_("Communication towers"),
    "military_bases": N_("Military bases"),
    "problems": N_("Problems"),
    "no_problems": N_("No problems."),
    "error": N_("error"),
    "warning": N_("warning"),
    "picture": N_("Picture"),
    "picture_of": N_("{name}'s city, its score and its problems"),
    "in_and_out": N_("In and out"),
    "paste_label": N_("Paste a game (JSON, or one line of JSON Lines)"),
    "open_pasted": N_("Open what is pasted"),
    "upload": N_("Upload a file"),
    "download": N_("Download JSON"),
    "copy_line": N_("Copy as one line"),
    "share": N_("Share link"),
    "share_link": N_("The share link"),
    "share_picture": N_("Share the result as a picture"),
    "picture_shared": N_("The picture of the result was shared."),
    "picture_downloaded": N_("The picture of the result was downloaded ({name})."),
    "picture_failed": N_("The picture of the result could not be made: {reason}"),
    "picture_making": N_("Making the picture of the result…"),
    "file_unreadable": N_("The file {name} could not be read: {reason}"),
    "opened": N_("Game opened."),
    "could_not_open": N_("Could not open it: {reason}"),
    "not_a_game": N_("this is not a game (no players)"),
    # TRANSLATORS: where the page found what it cannot draw: {where} is one of the five below
    "where_game": N_("the game"),
    "where_player": N_("player {n}"),
    "where_card": N_("player {n}, card {k}"),
    "where_epiphany": N_("player {n}, epiphany {k}"),
    "where_bonus": N_("player {n}, bonus {k}"),
    "not_an_object": N_("{what} must be an object"),
    # TRANSLATORS: {field} is the format's name of a field (stars, row, points...), as is
    "must_be_number": N_("{where}: `{field}` must be a whole number from {min} to {max}"),
    "must_be_text": N_("{where}: `{field}` must be a text of at most {max} characters"),
    "must_be_list": N_("{where}: `{field}` must be a list"),
    "must_be_boolean": N_("{where}: `{field}` must be true or false"),
    "must_be_card": N_("{where}: `card` must be a catalog id or an object"),
    "too_many": N_("{where}: `{field}` has {count} entries; the format allows at most {max}"),
    "bad_sides": N_(
        "{where}: `sides` must be different sides among top, right, bottom and left, at most 4"
    ),
    "too_spread": N_(
        "{where}: the city spreads over more than {n} rows or columns: the page cannot draw it "
        "(the API scores it)"
    ),
    "bad_link": N_("The share link could not be read."),
    "link_refused": N_("The share link could not be opened: {reason}"),
    "saved_set_aside": N_(
        "The game saved in this browser could not be drawn ({reason}), so it was set aside "
        "(local storage key {key}) and a new game was started."
    ),
    "saved_unfinished": N_("the page did not finish drawing it last time"),
    "replace_ask": N_(
        "Start another game? The game in progress stays in Saved games, and Undo brings it back."
    ),
    "saved_games": N_("Saved games"),
    "saved_games_hint": N_(
        "Kept on this device: every game another one replaced, and the copies you keep. "
        "Download them all as JSON Lines: one game a line, as neweden validate reads a round."
    ),
    "saved_none": N_("No game is saved on this device yet."),
    "keep_copy": N_("Keep a copy of this game"),
    "export_saved": N_("Download all (JSON Lines)"),
    "saved_open": N_("Open"),
    "saved_delete": N_("Delete"),
    "saved_entry": N_("{name} ({date}; cards: {cards})"),
    "saved_opened": N_("Opened {name}; the game before it is in Saved games."),
    "saved_delete_ask": N_("Delete the saved game {name}? It cannot be brought back."),
    "saved_deleted": N_("Deleted {name}."),
    "kept_copy": N_("A copy of this game is in Saved games."),
    "storage_full": N_(
        "This device's storage refused to keep the game (is it full?): download the saved "
        "games and delete some."
    ),
    "table_named": N_("Table {table}"),
    "storage_full_replace": N_(
        "This device's storage is full: the game in progress cannot be kept in Saved games. "
        "Replace it anyway? (Cancel, then download it or the saved games first.)"
    ),
    "not_replaced": N_(
        "the game in progress stays, as this device's storage cannot keep a copy of it"
    ),
    "game_elsewhere": N_(
        "This game was changed in another tab of this browser, which keeps it now: changes "
        "made here are no longer kept on this device. \u201cKeep a copy of this game\u201d "
        "saves them in Saved games."
    ),
    "unsaved": N_(
        "This device's storage refused to keep the game in progress (is it full?): a reload "
        "would lose the latest changes. Download the game, or delete some saved games."
    ),
    "dismiss": N_("Dismiss"),
    "review_queue": N_("Games to review"),
    "review_folder": N_("Folder: {folder}"),
    "review_counts": N_("{left} left to fix, {fixed} fixed, of {games} games"),
    "review_filter_code": N_("Problem"),
    "review_filter_file": N_("File"),
    "review_all_codes": N_("every problem"),
    "review_all_files": N_("every file"),
    "review_none": N_("No game here."),
    "review_valid": N_("valid"),
    "review_invalid": N_("INVALID"),
    "review_unreadable": N_("UNREADABLE"),
    "review_saved": N_("saved here"),
    "review_game": N_("Under review:"),
    "review_save": N_("Save to the file (Ctrl+S)"),
    "review_back": N_("Back to the queue"),
    "review_previous": N_("Previous game"),
    "review_next": N_("Next game"),
    "review_rotate": N_("Turn the photo 90°"),
    "review_photo_larger": N_("Larger photo"),
    "review_photo_smaller": N_("Smaller photo"),
    "review_photo_of": N_("The photo of {id}"),
    "review_no_photo": N_("This game names no photo (meta.photo)."),
    "review_saved_now": N_("Saved to {id}; the version before it is in the folder's history."),
    "review_stale": N_(
        "Not saved: someone saved this game since you opened it. Open it again (the version "
        "saved is then shown) and make your changes again."
    ),
    "review_not_saved": N_("Not saved: {reason}"),
    "review_saving": N_("Saving…"),
    "review_photo_refused": N_("The photo is not kept: {reason}"),
    "review_history_failed": N_("The versions saved before could not be read: {reason}"),
    "review_queue_failed": N_("The queue could not be read: {reason}"),
    "review_photo_failed": N_("The photo could not be shown: {reason}"),
    "review_photo_unreadable": N_("the browser cannot show this picture"),
    "review_photo_not_kept": N_(
        "A photo is kept with a game the page can draw: mend the text and save it first."
    ),
    "review_previous_keys": N_("Previous game (Alt+Page Up)"),
    "review_next_keys": N_("Next game (Alt+Page Down)"),
    "review_photo_keys": N_(
        "The photo: + and - make it larger and smaller (or Ctrl and the wheel), r turns it"
    ),
    "review_history": N_("Versions saved before"),
    "review_unsaved_ask": N_("This game has changes not saved to its file. Leave it anyway?"),
    "review_raw": N_("The game's text"),
    "results_link": N_("Results of an event"),
    "results_back": N_("Enter a game"),
    "results_title": N_("Results of an event"),
    "results_hint": N_(
        "Choose a JSON Lines file of games (or the lines of neweden validate --out), or take "
        "the games saved on this device: each event (meta.event) is ranked over its rounds by "
        "tournament points by place, then totals, wins, requirements met and cards."
    ),
    "results_file": N_("A JSON Lines file"),
    "results_kept": N_("The games saved on this device"),
    "results_options": N_("Points and aliases"),
    "results_points_by_place": N_("Tournament points by place (default 4,3,2,1)"),
    "results_points_ph": N_("e.g. 5,3,2,0"),
    "results_aliases": N_("Other spellings of names, one ALIAS = NAME a line"),
    "results_aliases_ph": N_("e.g. Ana S. = Ana Souza"),
    "results_not_json": N_("not JSON: a line of a JSON Lines file is one game or one result"),
    "results_scoring": N_("Scoring: {done} of {games} games…"),
    "results_read": N_("Ranked: {name}"),
    "results_failed": N_("The standings could not be made: {reason}"),
    "results_no_event": N_("no event"),
    "results_place": N_("place"),
    "results_name": N_("player"),
    "results_points": N_("points"),
    "results_total": N_("totals"),
    "results_wins": N_("wins"),
    "results_requirements_met": N_("requirements met"),
    "results_cards": N_("cards"),
    "results_games": N_("games"),
    "results_points_syntax": N_('points: "{text}" is neither 5,3,2,0 nor 3:4,2,1'),
    "results_points_mixed": N_(
        "points: give one list for every player count, or lists by count (3:4,2,1), not both"
    ),
    "results_alias_line": N_("line {line} of the aliases: write ALIAS = NAME, with one ="),
    "results_alias_twice": N_(
        'line {line} of the aliases: "{alias}" is already an alias of "{name}"'
    ),
    "results_nothing": N_("No game could be counted for the standings."),
    "review_raw_hint": N_(
        "The page cannot draw this game (it is not JSON, or not a game): mend its text here "
        "and save it; the service says what is wrong."
    ),
    "review_pick_photo": N_("Pick the photo of this table"),
    "review_picked": N_(
        "The photo {name} is shown; it stays in this browser until the game is saved, then it "
        "is copied next to the game's file."
    ),
    "review_mine": N_("Your version (not saved)"),
    "review_theirs": N_("The version saved since"),
    "review_reopen": N_("Open the version saved (yours is then lost: copy what you need first)"),
    "review_history_none": N_("No version yet: a save keeps the one it replaces."),
    "review_restore": N_("Restore the version of {when}"),
    "review_restored": N_("The version chosen is saved to {id} again."),
    "city_full": N_("A city has at most {n} cards: this one is full."),
    "too_far": N_(
        "A card cannot go there: rows and columns go from {min} to {max}, and the page draws a "
        "city over at most {n} of them."
    ),
    "copied_line": N_("Copied as one line (also below)."),
    "line_below": N_("The line is below: copy it from there."),
    "copied_link": N_("Link copied."),
    "link_below": N_("The link is below: copy it from there."),
}


#: The page's messages whose words follow a count `{n}`: (for one, for more), each language's
#: forms sent to the page, which picks one with its own plural rules (i18n.js `tn`).
PLURALS: dict[str, tuple[str, str]] = {
    "points_count": Nn_("{n} point", "{n} points"),
    "stars_count": Nn_("{n} star", "{n} stars"),
    "stars_total": Nn_("{n} star in all", "{n} stars in all"),
    "results_games_count": Nn_("{n} game", "{n} games"),
    "results_left_out": Nn_("{n} game left out", "{n} games left out"),
}


@cache
def _files() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(FOLDER.iterdir()) if p.suffix in _TYPES}


@cache
def version() -> str:
    """A hash of every asset: the part of their URLs that changes when one does."""
    digest = hashlib.sha256()
    for name, data in _files().items():
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()[:12]


def _etagged(request: Request, body: bytes, media: str) -> Response:
    tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
    headers = {**PAGE_HEADERS, "cache-control": "no-cache", "etag": tag}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media, headers=headers)


async def page(request: Request) -> Response:
    """`GET /`: the page, its assets named by :func:`version`."""
    return _html(request, "index.html")


async def results_page(request: Request) -> Response:
    """`GET /results`: the standings of an event from a file of games or the device's."""
    return _html(request, "results.html")


async def review_page(request: Request) -> Response:
    """`GET /review` (`neweden review DIR`): the queue of the folder's games."""
    return _html(request, "review.html")


def _html(request: Request, name: str) -> Response:
    html = (FOLDER / name).read_bytes().replace(b"{V}", version().encode())
    return _etagged(request, html, "text/html; charset=utf-8")


async def asset(request: Request) -> Response:
    """`GET /web/{version}/{name}`: a module, the style sheet or the icon; immutable when
    `version` is the current one."""
    name = request.path_params["name"]
    data = _files().get(name)
    if data is None:
        raise HTTPException(404, "Not Found")
    fresh = request.path_params["version"] == version()
    cache_control = "public, max-age=31536000, immutable" if fresh else "no-cache"
    headers = {**PAGE_HEADERS, "cache-control": cache_control}
    return Response(data, media_type=_TYPES[Path(name).suffix], headers=headers)


def messages_body() -> bytes:
    """The page's words in the current language, as JSON."""
    import msgspec

    from neweden.present.svg import SHOWN_NAMES

    words = {key: _(text) for key, text in MESSAGES.items()}
    plurals = {key: plural_pair(*forms) for key, forms in PLURALS.items()}
    names = {name: _(text) for name, text in SHOWN_NAMES.items()}
    # the choices of languages and modes: the message catalogs present, the modes' table
    languages = [{"tag": tag, "name": own_name(tag)} for tag in LANGUAGES]
    modes = [
        {"id": mode, "name": _(rules.title), "populist": rules.populist, "military": rules.military}
        for mode, rules in MODES.items()
    ]
    return msgspec.json.encode(
        {
            "lang": current(),
            "messages": words,
            "plurals": plurals,
            "names": names,
            "languages": languages,
            "modes": modes,
        }
    )


async def messages(request: Request) -> Response:
    """`GET /web/messages.json?lang=`: the page's words in the request's language
    (`?lang=`, else Accept-Language), and the box's style, type and facility names as the
    picture shows them (`names`)."""
    return _etagged(request, messages_body(), "application/json")


#: The most style names one request of :func:`colours` is answered for (a game shows a few).
MAX_COLOURED = 64


def colours_body(names: list[str]) -> bytes:
    """Each style name's colour in the picture, as JSON: the name read as the decoder reads
    it (folded as players write it: "Gótico" is gothic's), then
    :func:`~neweden.present.svg.style_colour`; a name that is none even folded, None (the
    game would not decode)."""
    import msgspec

    from neweden.format.checks import fold_name
    from neweden.format.model import MAX_STRING
    from neweden.present.svg import style_colour

    found: dict[str, str | None] = {}
    for name in names[:MAX_COLOURED]:
        read = fold_name(name, "style") if 0 < len(name) <= MAX_STRING else None
        found[name] = style_colour(read) if read is not None else None
    return msgspec.json.encode(found)


async def colours(request: Request) -> Response:
    """`GET /web/colours.json?style=NAME&style=...`: the colour the picture gives each style
    (the page's grid takes its colours here: one palette, :func:`colours_body`)."""
    body = colours_body(request.query_params.getlist("style"))
    headers = {**PAGE_HEADERS, "cache-control": "public, max-age=3600"}
    return Response(body, media_type="application/json", headers=headers)
