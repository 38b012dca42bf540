// The cards of the table that the game's settings ask for, as the table has them: the
// requirement cards in play, one a deck (the catalog's, picked with one tap, or any id
// typed) and, for a card the catalog does not know, which players the table agreed met it
// (their `requirements_met`: scored as declared); and the D5 card's values for the game's
// player count (`majority_table`), remembered on this device for the next games with as
// many players.
import { LIMITS } from "./check.js";
import { modeScores, num, t } from "./i18n.js";
import { edit, state } from "./state.js";
import { $, el } from "./dom.js";

const DECKS = ["A", "B", "C"];
const REMEMBERED = "neweden.majority"; // {"3": [7, 3, 0], ...}: the D5 card as last typed
let known = new Map(); // requirement id -> deck
let texts = new Map(); // requirement id -> its text, as the catalog gives it
let tables = {}; // "3" -> the catalog's (or the default) D5 values for 3 players
let defaults = {}; // "3" -> whether those are the built-in default

export function setCatalog(catalog) {
  known = new Map(catalog.requirements.map((r) => [r.id, r.deck]));
  texts = new Map(catalog.requirements.map((r) => [r.id, r.text]));
  tables = catalog.majority_tables ?? {};
  defaults = catalog.majority_default ?? {};
}

// A game's requirement ids by deck: each in its deck's slot (the catalog's deck, else the
// letter its printed id begins with, in either case), then an id of no deck in the first
// slot left; those left over (a second card of a deck) after.
function byDeck(ids) {
  const slots = { A: "", B: "", C: "", rest: [] };
  const loose = [];
  for (const id of ids) {
    const deck = known.get(id) ?? (/^[ABC]/i.test(id) ? id[0].toUpperCase() : "");
    if (DECKS.includes(deck) && !slots[deck]) slots[deck] = id;
    else if (DECKS.includes(deck)) slots.rest.push(id);
    else loose.push(id);
  }
  for (const id of loose) {
    const free = DECKS.find((d) => !slots[d]);
    if (free) slots[free] = id;
    else slots.rest.push(id);
  }
  return slots;
}

const requirementIds = (game) =>
  Array.isArray(game.requirements) ? game.requirements.filter((id) => typeof id === "string") : [];

// The requirement ids of `game` made `ids`; a player's ticks of a card no longer in play
// taken away with it (the service refuses a card met that is not in play).
function setRequirements(game, ids) {
  game.requirements = ids;
  for (const player of game.players) {
    if (!Array.isArray(player.requirements_met)) continue;
    const kept = player.requirements_met.filter((id) => ids.includes(id));
    if (kept.length) player.requirements_met = kept;
    else delete player.requirements_met;
  }
}

// Deck `deck`'s card made `id` ("": none); `id` taken out of any other place first.
function setDeck(deck, id) {
  edit((game) => {
    const slots = byDeck(requirementIds(game));
    for (const d of DECKS) if (slots[d] === id) slots[d] = "";
    slots.rest = slots.rest.filter((k) => k !== id);
    slots[deck] = id;
    setRequirements(game, [...DECKS.map((d) => slots[d]), ...slots.rest].filter(Boolean));
  });
}

// An id the format takes (a catalog id: a letter or digit, then letters, digits, _ and -).
export const ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/; // a catalog id, as the format reads one

function chip(words, pressed, onTap) {
  const button = el("button", { type: "button", className: "chip", textContent: words });
  button.setAttribute("aria-pressed", String(pressed));
  button.addEventListener("click", onTap);
  return button;
}

function deckRow(deck, id) {
  const ids = [...known].filter(([, d]) => d === deck).map(([k]) => k);
  const chips = el("div", { className: "chips" });
  chips.setAttribute("role", "group");
  chips.setAttribute("aria-label", t("deck_n", { deck }));
  chips.append(
    chip(t("no_card"), !id, () => setDeck(deck, "")),
    ...ids.map((k) => Object.assign(chip(k, k === id, () => setDeck(deck, k)), { title: texts.get(k) ?? "" })),
  );
  const other = el("input", {
    className: "other",
    maxLength: LIMITS.text,
    value: id && !known.has(id) ? id : "",
    placeholder: t("other_id"),
    autocomplete: "off",
  });
  other.setAttribute("aria-label", t("other_id_of", { deck }));
  other.addEventListener("change", () => {
    const typed = other.value.trim();
    if (!typed) setDeck(deck, ""); // the box emptied: no card of this deck
    else if (ID.test(typed) && [...typed].length <= LIMITS.text) setDeck(deck, typed);
    else $("s-requirements-status").textContent = t("requirement_bad_id", { id: typed });
  });
  return el("div", { className: "chip-field" }, el("span", { textContent: t("deck_n", { deck }) }), chips, other);
}

