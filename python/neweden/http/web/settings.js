// The game's settings (mode, requirements, first player, meta), its players (add, rename,
// reorder, remove) and each player's epiphanies and bonuses.
import { LIMITS, whole } from "./check.js";
import { modeScores, t } from "./i18n.js";
import { currentPlayer, edit, newGame, notify, state } from "./state.js";
import { fitTable, ID, renderRequirements } from "./tablecards.js";
import { $, el } from "./dom.js";

const KNOWN_EFFECTS = ["third_star", "rotate", "move"];
let effects = [...KNOWN_EFFECTS];

export function setCatalog(catalog) {
  effects = [...new Set([...effects, ...catalog.effects])];
}

function labelled(text, control) {
  return el("label", {}, el("span", { textContent: text }), control);
}

function select(options, value, onChange) {
  const node = el(
    "select",
    {},
    ...options.map(([v, text]) => el("option", { value: v, textContent: text, selected: v === value })),
  );
  node.addEventListener("change", () => onChange(node.value));
  return node;
}

export function renderSettings() {
  const game = state.game;
  $("s-mode").value = game.mode;
  renderRequirements();
  const first = $("s-first");
  first.replaceChildren(
    el("option", { value: "", textContent: t("nobody") }),
    ...game.players.map((p) => el("option", { value: p.name, textContent: p.name })),
  );
  first.value = game.first_player ?? "";
  $("s-table").value = game.meta?.table ?? "";
  $("s-photo").value = game.meta?.photo ?? "";
}

function setMeta(key, value) {
  edit((g) => {
    g.meta ??= {};
    if (value) g.meta[key] = value;
    else delete g.meta[key];
    if (!Object.keys(g.meta).length) delete g.meta;
  });
}

export function renderPlayers() {
  const game = state.game;
  const tabs = $("player-tabs");
  tabs.replaceChildren(
    ...game.players.map((p, i) => {
      const tab = el("button", { type: "button", role: "tab", textContent: p.name || "?" });
      tab.setAttribute("aria-selected", String(i === state.player));
      tab.tabIndex = i === state.player ? 0 : -1;
      tab.addEventListener("click", () => {
        state.player = i;
        state.selected = null;
        state.highlight = [];
        notify("player");
      });
      return tab;
    }),
  );
  $("p-add").disabled = game.players.length >= LIMITS.players;
  $("p-remove").disabled = game.players.length <= 1;
  $("p-up").disabled = state.player === 0;
  $("p-down").disabled = state.player === game.players.length - 1;
  $("p-name").value = currentPlayer().name;
  renderEpiphanies();
  renderBonuses();
}

function renderEpiphanies() {
  const player = currentPlayer();
  $("e-add").disabled = player.epiphanies.length >= LIMITS.epiphanies;
  $("epiphanies").replaceChildren(
    ...player.epiphanies.map((e, i) => {
      const change = (fn) => edit((g) => fn(g.players[state.player].epiphanies[i]));
      const byCard = typeof e.card === "string";
      const points = select([["2", "2"], ["5", "5"]], String(e.points ?? 2), (v) =>
        change((x) => (x.points = Number(v))),
      );
      const stateSelect = select(
        ["held", "validated", "activated"].map((s) => [s, t("state_" + s)]),
        e.state,
        (v) => change((x) => (x.state = v)),
      );
      const effect = select(
        [["", t("no_effect")], ...effects.map((x) => [x, KNOWN_EFFECTS.includes(x) ? t("effect_" + x) : x])],
        e.effect ?? "",
        (v) => change((x) => (v ? (x.effect = v) : delete x.effect)),
      );
      const card = el("input", { value: e.card ?? "", size: 6, maxLength: LIMITS.text });
      card.setAttribute("list", "epiphany-ids");
      card.addEventListener("change", () => {
        const id = card.value.trim();
        const wrong = id && !ID.test(id) ? t("not_an_id", { id }) : "";
        card.setCustomValidity(wrong); // (said where it was typed; the id before is kept)
        if (wrong) {
          card.reportValidity();
          card.value = e.card ?? "";
          return;
        }
        change((x) => {
          if (id) {
            x.card = id;
            delete x.points;
            delete x.effect;
          } else {
            delete x.card;
            x.points = 2;
          }
        });
      });
      points.disabled = byCard;
      effect.disabled = byCard;
      const remove = el("button", { type: "button", textContent: "✕" });
      remove.setAttribute("aria-label", t("remove_epiphany"));
      remove.addEventListener("click", () => edit((g) => g.players[state.player].epiphanies.splice(i, 1)));
      return el(
        "li",
        { className: "row" },
        labelled(t("points"), points),
        labelled(t("state"), stateSelect),
        labelled(t("effect"), effect),
        labelled(t("catalog_id"), card),
        remove,
      );
    }),
  );
}

