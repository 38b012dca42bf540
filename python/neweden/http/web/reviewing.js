// The editor opened on a game of a folder under review (/?review=ID, `neweden review DIR`):
// the game read from its file, its photo beside the grid (reviewphoto.js), saved back to the
// file with the version it was opened at (a save over someone else's newer one is refused,
// said; Ctrl+S), the versions saves replaced (each restored with a click), and the queue's
// previous and next games (Alt+PageUp, Alt+PageDown).
import { fetchOk, problemOf as reason } from "./api.js";
import { t } from "./i18n.js";
import { refusal } from "./check.js";
import { attachPhoto, showPhoto, showPicked } from "./reviewphoto.js";
import { cleanGame, edit, keepStored, load, state } from "./state.js";

const $ = (id) => document.getElementById(id);
let opened = null; // {id, etag}
let picked = null; // a photo picked in this browser, written next to the game when it is saved
let uploaded = null; // the photo picked already written (its game's save failed since)
let again = false; // a save asked while one was on its way: made after it, if still needed

// The game `id` opened from its file: true once drawn; what stops it is thrown. The game
// of an earlier visit kept among the saved games first (a review replaces it, as a link
// does). A file the page cannot draw (not JSON, not a game) is opened as its text.
export async function open(id) {
  opened = null; // (until this game is drawn: no save can name it)
  picked = uploaded = null; // a photo picked for what was open before is not this game's
  const response = await fetchOk(`/v1/review/game?id=${encodeURIComponent(id)}`);
  const text = await response.text();
  if (!keepStored()) throw new Error(t("storage_full"));
  opened = { id, etag: response.headers.get("etag"), raw: false };
  let game = null;
  try {
    game = JSON.parse(text);
    load(game);
  } catch (error) {
    if (!(error instanceof SyntaxError) && !refusal(game)) throw error;
    opened.raw = true; // its text, to be mended by hand
    game = null;
  }
  $("review-raw-box").hidden = !opened.raw;
  document.body.classList.toggle("raw-review", opened.raw); // (no grid: the text is the game)
  $("review-raw").value = opened.raw ? text : "";
  clean = opened.raw ? text : savedText();
  $("review").hidden = false;
  $("review-id").textContent = id;
  $("review-conflict").hidden = true;
  $("review-reopen").href = `/?review=${encodeURIComponent(id)}&lang=${document.documentElement.lang}`;
  const named = typeof game?.meta?.photo === "string" && game.meta.photo;
  showPhoto(named && `/v1/review/photo?id=${encodeURIComponent(id)}`, t("review_photo_of", { id }));
  await showHistory();
  return true;
}

// The versions saves replaced, newest first, each with a button that saves it again (the
// list not read is said: the game stays open).
async function showHistory() {
  const list = $("review-history");
  let versions = [];
  try {
    const response = await fetchOk(`/v1/review/history?id=${encodeURIComponent(opened.id)}`);
    versions = (await response.json()).versions;
  } catch (error) {
    $("review-status").textContent = t("review_history_failed", { reason: error.message });
  }
  list.replaceChildren(
    ...versions.map((v) => {
      const when = v.saved ? new Date(v.saved).toLocaleString(document.documentElement.lang) : v.version;
      const button = Object.assign(document.createElement("button"), {
        type: "button",
        textContent: t("review_restore", { when }),
      });
      button.addEventListener("click", () => restore(v.version));
      const item = document.createElement("li");
      item.append(button);
      return item;
    }),
  );
  $("review-history-none").hidden = versions.length > 0;
}

function restore(version) {
  if (working || (unsaved() && !confirm(t("review_unsaved_ask")))) return working;
  return writing(async (status) => {
    const query = new URLSearchParams({ id: opened.id, version });
    const response = await fetch(`/v1/review/restore?${query}`, {
      method: "POST",
      headers: { "if-match": opened.etag },
    });
    if (!response.ok) {
      status.textContent = response.status === 412 ? t("review_stale") : t("review_not_saved", { reason: await reason(response) });
      return;
    }
    await open(opened.id); // the version restored, drawn
    status.textContent = t("review_restored", { id: opened.id });
  });
}

// A JSON text laid out one key a line (as it is when it is not JSON).
function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

// After a refused save: this page's version and the one saved since, side by side.
function showVersions(mine, theirs) {
  $("review-conflict").hidden = false;
  $("review-mine").textContent = mine;
  $("review-theirs").textContent = theirs;
}

// A photo picked for the game: shown at once, kept in this browser until the game is saved.
function pick(file) {
  if (!file) return;
  if (opened?.raw) {
    $("review-status").textContent = t("review_photo_not_kept");
    return;
  }
  picked = file;
  showPicked(file);
  $("review-status").textContent = t("review_picked", { name: file.name });
}

// The photo picked (`file`) written next to the game's file, and named in its meta.photo (an
// edit: Undo takes the name back): "" once written (a retry does not write it again). It
// stays the photo to save until the game itself is saved. A photo the service will never
// take (too large, not a picture, read-only) is given up, and why returned: the game is
// saved without it. Null when it was not written this time (said: the game is not saved).
async function keepPicked(file) {
  if (file === uploaded) return "";
  const response = await fetch(`/v1/review/photo?id=${encodeURIComponent(opened.id)}`, {
    method: "PUT",
    headers: { "content-type": file.type || "application/octet-stream", "if-match": opened.etag },
    body: file,
  });
  if (!response.ok) {
    const why = await reason(response);
    if (response.status >= 400 && response.status < 500 && response.status !== 412) {
      if (picked === file) picked = null;
      return t("review_photo_refused", { reason: why });
    }
    $("review-status").textContent = t("review_not_saved", { reason: why });
    return null;
  }
  const { photo } = await response.json();
  uploaded = file;
  edit((game) => {
    game.meta = { ...(game.meta && typeof game.meta === "object" ? game.meta : {}), photo };
  });
  return "";
}

