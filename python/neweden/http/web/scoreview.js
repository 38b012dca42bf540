// Live: after each change (debounced) the score table with its audit on demand, the
// problems (click one to see its cells), the selected player's picture, and where the card
// being placed may go.
import { detailOf, post } from "./api.js";
import { num, t, tn } from "./i18n.js";
import { cleanGame, currentPlayer, notify, state } from "./state.js";
import { $, el } from "./dom.js";

let timer = null;
let generation = 0;
let picture = null;
let report = null;
const openAudits = new Set();
const RETRY = 3000; // ms before a score the service did not answer is asked again

// Asks for the score of the game as it is now, after `delay` ms without another change
// (`changed`: the game itself changed, not only what is selected or drafted).
export function schedule(delay = 250, changed = true) {
  outdated(changed);
  timer = setTimeout(refresh, delay);
}

// An answer still coming is dropped (the next one is for what the page shows now). When the
// game (or the page's language) `changed`, whatever is shown is of an older game until the
// next answer: marked so (dimmed, its problems not clickable: their players may be gone).
export function outdated(changed = true) {
  clearTimeout(timer);
  ++generation;
  if (!changed) return;
  $("live-status").textContent = t("scoring");
  $("totals").classList.add("stale");
  for (const button of $("problems").querySelectorAll("button")) button.disabled = true;
}

export async function refresh() {
  clearTimeout(timer);
  const mine = ++generation;
  const game = cleanGame();
  const player = currentPlayer();
  const status = $("live-status");
  status.textContent = t("scoring");
  let answers;
  try {
    answers = await Promise.all([
      post("/v1/score", game, { detail: "true" }),
      post("/v1/render", game, { player: player.name }),
      placements(game, player),
    ]);
  } catch (error) {
    if (mine === generation) unanswered(String(error));
    return;
  }
  if (mine !== generation) return; // the game changed meanwhile: its own answer follows
  const [scored, drawn, legal] = answers;
  report = scored.ok ? scored.body : null;
  showTable(report);
  showProblems(scored);
  showPicture(drawn, player.name);
  state.legal = legal.cells;
  notify("legal");
  const unsaid = [legal.failed, drawn.ok ? "" : t("picture_failed", { reason: detailOf(drawn) })];
  status.textContent = unsaid.filter(Boolean).join(" ");
}

// The service did not answer: nothing of an older game is left to pass for this one's (the
// totals bar, at the top of a phone's screen, says so), and the score is asked again.
function unanswered(reason) {
  report = null;
  showTable(null);
  showProblems(null);
  showPicture(null, "");
  state.legal = new Map();
  notify("legal");
  const words = t("service_unreachable", { reason });
  $("live-status").textContent = words;
  $("totals").replaceChildren(el("span", { className: "total-entry failed", textContent: words }));
  timer = setTimeout(refresh, RETRY);
}

// Where the card being placed may go (`cells`: key "row,col" to "upright" or "rotated"),
// and why that is not known (`failed`: words, or "").
async function placements(game, player) {
  const legal = new Map();
  const known = (cells) => ({ cells, failed: "" });
  if (state.moving) return known(legal); // (where the card being placed may go, a card selected or not)
  if (!player.city.length) return known(legal.set("0,0", "upright"));
  if (!complete(state.draft)) return known(legal); // the service would refuse it: nothing to ask
  const answer = await post("/v1/placements", { game, player: player.name, card: state.draft });
  if (answer.status >= 500) return { cells: legal, failed: t("placements_failed", { reason: detailOf(answer) }) };
  if (!answer.ok) return known(legal); // (the card drafted is refused: the form says what is wrong)
  for (const p of answer.body.placements) {
    const key = `${p.row},${p.col}`;
    if (!p.rotated || !legal.has(key)) legal.set(key, p.rotated ? "rotated" : "upright");
    if (!p.rotated) legal.set(key, "upright");
  }
  return known(legal);
}

// A card the format accepts: an id, a wild card, or style, type and facility given.
function complete(card) {
  if (typeof card === "string") return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(card);
  return Boolean(card.wild || (card.style && card.type && card.facility));
}

function showPicture(drawn, name) {
  const img = $("picture");
  if (picture) URL.revokeObjectURL(picture);
  picture = null;
  if (!drawn?.ok) {
    img.hidden = true;
    return;
  }
  picture = URL.createObjectURL(new Blob([drawn.body], { type: "image/svg+xml" }));
  img.src = picture;
  img.alt = t("picture_of", { name });
  img.hidden = false;
}

// A tap on the picture shows it larger, in a box the finger drags around; another, back.
export function attachPicture() {
  const wrap = $("picture-wrap");
  const picture = $("picture");
  picture.tabIndex = 0; // Enter or Space does what a tap does
  picture.setAttribute("role", "button");
  const toggle = () => {
    const zoomed = wrap.classList.toggle("zoomed");
    picture.setAttribute("aria-pressed", String(zoomed));
  };
  picture.addEventListener("click", toggle);
  picture.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    toggle();
  });
}

const PARTS = [
  ["requirements", (s) => num(s.requirements)],
  ["military", (s) => (s.military ? num(s.military.total) : "—")],
  ["epiphanies", (s) => num(s.epiphanies)],
  ["ten_cards", (s) => num(s.ten_cards)],
  ["bonuses", (s) => num(s.bonuses)],
];

