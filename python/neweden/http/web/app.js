// The page: loads its words and the catalog, opens a game (a share link, ?example=final,
// the work saved in this browser, or a new one), then keeps every view in step.
import { exampleGame, get } from "./api.js";
import * as cardForm from "./cardform.js";
import * as grid from "./grid.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import * as io from "./io.js";
import * as quick from "./quick.js";
import * as reviewing from "./reviewing.js";
import * as saved from "./saved.js";
import * as scoreView from "./scoreview.js";
import * as settings from "./settings.js";
import * as tableCards from "./tablecards.js";
import * as zoom from "./zoom.js";
import {
  canRedo,
  canUndo,
  cardAt,
  decodeGame,
  hasWork,
  keepCopy,
  keepNames,
  keepStored,
  load,
  newGame,
  openSaved,
  redoEdit,
  state,
  subscribe,
  undoEdit,
} from "./state.js";

const $ = (id) => document.getElementById(id);
let catalog = null;

function renderAll(what) {
  if (what === "unsaved" || what === "elsewhere") {
    notice(t(what === "unsaved" ? "unsaved" : "game_elsewhere"));
    return;
  }
  if (what === "legal") {
    grid.render($("grid"));
    return;
  }
  if (what === "game" || what === "player") {
    settings.renderSettings();
    settings.renderPlayers();
  }
  grid.render($("grid"));
  cardForm.fill();
  $("undo").disabled = !canUndo();
  $("redo").disabled = !canRedo();
  scoreView.schedule(250, what === "game");
}

// Words at the top of the page (a link not opened, a saved game set aside) until dismissed.
function notice(text) {
  const box = $("notice");
  box.hidden = false;
  $("notice-text").append(Object.assign(document.createElement("p"), { textContent: text }));
}

function dismiss() {
  $("notice").hidden = true;
  $("notice-text").replaceChildren();
}

// The share link's payload (/#g=), taken off the address at once: a reload keeps the edits,
// and a long link is not carried along.
function takeLink() {
  if (!location.hash) return null;
  const hash = new URLSearchParams(location.hash.slice(1)).get("g");
  if (hash) history.replaceState(null, "", location.pathname + location.search);
  return hash;
}

// Another game in place of the one in progress (new, the example, pasted, uploaded, a link,
// a saved one): the one in progress is kept among the saved games first, and Undo brings it
// back. Throws when the game cannot be drawn (the one in progress stays).
function replaceWith(game) {
  if (state.game && !keepCopy() && !confirm(t("storage_full_replace"))) {
    throw new Error(t("not_replaced"));
  }
  load(game, { undoable: true });
  saved.render();
}

// `open()` a game in place of the one in progress; what stops it is said at the top.
function told(open) {
  try {
    open();
  } catch (error) {
    notice(t("could_not_open", { reason: error.message }));
  }
}

// Whether to replace the game in progress (one with work in it: the player is asked first).
function replacing() {
  return !hasWork() || confirm(t("replace_ask"));
}

// The game of a share link: true once drawn; a link that cannot be is said, and the game
// open (if any) is kept.
function openLink(hash) {
  if (!hash) return false;
  let game;
  try {
    game = decodeGame(hash);
  } catch {
    notice(t("bad_link"));
    return false;
  }
  try {
    if (state.game) replaceWith(game);
    else loadOverStored(game);
    return true;
  } catch (error) {
    notice(t("link_refused", { reason: error.message }));
    return false;
  }
}

// A first game drawn in place of the game in progress saved in this browser (an earlier
// visit's, or another tab's just now): that one kept among the saved games first, as it is
// now (said when the storage refuses it).
function loadOverStored(game) {
  if (!keepStored()) notice(t("storage_full"));
  load(game);
}

// The first game: a game under review (?review=ID), a share link, ?example=final, the work
// saved in this browser, or a new one.
async function openFirst(hash) {
  const url = new URL(location.href);
  const review = url.searchParams.get("review");
  if (review) {
    try {
      await reviewing.open(review);
      // (a file opened as its text: its game in progress kept as it is now, after the reads)
      if (!state.game) loadOverStored(newGame(t("player_n", { n: 1 })));
      return;
    } catch (error) {
      notice(t("could_not_open", { reason: error.message }));
    }
  }
  if (openLink(hash)) return;
  if (url.searchParams.get("example") === "final") {
    url.searchParams.delete("example"); // a reload keeps the edits, not the example again
    history.replaceState(null, "", url);
    try {
      loadOverStored(await exampleGame());
      return;
    } catch (error) {
      notice(t("could_not_open", { reason: error.message }));
    }
  }
  const setAside = await openSaved();
  if (setAside) notice(setAside);
  if (!state.game) load(newGame(t("player_n", { n: 1 })));
}

