// The lobby's reminder of the seats you hold ("You are seated at NLHE 1/2 — back to the
// table"): leaving the table page keeps the seat; standing up is always explicit (the
// table's Leave button). The list is the account's `seated` field from /api/me.
import { $, clear, el } from "./dom.js";
import { t } from "./i18n.js";

export function renderSeated(ctx) {
  const box = $("#seated-note");
  if (!box) return;
  const list = clear($("#seated-list"));
  const rows = (ctx.account && ctx.account.seated) || [];
  box.hidden = rows.length === 0;
  for (const r of rows) {
    const game = t(`game.${r.game}`) === `game.${r.game}` ? r.game : t(`game.${r.game}`);
    const link = el("a", { href: `#/table/${encodeURIComponent(r.table_id)}`, class: "button primary",
      dataset: { table: r.table_id }, t: "seated.back" });
    list.append(el("li", {},
      el("span", { t: r.sitting_out ? "seated.at_out" : "seated.at", params: { name: r.name, game, stakes: r.stakes } }),
      " ", link));
  }
}
