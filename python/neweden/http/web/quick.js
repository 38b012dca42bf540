// The quick-entry line: one card a line, typed as it is read off the table, for example
// "g b lab 5 2 trb" (gothic, building, lab, 5 points, 2 stars, icons top, right, bottom).
// Each word is known by its form (docs/web.md, "Quick entry"):
//  - a number: the points, then a second number the stars (or stars as * after the points:
//    "5**");
//  - after a number, letters among t, r, b and l: the connection icons (top, right, bottom,
//    left; or c, d, b and e: cima, direita, baixo, esquerda);
//  - any other word: a name, typed in full or its first letters, in English or in the page's
//    language ("got", "gót", "con"); it goes to the first of style, type and facility that
//    has a name so begun and is not yet given (a name the box does not know goes to the
//    style, then the type, as the service folds it).
// What the line does not say comes from the card to place (the last card's style and type).
import { LIMITS } from "./check.js";
import { shown, t } from "./i18n.js";
import { newDraft } from "./state.js";

export const FACILITIES = ["lab", "shelter", "medical", "tower", "base"];
// The icons' letters, in English (top, right, bottom, left) and in Portuguese (cima,
// direita, baixo, esquerda).
const SIDE_OF = new Map([
  ["t", "top"], ["r", "right"], ["b", "bottom"], ["l", "left"],
  ["c", "top"], ["d", "right"], ["e", "left"],
]);
const SIDE_ORDER = ["top", "right", "bottom", "left"];
const SLOTS = ["style", "type", "facility"];
// What the format takes as a name once folded (docs/format.md: an identifier).
const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
// The accents folding takes off (the Portuguese ones, as the service folds: RULES §1).
const ACCENTS = /[\u0301\u0300\u0302\u0303\u0308\u0327]/g;

// A name as the service folds it (Portuguese accents off, spaces around it trimmed, lower
// case, inner spaces and hyphens made _): to compare what is typed with a name, and the
// name a new one is stored as.
export const fold = (text) =>
  text.normalize("NFD").replace(ACCENTS, "").normalize("NFC").trim().toLowerCase().replace(/[ -]/g, "_");

// The words a name is known by: itself, as the page's language shows it, and for a
// facility as the card form names it ("Research lab", "Laboratório de Pesquisa").
const forms = (slot, name) => {
  const known = [name, shown(name)];
  if (slot === "facility") known.push(t("facility_" + name));
  return known.map(fold);
};

// The name of slot `slot` (style, type or facility) among `names` that a typed word stands
// for: the same name (or known by the same words), else the first so begun; null when none.
export function named(word, slot, names) {
  const typed = fold(word);
  const known = names.map((name) => [name, forms(slot, name)]);
  const same = known.find(([, words]) => words.includes(typed));
  if (same) return same[0];
  const begun = known.find(([, words]) => words.some((w) => w.startsWith(typed)));
  return begun ? begun[0] : null;
}

// The icons a word gives after a number ([] when it is no such word); null when it names
// a side twice ("tt", "tc").
function icons(word) {
  if (!/^[trblcde]{1,4}$/.test(word)) return [];
  const sides = [...word].map((c) => SIDE_OF.get(c));
  return new Set(sides).size === sides.length ? SIDE_ORDER.filter((s) => sides.includes(s)) : null;
}

// What a line says of a card: {said: {style?, type?, facility?, points?, stars?, sides?}} or
// {error: the words that say what is wrong}. `names`: {style, type, facility} -> the names
// offered for each (the box's, the catalog's, the game's).
export function readLine(text, names) {
  const said = {};
  const numbers = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const counted = /^(\d{1,9})(\*{0,3})$/.exec(word);
    if (counted) {
      numbers.push(Number(counted[1]));
      if (counted[2]) numbers.push(counted[2].length);
      continue;
    }
    if (/^\*{1,3}$/.test(word) && numbers.length === 1) {
      numbers.push(word.length);
      continue;
    }
    const sides = numbers.length ? icons(word) : [];
    if (sides === null || (sides.length && said.sides)) return { error: t("quick_twice", { word }) };
    if (sides.length) {
      said.sides = sides;
      continue;
    }
    const slot = SLOTS.find((s) => !(s in said) && named(word, s, names[s]) !== null);
    if (slot) {
      said[slot] = named(word, slot, names[slot]);
      continue;
    }
    const open = ["style", "type"].find((s) => !(s in said));
    const name = fold(word);
    if (!IDENTIFIER.test(name) || [...name].length > LIMITS.text) {
      return { error: t("quick_unread", { word }) };
    }
    if (!open) return { error: t("quick_no_facility", { word }) };
    said[open] = name;
  }
  if (numbers.length > 2) return { error: t("quick_numbers") };
  if (numbers.length) said.points = numbers[0];
  if (numbers.length > 1) said.stars = numbers[1];
  if (said.points > LIMITS.points) return { error: t("quick_points", { max: LIMITS.points }) };
  if (said.stars > LIMITS.stars) return { error: t("quick_stars", { max: LIMITS.stars }) };
  return { said };
}

