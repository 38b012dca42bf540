// A player's city as a grid that grows as cards are placed: click or tap a cell, or move
// with the arrow keys and press Enter. An empty cell gets the card being placed; a card is
// selected (then rotated, moved, copied, deleted from the card's tools). Each cell finds its
// card in an index of the city made once a drawing (a scan of the city for each cell was
// 26,000 scans of 53,000 cards), and the city is within check.js's limits before it is drawn.
import { LIMITS, MAX_SPREAD, spread } from "./check.js";
import { num, shown, t, tn } from "./i18n.js";
import { ALL_SIDES, cardAt, currentPlayer, edit, notify, state } from "./state.js";
import { askColours, styleColour } from "./colours.js";
import { rulers } from "./zoom.js";

const TURNED = new Map([["top", "bottom"], ["bottom", "top"], ["left", "right"], ["right", "left"]]);
const FACILITIES = new Set(["lab", "shelter", "medical", "tower", "base"]);
let catalogCards = new Map();
let grid;

export function setCatalog(catalog) {
  catalogCards = new Map(catalog.cards.map((card) => [card.id, card]));
}

// The card's printed fields, whether given inline or by catalog id.
export function printed(card) {
  if (typeof card === "string") return catalogCards.get(card) || { id: card, unknown: true };
  if (card.wild) return { ...card, sides: ALL_SIDES };
  return card;
}

function sidesAsPlaced(placement) {
  const sides = printed(placement.card).sides || [];
  return placement.rotated ? sides.map((s) => TURNED.get(s)) : sides;
}

export function describe(card) {
  const c = printed(card);
  if (typeof card === "string") return c.name ? `${card} (${c.name})` : card;
  if (c.wild) return t("wild_card");
  const named = FACILITIES.has(c.facility) ? t("facility_" + c.facility) : c.facility;
  const facility = c.facility ? `, ${named}` : "";
  return t("card_words", {
    style: shown(c.style ?? "?"),
    type: shown(c.type ?? "?"),
    points: tn("points_count", c.points ?? 0),
    stars: tn("stars_count", c.stars ?? 0),
  }) + facility;
}

function bounds(city) {
  if (!city.length) return { top: 0, left: 0, bottom: 0, right: 0 };
  const rows = city.map((p) => p.row);
  const cols = city.map((p) => p.col);
  return {
    top: Math.min(...rows) - 1,
    bottom: Math.max(...rows) + 1,
    left: Math.min(...cols) - 1,
    right: Math.max(...cols) + 1,
  };
}

function cardCell(button, placement) {
  const c = printed(placement.card);
  button.classList.add("card");
  if (c.wild || !c.style) button.classList.add("wild");
  else button.style.backgroundColor = styleColour(c.style);
  for (const side of sidesAsPlaced(placement)) button.classList.add(`icon-${side}`);
  if (placement.rotated) button.classList.add("rotated");
  const top = document.createElement("span");
  top.className = "style";
  top.textContent = c.wild ? "✱" : typeof placement.card === "string" ? placement.card : shown(c.style ?? "?").slice(0, 4);
  const points = document.createElement("span");
  points.className = "points";
  points.textContent = c.unknown ? "?" : `${c.points ?? 0}${"★".repeat(c.stars ?? 0)}`;
  const facility = document.createElement("span");
  facility.className = "facility";
  const known = FACILITIES.has(c.facility);
  facility.textContent = known ? t("facility_short_" + c.facility) : c.facility ? "?" : "";
  button.append(top, points, facility);
  const rotated = placement.rotated ? `, ${t("rotated")}` : "";
  button.setAttribute(
    "aria-label",
    t("cell_card", { row: placement.row, col: placement.col, card: describe(placement.card) }) +
      rotated,
  );
}

