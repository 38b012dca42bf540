// The game being entered (a game@1 document, as the API takes it), what is selected, the
// card being placed, undo/redo, and where the work survives a reload.
import { refusal } from "./check.js";
import { t } from "./i18n.js";

const SAVED = "neweden.game";
const KEPT = "neweden.saved"; // the games kept on this device: [{id, name, saved, game}]
const SET_ASIDE = "neweden.game.set-aside"; // a saved game the page could not draw
const OPENING = "neweden.game.opening"; // there while the saved game is being drawn
const listeners = new Set();

export const ALL_SIDES = ["top", "right", "bottom", "left"];

export const state = {
  game: null,
  player: 0, // index of the selected player
  selected: null, // {row, col} of the selected card, or null
  cursor: { row: 0, col: 0 }, // the grid's focused cell
  moving: false, // the next empty cell chosen receives the selected card
  draft: newDraft(),
  highlight: [], // cells of a problem the user clicked, [[row, col], ...]
  unsaved: false, // the storage refused the game in progress (full?): kept in the page only
  legal: new Map(), // "row,col" -> "upright" | "rotated": where the card being placed may go
};

// The card to place on a new page (and what the quick-entry line fills in when the card to
// place is a wild card or a catalog id).
export function newDraft() {
  return { style: "gothic", type: "building", facility: "shelter", points: 1, stars: 0, sides: [...ALL_SIDES] };
}

// Undo and redo keep the game and the card to place as they were (the next card's style and
// type come back with the card they came from).
const undo = [];
const redo = [];
const snapshot = (game = state.game) => JSON.stringify({ game, draft: state.draft });

export function newGame(playerName) {
  return {
    format: "new-eden/game@1",
    mode: "populist",
    requirements: ["A1", "B1", "C1"],
    players: [{ name: playerName, city: [], epiphanies: [], bonuses: [] }],
  };
}

// Every player gets the lists the page edits.
function normalized(game) {
  for (const player of game.players || []) {
    player.city ??= [];
    player.epiphanies ??= [];
    player.bonuses ??= [];
  }
  return game;
}

export function subscribe(listener) {
  listeners.add(listener);
}

export function notify(what = "game") {
  for (const listener of listeners) listener(what);
}

// Open `game` (opened, pasted, shared, saved). `undoable`: it replaces the game in progress,
// which Undo brings back (else the history starts anew: the first game of a visit). A game
// the page cannot draw (check.js) is refused before anything is drawn, an Error saying why,
// and the game before is kept: a game is saved in this browser only once it is drawn, so a
// hostile link never breaks a later visit.
export function load(game, { undoable = false } = {}) {
  const refused = refusal(game);
  if (refused) throw new Error(refused);
  const before = { game: state.game, player: state.player, undo: [...undo], redo: [...redo] };
  state.game = normalized(structuredClone(game));
  state.player = 0;
  state.selected = null;
  state.moving = false;
  state.highlight = [];
  redo.length = 0;
  if (undoable && before.game) {
    undo.push(snapshot(before.game));
    if (undo.length > 200) undo.shift();
  } else {
    undo.length = 0;
  }
  try {
    notify();
  } catch (error) {
    Object.assign(state, { game: before.game, player: before.player });
    undo.splice(0, undo.length, ...before.undo);
    redo.push(...before.redo);
    if (state.game) notify();
    throw error;
  }
  save();
}

// Change the game through `change(game)`, undoable.
export function edit(change) {
  undo.push(snapshot());
  if (undo.length > 200) undo.shift();
  redo.length = 0;
  change(state.game);
  state.highlight = [];
  save();
  notify();
}

function swap(from, to) {
  if (!from.length) return;
  to.push(snapshot());
  const { game, draft } = JSON.parse(from.pop());
  state.game = game;
  state.draft = draft;
  state.player = Math.min(state.player, state.game.players.length - 1);
  if (state.selected && !cardAt(state.selected.row, state.selected.col)) state.selected = null;
  save();
  notify();
}

export const undoEdit = () => swap(undo, redo);
export const redoEdit = () => swap(redo, undo);
export const canUndo = () => undo.length > 0;
export const canRedo = () => redo.length > 0;

// The next card to place keeps the style and type of `card`, the card just placed or edited.
export function keepNames(card) {
  const named = (name) => typeof name === "string" && name.trim() !== "";
  if (typeof card !== "object" || card.wild || !named(card.style) || !named(card.type)) return;
  const draft = typeof state.draft === "object" && !state.draft.wild ? state.draft : newDraft();
  state.draft = { ...draft, style: card.style, type: card.type };
}

export function currentPlayer() {
  return state.game.players[state.player];
}

export function cardAt(row, col, player = currentPlayer()) {
  return player.city.find((p) => p.row === row && p.col === col) || null;
}

// The game in progress kept in this browser (a reload or a closed tab loses nothing). Storage
// full or refused: the work is kept in the page only, and `state.unsaved` says so (the page
// tells the player, once, until a save succeeds again).
function save() {
  if (elsewhere) return; // (another tab keeps the game in progress now: said once)
  try {
    localStorage.setItem(SAVED, JSON.stringify(state.game));
    state.unsaved = false;
  } catch {
    if (!state.unsaved) {
      state.unsaved = true;
      notify("unsaved");
    }
  }
}

