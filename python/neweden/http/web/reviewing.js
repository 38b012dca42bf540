// The editor opened on a game of a folder under review (/?review=ID, `neweden review DIR`):
// the game read from its file, its photo beside the grid (larger or smaller by the buttons,
// the wheel over it or + and - on it; turned by 90°), saved back to the file with the
// version it was opened at (a save over someone else's newer one is refused, said; Ctrl+S),
// the versions saves replaced (each restored with a click), and the queue's previous and
// next games (Alt+PageUp, Alt+PageDown).
import { t } from "./i18n.js";
import { cleanGame, edit, load, state } from "./state.js";
import { pinched } from "./zoom.js";

const $ = (id) => document.getElementById(id);
let opened = null; // {id, etag}
let picked = null; // a photo picked in this browser, written next to the game when it is saved
let pickedUrl = null;
let turn = 0;
let size = 1;

function photoStyle() {
  const photo = $("review-photo");
  photo.style.width = `${100 * size}%`;
  photo.style.transform = turn ? `rotate(${turn * 90}deg)` : "";
}

// The game `id` opened from its file: true once drawn; what stops it is thrown.
export async function open(id) {
  const response = await fetch(`/v1/review/game?id=${encodeURIComponent(id)}`);
  if (!response.ok) throw new Error((await response.json()).detail);
  const game = await response.json();
  load(game);
  opened = { id, etag: response.headers.get("etag") };
  $("review").hidden = false;
  $("review-id").textContent = id;
  $("review-conflict").hidden = true;
  $("review-reopen").href = `/?review=${encodeURIComponent(id)}&lang=${document.documentElement.lang}`;
  const photo = $("review-photo");
  const named = typeof game.meta?.photo === "string" && game.meta.photo;
  $("review-no-photo").hidden = Boolean(named);
  photo.hidden = !named;
  if (named) {
    photo.src = `/v1/review/photo?id=${encodeURIComponent(id)}`;
    photo.alt = t("review_photo_of", { id });
  }
  photoStyle();
  await showHistory();
  return true;
}

// The versions saves replaced, newest first, each with a button that saves it again.
async function showHistory() {
  const list = $("review-history");
  const response = await fetch(`/v1/review/history?id=${encodeURIComponent(opened.id)}`);
  const versions = response.ok ? (await response.json()).versions : [];
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

async function restore(version) {
  const query = new URLSearchParams({ id: opened.id, version });
  const response = await fetch(`/v1/review/restore?${query}`, {
    method: "POST",
    headers: { "if-match": opened.etag },
  });
  const status = $("review-status");
  if (!response.ok) {
    status.textContent = response.status === 412 ? t("review_stale") : t("review_not_saved", { reason: (await response.json()).detail });
    return;
  }
  await open(opened.id); // the version restored, drawn
  status.textContent = t("review_restored", { id: opened.id });
}

function zoom(factor) {
  sized(size * factor);
}

function sized(factor) {
  size = Math.min(Math.max(factor, 0.5), 4);
  photoStyle();
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
  picked = file;
  if (pickedUrl) URL.revokeObjectURL(pickedUrl);
  pickedUrl = URL.createObjectURL(file);
  const photo = $("review-photo");
  photo.src = pickedUrl;
  photo.hidden = false;
  $("review-no-photo").hidden = true;
  $("review-status").textContent = t("review_picked", { name: file.name });
}

// The photo picked written next to the game's file, and named in its meta.photo (an edit:
// Undo takes the name back); false when the service refused it (said).
async function keepPicked() {
  const response = await fetch(`/v1/review/photo?id=${encodeURIComponent(opened.id)}`, {
    method: "PUT",
    headers: { "content-type": picked.type || "application/octet-stream" },
    body: picked,
  });
  if (!response.ok) {
    $("review-status").textContent = t("review_not_saved", { reason: (await response.json()).detail });
    return false;
  }
  const { photo } = await response.json();
  edit((game) => {
    game.meta = { ...(game.meta && typeof game.meta === "object" ? game.meta : {}), photo };
  });
  picked = null;
  return true;
}

async function save() {
  if (!opened) return;
  if (picked && !(await keepPicked())) return;
  const status = $("review-status");
  const response = await fetch(`/v1/review/game?id=${encodeURIComponent(opened.id)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", "if-match": opened.etag },
    body: JSON.stringify(cleanGame(state.game)),
  });
  if (response.ok) {
    opened.etag = response.headers.get("etag");
    status.textContent = t("review_saved_now", { id: opened.id });
    await showHistory();
  } else if (response.status === 412) {
    status.textContent = t("review_stale");
    const saved = (await response.json()).errors?.[0]?.version ?? "";
    showVersions(JSON.stringify(cleanGame(state.game), null, 1), pretty(saved));
  } else {
    status.textContent = t("review_not_saved", { reason: (await response.json()).detail });
  }
}

// The game before or after this one in the queue (`step` -1 or 1), opened in its place.
async function go(step) {
  const queue = await (await fetch("/v1/review/queue")).json();
  const ids = queue.games.map((g) => g.id);
  const next = ids[ids.indexOf(opened.id) + step];
  if (next) location.search = `?review=${encodeURIComponent(next)}&lang=${document.documentElement.lang}`;
}

export function attach() {
  $("review-save").addEventListener("click", save);
  $("review-pick").addEventListener("change", (event) => pick(event.target.files[0]));
  $("review-previous").addEventListener("click", () => go(-1));
  $("review-next").addEventListener("click", () => go(1));
  $("review-rotate").addEventListener("click", () => {
    turn = (turn + 1) % 4;
    photoStyle();
  });
  $("review-larger").addEventListener("click", () => zoom(1.25));
  $("review-smaller").addEventListener("click", () => zoom(1 / 1.25));
  const wrap = $("review-photo-wrap");
  pinched(wrap, () => size, sized);
  wrap.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey && !event.altKey) return; // a plain wheel scrolls the photo
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.25 : 1 / 1.25);
    },
    { passive: false },
  );
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "+" || event.key === "=") zoom(1.25);
    else if (event.key === "-") zoom(1 / 1.25);
    else if (event.key === "r") $("review-rotate").click();
  });
  document.addEventListener("keydown", (event) => {
    if (!opened) return;
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      save();
    } else if (event.altKey && (event.key === "PageDown" || event.key === "PageUp")) {
      event.preventDefault();
      go(event.key === "PageDown" ? 1 : -1);
    }
  });
}
