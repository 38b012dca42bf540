// The page's words: the server's gettext catalog (GET /web/messages.json?lang=), never a
// dictionary of its own; kept in Maps, where a key made from a game's data ("constructor",
// "__proto__") finds nothing but itself. Elements say which message they show with data-t
// (text), data-t-label (aria-label), data-t-title (title) and data-t-ph (placeholder).
export const LANGUAGES = ["en", "pt-BR"];
let current = "en";
let messages = new Map();
let names = new Map();

export function lang() {
  return current;
}

// ?lang= first, then the choice made on the page, then the browser's languages.
export function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const saved = localStorage.getItem("neweden.lang");
  for (const tag of [asked, saved, ...(navigator.languages || [])]) {
    if (!tag) continue;
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (primary === "pt") return "pt-BR";
    if (primary === "en") return "en";
  }
  return "en";
}

export async function load(tag) {
  const response = await fetch(`/web/messages.json?lang=${encodeURIComponent(tag)}`);
  const answer = await response.json();
  current = answer.lang;
  messages = new Map(Object.entries(answer.messages));
  names = new Map(Object.entries(answer.names));
  document.documentElement.lang = current;
}

// The message `key`, its {placeholders} filled from `params`.
export function t(key, params = {}) {
  const text = messages.get(key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? params[name] : whole));
}

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