function renderBonuses() {
  const player = currentPlayer();
  $("b-add").disabled = player.bonuses.length >= LIMITS.bonuses;
  $("bonuses").replaceChildren(
    ...player.bonuses.map((b, i) => {
      const change = (fn) => edit((g) => fn(g.players[state.player].bonuses[i]));
      const name = el("input", { value: b.name, maxLength: LIMITS.text });
      name.addEventListener("change", () => {
        if (!name.value.trim()) name.value = b.name; // a bonus needs a name: the one before kept
        else change((x) => (x.name = name.value));
      });
      const most = LIMITS.bonusPoints;
      const points = el("input", { type: "number", value: b.points, className: "narrow" });
      Object.assign(points, { min: -most, max: most });
      points.addEventListener("change", () => change((x) => (x.points = whole(points.value, -most, most))));
      const remove = el("button", { type: "button", textContent: "✕" });
      remove.setAttribute("aria-label", t("remove_bonus"));
      remove.addEventListener("click", () => edit((g) => g.players[state.player].bonuses.splice(i, 1)));
      return el("li", { className: "row" }, labelled(t("bonus_name"), name), labelled(t("points"), points), remove);
    }),
  );
}

const TAB_STEPS = new Map([["ArrowLeft", -1], ["ArrowRight", 1], ["Home", -99], ["End", 99]]);

function movePlayer(step) {
  const from = state.player;
  const to = from + step;
  edit((g) => g.players.splice(to, 0, ...g.players.splice(from, 1)));
  state.player = to;
  notify("player");
}

export function attach() {
  $("s-mode").addEventListener("change", (e) =>
    edit((g) => {
      g.mode = e.target.value;
      fitTable(g);
      // (a mode with stars needs its requirement cards: a game without them, once military,
      // plays those a new game plays, not a game the service refuses)
      if (modeScores(g.mode, "populist") && !Array.isArray(g.requirements)) {
        g.requirements = newGame("").requirements;
      }
    }),
  );
  $("s-first").addEventListener("change", (e) =>
    edit((g) => (e.target.value ? (g.first_player = e.target.value) : delete g.first_player)),
  );
  $("s-table").addEventListener("change", (e) => setMeta("table", e.target.value.trim()));
  $("s-photo").addEventListener("change", (e) => setMeta("photo", e.target.value.trim()));
  $("p-name").addEventListener("change", (e) => {
    const old = currentPlayer().name;
    if (!e.target.value.trim()) {
      e.target.value = old; // a player needs a name: the one before is kept
      return;
    }
    edit((g) => {
      g.players[state.player].name = e.target.value;
      if (g.first_player === old) g.first_player = e.target.value;
    });
  });
  $("p-add").addEventListener("click", () => {
    edit((g) => {
      const taken = new Set(g.players.map((p) => p.name));
      let n = g.players.length + 1;
      while (taken.has(t("player_n", { n }))) n += 1; // (a name no player has)
      g.players.push({ name: t("player_n", { n }), city: [], epiphanies: [], bonuses: [] });
      fitTable(g);
    });
    state.player = state.game.players.length - 1;
    state.selected = null;
    notify("player");
  });
  $("p-remove").addEventListener("click", () => {
    const gone = state.player;
    state.player = Math.max(0, gone - 1);
    state.selected = null;
    edit((g) => {
      const [removed] = g.players.splice(gone, 1);
      if (g.first_player === removed.name) delete g.first_player;
      fitTable(g);
    });
  });
  $("player-tabs").addEventListener("keydown", (event) => {
    const step = TAB_STEPS.get(event.key);
    if (!step) return;
    event.preventDefault();
    const last = state.game.players.length - 1;
    state.player = Math.min(Math.max(state.player + step, 0), last);
    state.selected = null;
    notify("player");
    $("player-tabs").querySelector('[aria-selected="true"]')?.focus();
  });
  $("p-up").addEventListener("click", () => movePlayer(-1));
  $("p-down").addEventListener("click", () => movePlayer(1));
  $("e-add").addEventListener("click", () =>
    edit((g) => g.players[state.player].epiphanies.push({ state: "validated", points: 2 })),
  );
  $("b-add").addEventListener("click", () =>
    edit((g) => g.players[state.player].bonuses.push({ name: t("bonus"), points: 1 })),
  );
}
