// The editor opened on a game of a folder under review (/?review=ID, `neweden review DIR`):
// the game read from its file, its photo beside the grid (zoomed, turned by 90°), saved
// back to the file with the version it was opened at (a save over someone else's newer one
// is refused, said), and the queue's previous and next games.
import { t } from "./i18n.js";
import { cleanGame, load, state } from "./state.js";

const $ = (id) => document.getElementById(id);
let opened = null; // {id, etag}
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
  const photo = $("review-photo");
  const named = typeof game.meta?.photo === "string" && game.meta.photo;
  $("review-no-photo").hidden = Boolean(named);
  photo.hidden = !named;
  if (named) {
    photo.src = `/v1/review/photo?id=${encodeURIComponent(id)}`;
    photo.alt = t("review_photo_of", { id });
  }
  photoStyle();
  return true;
}

async function save() {
  if (!opened) return;
  const status = $("review-status");
  const response = await fetch(`/v1/review/game?id=${encodeURIComponent(opened.id)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", "if-match": opened.etag },
    body: JSON.stringify(cleanGame(state.game)),
  });
  if (response.ok) {
    opened.etag = response.headers.get("etag");
    status.textContent = t("review_saved_now", { id: opened.id });
  } else if (response.status === 412) {
    status.textContent = t("review_stale");
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
  $("review-previous").addEventListener("click", () => go(-1));
  $("review-next").addEventListener("click", () => go(1));
  $("review-rotate").addEventListener("click", () => {
    turn = (turn + 1) % 4;
    photoStyle();
  });
  $("review-larger").addEventListener("click", () => {
    size = Math.min(size * 1.25, 4);
    photoStyle();
  });
  $("review-smaller").addEventListener("click", () => {
    size = Math.max(size / 1.25, 0.5);
    photoStyle();
  });
  document.addEventListener("keydown", (event) => {
    if (opened && (event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      save();
    }
  });
}
