// The results of an event (docs/standings.md): a JSON Lines file of games or of
// `validate --out` lines, or the games kept on this device, scored by the service
// (POST /v1/score/batch) and ranked across rounds (POST /v1/standings).
import { post } from "./api.js";
import * as i18n from "./i18n.js";
import { t, tn } from "./i18n.js";
import { keptGames } from "./state.js";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const BATCH = 1000; // games a POST /v1/score/batch takes
const COLUMNS = ["place", "name", "points", "total", "wins", "requirements_met", "cards", "games"];
let last = null; // what was read last: shown again when an option changes

// Each line of a JSON Lines text: {source, value}, or a line that is not JSON, said.
function linesOf(text, path) {
  const read = [];
  const broken = [];
  text.split("\n").forEach((line, at) => {
    if (!line.trim()) return;
    const source = { path, line: at + 1 };
    try {
      read.push({ source, value: JSON.parse(line) });
    } catch {
      broken.push({ source, code: "unreadable", message: t("results_not_json") });
    }
  });
  return { read, broken };
}

const isResult = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && "valid" in v;

// The result of each entry, in order: a `validate --out` line as it is, a game scored.
async function resultsOf(read) {
  const results = read.map((e) => (isResult(e.value) ? { source: e.source, ...e.value } : null));
  const games = read.map((e, at) => [e, at]).filter(([e]) => !isResult(e.value));
  for (let start = 0; start < games.length; start += BATCH) {
    const part = games.slice(start, start + BATCH);
    $("r-status").textContent = t("results_scoring", { done: start, games: games.length });
    const answer = await post("/v1/score/batch", { games: part.map(([e]) => e.value) });
    if (!answer.ok) throw new Error(answer.body.detail ?? String(answer.status));
    answer.body.results.forEach((result, k) => {
      const [entry, at] = part[k];
      results[at] = { ...result, source: entry.source };
    });
  }
  return results;
}

// The options as POST /v1/standings takes them: points, one list; aliases, `ALIAS = NAME`.
function options() {
  const body = {};
  const points = $("r-points").value.trim();
  if (points) body.points = points.split(/[\s,;/]+/).filter(Boolean).map(Number);
  const aliases = {};
  for (const line of $("r-aliases").value.split("\n")) {
    const [alias, name] = line.split("#")[0].split("=");
    if (alias?.trim() && name !== undefined) aliases[alias.trim()] = name.trim();
  }
  if (Object.keys(aliases).length) body.aliases = aliases;
  return body;
}

function eventTable(event) {
  const heads = COLUMNS.map((key) => el("th", { scope: "col", textContent: t(`results_${key}`) }));
  const rows = event.players.map((p) =>
    el("tr", {}, ...COLUMNS.map((key) => el("td", { textContent: String(p[key]) }))),
  );
  const title = `${event.event ?? t("results_no_event")} — ${tn("results_games_count", event.games)}`;
  return el(
    "section",
    { className: "standing" },
    el("h3", { textContent: title }),
    el("div", { className: "scroll" }, el("table", {}, el("thead", {}, el("tr", {}, ...heads)), el("tbody", {}, ...rows))),
  );
}

function leftOut(left, notes) {
  const where = (s) => (s.line === null || s.line === undefined ? s.path : `${s.path}:${s.line}`);
  const items = left.map((x) => el("li", { textContent: `${where(x.source)} — ${x.code}: ${x.message}` }));
  const parts = [];
  if (items.length) {
    parts.push(el("h3", { textContent: tn("results_left_out", items.length) }), el("ul", {}, ...items));
  }
  if (notes.length) parts.push(el("ul", {}, ...notes.map((n) => el("li", { textContent: n.message }))));
  return parts;
}

async function rank() {
  if (!last) return;
  $("r-error").hidden = true;
  try {
    const results = await resultsOf(last.read);
    const answer = await post("/v1/standings", { results, ...options() });
    if (!answer.ok) throw new Error(answer.body.detail ?? String(answer.status));
    const made = answer.body;
    $("r-events").replaceChildren(...made.events.map(eventTable));
    $("r-left").replaceChildren(...leftOut([...last.broken, ...made.left_out], made.notes));
    $("r-status").textContent = t("results_read", { name: last.name });
  } catch (error) {
    $("r-error").textContent = t("results_failed", { reason: error.message });
    $("r-error").hidden = false;
    $("r-status").textContent = "";
  }
  document.body.dataset.ranked = String(Number(document.body.dataset.ranked ?? 0) + 1);
}

async function fromFile() {
  const file = $("r-file").files[0];
  if (!file) return;
  last = { name: file.name, ...linesOf(await file.text(), file.name) };
  await rank();
}

async function fromDevice() {
  const kept = keptGames();
  const read = kept.map((entry) => ({ source: { path: entry.name || entry.id, line: null }, value: entry.game }));
  last = { name: t("results_kept"), read, broken: [] };
  await rank();
}

async function main() {
  await i18n.load(i18n.chosenLanguage());
  i18n.apply();
  i18n.languageMenu($("lang"));
  $("r-file").addEventListener("change", fromFile);
  $("r-kept").addEventListener("click", fromDevice);
  $("r-points").addEventListener("change", rank);
  $("r-aliases").addEventListener("change", rank);
  document.body.dataset.ready = "true";
}

main();
