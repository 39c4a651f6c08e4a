// The tournament table's HUD and the player's tournament life, from the lobby rows
// (R-TOUR-1..3, R-TOUR-10, R-TOUR-12): the level and its blinds, the time to the next level,
// players left, your rank, the average stack, the payouts still to come, a Spin's
// multiplier revealed before the first hand; table moves and broken tables followed
// without a reload ("you move to table 3"); eliminations announced with place and prize.
import { api } from "./api.js";
import { $, clear, el, fmt } from "./dom.js";
import { mmss, placeText, tableNumber } from "./tournaments.js";

export class TournamentHud {
  constructor(ctx) {
    this.ctx = ctx;
    this.rows = [];
    this.seats = new Map(); // tournament id → my table id last seen
    this.out = new Set(); // `${tid}:${player}` already announced
    this.revealed = new Set();
    this.primed = new Set(); // tournaments whose old eliminations were seen silently
    this.news = new Map(); // tournament id → recent announcements (newest first)
    this.seen = null; // the last rows followed (with whose eyes)
    setInterval(() => this.tick(), 1000);
  }

  me() {
    return this.ctx.account ? String(this.ctx.account.id) : null;
  }

  onRows(rows) {
    this.rows = rows || [];
    // followed and drawn again only when the events changed, not at every lobby message
    // (the deal's buttons would lose a click, the news list be read out again)
    const seen = JSON.stringify([this.me(), this.rows]);
    if (seen === this.seen) return;
    this.seen = seen;
    const me = this.me();
    if (me) {
      for (const row of this.rows) {
        if ((row.registered || []).includes(me)) this.follow(row, me);
      }
    }
    this.render();
  }

  note(row, key, params) {
    const list = this.news.get(row.id) || [];
    list.unshift({ key, params });
    this.news.set(row.id, list.slice(0, 4));
  }

  follow(row, me) {
    const ctx = this.ctx;
    const names = row.names || {};
    // the Spin's multiplier, shown once it is drawn, before the first hand
    if (row.kind === "spin" && row.multiplier && !this.revealed.has(row.id) && row.status === "running") {
      this.revealed.add(row.id);
      const prize = (row.prizes || [0])[0];
      this.note(row, "tour.spin_reveal", { m: row.multiplier, prize: fmt(prize) });
      ctx.toast("tour.spin_reveal", { m: row.multiplier, prize: fmt(prize) }, "ok");
    }
    // eliminations (old ones, seen when the page opens, are not announced again)
    const primed = this.primed.has(row.id);
    for (const s of row.standings || []) {
      const key = `${row.id}:${s.player_id}`;
      if (this.out.has(key)) continue;
      this.out.add(key);
      if (!primed) continue;
      if (s.player_id === me) {
        const params = { place: s.place, prize: fmt(s.prize) };
        const k = s.place === 1 ? "tour.you_won" : s.prize ? "tour.you_finished_prize" : "tour.you_finished";
        this.note(row, k, params);
        ctx.toast(k, params, "ok");
        ctx.refreshAccount();
      } else if (s.place !== 1) {
        this.note(row, s.prize ? "tour.out_prize" : "tour.out", {
          name: names[s.player_id] || s.player_id, place: s.place, prize: fmt(s.prize),
        });
      }
    }
    this.primed.add(row.id);
    // my table: the start, a move or a broken table
    const table = row.seating ? row.seating[me] : null;
    const before = this.seats.get(row.id);
    if (table && table !== before) {
      this.seats.set(row.id, table);
      const viewing = ctx.table ? ctx.table.tableId : null;
      const onTables = location.hash.startsWith("#/tournaments") || location.hash.startsWith("#/lobby") || !location.hash;
      if (before) {
        this.note(row, "tour.moved", { n: tableNumber(table) });
        ctx.toast("tour.moved", { n: tableNumber(table) }, "ok");
        if (viewing === before) ctx.go(`#/table/${encodeURIComponent(table)}`);
      } else if (row.status === "running") {
        this.note(row, "tour.started", { n: tableNumber(table) });
        if (onTables || viewing === null) ctx.go(`#/table/${encodeURIComponent(table)}`);
      }
    }
  }

  /** The tournament row of the table on screen, if it is a tournament table. */
  current() {
    const tableId = this.ctx.table ? this.ctx.table.tableId : null;
    if (!tableId) return null;
    const me = this.me();
    return this.rows.find((r) => (r.tables || []).includes(tableId)
      || (me && r.seating && r.seating[me] === tableId)
      || (me && this.seats.get(r.id) === tableId)) || null;
  }

