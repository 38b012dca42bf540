// The page's words: the server's gettext catalog (GET /web/messages.json?lang=), never a
// dictionary of its own; kept in Maps, where a key made from a game's data ("constructor",
// "__proto__") finds nothing but itself. Elements say which message they show with data-t
// (text), data-t-label (aria-label), data-t-title (title) and data-t-ph (placeholder).
let current = "en";
let messages = new Map();
let plurals = new Map(); // key -> [the form for one, the form for more]
let names = new Map();
let languages = [];
let modes = [];

export function lang() {
  return current;
}

// The languages the server speaks (its message catalogs) and the game modes (its modes'
// table), each with its name in the current language: [{tag, name}], [{id, name}].
export function languageChoices() {
  return languages;
}

export function modeChoices() {
  return modes;
}

// A page's language menu (the <select> `select`): the languages the server speaks, the
// current one chosen; a choice is remembered on the device and reloads the page in it.
export function languageMenu(select) {
  const option = (l) => Object.assign(document.createElement("option"), { value: l.tag, textContent: l.name });
  select.replaceChildren(...languages.map(option));
  select.value = current;
  select.addEventListener("change", () => {
    remember(select.value);
    location.search = `?lang=${encodeURIComponent(select.value)}`;
  });
}

// Whether a game mode scores the requirement cards (`populist`) or D5 (`military`), as the
// server's modes' table says (an unknown mode: neither).
export function modeScores(mode, part) {
  return Boolean(modes.find((m) => m.id === mode)?.[part]);
}

// ?lang= first, then the choice made on the page; none: the server chooses from the
// browser's languages (its Accept-Language).
export function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked) return asked;
  try {
    return localStorage.getItem("neweden.lang");
  } catch {
    return null; // the browser keeps no site data: the server chooses
  }
}

// The language chosen, kept on the device where the browser lets it (the address says it
// too: a page where storage is off or full still speaks it).
export function remember(tag) {
  try {
    localStorage.setItem("neweden.lang", tag);
  } catch {
    // (storage off or full: nothing else to do)
  }
}

let loads = 0; // the loads asked for: one outrun by a newer one changes nothing

// The page's words in `tag`, or in the language the server chooses from the browser's
// (its Accept-Language) when `tag` is none of the languages it lists; false (nothing
// changed) when a newer load was asked for meanwhile.
export async function load(tag) {
  const mine = ++loads;
  let answer = await messagesIn(tag && spoken(tag, languages));
  const wanted = tag && spoken(tag, answer.languages);
  if (wanted && wanted !== answer.lang) answer = await messagesIn(wanted);
  if (mine !== loads) return false;
  current = answer.lang;
  messages = new Map(Object.entries(answer.messages));
  plurals = new Map(Object.entries(answer.plurals ?? {}));
  names = new Map(Object.entries(answer.names));
  languages = answer.languages;
  modes = answer.modes;
  document.documentElement.lang = current;
  return true;
}

async function messagesIn(tag) {
  const query = tag ? `?lang=${encodeURIComponent(tag)}` : "";
  const response = await fetch(`/web/messages.json${query}`);
  if (!response.ok) throw new Error(`/web/messages.json: ${response.status}`);
  return response.json();
}

// The language of `listed` a tag names: the same tag, else the first of its primary language.
function spoken(tag, listed) {
  const lower = tag.toLowerCase().replace("_", "-");
  const primary = lower.split("-")[0];
  const same = listed.filter((l) => l.tag.toLowerCase().split("-")[0] === primary);
  return (same.find((l) => l.tag.toLowerCase() === lower) ?? same[0])?.tag;
}

// The message `key`, its {placeholders} filled from `params`.
export function t(key, params = {}) {
  return fill(messages.get(key) ?? key, params);
}

// The message `key` for the count `n` (its form for one or for more, as the language's
// plural rules say), `{n}` and the other placeholders filled.
export function tn(key, n, params = {}) {
  const forms = plurals.get(key);
  if (!forms) return key;
  const one = new Intl.PluralRules(current).select(n) === "one";
  return fill(forms[one ? 0 : 1], { ...params, n: num(n) });
}

const fill = (text, params) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? params[name] : whole));

export function apply(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-label]")) {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
  }
  for (const el of root.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
  for (const el of root.querySelectorAll("[data-t-ph]")) el.placeholder = t(el.dataset.tPh);
  document.title = t("page_title");
}

// A style, type or facility of the box as the picture shows it (the manual's words in
// Portuguese); any other name as it is.
export function shown(name) {
  return names.get(name) ?? name;
}

// A number as the page's language writes it.
export function num(n) {
  return new Intl.NumberFormat(current).format(n);
}
