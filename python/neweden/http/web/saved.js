// The games kept on this device (state.js keeps a copy of each game replaced, and the
// copies asked for): listed newest first with their dates, opened again, deleted, or all
// downloaded as JSON Lines (one game a line, as `neweden validate` reads a round).
import { lang, t } from "./i18n.js";
import { downloadFile } from "./io.js";
import { forgetKept, keepCopy, keptGames } from "./state.js";

const $ = (id) => document.getElementById(id);
let opener = null; // how a kept game is opened (app.js: the game in progress kept first)

function say(text) {
  $("saved-status").textContent = text;
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString(lang());
}

export function render() {
  const list = keptGames();
  $("saved-none").hidden = list.length > 0;
  $("saved-export").disabled = list.length === 0;
  $("saved-list").replaceChildren(
    ...list.map((entry) => {
      const item = document.createElement("li");
      item.dataset.id = entry.id;
      const words = document.createElement("span");
      words.className = "saved-name";
      const cards = (entry.game.players || []).reduce((n, p) => n + (p.city?.length || 0), 0);
      words.textContent = t("saved_entry", { name: entry.name || "?", date: when(entry.saved), cards });
      const open = Object.assign(document.createElement("button"), {
        type: "button",
        className: "saved-open",
        textContent: t("saved_open"),
      });
      open.addEventListener("click", () => openKept(entry));
      const remove = Object.assign(document.createElement("button"), {
        type: "button",
        className: "saved-delete",
        textContent: t("saved_delete"),
      });
      remove.addEventListener("click", () => deleteKept(entry));
      item.append(words, " ", open, " ", remove);
      return item;
    }),
  );
}

function openKept(entry) {
  try {
    opener(entry.game);
    say(t("saved_opened", { name: entry.name || "?" }));
  } catch (error) {
    say(t("could_not_open", { reason: error.message }));
  }
  render();
}

function deleteKept(entry) {
  if (!confirm(t("saved_delete_ask", { name: entry.name || "?" }))) return;
  say(forgetKept(entry.id) ? t("saved_deleted", { name: entry.name || "?" }) : t("storage_full"));
  render();
}

function download() {
  const lines = keptGames().map((entry) => JSON.stringify(entry.game) + "\n");
  downloadFile(new Blob(lines, { type: "application/x-ndjson" }), "neweden-saved-games.jsonl");
}

// `openGame(game)` opens a kept game (the one in progress kept first).
export function attach(openGame) {
  opener = openGame;
  $("saved-keep").addEventListener("click", () => {
    say(keepCopy() ? t("kept_copy") : t("storage_full"));
    render();
  });
  $("saved-export").addEventListener("click", download);
  $("saved-games").addEventListener("toggle", render);
  render();
}
