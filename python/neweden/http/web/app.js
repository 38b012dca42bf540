// The page: loads its words and the catalog, opens a game (a share link, ?example=final,
// the work saved in this browser, or a new one), then keeps every view in step.
import { exampleGame, get } from "./api.js";
import * as cardForm from "./cardform.js";
import * as grid from "./grid.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import * as io from "./io.js";
import * as scoreView from "./scoreview.js";
import * as settings from "./settings.js";
import {
  canRedo,
  canUndo,
  decodeGame,
  isGame,
  load,
  newGame,
  redoEdit,
  saved,
  state,
  subscribe,
  undoEdit,
} from "./state.js";

const $ = (id) => document.getElementById(id);
let catalog = null;

function renderAll(what) {
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
  scoreView.schedule();
}

async function firstGame() {
  const hash = new URLSearchParams(location.hash.slice(1)).get("g");
  if (hash) {
    try {
      const game = decodeGame(hash);
      if (!isGame(game)) throw new Error("not a game");
      return game;
    } catch {
      $("io-status").textContent = t("bad_link");
    } finally {
      history.replaceState(null, "", location.pathname + location.search); // edits are kept
    }
  }
  const url = new URL(location.href);
  if (url.searchParams.get("example") === "final") {
    url.searchParams.delete("example"); // a reload keeps the edits, not the example again
    history.replaceState(null, "", url);
    return exampleGame();
  }
  const kept = saved();
  return isGame(kept) ? kept : newGame(t("player_n", { n: 1 }));
}

// The first game, or a new one when it cannot be drawn (said as a link not read).
async function openFirst() {
  try {
    load(await firstGame());
  } catch {
    $("io-status").textContent = t("bad_link");
    load(newGame(t("player_n", { n: 1 })));
  }
}

async function switchLanguage(tag) {
  localStorage.setItem("neweden.lang", tag);
  const url = new URL(location.href);
  url.searchParams.set("lang", tag);
  history.replaceState(null, "", url);
  await i18n.load(tag);
  i18n.apply();
  cardForm.setCatalog(catalog); // the names of styles and types in the new language
  renderAll("game");
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
  await i18n.load(i18n.chosenLanguage());
  i18n.apply();
  $("lang").value = i18n.lang();
  $("lang").addEventListener("change", (e) => switchLanguage(e.target.value));
  catalog = await get("/v1/catalog");
  grid.setCatalog(catalog);
  cardForm.setCatalog(catalog);
  settings.setCatalog(catalog);
  $("epiphany-ids").replaceChildren(
    ...catalog.epiphanies.map((e) => Object.assign(document.createElement("option"), { value: e.id })),
  );
  $("catalog-name").textContent = catalog.name;
  grid.attach($("grid"));
  cardForm.attach();
  settings.attach();
  io.attach();
  $("undo").addEventListener("click", undoEdit);
  $("redo").addEventListener("click", redoEdit);
  $("example").addEventListener("click", async () => load(await exampleGame()));
  $("new-game").addEventListener("click", () => load(newGame(t("player_n", { n: 1 }))));
  document.addEventListener("keydown", keys);
  subscribe(renderAll);
  await openFirst();
  window.addEventListener("hashchange", async () => {
    if (new URLSearchParams(location.hash.slice(1)).get("g")) await openFirst();
  });
  document.body.dataset.ready = "true";
}

main();
