// In and out: paste or upload a game (JSON, or one JSON Lines line), download it, copy it
// as one line, share it as a link (/#g= + base64url of its UTF-8 JSON).
import { detailOf, post } from "./api.js";
import { t } from "./i18n.js";
import { cleanGame, encodeGame, state } from "./state.js";

const $ = (id) => document.getElementById(id);

function say(text) {
  $("io-status").textContent = text;
}

// A game from text: a JSON document, or the first non-empty line of JSON Lines.
export function parseGame(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    const line = text.split("\n").find((l) => l.trim());
    value = JSON.parse(line ?? "");
  }
  return value; // its shape is checked by load()
}

let opener = null; // how a game is opened (app.js: the one in progress kept first)
let opens = 0; // the games opened: a file read after a newer one was opened is not opened

function open(text) {
  ++opens;
  try {
    opener(parseGame(text));
    say(t("opened"));
  } catch (error) {
    say(t("could_not_open", { reason: error.message }));
  }
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function shareLink() {
  return `${location.origin}/#g=${encodeGame(cleanGame())}`;
}

// `blob` downloaded as the file `name`.
export function downloadFile(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// A file's name for the game in progress: `stem`, then its table if it has one (game-7.json).
function fileName(stem, extension) {
  const table = state.game.meta?.table;
  const tag = table ? `-${String(table).replace(/[^\w-]+/g, "_")}` : "";
  return `${stem}${tag}.${extension}`;
}

function download() {
  const blob = new Blob([JSON.stringify(cleanGame(), null, 1) + "\n"], { type: "application/json" });
  downloadFile(blob, fileName("game", "json"));
}

// The result as a picture (POST /v1/render: every player's city, total and place): sent with
// the device's share sheet where the browser can share files (Web Share API), else
// downloaded.
async function sharePicture() {
  say(t("picture_making"));
  let answer;
  try {
    answer = await post("/v1/render", cleanGame());
  } catch (error) {
    say(t("picture_failed", { reason: String(error) }));
    return;
  }
  if (!answer.ok) {
    say(t("picture_failed", { reason: detailOf(answer) }));
    return;
  }
  const name = fileName("result", "svg");
  const file = new File([answer.body], name, { type: "image/svg+xml" });
  if (navigator.canShare?.({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: name });
      say(t("picture_shared"));
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the player closed the share sheet
    }
  }
  downloadFile(file, name);
  say(t("picture_downloaded", { name }));
}

// `openGame(game)` opens a game pasted or uploaded in place of the one in progress.
export function attach(openGame) {
  opener = openGame;
  $("io-open").addEventListener("click", () => open($("io-text").value));
  $("io-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = ""; // (the same file chosen again is read again)
    if (!file) return;
    const mine = ++opens; // (counted when chosen: a large file is read after a small one)
    let text;
    try {
      text = await file.text();
    } catch (error) {
      if (mine === opens) say(t("file_unreadable", { name: file.name, reason: error.message }));
      return;
    }
    if (mine === opens) open(text);
  });
  $("io-download").addEventListener("click", download);
  $("io-picture").addEventListener("click", sharePicture);
  $("io-line").addEventListener("click", async () => {
    const line = JSON.stringify(cleanGame());
    $("io-text").value = line;
    say((await copy(line)) ? t("copied_line") : t("line_below"));
  });
  $("io-share").addEventListener("click", async () => {
    const link = shareLink();
    $("io-link").value = link;
    $("io-link").hidden = false;
    say((await copy(link)) ? t("copied_link") : t("link_below"));
  });
}
