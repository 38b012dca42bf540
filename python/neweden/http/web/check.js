// What the page can draw: a game of the format's shape, every number, text and list within
// the format's own limits (docs/format.md, `neweden schema`), checked before anything is
// drawn, for a share link, a paste, a file and the game saved in this browser alike. The
// first thing wrong is said, with where (player 2, card 3). Names the format does not know
// (a style, a facility, a mode), a card missing a field and everything across cards are the
// API's to say, as problems: such a game is drawn.
import { num, t } from "./i18n.js";

export const LIMITS = {
  players: 4,
  cards: 77,
  coordinate: 1000,
  text: 100,
  points: 1000,
  stars: 3,
  bonusPoints: 1000,
  epiphanies: 40,
  bonuses: 20,
  schemaLink: 2000,
  requirements: 100, // the page's: a table plays three (the format sets no limit)
};
// The rows or columns a city may spread over on the page (a connected city of 77 cards
// spreads over 77 at most): the grid draws every cell between its cards.
export const MAX_SPREAD = 160;
const SIDES = new Set(["top", "right", "bottom", "left"]);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isWhole = (v, min, max) => Number.isInteger(v) && v >= min && v <= max;

// A text of at most `max` characters as the format counts them (code points), without
// copying a long one.
function isText(v, max = LIMITS.text) {
  if (typeof v !== "string") return false;
  if (v.length <= max) return true;
  if (v.length > 2 * max) return false;
  let count = 0;
  for (const _ of v) if (++count > max) return false;
  return true;
}

// The rows or columns `city` spreads over (a loop: no spread of a long list into a call).
export function spread(city) {
  if (!city.length) return 0;
  let [top, bottom, left, right] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const { row, col } of city) {
    [top, bottom] = [Math.min(top, row), Math.max(bottom, row)];
    [left, right] = [Math.min(left, col), Math.max(right, col)];
  }
  return Math.max(bottom - top, right - left) + 1;
}

const number = (where, field, min, max) =>
  t("must_be_number", { where, field, min: num(min), max: num(max) });
const text = (where, field, max = LIMITS.text) => t("must_be_text", { where, field, max: num(max) });
const list = (where, field, items, max) =>
  !Array.isArray(items)
    ? t("must_be_list", { where, field })
    : items.length > max
      ? t("too_many", { where, field, count: num(items.length), max: num(max) })
      : "";

// `fields` of `value` that are given and not what `ok` says: the first one's message.
function optional(value, fields, ok, say) {
  const wrong = fields.find((f) => Object.hasOwn(value, f) && !ok(value[f]));
  return wrong === undefined ? "" : say(wrong);
}

function cardProblem(card, where) {
  if (typeof card === "string") return isText(card) ? "" : text(where, "card");
  if (!isObject(card)) return t("must_be_card", { where });
  const { points, stars } = LIMITS;
  return (
    optional(card, ["style", "type", "facility", "name"], isText, (f) => text(where, f)) ||
    optional(card, ["points"], (v) => isWhole(v, 0, points), (f) => number(where, f, 0, points)) ||
    optional(card, ["stars"], (v) => isWhole(v, 0, stars), (f) => number(where, f, 0, stars)) ||
    optional(card, ["sides"], goodSides, () => t("bad_sides", { where }))
  );
}

// Distinct sides among the four (none is drawn; the API says a card needs one).
const goodSides = (sides) =>
  Array.isArray(sides) &&
  sides.length <= 4 &&
  sides.every((s) => SIDES.has(s)) &&
  new Set(sides).size === sides.length;

function placementProblem(entry, where) {
  if (!isObject(entry)) return t("not_an_object", { what: where });
  const c = LIMITS.coordinate;
  for (const f of ["row", "col"]) if (!isWhole(entry[f], -c, c)) return number(where, f, -c, c);
  const boolean = (v) => typeof v === "boolean";
  return (
    optional(entry, ["rotated"], boolean, (f) => t("must_be_boolean", { where, field: f })) ||
    cardProblem(entry.card, where)
  );
}

function playerProblem(player, n) {
  const where = t("where_player", { n });
  if (!isObject(player)) return t("not_an_object", { what: where });
  const lists = [
    ["city", LIMITS.cards],
    ["epiphanies", LIMITS.epiphanies],
    ["bonuses", LIMITS.bonuses],
    ["requirements_met", LIMITS.requirements],
  ];
  const problem =
    optional(player, ["name"], isText, (f) => text(where, f)) ||
    lists.map(([f, max]) => (player[f] === undefined ? "" : list(where, f, player[f], max))).find(Boolean);
  if (problem) return problem;
  for (const [k, entry] of (player.city ?? []).entries()) {
    const found = placementProblem(entry, t("where_card", { n, k: k + 1 }));
    if (found) return found;
  }
  for (const [k, e] of (player.epiphanies ?? []).entries()) {
    const at = t("where_epiphany", { n, k: k + 1 });
    const found = !isObject(e)
      ? t("not_an_object", { what: at })
      : optional(e, ["card", "effect"], isText, (f) => text(at, f));
    if (found) return found;
  }
  const b = LIMITS.bonusPoints;
  for (const [k, bonus] of (player.bonuses ?? []).entries()) {
    const at = t("where_bonus", { n, k: k + 1 });
    const found = !isObject(bonus)
      ? t("not_an_object", { what: at })
      : optional(bonus, ["name"], isText, (f) => text(at, f)) ||
        optional(bonus, ["points"], (v) => isWhole(v, -b, b), (f) => number(at, f, -b, b));
    if (found) return found;
  }
  if (spread(player.city ?? []) > MAX_SPREAD) return t("too_spread", { where, n: MAX_SPREAD });
  return "";
}

function requirementsProblem(ids, where) {
  if (ids === undefined) return "";
  const wrong = list(where, "requirements", ids, LIMITS.requirements);
  if (wrong) return wrong;
  const k = ids.findIndex((id) => !isText(id));
  return k < 0 ? "" : text(where, `requirements/${k}`);
}

// Why the page cannot draw `game` (its language's words), or "" when it can. Lists are
// measured before they are walked: 53,000 cards are refused at their count.
export function refusal(game) {
  if (!isObject(game) || !Array.isArray(game.players) || !game.players.length) return t("not_a_game");
  const where = t("where_game");
  const schema = LIMITS.schemaLink;
  const problem =
    list(where, "players", game.players, LIMITS.players) ||
    requirementsProblem(game.requirements, where) ||
    optional(game, ["first_player"], isText, (f) => text(where, f)) ||
    optional(game, ["$schema"], (v) => isText(v, schema), (f) => text(where, f, schema)) ||
    optional(game, ["meta"], isObject, () => t("not_an_object", { what: "meta" }));
  if (problem) return problem;
  for (const [i, player] of game.players.entries()) {
    const found = playerProblem(player, i + 1);
    if (found) return found;
  }
  return "";
}

// A number typed in a field as the format takes it: whole, within its limits.
export const whole = (text, min, max) => Math.min(Math.max(Math.trunc(Number(text)) || 0, min), max);