// The grid drawn again where it stands: while its bounds are the same, each cell keeps its
// element and is only redrawn, so a click whose press made the grid redraw (a field
// committed as it loses the focus, the legal cells arriving) still lands on its cell.
export function render(root) {
  grid = root;
  const player = currentPlayer();
  const cursor = clampCursor(player.city);
  const around = bounds(player.city); // the grid drawn: the cards, a cell around, the cursor
  const b = {
    top: Math.min(around.top, cursor.row),
    bottom: Math.max(around.bottom, cursor.row),
    left: Math.min(around.left, cursor.col),
    right: Math.max(around.right, cursor.col),
  };
  const hadFocus = root.contains(document.activeElement);
  const width = b.right - b.left + 1;
  const shape = `${b.top},${b.left},${b.bottom},${b.right}`;
  const kept = root.dataset.shape === shape && root.children.length === width * (b.bottom - b.top + 1);
  if (!kept) {
    root.replaceChildren();
    root.dataset.shape = shape;
    root.style.gridTemplateColumns = `repeat(${width}, calc(var(--cell) * var(--zoom)))`;
  }
  root.setAttribute("aria-label", t("grid_label", { name: player.name }));
  const problem = new Set(state.highlight.map(([r, c]) => `${r},${c}`));
  const cards = new Map(); // "row,col" -> the first card of the city there
  const styles = new Set();
  for (const p of player.city) {
    const key = `${p.row},${p.col}`;
    if (!cards.has(key)) cards.set(key, p);
    const style = printed(p.card).style;
    if (typeof style === "string") styles.add(style);
  }
  askColours(styles);
  let k = 0;
  for (let row = b.top; row <= b.bottom; row++) {
    for (let col = b.left; col <= b.right; col++) {
      const button = kept ? root.children[k] : document.createElement("button");
      k += 1;
      if (kept) {
        button.replaceChildren();
        button.removeAttribute("aria-pressed");
        button.style.backgroundColor = "";
      }
      button.type = "button";
      button.className = "cell";
      button.dataset.row = row;
      button.dataset.col = col;
      const here = row === cursor.row && col === cursor.col;
      button.tabIndex = here ? 0 : -1;
      if (here) button.classList.add("cursor");
      const placement = cards.get(`${row},${col}`);
      if (placement) {
        cardCell(button, placement);
        const sel = state.selected;
        if (sel && sel.row === row && sel.col === col) {
          button.classList.add("selected");
          button.setAttribute("aria-pressed", "true");
        }
      } else {
        const legal = state.legal.get(`${row},${col}`);
        if (legal) button.classList.add(legal === "rotated" ? "legal-rotated" : "legal");
        button.textContent = "+";
        const words = legal ? t("cell_legal", { row, col }) : t("cell_empty", { row, col });
        button.setAttribute("aria-label", words);
      }
      if (problem.has(`${row},${col}`)) button.classList.add("problem");
      if (!kept) root.append(button);
    }
  }
  rulers(b);
  if (hadFocus) focusCursor();
}

// The cursor (the cell Enter or the quick-entry line puts a card on) moved to (row, col),
// a cell drawn or not (the grid grows around the cards).
export function moveCursor(row, col) {
  state.cursor = { row, col };
  const { row: r, col: c } = clampCursor(currentPlayer().city);
  const cell = grid?.querySelector(`[data-row="${r}"][data-col="${c}"]`);
  if (!cell) {
    if (grid) render(grid); // a cell not drawn yet: the grid grows to it
    return;
  }
  for (const cell of grid?.querySelectorAll(".cell.cursor, .cell[tabindex='0']") ?? []) {
    cell.classList.remove("cursor");
    cell.tabIndex = -1;
  }
  cell.classList.add("cursor");
  cell.tabIndex = 0;
}

// The cursor kept within two cells of the city's cards (one cell of a row may be skipped
// by the quick-entry line), on the first cell of an empty city.
function clampCursor(city) {
  const b = bounds(city);
  const margin = city.length ? 1 : 0;
  const { cursor } = state;
  cursor.row = Math.min(Math.max(cursor.row, b.top - margin), b.bottom + margin);
  cursor.col = Math.min(Math.max(cursor.col, b.left - margin), b.right + margin);
  return cursor;
}

