// The card form: the card being placed, or the selected card of the city (a card placed is
// selected, so it is edited in place; its changes apply at once, undoably, and its style and
// type become those of the next card). Style, type, facility, points and stars are picked
// with one tap from chips (the box's names, the catalog's, the game's, or typed in "other");
// the four icons are toggles around the card's own picture. A catalog id, when given,
// stands for the whole card.
import { LIMITS, whole } from "./check.js";
import { styleColour } from "./colours.js";
import { describe, focusCursor, printed } from "./grid.js";
import { shown, t } from "./i18n.js";
import { FACILITIES, fold } from "./quick.js";
import { ALL_SIDES, cardAt, edit, keepNames, newDraft, notify, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const BOX = {
  style: ["gothic", "futurist", "renaissance", "sustainable"],
  type: ["building", "green_area"],
};
const MOST_CHIPS = 16; // names offered as chips for a style or a type (the rest: "other")
const POINTS_CHIPS = 10; // 0 to 9 as chips; more typed in the field beside them
let catalogNames = { style: [], type: [] };

function target() {
  const sel = state.selected;
  return sel ? cardAt(sel.row, sel.col) : null;
}

function currentCard() {
  return target()?.card ?? state.draft;
}

// The names offered for a style or a type: the box's, the catalog's, then those of the game
// (every player's cards) that read as none of them once folded ("Gótico" is gothic), at
// most MOST_CHIPS, the card's own always among them (last: the chips before it stay put).
export function offered(kind, own) {
  const names = [...BOX[kind], ...catalogNames[kind]];
  const seen = new Set(names.flatMap((name) => [fold(name), fold(shown(name))]));
  for (const player of state.game?.players ?? []) {
    for (const placement of player.city) {
      const name = printed(placement.card)[kind];
      if (typeof name === "string" && name && !seen.has(fold(name))) {
        names.push(name);
        seen.add(fold(name));
      }
    }
  }
  const list = [...new Set(names)].slice(0, MOST_CHIPS);
  if (typeof own === "string" && own && !list.includes(own)) list.push(own);
  return list;
}

// A row of chips, one pressed (the value's): toggle buttons with their words. The buttons
// there are kept, in place, and only redrawn (a chip more or less is added or taken at the
// end): a tap whose press commits a typed field (which draws the form again, and may add
// that field's name as a chip) still lands on its chip.
function chips(root, choices, value, disabled) {
  while (root.children.length > choices.length) root.lastElementChild.remove();
  while (root.children.length < choices.length) {
    root.append(Object.assign(document.createElement("button"), { type: "button", className: "chip" }));
  }
  choices.forEach(([choice, words, label], i) => {
    const button = root.children[i];
    button.dataset.value = String(choice);
    button.textContent = words;
    if (label) button.setAttribute("aria-label", label);
    else button.removeAttribute("aria-label");
    button.setAttribute("aria-pressed", String(String(choice) === String(value)));
    button.disabled = disabled;
  });
}

export function fill() {
  const placement = target();
  const card = currentCard();
  const byId = typeof card === "string";
  const c = printed(card);
  const off = byId || Boolean(c.wild);
  $("f-id").value = byId ? card : "";
  for (const kind of ["style", "type"]) {
    const names = offered(kind, c[kind]);
    chips($(`c-${kind}`), names.map((n) => [n, shown(n)]), c[kind], off);
    $(`f-${kind}`).value = "";
    $(`f-${kind}`).disabled = off;
  }
  const facilities = FACILITIES.map((f) => [f, t("facility_" + f)]);
  if (typeof c.facility === "string" && c.facility && !FACILITIES.includes(c.facility)) {
    facilities.push([c.facility, c.facility]); // a facility the box does not have, kept
  }
  chips($("c-facility"), facilities, c.facility ?? "", off);
  const points = c.points ?? 0;
  const numbers = [...Array(POINTS_CHIPS).keys()];
  chips($("c-points"), numbers.map((n) => [n, String(n), t("points_n", { n })]), points, off);
  $("f-points").value = points;
  $("f-points").disabled = off;
  const stars = [0, 1, 2, 3].map((n) => [n, n ? `${n}★` : "0", t("stars_n", { n })]);
  chips($("c-stars"), stars, c.stars ?? 0, off);
  $("f-wild").checked = Boolean(c.wild);
  $("f-wild").disabled = byId;
  for (const side of ALL_SIDES) {
    const toggle = $(`f-icon-${side}`);
    toggle.setAttribute("aria-pressed", String((c.sides || []).includes(side)));
    toggle.disabled = off;
  }
  const face = $("card-face");
  face.textContent = c.wild ? "✱" : `${shown(c.style ?? "?").slice(0, 4)} ${points}${"★".repeat(c.stars ?? 0)}`;
  face.classList.toggle("wild", Boolean(c.wild));
  face.style.backgroundColor = c.wild ? "" : styleColour(c.style);
  $("card-heading").textContent = placement
    ? t("selected_card", { row: placement.row, col: placement.col })
    : t("card_to_place");
  $("card-summary").textContent = describe(card);
  for (const id of ["t-rotate", "t-move", "t-copy", "t-delete", "t-new"]) {
    $(id).disabled = !placement;
  }
  $("t-move").setAttribute("aria-pressed", String(state.moving));
  $("move-hint").hidden = !state.moving;
}

// "Green area" is written green_area (the service folds the Portuguese names itself), at
// most as long as the format allows (lower case may lengthen it).
const identifier = (text) => {
  const name = text.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return [...name].slice(0, LIMITS.text).join("");
};

// The card the form shows with `change` made (its fields and their values): only what was
// changed is changed, so a card's other fields (a name, a facility of its own, a field a
// pasted card lacks) stay as they are. A catalog id typed stands for the whole card; a
// wild card ticked is one; the printed fields of a wild card or a catalog id unticked or
// cleared are the start of an inline card.
function changed(change) {
  const card = currentCard();
  if ("id" in change) {
    if (change.id) return change.id;
    if (typeof card !== "string") return card;
  }
  if ("wild" in change && change.wild) return { wild: true };
  const printedCard = printed(card);
  const base = typeof card === "object" && !card.wild ? card : { ...newDraft(), ...printedCard };
  if (typeof card === "string" || card.wild) for (const k of ["id", "name", "unknown", "wild", "copies"]) delete base[k];
  const next = { ...base, ...change };
  delete next.id;
  delete next.wild;
  return next;
}

// The form's card put where it goes: into the selected card, or as the card to place. A
// card's style and type are the next card's too.
export function apply(change) {
  const card = changed(change);
  const placement = target();
  if (placement) {
    const { row, col } = placement;
    edit(() => {
      cardAt(row, col).card = card;
    });
    keepNames(card);
  } else {
    state.draft = card;
    notify("draft");
  }
}

function tool(name) {
  const placement = target();
  if (!placement) return;
  const { row, col } = placement;
  if (name === "rotate") {
    edit(() => {
      const p = cardAt(row, col);
      if (p.rotated) delete p.rotated;
      else p.rotated = true;
    });
  } else if (name === "move") {
    state.moving = !state.moving;
    notify("selection");
  } else if (name === "copy") {
    state.draft = structuredClone(placement.card);
    state.selected = null;
    notify("draft");
  } else if (name === "delete") {
    state.selected = null;
    edit((game) => {
      const city = game.players[state.player].city;
      city.splice(city.indexOf(cardAt(row, col)), 1);
    });
  } else if (name === "new") {
    state.selected = null;
    state.moving = false;
    notify("selection");
  }
}

export function setCatalog(catalog) {
  $("card-ids").replaceChildren(
    ...catalog.cards.map((card) => {
      const option = document.createElement("option");
      option.value = card.id;
      option.label = card.name || card.id;
      return option;
    }),
  );
  catalogNames = { style: catalog.styles || [], type: catalog.types || [] };
}

// A chip pressed: its field takes its value (a style or type chip empties "other").
function picked(group, value) {
  const field = group.slice(2);
  if (field === "style" || field === "type") $(`f-${field}`).value = "";
  const numeric = field === "points" || field === "stars";
  apply({ [field]: numeric ? whole(value, 0, LIMITS[field]) : value });
}

// What each field of the form changes when it is committed.
const FIELD_CHANGES = {
  "f-style": () => ({ style: identifier($("f-style").value) }),
  "f-type": () => ({ type: identifier($("f-type").value) }),
  "f-points": () => ({ points: whole($("f-points").value, 0, LIMITS.points) }),
  "f-wild": () => ({ wild: $("f-wild").checked }),
  "f-id": () => ({ id: $("f-id").value.trim() }),
};

export function attach() {
  for (const [id, change] of Object.entries(FIELD_CHANGES)) {
    $(id).addEventListener("change", () => {
      const made = change();
      if (made.style === "" || made.type === "") return; // an "other…" field emptied: nothing
      apply(made);
    });
  }
  for (const group of ["c-style", "c-type", "c-facility", "c-points", "c-stars"]) {
    $(group).addEventListener("click", (event) => {
      const chip = event.target.closest(".chip");
      if (chip && !chip.disabled) picked(group, chip.dataset.value);
    });
  }
  for (const side of ALL_SIDES) {
    $(`f-icon-${side}`).addEventListener("click", (event) => {
      const on = event.currentTarget.getAttribute("aria-pressed") === "true";
      const sides = printed(currentCard()).sides ?? [];
      apply({ sides: ALL_SIDES.filter((s) => (s === side ? !on : sides.includes(s))) });
    });
  }
  document.addEventListener("colours", fill);
  document.addEventListener("card-tool", (event) => {
    tool(event.detail);
    focusCursor();
  });
  for (const name of ["rotate", "move", "copy", "delete", "new"]) {
    $(`t-${name}`).addEventListener("click", () => tool(name));
  }
}