// For a card the catalog does not know: a tick for each player the table agreed met it.
function metRow(game, id) {
  const ticks = game.players.map((player, p) => {
    const met = Array.isArray(player.requirements_met) && player.requirements_met.includes(id);
    const box = el("input", { type: "checkbox", checked: met });
    box.addEventListener("change", () =>
      edit((g) => {
        const list = Array.isArray(g.players[p].requirements_met) ? g.players[p].requirements_met : [];
        const kept = list.filter((k) => k !== id);
        if (box.checked) kept.push(id);
        if (kept.length) g.players[p].requirements_met = kept;
        else delete g.players[p].requirements_met;
      }),
    );
    return el("label", { className: "inline" }, box, ` ${player.name}`);
  });
  return el("div", { className: "met" }, el("p", { className: "hint", textContent: t("requirement_not_in_catalog", { id }) }), ...ticks);
}

export function renderRequirements() {
  const game = state.game;
  const box = $("s-requirements");
  const ids = requirementIds(game);
  const slots = byDeck(ids);
  box.replaceChildren(
    ...DECKS.map((deck) => deckRow(deck, slots[deck])),
    ...slots.rest.map((id) =>
      el("p", { className: "row" }, el("span", { textContent: t("also_in_play", { id }) }), removeButton(id)),
    ),
    ...ids.filter((id) => !known.has(id)).map((id) => metRow(game, id)),
  );
  $("s-requirements-status").textContent = modeScores(game.mode, "populist") ? "" : t("requirements_unscored");
  renderMajority();
}

// Removes one card of those left over (one copy of an id listed twice).
function removeButton(id) {
  const button = el("button", { type: "button", textContent: t("remove_requirement") });
  button.addEventListener("click", () =>
    edit((g) => {
      const ids = requirementIds(g);
      ids.splice(ids.lastIndexOf(id), 1);
      setRequirements(g, ids);
    }),
  );
  return button;
}

// --- the D5 card ---

function remembered() {
  try {
    const found = JSON.parse(localStorage.getItem(REMEMBERED) || "{}");
    return found !== null && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

function remember(n, values) {
  try {
    localStorage.setItem(REMEMBERED, JSON.stringify({ ...remembered(), [n]: values }));
  } catch {
    // storage refused: the values are the game's, not remembered
  }
}

// Values the format takes for `n` players: n whole numbers from 0 to the points' limit, not
// increasing.
export function goodTable(values, n) {
  return (
    Array.isArray(values) &&
    values.length === n &&
    values.every((v, k) => Number.isInteger(v) && v >= 0 && v <= LIMITS.points && (k === 0 || v <= values[k - 1]))
  );
}

// The game's D5 table made to fit its players and mode (inside an edit, after a player was
// added or removed or the mode changed): the values remembered for as many players, else
// none of its own (the catalog's then).
export function fitTable(game) {
  const n = game.players.length;
  if (goodTable(game.majority_table, n)) return; // the game's own, for as many players
  const mine = remembered()[n];
  if (modeScores(game.mode, "military") && n > 1 && goodTable(mine, n)) game.majority_table = mine;
  else delete game.majority_table;
}

function renderMajority() {
  const game = state.game;
  const n = game.players.length;
  const set = $("s-majority-set");
  set.hidden = !modeScores(game.mode, "military") || n < 2;
  if (set.hidden) return;
  const own = goodTable(game.majority_table, n);
  const wrong = !own && game.majority_table !== undefined; // the game gives a table unfit
  const values = own ? game.majority_table : (tables[n] ?? []);
  const status = $("s-majority-status");
  const fields = values.map((value, k) => {
    const input = el("input", { type: "number", min: 0, max: LIMITS.points, step: 1, value, className: "narrow" });
    input.addEventListener("change", () => {
      const inputs = [...$("s-majority").querySelectorAll("input")];
      const typed = inputs.map((i) => (i.value.trim() === "" ? NaN : Number(i.value)));
      if (!goodTable(typed, n)) {
        status.textContent = t("majority_bad", { n, max: num(LIMITS.points) });
        return;
      }
      remember(n, typed);
      edit((g) => {
        g.majority_table = typed;
      });
    });
    return el("label", {}, el("span", { textContent: t("place_n", { n: k + 1 }) }), input);
  });
  $("s-majority").replaceChildren(...fields);
  const said = wrong ? "majority_wrong" : own ? "majority_game" : defaults[n] ? "majority_default" : "majority_catalog";
  status.textContent = t(said, { n });
  $("s-majority-reset").disabled = !own && !wrong;
}

export function attach() {
  $("s-majority-reset").addEventListener("click", () => {
    const n = state.game.players.length;
    const kept = remembered();
    delete kept[n];
    try {
      localStorage.setItem(REMEMBERED, JSON.stringify(kept));
    } catch {
      // storage refused: nothing was remembered
    }
    edit((g) => {
      delete g.majority_table;
    });
  });
}