// Another tab of this browser saved the game in progress since this one opened it: this
// tab writes it no more (the two would take turns overwriting each other's work), and says
// so once (notify("elsewhere")); a copy kept among the saved games keeps its work.
let elsewhere = false;
window.addEventListener("storage", (event) => {
  if (event.key !== SAVED || event.storageArea !== localStorage || elsewhere) return;
  if (!state.game) return; // (no game opened here yet: this tab reads the newest when it opens)
  if (event.newValue === JSON.stringify(state.game)) return; // (the same game: nothing lost)
  elsewhere = true;
  notify("elsewhere");
});

// Open the game saved in this browser. One the page cannot draw (refused, an error while
// drawing, or a visit that ended while drawing it: a tab hung or crashed) is set aside under
// SET_ASIDE, never to be drawn again, and the words that say so are returned ("" when
// nothing was set aside): the caller opens a new game. The mark of a visit drawing it is
// read and written by one tab at a time (a Web Lock): tabs opened at once (a browser
// restoring them) do not take one another's drawing for a visit that ended while drawing.
export async function openSaved() {
  if (!navigator.locks) return openSavedNow(true);
  return navigator.locks.request(OPENING, { ifAvailable: true }, (lock) => openSavedNow(lock !== null));
}

// `alone`: no other tab is drawing the saved game now (else its mark is that tab's, not
// left by an unfinished visit, and this tab leaves it alone).
function openSavedNow(alone) {
  const unfinished = alone && stored(() => localStorage.getItem(OPENING));
  if (alone) stored(() => localStorage.removeItem(OPENING));
  const text = stored(() => localStorage.getItem(SAVED));
  if (!text) return "";
  let reason = t("saved_unfinished");
  if (!unfinished) {
    if (alone) stored(() => localStorage.setItem(OPENING, "1"));
    try {
      load(JSON.parse(text));
      return "";
    } catch (error) {
      reason = error.message;
    } finally {
      if (alone) stored(() => localStorage.removeItem(OPENING));
    }
  }
  stored(() => localStorage.setItem(SET_ASIDE, text));
  stored(() => localStorage.removeItem(SAVED));
  return t("saved_set_aside", { reason, key: SET_ASIDE });
}

// Whether a game holds work worth keeping when another replaces it: a card, an epiphany, a
// bonus, a second player, `meta` or a first player (a new game holds none of them).
export function hasWork(game = state.game) {
  if (!game?.players) return false;
  if (game.players.length > 1 || game.meta || game.first_player) return true;
  return game.players.some((p) => p.city?.length || p.epiphanies?.length || p.bonuses?.length);
}

// The list of kept games as stored, every entry (those the page does not show too).
function storedKept() {
  const text = stored(() => localStorage.getItem(KEPT));
  try {
    const list = JSON.parse(text || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// The games kept on this device, newest first: [{id, name, saved (ISO date), game}]. An
// entry the page would not draw (another page of this origin wrote it, or a hand) is left
// out, never drawn (and kept as it is when a game is kept or deleted).
export function keptGames() {
  return storedKept().filter(
    (entry) =>
      entry !== null &&
      typeof entry === "object" &&
      typeof entry.id === "string" &&
      (typeof entry.name === "string" || entry.name === undefined) &&
      (typeof entry.saved === "string" || entry.saved === undefined) &&
      !refusal(entry.game),
  );
}

function writeKept(list) {
  try {
    localStorage.setItem(KEPT, JSON.stringify(list));
    return true;
  } catch {
    return false; // storage full or refused: said by the caller
  }
}

// How the list names a game: its table, else its players.
function gameName(game) {
  const table = game.meta?.table;
  if (table !== undefined && table !== null && String(table).trim()) {
    return t("table_named", { table: String(table) });
  }
  return (game.players || []).map((player) => player.name).join(", ");
}

// Keeps a copy of `game` among the saved games (one that holds no card, or is there already
// unchanged, is not kept again): false when the device's storage refused it.
export function keepCopy(game = state.game) {
  if (!hasWork(game)) return true;
  const copy = cleanGame(game);
  const text = JSON.stringify(copy);
  if (keptGames().some((entry) => JSON.stringify(entry.game) === text)) return true;
  const list = storedKept();
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  list.unshift({ id, name: gameName(copy), saved: new Date().toISOString(), game: copy });
  return writeKept(list);
}

// The game saved in this browser by an earlier visit, kept among the saved games before a
// share link replaces it (false: the storage refused it).
export function keepStored() {
  const text = stored(() => localStorage.getItem(SAVED));
  if (!text) return true;
  try {
    const game = JSON.parse(text);
    return refusal(game) ? true : keepCopy(normalized(game));
  } catch {
    return true; // not a game: openSaved sets it aside
  }
}

export function forgetKept(id) {
  return writeKept(storedKept().filter((entry) => entry?.id !== id));
}

function stored(action) {
  try {
    return action();
  } catch {
    return null;
  }
}

// The share link's payload: base64url of the game's JSON in UTF-8.
export function encodeGame(game) {
  const bytes = new TextEncoder().encode(JSON.stringify(game));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeGame(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

// A game as the page keeps it, without the empty lists it adds.
export function cleanGame(game = state.game) {
  const copy = structuredClone(game);
  for (const player of copy.players) {
    if (!player.epiphanies.length) delete player.epiphanies;
    if (!player.bonuses.length) delete player.bonuses;
  }
  return copy;
}