// Each player's total and place in a bar that stays at the top of the window while the
// page scrolls (a phone shows the grid and the totals at once).
function showTotals(answer) {
  const bar = $("totals");
  bar.classList.remove("stale");
  bar.replaceChildren(
    ...(answer?.players ?? []).map((p, index) => {
      const place = t("place_n", { n: p.place });
      const words = t("totals_entry", { name: p.name, total: num(p.score.total), place });
      const entry = el("span", { className: "total-entry", textContent: words });
      entry.dataset.player = p.name;
      if (index === state.player) entry.classList.add("current");
      return entry;
    }),
  );
}

// A cell of the score table, with its column's name (a phone shows each player as a block
// of named figures: page.css).
function cell(column, text, className = "", title = "") {
  const td = el("td", { className, textContent: text });
  td.dataset.label = t(column);
  if (title) td.title = title;
  return td;
}

function showTable(answer) {
  showTotals(answer);
  const body = $("score-rows");
  body.replaceChildren();
  $("audits").replaceChildren();
  $("score-valid").textContent = answer ? t(answer.valid ? "game_valid" : "game_invalid") : "";
  if (!answer) return;
  answer.players.forEach((p, index) => {
    const open = openAudits.has(p.name);
    const toggle = el("button", {
      type: "button",
      className: "link",
      textContent: t("audit"),
    });
    toggle.setAttribute("aria-expanded", String(open));
    toggle.addEventListener("click", () => {
      if (openAudits.has(p.name)) openAudits.delete(p.name);
      else openAudits.add(p.name);
      showTable(report);
    });
    const row = el(
      "tr",
      {},
      el("th", { scope: "row" }, p.name, toggle),
      cell("total", num(p.score.total), "total"),
      ...PARTS.map(([name, part]) => cell("part_" + name, part(p.score))),
      cell("place", p.place),
      cell("legal", p.legal ? "✓" : "✗", "", t(p.legal ? "legal" : "illegal")),
    );
    row.dataset.player = p.name;
    if (index === state.player) row.classList.add("current");
    body.append(row);
    if (open) {  // below the table, as wide as the screen (the table may scroll sideways)
      const heading = el("h4", { className: "audit-of", textContent: t("audit_of", { name: p.name }) });
      $("audits").append(el("div", { className: "audit-box" }, heading, audit(p)));
    }
  });
}

function list(title, items) {
  if (!items.length) return [];
  return [el("h4", { textContent: title }), el("ul", {}, ...items.map((text) => el("li", { textContent: text })))];
}

function audit(p) {
  const a = p.audit;
  const box = el("div");
  box.append(
    ...list(
      t("audit_cards"),
      a.cards.map((c) => `(${c.cell[0]}, ${c.cell[1]}) ${t("points_n", { n: c.populist_points ?? 0 })}: ${c.why}`),
    ),
    ...list(t("audit_requirements"), (a.requirements || []).map((r) => r.why)),
    ...list(t("audit_stars"), a.stars ? [tn("stars_total", a.stars.total)] : []),
    ...list(t("audit_epiphanies"), a.epiphanies.map((e) => `${t("points_n", { n: e.scored })}: ${e.note}`)),
    ...list(t("audit_military"), military(p)),
    ...list(t("audit_advice"), a.advice.map((x) => x.message)),
    ...list(t("audit_ranking"), [t("place_n", { n: a.ranking.place })]),
  );
  return box;
}

function military(p) {
  const m = p.score.military;
  if (!m) return [];
  return ["labs", "shelters", "medical", "towers", "bases"].map(
    (part) => `${t("military_" + part)}: ${m[part]}`,
  );
}

function problemItem(problem, playerIndex, kind) {
  const who = playerIndex === null ? "" : `${state.game.players[playerIndex]?.name}: `;
  const button = el("button", {
    type: "button",
    className: `problem ${kind}`,
    textContent: `${t(kind)} · ${who}${problem.message}`,
  });
  button.addEventListener("click", () => {
    if (playerIndex !== null) state.player = playerIndex;
    state.highlight = problem.cells || [];
    state.selected = null;
    notify("player");
    document.getElementById("grid").scrollIntoView({ block: "nearest" });
  });
  return el("li", {}, button);
}

function showProblems(scored) {
  const items = []; // (none known when the service did not answer: `scored` null)
  if (scored && !scored.ok) {
    items.push(el("li", { className: "detail", textContent: scored.body.detail || String(scored.status) }));
    for (const e of scored.body.errors || []) {
      items.push(el("li", { className: "error", textContent: `${e.path || "/"}: ${e.message}` }));
    }
  } else if (scored) {
    const r = scored.body;
    for (const e of r.errors) items.push(problemItem(e, null, "error"));
    for (const w of r.warnings) items.push(problemItem(w, null, "warning"));
    r.players.forEach((p, i) => {
      for (const e of p.errors) items.push(problemItem(e, i, "error"));
      for (const w of p.warnings) items.push(problemItem(w, i, "warning"));
    });
  }
  $("problems").replaceChildren(...items);
  $("no-problems").hidden = items.length > 0 || !scored;
}
