// The results of an event (docs/standings.md): a JSON Lines file of games or of
// `validate --out` lines, or the games kept on this device, scored by the service
// (POST /v1/score/batch) and ranked across rounds (POST /v1/standings).
import { detailOf, post } from "./api.js";
import * as i18n from "./i18n.js";
import { t, tn } from "./i18n.js";
import { keptGames } from "./state.js";
import { $, el } from "./dom.js";

const BATCH = 1000; // games a POST /v1/score/batch takes
const COLUMNS = ["place", "name", "points", "total", "wins", "requirements_met", "cards", "games"];
let last = null; // what was read last: shown again when an option changes
let runs = 0; // the ranking under way: an older one, outrun by a newer choice, shows nothing
let choices = 0; // the files or saved games chosen: one read after a newer choice is dropped

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

// The result of each entry, in order: a `validate --out` line as it is, a game scored;
// null once ranking `run` is outrun by a newer one (no more batch is sent for it).
async function resultsOf(read, run) {
  const results = read.map((e) => (isResult(e.value) ? { source: e.source, ...e.value } : null));
  const games = read.map((e, at) => [e, at]).filter(([e]) => !isResult(e.value));
  for (let start = 0; start < games.length; start += BATCH) {
    if (run !== runs) return null;
    const part = games.slice(start, start + BATCH);
    $("r-status").textContent = t("results_scoring", { done: start, games: games.length });
    const answer = await post("/v1/score/batch", { games: part.map(([e]) => e.value) });
    if (!answer.ok) throw new Error(detailOf(answer));
    answer.body.results.forEach((result, k) => {
      const [entry, at] = part[k];
      results[at] = { ...result, source: entry.source };
    });
  }
  return results;
}

// The points as `--points` writes them: `5,3,2,0` for every player count, or `3:4,2,1`
// for one (several, apart by spaces); the service checks the values themselves.
function points(text) {
  const general = [];
  const counts = {};
  for (const spec of text.split(/\s+/).filter(Boolean)) {
    const found = /^(?:(\d):)?(\d+(?:,\d+)*)$/.exec(spec);
    if (!found) throw new Error(t("results_points_syntax", { text: spec }));
    const values = found[2].split(",").map(Number);
    if (found[1]) counts[found[1]] = values;
    else general.push(values);
  }
  if (general.length && Object.keys(counts).length) throw new Error(t("results_points_mixed"));
  if (general.length > 1) throw new Error(t("results_points_mixed"));
  return general.length ? general[0] : counts;
}

// The aliases as an alias file writes them: `ALIAS = NAME` a line, `#` after a space (or
// at the start) begins a comment; what the file would refuse, refused here the same way.
function aliases(text) {
  const found = Object.create(null);
  text.split("\n").forEach((raw, at) => {
    const words = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!words) return;
    const parts = words.split("=");
    if (parts.length !== 2 || !parts[0].trim() || !parts[1].trim()) {
      throw new Error(t("results_alias_line", { line: at + 1 }));
    }
    const [alias, name] = parts.map((p) => p.trim());
    if (alias in found && found[alias] !== name) {
      throw new Error(t("results_alias_twice", { line: at + 1, alias, name: found[alias] }));
    }
    found[alias] = name;
  });
  return found;
}

// The options as POST /v1/standings takes them.
function options() {
  const body = {};
  const given = $("r-points").value.trim();
  if (given) body.points = points(given);
  const named = aliases($("r-aliases").value);
  if (Object.keys(named).length) body.aliases = named;
  return body;
}

// What the standings read of a result (the rest of a report stays here: a body of 32 MiB
// holds tens of thousands of results so).
function trimmed(r) {
  const first = (errors) => (errors ?? []).slice(0, 1);
  const players = (r.players ?? []).map((p) => ({
    name: p.name,
    place: p.place,
    cards: p.cards,
    score: { total: p.score?.total },
    requirements_met: p.requirements_met,
    errors: first(p.errors),
  }));
  return { source: r.source, valid: r.valid, meta: r.meta, errors: first(r.errors), players };
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
  const run = ++runs;
  const read = last;
  $("r-error").hidden = true;
  try {
    const asked = options();
    const results = await resultsOf(read.read, run);
    if (run !== runs) return;
    const answer = await post("/v1/standings", { results: results.map(trimmed), ...asked });
    if (run !== runs) return;
    if (!answer.ok) throw new Error(detailOf(answer));
    const made = answer.body;
    $("r-events").replaceChildren(...made.events.map(eventTable));
    $("r-left").replaceChildren(...leftOut([...read.broken, ...made.left_out], made.notes));
    $("r-status").textContent = made.events.length ? t("results_read", { name: read.name }) : t("results_nothing");
  } catch (error) {
    if (run !== runs) return;
    failed(t("results_failed", { reason: error.message }));
  }
  document.body.dataset.ranked = String(Number(document.body.dataset.ranked ?? 0) + 1);
}

// Nothing shown but why (no standings that the choice and the options did not make).
function failed(why) {
  $("r-events").replaceChildren();
  $("r-left").replaceChildren();
  $("r-error").textContent = why;
  $("r-error").hidden = false;
  $("r-status").textContent = "";
}

// A new file or the saved games chosen: what was read before, and any ranking of it under
// way, are let go (an option changed meanwhile ranks nothing until the choice is read).
function chosen() {
  ++runs;
  last = null;
  return ++choices;
}

// A `.json` file is one game (or a list of them); any other file, JSON Lines.
function entriesOf(text, name) {
  if (!/\.json$/i.test(name)) return linesOf(text, name);
  try {
    const doc = JSON.parse(text);
    const many = Array.isArray(doc);
    const read = (many ? doc : [doc]).map((value, k) => ({ source: { path: name, line: many ? k + 1 : null }, value }));
    return { read, broken: [] };
  } catch {
    return { read: [], broken: [{ source: { path: name, line: null }, code: "unreadable", message: t("results_not_json") }] };
  }
}

async function fromFile() {
  const file = $("r-file").files[0];
  if (!file) return; // (the choice emptied: what is shown stays, with its options)
  const choice = chosen(); // (counted when chosen: a large file is read after a small one)
  try {
    let text;
    try {
      text = await file.text();
    } catch (error) {
      if (choice === choices) failed(t("file_unreadable", { name: file.name, reason: error.message }));
      return;
    }
    if (choice !== choices) return; // chosen again while this file was read
    last = { name: file.name, ...entriesOf(text, file.name) };
    await rank();
  } finally {
    settled();
  }
}

async function fromDevice() {
  chosen();
  try {
    const kept = keptGames();
    // each saved game named apart (two are often "Table 1"): its name and its own id
    const read = kept.map((entry) => ({ source: { path: `${entry.name || ""} #${entry.id}`.trim(), line: null }, value: entry.game }));
    last = { name: t("results_kept"), read, broken: [] };
    await rank();
  } finally {
    settled();
  }
}

// One more choice done with, shown or outrun (body[data-settled] counts them).
function settled() {
  document.body.dataset.settled = String(Number(document.body.dataset.settled ?? 0) + 1);
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