// The choices the server gives: its languages, the game modes (named in the current language).
function choices() {
  const option = (value, text) => Object.assign(document.createElement("option"), { value, textContent: text });
  $("lang").replaceChildren(...i18n.languageChoices().map((l) => option(l.tag, l.name)));
  $("lang").value = i18n.lang();
  $("s-mode").replaceChildren(...i18n.modeChoices().map((m) => option(m.id, m.name)));
  if (state.game) $("s-mode").value = state.game.mode;
}

// The service's catalog (GET /v1/catalog, in the page's language) given to every view
// (unless `wanted()` says, once it is read, that it is wanted no more).
async function loadCatalog(wanted = () => true) {
  const found = await get("/v1/catalog");
  if (!wanted()) return;
  catalog = found;
  grid.setCatalog(catalog);
  cardForm.setCatalog(catalog);
  settings.setCatalog(catalog);
  tableCards.setCatalog(catalog);
  $("epiphany-ids").replaceChildren(
    ...catalog.epiphanies.map((e) => Object.assign(document.createElement("option"), { value: e.id })),
  );
  $("catalog-name").textContent = catalog.name;
}

let switches = 0; // the language switches asked for: one outrun by a newer one stops

async function switchLanguage(tag) {
  const mine = ++switches;
  const current = () => mine === switches;
  scoreView.outdated(); // an answer on its way, in the old language, is not shown
  try {
    if (!(await i18n.load(tag)) || !current()) return;
  } catch (error) {
    if (!current()) return;
    notice(t("language_failed", { reason: error.message }));
    $("lang").value = i18n.lang(); // (the menu says the language the page speaks)
    renderAll("game");
    return;
  }
  i18n.remember(tag); // (the words read: a reload speaks them too)
  const url = new URL(location.href);
  url.searchParams.set("lang", tag);
  history.replaceState(null, "", url);
  i18n.apply();
  choices();
  try {
    await loadCatalog(current); // its built-in cards' names and texts in the new language
  } catch (error) {
    if (current()) notice(t("catalog_failed", { reason: error.message }));
  }
  if (current()) renderAll("game");
}

function keys(event) {
  const mod = event.ctrlKey || event.metaKey;
  if (!mod || event.target.matches("input, textarea, select")) return;
  if (event.key === "z" && !event.shiftKey) undoEdit();
  else if (event.key === "y" || (event.key === "Z" && event.shiftKey)) redoEdit();
  else return;
  event.preventDefault();
}

async function main() {
  const hash = takeLink();
  await i18n.load(i18n.chosenLanguage());
  i18n.apply();
  choices();
  $("lang").addEventListener("change", (e) => switchLanguage(e.target.value));
  await loadCatalog();
  grid.attach($("grid"));
  zoom.attach();
  scoreView.attachPicture();
  cardForm.attach();
  quick.attach({
    names: () => ({
      style: cardForm.offered("style"),
      type: cardForm.offered("type"),
      facility: quick.FACILITIES,
    }),
    draft: () => state.draft,
    put: (row, col, card) => {
      const refused = grid.putCard(row, col, card);
      if (!refused) keepNames(card);
      return refused;
    },
    cursor: () => ({ ...state.cursor }),
    move: grid.moveCursor,
    words: grid.describe,
    taken: (row, col) => Boolean(cardAt(row, col)),
  });
  settings.attach();
  tableCards.attach();
  io.attach(replaceWith);
  reviewing.attach();
  $("undo").addEventListener("click", undoEdit);
  $("redo").addEventListener("click", redoEdit);
  $("example").addEventListener("click", async () => {
    if (!replacing()) return;
    let example;
    try {
      example = await exampleGame();
    } catch (error) {
      notice(t("could_not_open", { reason: error.message }));
      return;
    }
    told(() => replaceWith(example));
  });
  $("new-game").addEventListener("click", () => {
    if (replacing()) told(() => replaceWith(newGame(t("player_n", { n: 1 }))));
  });
  saved.attach(replaceWith);
  document.addEventListener("keydown", keys);
  subscribe(renderAll);
  await openFirst(hash);
  $("notice-close").addEventListener("click", dismiss);
  window.addEventListener("hashchange", () => {
    dismiss();
    openLink(takeLink());
  });
  document.body.dataset.ready = "true";
}

main();