// The card a line makes: what it says over the card to place (`draft`; a wild card or a
// catalog id to place gives the new page's card to place: a line makes a printed card).
export function lineCard(said, draft) {
  const base = typeof draft === "object" && !draft.wild ? draft : newDraft();
  const card = { ...newDraft(), ...base };
  return { ...card, sides: [...card.sides], ...said };
}

// The name the last word of a line stands for, written whole and folded ("" when it stands
// for none, is an icon word after a number, or is whole already): what Tab puts in its
// place. The name as the page's language shows it when that is what was begun ("con" ->
// construcao).
export function completion(text, names) {
  const words = text.split(/\s+/);
  const last = words[words.length - 1];
  if (!last || !/^\p{L}/u.test(last)) return "";
  const read = readLine(words.slice(0, -1).join(" "), names);
  const before = read.said ?? {};
  if ("points" in before && icons(last)?.length) return "";
  const slot = SLOTS.find((s) => !(s in before) && named(last, s, names[s]) !== null);
  if (!slot) return "";
  const name = named(last, slot, names[slot]);
  const begun = forms(slot, name).find((w) => w.startsWith(fold(last)));
  const whole = begun === fold(name) || begun === undefined ? fold(name) : begun;
  return whole === last ? "" : whole;
}

// The line wired to the page: `names()` gives the names offered now; `draft()` the card to
// place; `put(row, col, card)` puts a card on a cell ("" or why not); `cursor` and `move`
// read and move the grid's cursor; `words(card)` tells a card; `taken(row, col)` whether a
// card is on a cell. Enter puts the line's card on
// the cursor's cell and moves the cursor right; Shift+Enter moves it to the next row, under
// the first card of this one; an empty line and Enter skips a cell; Alt and an arrow moves
// the cursor; Tab completes a name.
export function attach({ names, draft, put, cursor, move, words, taken }) {
  const line = document.getElementById("quick");
  const status = document.getElementById("quick-status");
  let rowStart = null; // the column Shift+Enter goes back to
  const where = () => {
    const at = cursor();
    return t(taken(at.row, at.col) ? "quick_replaces" : "quick_where", at);
  };
  const preview = () => {
    const text = line.value.trim();
    if (!text) {
      status.textContent = where();
      return null;
    }
    const read = readLine(text, names());
    if (read.error) {
      status.textContent = read.error;
      return null;
    }
    const card = lineCard(read.said, draft());
    const icons = card.sides.map((side) => t("side_" + side).toLowerCase()).join(", ");
    status.textContent = `${words(card)}; ${t("quick_icons", { icons: icons || "-" })} · ${where()}`;
    return card;
  };
  line.addEventListener("focus", () => {
    rowStart = cursor().col;
    preview();
  });
  line.addEventListener("input", preview);
  line.addEventListener("keydown", (event) => {
    const at = cursor();
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (step && event.altKey) {
      event.preventDefault();
      move(at.row + step[0], at.col + step[1]);
      // another row begins where the cursor is; a row begins further left if it goes there
      const col = cursor().col;
      rowStart = step[0] || rowStart === null ? col : Math.min(rowStart, col);
      preview();
    } else if (event.key === "Tab" && !event.shiftKey && line.value.trim()) {
      const whole = completion(line.value, names());
      if (!whole) return;
      event.preventDefault();
      line.value = line.value.replace(/\S*$/, whole + " ");
      preview();
    } else if (event.key === "Enter") {
      event.preventDefault();
      const card = line.value.trim() ? preview() : "skip";
      if (card === null) return; // the line says what is wrong
      if (card !== "skip") {
        const refused = put(at.row, at.col, card);
        if (refused) {
          status.textContent = refused;
          return;
        }
        line.value = "";
      }
      if (event.shiftKey) move(at.row + 1, rowStart ?? at.col);
      else move(at.row, at.col + 1);
      preview();
    }
  });
}
