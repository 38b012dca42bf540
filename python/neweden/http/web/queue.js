// The queue of a folder under review (`neweden review DIR`, docs/review.md): every game with
// its verdict, the unreadable and the invalid first, filtered by a problem code or a file;
// a game opens in the editor with its photo beside it (/?review=ID).
import { fetchOk } from "./api.js";
import * as i18n from "./i18n.js";
import { t } from "./i18n.js";
import { $, el } from "./dom.js";

let queue = null;

function verdict(game) {
  if (game.valid === null) return ["unreadable", t("review_unreadable")];
  return game.valid ? ["valid", t("review_valid")] : ["invalid", t("review_invalid")];
}

function render() {
  const code = $("q-code").value;
  const file = $("q-file").value;
  const shown = queue.games.filter(
    (g) => (!code || g.codes.includes(code)) && (!file || g.file === file),
  );
  $("q-games").replaceChildren(
    ...shown.map((game) => {
      const [kind, words] = verdict(game);
      const link = el("a", { href: `/?review=${encodeURIComponent(game.id)}&lang=${i18n.lang()}`, textContent: game.id });
      const facts = [game.players.join(", "), game.codes.join(", ")].filter(Boolean).join(" · ");
      const item = el("li", { className: `game ${kind}` }, el("span", { className: "verdict", textContent: words }), link);
      if (facts) item.append(el("span", { className: "hint", textContent: facts }));
      if (game.saved) item.append(el("span", { className: "hint", textContent: t("review_saved") }));
      return item;
    }),
  );
  $("q-none").hidden = shown.length > 0;
}

function options(select, values, all) {
  const kept = select.value;
  select.replaceChildren(
    el("option", { value: "", textContent: all }),
    ...values.map((v) => el("option", { value: v, textContent: v })),
  );
  select.value = values.includes(kept) ? kept : "";
}

async function refresh() {
  try {
    queue = await (await fetchOk(`/v1/review/queue?lang=${i18n.lang()}`)).json();
  } catch (error) {
    $("q-counts").textContent = t("review_queue_failed", { reason: error.message });
    return;
  }
  const c = queue.counts;
  $("q-folder").textContent = t("review_folder", { folder: queue.folder });
  $("q-counts").textContent = t("review_counts", {
    left: c.invalid + c.unreadable,
    fixed: c.fixed,
    games: c.games,
  });
  options($("q-code"), [...new Set(queue.games.flatMap((g) => g.codes))].sort(), t("review_all_codes"));
  options($("q-file"), [...new Set(queue.games.map((g) => g.file))].sort(), t("review_all_files"));
  render();
}

async function main() {
  await i18n.load(i18n.chosenLanguage());
  i18n.apply();
  i18n.languageMenu($("lang"));
  $("q-code").addEventListener("change", render);
  $("q-file").addEventListener("change", render);
  await refresh();
  document.body.dataset.ready = "true";
}

main();