// The game as it would be saved: the page's game, or the text of one it cannot draw.
const savedText = () => (opened.raw ? $("review-raw").value : JSON.stringify(cleanGame(state.game)));
let clean = ""; // the text last opened or saved: the page holds changes when it differs

// Whether the page holds changes not saved to the file (a photo picked included).
export const unsaved = () => Boolean(opened) && (picked !== null || savedText() !== clean);

let working = null; // the save or restore on its way (a promise): one at a time

// `work(status)` run as the one write on its way (a save, a restore): Save off meanwhile, a
// network failure said; a save asked meanwhile made after it, if changes are left.
function writing(work) {
  if (working) return working;
  const status = $("review-status");
  status.textContent = t("review_saving");
  $("review-save").disabled = true;
  working = work(status)
    .catch((error) => {
      status.textContent = t("review_not_saved", { reason: error.message });
    })
    .finally(() => {
      working = null;
      $("review-save").disabled = false;
    })
    .then(() => {
      if (!again) return undefined;
      again = false;
      return opened && unsaved() ? save() : undefined;
    });
  return working;
}

function save() {
  if (working) {
    again = true; // (edits made since its text was taken: saved after it)
    return working;
  }
  if (!opened) return Promise.resolve(); // (a game being opened)
  return writing(saveNow);
}

async function saveNow(status) {
  const photo = picked; // (none for a text mended by hand: pick() refuses one there)
  const given = photo ? await keepPicked(photo) : "";
  if (given === null) return;
  const body = savedText();
  const response = await fetch(`/v1/review/game?id=${encodeURIComponent(opened.id)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", "if-match": opened.etag },
    body,
  });
  if (response.ok) {
    opened.etag = response.headers.get("etag");
    clean = body;
    if (picked === photo) picked = null; // (one picked meanwhile is still to save)
    $("review-conflict").hidden = true;
    await showHistory(); // (a list not read is said; that the game was saved, said last)
    status.textContent = [t("review_saved_now", { id: opened.id }), given].filter(Boolean).join(" ");
  } else if (response.status === 412) {
    status.textContent = t("review_stale");
    const saved = (await response.json()).errors?.[0]?.version ?? "";
    showVersions(JSON.stringify(cleanGame(state.game), null, 1), pretty(saved));
  } else {
    status.textContent = t("review_not_saved", { reason: await reason(response) });
  }
}

// The game before or after this one in the queue (`step` -1 or 1), opened in its place.
// The game after this one (`step` 1) or before it (-1) among those left to fix, in the
// queue's order (this one may have left them when it was saved); when none is left, in the
// whole queue. Changes not saved are asked about first.
let goes = 0; // the moves asked for: the last one asked is the one made

async function go(step) {
  if (!opened) return;
  const mine = ++goes;
  let queue;
  try {
    queue = await (await fetchOk("/v1/review/queue")).json();
  } catch (error) {
    if (mine === goes) $("review-status").textContent = t("review_queue_failed", { reason: error.message });
    return;
  }
  if (mine !== goes) return;
  const left = queue.games.filter((g) => g.valid !== true);
  const games = left.length ? left : queue.games;
  const here = games.findIndex((g) => g.id === opened.id);
  const me = queue.games.find((g) => g.id === opened.id);
  const after = (g) => (g.file === me.file ? (g.line ?? 0) > (me.line ?? 0) : g.file > me.file);
  let next;
  if (here >= 0) next = games[here + step];
  else if (!me) next = games[0];
  else if (step > 0) next = games.find(after);
  else next = [...games].reverse().find((g) => !after(g));
  if (next) leave(`/?review=${encodeURIComponent(next.id)}&lang=${document.documentElement.lang}`);
}

// Goes to `url`, unless the page holds changes not saved and the reviewer keeps them.
async function leave(url) {
  if (working) await working; // (a save on its way is let finish: leaving would cancel it)
  if (unsaved() && !confirm(t("review_unsaved_ask"))) return;
  clean = savedText();
  picked = null;
  location.href = url;
}

export function attach() {
  $("review-save").addEventListener("click", save);
  $("review-back").addEventListener("click", (event) => {
    event.preventDefault();
    leave(`/review?lang=${document.documentElement.lang}`);
  });
  window.addEventListener("beforeunload", (event) => {
    if (unsaved() || working) event.preventDefault(); // the browser asks before they are lost
  });
  $("review-pick").addEventListener("change", (event) => pick(event.target.files[0]));
  $("review-previous").addEventListener("click", () => go(-1));
  $("review-next").addEventListener("click", () => go(1));
  attachPhoto();
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      if ($("review").hidden) return; // (no review: the browser's own Save)
      event.preventDefault();
      save();
    } else if (opened && event.altKey && (event.key === "PageDown" || event.key === "PageUp")) {
      event.preventDefault();
      go(event.key === "PageDown" ? 1 : -1);
    }
  });
}
