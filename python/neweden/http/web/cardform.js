// The compact card form: the card being placed, or the selected card of the city (its
// changes apply at once, undoably). A catalog id, when given, stands for the whole card.
import { LIMITS, whole } from "./check.js";
import { describe, focusCursor, printed } from "./grid.js";
import { shown, t } from "./i18n.js";
import { ALL_SIDES, cardAt, edit, notify, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const FIELDS = ["f-style", "f-type", "f-facility", "f-points", "f-stars", "f-wild"];

function target() {
  const sel = state.selected;
  return sel ? cardAt(sel.row, sel.col) : null;
}

function currentCard() {
  return target()?.card ?? state.draft;
}

export function fill() {
  const placement = target();
  const card = currentCard();
  const byId = typeof card === "string";
  const c = printed(card);
  $("f-id").value = byId ? card : "";
  $("f-style").value = c.style ?? "";
  $("f-type").value = c.type ?? "";
  $("f-facility").value = c.facility ?? "shelter";
  $("f-points").value = c.points ?? 0;
  $("f-stars").value = String(c.stars ?? 0);
  $("f-wild").checked = Boolean(c.wild);
  for (const id of FIELDS) $(id).disabled = byId || (c.wild && id !== "f-wild");
  for (const side of ALL_SIDES) {
    const toggle = $(`f-icon-${side}`);
    toggle.setAttribute("aria-pressed", String((c.sides || []).includes(side)));
    toggle.disabled = byId || Boolean(c.wild);
  }
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

function cardFromFields() {
  const id = $("f-id").value.trim();
  if (id) return id;
  if ($("f-wild").checked) return { wild: true };
  const card = {
    style: identifier($("f-style").value),
    type: identifier($("f-type").value),
    facility: $("f-facility").value,
    points: whole($("f-points").value, 0, LIMITS.points),
    stars: whole($("f-stars").value, 0, LIMITS.stars),
    sides: ALL_SIDES.filter((s) => $(`f-icon-${s}`).getAttribute("aria-pressed") === "true"),
  };
  return card;
}

function apply() {
  const card = cardFromFields();
  const placement = target();
  if (placement) {
    const { row, col } = placement;
    edit(() => {
      cardAt(row, col).card = card;
    });
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
  const ids = $("card-ids");
  ids.replaceChildren(
    ...catalog.cards.map((card) => {
      const option = document.createElement("option");
      option.value = card.id;
      option.label = card.name || card.id;
      return option;
    }),
  );
  const styles = new Set(["gothic", "futurist", "renaissance", "sustainable", ...(catalog.styles || [])]);
  const types = new Set(["building", "green_area", ...(catalog.types || [])]);
  for (const [list, names] of [["styles", styles], ["types", types]]) {
    $(list).replaceChildren(
      ...[...names].map((name) =>
        Object.assign(document.createElement("option"), { value: name, label: shown(name) }),
      ),
    );
  }
}

export function attach() {
  for (const id of [...FIELDS, "f-id"]) $(id).addEventListener("change", apply);
  for (const side of ALL_SIDES) {
    $(`f-icon-${side}`).addEventListener("click", (event) => {
      const button = event.currentTarget;
      const on = button.getAttribute("aria-pressed") === "true";
      button.setAttribute("aria-pressed", String(!on));
      apply();
    });
  }
  document.addEventListener("card-tool", (event) => {
    tool(event.detail);
    focusCursor();
  });
  for (const name of ["rotate", "move", "copy", "delete", "new"]) {
    $(`t-${name}`).addEventListener("click", () => tool(name));
  }
}