  render() {
    const hud = $("#tour-hud");
    if (!hud) return;
    const row = this.current();
    hud.hidden = !row;
    if (!row) return;
    clear(hud);
    const me = this.me();
    const tableId = this.ctx.table.tableId;
    hud.dataset.tournament = row.id;
    hud.append(el("h2", { id: "tour-hud-title" }, el("span", { raw: row.name }), " · ",
      el("span", { t: "tour.table_n", params: { n: tableNumber(tableId) } })));
    const facts = el("dl", { class: "facts hud-facts" });
    const fact = (key, value, id) => facts.append(el("dt", { t: key }), el("dd", { id, ...value }));
    if (row.multiplier) fact("tour.multiplier", { t: "tour.multiplier_x", params: { m: row.multiplier } }, "hud-multiplier");
    if (row.status === "running") {
      const [sb, bb, ante] = row.blinds || [0, 0, 0];
      fact("tour.level", { t: "tour.level_blinds", params: { n: row.level, sb: fmt(sb), bb: fmt(bb), ante: ante ? ` (ante ${fmt(ante)})` : "" } }, "hud-level");
      fact("tour.next_level", { raw: this.nextLevel(row) }, "hud-next");
      if (row.break_ends_at_ms) {
        fact("tour.on_break", { raw: mmss((row.break_ends_at_ms - Date.now()) / 1000) }, "hud-break");
      }
      if (row.hand_for_hand) fact("tour.hand_for_hand", { t: "tour.hand_for_hand_on" }, "hud-h4h");
      fact("tour.players_left", { raw: `${row.players_left} / ${row.entrants}` }, "hud-left");
      const stacks = Object.entries(row.stacks || {});
      const mine = me && row.stacks ? row.stacks[me] : undefined;
      if (mine !== undefined) {
        const rank = 1 + stacks.filter(([, c]) => c > mine).length;
        fact("tour.your_rank", { raw: `${rank} / ${stacks.length}` }, "hud-rank");
        fact("tour.your_stack", { raw: fmt(mine) }, "hud-stack");
      }
      if (stacks.length) {
        const avg = Math.round(stacks.reduce((a, [, c]) => a + c, 0) / stacks.length);
        fact("tour.average", { raw: fmt(avg) }, "hud-average");
      }
      const left = row.players_left || 0;
      const toCome = (row.prizes || []).map((p, i) => [i + 1, p]).filter(([place, p]) => place <= left && p > 0);
      if (toCome.length) {
        fact("tour.payouts_to_come", {
          raw: toCome.reverse().map(([place, p]) => `#${place} ${fmt(p)}`).join(" · "),
        }, "hud-payouts");
      }
    } else if (row.status === "finished") {
      fact("tour.status_label", { t: "tour.status.finished" }, "hud-status");
    }
    hud.append(facts);
    if (row.kind === "scheduled" && row.status === "running" && me && (row.tables || []).length === 1
        && row.seating && row.seating[me]) {
      hud.append(this.dealBox(row, me));
    }
    const news = this.news.get(row.id) || [];
    const ul = el("ul", { class: "hud-news", "aria-live": "polite", id: "hud-news" });
    for (const n of news) ul.append(el("li", { t: n.key, params: n.params }));
    hud.append(ul);
    if (row.status === "finished") {
      const ol = el("ol", { class: "standings", id: "hud-standings" });
      for (const s of row.standings || []) {
        ol.append(el("li", {}, el("span", placeText(s.place)), " ",
          el("span", { raw: (row.names || {})[s.player_id] || s.player_id }), " ",
          s.prize ? el("strong", { raw: fmt(s.prize) }) : ""));
      }
      hud.append(el("h3", { t: "tour.final_standings" }), ol);
    }
  }

  /** The final-table deal (R-TOUR-19): opt in, then the ICM and equal offers. */
  dealBox(row, me) {
    const deal = row.deal || {};
    const box = el("div", { class: "deal", id: "hud-deal" });
    const names = row.names || {};
    const send = async (choice) => {
      try {
        const updated = await api.tournament(row.id, "deal", { choice });
        this.onRows(this.rows.map((r) => (r.id === updated.id ? updated : r)));
      } catch (e) {
        this.ctx.toast(this.ctx.errorText(e.code));
      }
    };
    if (deal.agreed) {
      box.append(el("p", { t: "tour.deal_made", params: { prize: fmt(deal.agreed[me] || 0) } }));
      return box;
    }
    if (!deal.offers || !Object.keys(deal.offers).length) {
      const opted = (deal.opted || []).includes(me);
      box.append(el("button", { type: "button", id: "deal-in", t: opted ? "tour.deal_waiting" : "tour.deal_propose",
        disabled: opted, onclick: () => send("in") }));
      return box;
    }
    const table = el("table", { class: "tour-table" });
    table.append(el("caption", { t: "tour.deal_offers" }));
    table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", t: "tour.col.player" }),
      el("th", { scope: "col", raw: "ICM" }), el("th", { scope: "col", t: "tour.deal_equal" }))));
    const body = el("tbody");
    for (const p of deal.players || []) {
      body.append(el("tr", {}, el("td", { raw: names[p] || p }), el("td", { raw: fmt(deal.offers.icm[p]) }),
        el("td", { raw: fmt(deal.offers.equal[p]) })));
    }
    table.append(body);
    box.append(table);
    const mine = (deal.choices || {})[me];
    box.append(el("div", { class: "row" },
      el("button", { type: "button", id: "deal-icm", class: "primary", t: "tour.deal_accept_icm", disabled: !!mine, onclick: () => send("icm") }),
      el("button", { type: "button", id: "deal-equal", t: "tour.deal_accept_equal", disabled: !!mine, onclick: () => send("equal") }),
      el("button", { type: "button", id: "deal-none", class: "danger", t: "tour.deal_refuse", onclick: () => send("none") })));
    return box;
  }

  nextLevel(row) {
    if (!row.level_ends_at_ms) return "—";
    return mmss((row.level_ends_at_ms - Date.now()) / 1000);
  }

  tick() {
    const row = this.current();
    const node = $("#hud-next");
    if (row && node && row.status === "running") node.textContent = this.nextLevel(row);
    const pause = $("#hud-break");
    if (row && pause && row.break_ends_at_ms) pause.textContent = mmss((row.break_ends_at_ms - Date.now()) / 1000);
  }
}
