// The tournaments tab (R-TOUR-1..5, R-TOUR-10): every published Sit & Go, Spin and
// scheduled event with its terms before registering — buy-in, entrants and seats, when it
// starts, the structure (levels, antes, level length), the payout table, a Spin's
// multipliers with their probabilities — register / unregister with the server's refusal
// shown, fill a Sit & Go with bots, open your table, and the final standings. Rows come
// from the WebSocket lobby message (`tournaments`); nothing here is optimistic.
import { api } from "./api.js";
import { $, clear, el, fmt, setT } from "./dom.js";
import { openAt } from "./nodes.js";

/** "1st", "2nd"… (« 1er », « 2e »…) as a translation key and params. */
export function placeText(place) {
  const n = Number(place);
  if (n === 1) return { t: "tour.place_first", params: { n } };
  const tens = n % 100;
  let key = "tour.place_th";
  if (tens < 11 || tens > 13) key = { 1: "tour.place_st", 2: "tour.place_nd", 3: "tour.place_rd" }[n % 10] || key;
  return { t: key, params: { n } };
}

/** Seconds as m:ss. */
export function mmss(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The table number of a tournament table id (`<tid>-t3` → 3). */
export function tableNumber(tableId) {
  const m = /-t(\d+)$/.exec(tableId || "");
  return m ? Number(m[1]) : null;
}

function percent(ppm) {
  const p = ppm / 10000;
  return `${p >= 1 ? p.toFixed(2) : p.toPrecision(2)} %`;
}

export class Tournaments {
  constructor(ctx) {
    this.ctx = ctx;
    this.rows = [];
    this.busy = new Set();
    this.expanded = new Set();
    this.seen = null; // the last lobby rows drawn (with whose eyes)
  }

  me() {
    return this.ctx.account ? String(this.ctx.account.id) : null;
  }

  onLobby(msg) {
    this.rows = msg.tournaments || [];
    this.ctx.tournaments = this.rows;
    // the lobby speaks for every table: most of its messages leave the events as they
    // were, and a card drawn again under a key half pressed (Space opens a <summary> on
    // its release) would swallow the key
    const seen = JSON.stringify([this.me(), this.rows]);
    if (seen === this.seen) return;
    this.seen = seen;
    this.render();
  }

  render() {
    const list = $("#tour-list");
    if (!list) return;
    // keep the open <details> and the focus across re-renders
    for (const d of list.querySelectorAll("details[data-id]")) {
      if (d.open) this.expanded.add(d.dataset.id);
      else this.expanded.delete(d.dataset.id);
    }
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.focusKey : null;
    clear(list);
    $("#tour-empty").hidden = this.rows.length > 0;
    for (const row of this.rows) list.append(this.card(row));
    if (focused) {
      const again = list.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    this.renderResults();
  }

  card(row) {
    const me = this.me();
    const registered = me !== null && (row.registered || []).includes(me);
    const art = el("article", {
      class: `panel tour tour-${row.kind}`,
      "aria-labelledby": `tour-${row.id}-name`,
      dataset: { id: row.id, status: row.status },
    });
    art.append(
      el("h2", { id: `tour-${row.id}-name` }, el("span", { raw: row.name }), " ",
        el("span", { class: "badge", t: `tour.kind.${row.kind}` }), " ",
        el("span", { class: `badge status-${row.status}`, t: `tour.status.${row.status}` })),
    );
    const facts = el("dl", { class: "facts tour-facts" });
    const fact = (key, value) => facts.append(el("dt", { t: key }), el("dd", value));
    fact("tour.buy_in", { raw: fmt(row.buy_in) });
    fact("tour.entrants", { t: "tour.entrants_of", params: { n: row.entrants, max: row.max_entrants } });
    fact("tour.stack", { raw: fmt(row.starting_stack) });
    fact("tour.seats", { raw: row.seats });
    if (row.kind === "scheduled" && row.starts_at_ms) {
      fact("tour.starts", { raw: new Date(row.starts_at_ms).toLocaleString() });
    } else if (row.status === "registering") {
      fact("tour.starts", { t: "tour.when_full" });
    }
    if (row.status !== "registering") fact("tour.pool", { raw: fmt(row.pool) });
    if (row.late_levels) fact("tour.late", { t: "tour.late_until", params: { n: row.late_levels, re: row.reentries } });
    if (row.multiplier) fact("tour.multiplier", { t: "tour.multiplier_x", params: { m: row.multiplier } });
    if (row.status === "running") {
      fact("tour.players_left", { raw: `${row.players_left} / ${row.entrants}` });
      fact("tour.level", { t: "tour.level_blinds", params: this.levelParams(row) });
    }
    art.append(facts);
    if (row.status === "finished" || (row.standings || []).length) art.append(this.standings(row));
    // the terms come before the buttons: by keyboard, Tab opens the details, then Register
    art.append(this.details(row));
    art.append(this.buttons(row, registered));
    return art;
  }

  levelParams(row) {
    const [sb, bb, ante] = row.blinds || [0, 0, 0];
    return { n: row.level, sb: fmt(sb), bb: fmt(bb), ante: ante ? ` (ante ${fmt(ante)})` : "" };
  }

  buttons(row, registered) {
    const box = el("div", { class: "row tour-buttons" });
    const me = this.me();
    const busy = this.busy.has(row.id);
    if (row.status === "registering") {
      if (!me) {
        box.append(el("a", { href: "#/account", t: "tour.login_to_register" }));
      } else if (registered) {
        box.append(el("button", {
          type: "button", t: "tour.unregister", disabled: busy, dataset: { focusKey: `${row.id}:unregister` },
          onclick: () => this.act(row, "unregister"),
        }));
        if (row.bots_allowed && row.kind !== "scheduled") {
          box.append(el("button", {
            type: "button", t: "tour.fill", disabled: busy, dataset: { focusKey: `${row.id}:fill` },
            onclick: () => this.act(row, "fill"),
          }));
        }
      } else {
        box.append(el("button", {
          type: "button", class: "primary", t: "tour.register", disabled: busy,
          dataset: { focusKey: `${row.id}:register` },
          params: { buy_in: fmt(row.buy_in) }, onclick: () => this.act(row, "register"),
        }));
      }
      if (registered) box.append(el("span", { class: "muted", t: "tour.you_are_registered" }));
    }
    if (row.status === "running" && row.late_open && me && !(row.seating && row.seating[me])) {
      // late registration, or a re-entry for a player out (R-TOUR-11)
      box.append(el("button", {
        type: "button", class: "primary", t: registered ? "tour.reenter" : "tour.register_late",
        disabled: busy, dataset: { focusKey: `${row.id}:late` },
        params: { buy_in: fmt(row.buy_in) }, onclick: () => this.act(row, "register"),
      }));
    }
    const table = me && row.seating ? row.seating[me] : null;
    if (table) {
      const hash = `#/table/${encodeURIComponent(table)}`;
      box.append(el("a", {
        class: "button primary", href: row.node_url ? `${row.node_url}/?signed_in=1${hash}` : hash,
        t: "tour.open_table", params: { n: tableNumber(table) },
      }));
    }
    return box;
  }

  standings(row) {
    const names = row.names || {};
    const prizes = row.prizes || [];
    const wrap = el("div", { class: "tour-standings" });
    wrap.append(el("h3", { t: row.status === "finished" ? "tour.final_standings" : "tour.eliminated" }));
    const ol = el("ol", { class: "standings" });
    for (const s of row.standings || []) {
      ol.append(el("li", { dataset: { player: s.player_id } },
        el("span", placeText(s.place)), " ",
        el("span", { raw: names[s.player_id] || s.player_id }), " ",
        s.prize ? el("strong", { raw: fmt(s.prize) }) : el("span", { class: "muted", t: "tour.no_prize" })));
    }
    wrap.append(ol);
    if (!prizes.length) return wrap;
    return wrap;
  }

  details(row) {
    const d = el("details", { dataset: { id: row.id } });
    if (this.expanded.has(row.id)) d.open = true;
    d.append(el("summary", { t: "tour.details", dataset: { focusKey: `${row.id}:details` } }));
    // levels
    const levels = row.structure
      ? row.structure.map(([sb, bb, ante, seconds]) => ({ small_blind: sb, big_blind: bb, ante, seconds }))
      : row.levels || [];
    const lt = el("table", { class: "tour-table tour-levels" });
    lt.append(el("caption", { t: "tour.structure" }));
    lt.append(el("thead", {}, el("tr", {},
      el("th", { scope: "col", t: "tour.col.level" }), el("th", { scope: "col", t: "tour.col.blinds" }),
      el("th", { scope: "col", t: "tour.col.ante" }), el("th", { scope: "col", t: "tour.col.minutes" }))));
    const lb = el("tbody");
    levels.slice(0, 12).forEach((lv, i) => {
      lb.append(el("tr", {}, el("td", { raw: i + 1 }), el("td", { raw: `${fmt(lv.small_blind)} / ${fmt(lv.big_blind)}` }),
        el("td", { raw: lv.ante ? fmt(lv.ante) : "—" }), el("td", { raw: mmss(lv.seconds) })));
    });
    lt.append(lb);
    d.append(lt);
    if (row.multipliers) {
      const mt = el("table", { class: "tour-table tour-multipliers" });
      mt.append(el("caption", { t: "tour.multipliers" }));
      mt.append(el("thead", {}, el("tr", {},
        el("th", { scope: "col", t: "tour.col.multiplier" }), el("th", { scope: "col", t: "tour.col.probability" }),
        el("th", { scope: "col", t: "tour.col.prizes" }), el("th", { scope: "col", t: "tour.col.minutes" }))));
      const mb = el("tbody");
      for (const m of row.multipliers) {
        mb.append(el("tr", { dataset: { multiplier: m.multiplier } },
          el("td", { raw: `×${m.multiplier}` }), el("td", { raw: percent(m.ppm) }),
          el("td", { raw: m.prizes.map(fmt).join(" / ") }), el("td", { raw: mmss(m.level_seconds) })));
      }
      mt.append(mb);
      d.append(mt);
      d.append(el("p", { class: "muted small", t: "tour.rtp", params: { rtp: (row.expected_return * 100).toFixed(1) } }));
    } else {
      const pt = el("table", { class: "tour-table tour-payouts" });
      pt.append(el("caption", { t: "tour.payouts" }));
      pt.append(el("thead", {}, el("tr", {},
        el("th", { scope: "col", t: "tour.col.entrants" }), el("th", { scope: "col", t: "tour.col.shares" }))));
      const pb = el("tbody");
      let low = row.min_entrants;
      for (const tier of row.payouts || []) {
        if (tier.max_entrants < low) continue;
        const hi = Math.min(tier.max_entrants, row.max_entrants);
        pb.append(el("tr", {}, el("td", { raw: low === hi ? `${hi}` : `${low}–${hi}` }),
          el("td", { raw: tier.shares_bp.map((b) => `${b / 100} %`).join(" / ") })));
        low = tier.max_entrants + 1;
        if (low > row.max_entrants) break;
      }
      pt.append(pb);
      d.append(pt);
      if (row.prizes) d.append(el("p", {}, el("span", { t: "tour.prizes" }), " ", el("span", { raw: row.prizes.map(fmt).join(" / ") })));
    }
    return d;
  }

  /** After an action the focus stays on the card: on the same button if it is still
   * there, else on the card's next action (Unregister after Register…), else its details. */
  refocus(row, action) {
    const list = $("#tour-list");
    if (!list) return;
    const art = list.querySelector(`article[data-id="${CSS.escape(row.id)}"]`);
    if (!art) return;
    const active = document.activeElement;
    if (active && active !== document.body) return; // the focus is somewhere: leave it
    const target = art.querySelector(`[data-focus-key="${CSS.escape(`${row.id}:${action}`)}"]:not([disabled])`)
      || art.querySelector(".tour-buttons button:not([disabled]), .tour-buttons a")
      || art.querySelector("summary");
    if (target) target.focus();
  }

  async act(row, action) {
    if (this.busy.has(row.id)) return;
    // run by another process of the room: register there (the page opens there)
    if (row.node_url && openAt(row.node_url, "#/tournaments", { signedIn: !!this.ctx.account })) return;
    this.busy.add(row.id);
    this.render();
    try {
      const updated = await api.tournament(row.id, action);
      this.rows = this.rows.map((r) => (r.id === updated.id ? updated : r));
      this.ctx.tournaments = this.rows;
      const key = { register: "tour.registered", unregister: "tour.unregistered", fill: "tour.filled" }[action];
      this.ctx.toast(key, { name: row.name }, "ok");
      this.ctx.refreshAccount();
    } catch (e) {
      // the room's tournaments moved to another process since the lobby was read
      if (e.code === "tournament_elsewhere" && e.url
        && openAt(e.url, "#/tournaments", { signedIn: !!this.ctx.account })) return;
      this.ctx.toast(this.ctx.errorText(e.code));
    } finally {
      this.busy.delete(row.id);
      this.render();
      this.refocus(row, action);
    }
  }

  async loadResults() {
    if (!this.ctx.account) {
      $("#tour-results").hidden = true;
      return;
    }
    try {
      this.results = await api.tournamentResults();
    } catch {
      this.results = [];
    }
    this.renderResults();
  }

  renderResults() {
    const box = $("#tour-results");
    if (!box) return;
    const list = clear($("#tour-results-list"));
    const results = this.results || [];
    box.hidden = !this.ctx.account || !results.length;
    for (const r of results) {
      list.append(el("li", { dataset: { id: r.id } },
        el("strong", { raw: r.name }), " — ",
        el("span", placeText(r.place)), " / ", el("span", { raw: r.entrants }), " — ",
        r.prize ? el("span", { t: "tour.won", params: { prize: fmt(r.prize) } }) : el("span", { class: "muted", t: "tour.no_prize" })));
    }
    if (!results.length) setT(list, "tour.empty");
  }
}