export function focusCursor() {
  const { row, col } = state.cursor;
  grid?.querySelector(`[data-row="${row}"][data-col="${col}"]`)?.focus();
}

// Why a card cannot go to the empty cell (row, col), "" when it can: the page never makes a
// game it would refuse to open again (check.js).
function noRoom(row, col, moving) {
  const city = currentPlayer().city;
  if (!moving && city.length >= LIMITS.cards) return t("city_full", { n: LIMITS.cards });
  const c = LIMITS.coordinate;
  const after = [...city.filter((p) => p !== moving), { row, col }];
  if (Math.abs(row) <= c && Math.abs(col) <= c && spread(after) <= MAX_SPREAD) return "";
  return t("too_far", { min: num(-c), max: num(c), n: MAX_SPREAD });
}

function choose(row, col) {
  state.cursor = { row, col };
  const placement = cardAt(row, col);
  const sel = state.selected;
  const moving = state.moving && sel ? cardAt(sel.row, sel.col) : null;
  const refused = placement ? "" : noRoom(row, col, moving);
  document.getElementById("grid-status").textContent = refused;
  if (refused) {
    focusCursor();
    return;
  }
  if (placement) {
    state.moving = false;
    const same = sel && sel.row === row && sel.col === col;
    state.selected = same ? null : { row, col };
    notify("selection");
  } else if (state.moving && sel) {
    edit(() => {
      const moved = cardAt(sel.row, sel.col);
      moved.row = row;
      moved.col = col;
    });
    state.moving = false;
    state.selected = { row, col };
    notify("selection");
  } else {
    place(row, col, state.draft);
  }
  focusCursor();
}

// `card` placed on the empty cell (row, col) and selected, to be edited in place.
function place(row, col, card) {
  state.selected = { row, col };
  state.moving = false;
  edit((game) => {
    game.players[state.player].city.push({ row, col, card: structuredClone(card) });
  });
}

// `card` put on the cell (row, col) by the quick-entry line: placed on an empty cell, or in
// place of the card there. Returns why it cannot go there ("" when it went).
export function putCard(row, col, card) {
  state.cursor = { row, col };
  const there = cardAt(row, col);
  if (there) {
    state.selected = { row, col };
    state.moving = false;
    edit(() => {
      there.card = structuredClone(card);
    });
    return "";
  }
  const refused = noRoom(row, col, null);
  if (!refused) place(row, col, card);
  return refused;
}

// Keys for the selected card's tools (cardform.js does them).
const TOOL_KEYS = new Map([
  ["r", "rotate"], ["m", "move"], ["c", "copy"],
  ["Delete", "delete"], ["Backspace", "delete"], ["Escape", "new"],
]);

const STEPS = new Map([
  ["ArrowUp", [-1, 0]], ["ArrowDown", [1, 0]], ["ArrowLeft", [0, -1]], ["ArrowRight", [0, 1]],
]);

export function attach(root) {
  document.addEventListener("colours", () => render(root));
  root.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (cell) choose(Number(cell.dataset.row), Number(cell.dataset.col));
  });
  root.addEventListener("keydown", (event) => {
    const tool = TOOL_KEYS.get(event.key);
    if (tool && state.selected && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      root.dispatchEvent(new CustomEvent("card-tool", { bubbles: true, detail: tool }));
      return;
    }
    const step = STEPS.get(event.key);
    if (!step) return;
    event.preventDefault();
    const next = root.querySelector(
      `[data-row="${state.cursor.row + step[0]}"][data-col="${state.cursor.col + step[1]}"]`,
    );
    if (!next) return;
    moveCursor(Number(next.dataset.row), Number(next.dataset.col));
    next.focus();
  });
}
