// Several tables at once: a tab per table where you hold a seat, above the table on
// screen. The tables not on screen stay subscribed in the background (their state kept by
// the same reducer), so the tab of a table that needs you — your turn, a rebuy offer — is
// highlighted (and announced) at once; a click brings it forward.
import { $, el, redraw } from "./dom.js";
import { applyEvent, emptyState, fromSnapshot, mySeat } from "./tablestate.js";

export class MultiTable {
  constructor(ctx, view) {
    this.ctx = ctx;
    this.view = view;
    this.states = new Map(); // table id -> reducer state (the tables in the background)
    this.names = new Map(); // table id -> display name
    this.order = []; // the tables you hold a seat at, in the order you sat
  }

  get me() {
    return this.ctx.account ? String(this.ctx.account.id) : null;
  }

  /** The seats the account holds (from /api/me's `seated`, and the table on screen). */
  sync() {
    const rows = (this.ctx.account && this.ctx.account.seated) || [];
    for (const r of rows) {
      this.names.set(r.table_id, r.name);
      if (!this.order.includes(r.table_id)) this.order.push(r.table_id);
    }
    const held = new Set(rows.map((r) => r.table_id));
    const cur = this.view.tableId;
    if (cur && this.view.state && mySeat(this.view.state, this.me) !== null) {
      held.add(cur);
      if (!this.order.includes(cur)) this.order.push(cur);
    }
    this.order = this.order.filter((id) => held.has(id));
    for (const id of [...this.states.keys()]) {
      if (!held.has(id)) {
        this.states.delete(id);
        if (id !== cur && this.ctx.net) this.ctx.net.send({ type: "unsubscribe", table_id: id });
      }
    }
    for (const id of this.order) if (id !== cur && !this.states.has(id)) this.watch(id);
    this.render();
  }

  watch(id) {
    if (!this.ctx.net || !this.ctx.net.isOpen) return;
    const st = emptyState(id);
    st.version = -1;
    this.states.set(id, st);
    this.ctx.net.send({ type: "subscribe", table_id: id });
  }

  /** The table on screen changes: the one left goes to the background (if seated). */
  switched(from) {
    if (from && this.order.includes(from)) this.watch(from);
    this.states.delete(this.view.tableId);
    this.render();
  }

  onOpen() {
    for (const id of [...this.states.keys()]) {
      this.states.delete(id);
      if (id !== this.view.tableId) this.watch(id);
    }
  }

  /** A frame for a background table (true if it was one). */
  onMessage(m) {
    if (!m.table_id || m.table_id === this.view.tableId || !this.states.has(m.table_id)) return false;
    const s = this.states.get(m.table_id);
    if (m.type === "table_info") {
      this.ctx.summaries.set(m.table_id, m.table);
      this.names.set(m.table_id, m.table.name);
    } else if (m.type === "snapshot") {
      this.states.set(m.table_id, fromSnapshot(m, this.me));
    } else if (m.type === "event") {
      if ((s.epoch !== null && m.epoch !== s.epoch) || (s.version >= 0 && m.version > s.version + 1)) {
        this.ctx.net.send({ type: "resync", table_id: m.table_id });
        return true;
      }
      if (m.version <= s.version) return true;
      const before = this.needs(s);
      const next = applyEvent(s, m, this.me);
      this.states.set(m.table_id, next);
      if (!before && this.needs(next)) this.ctx.sound.beep();
    } else if (m.type !== "subscribed" && m.type !== "chat") {
      return false;
    }
    this.render();
    return true;
  }

  /** Whether a background table waits for you. */
  needs(s) {
    if (!s) return false;
    const seat = mySeat(s, this.me);
    return seat !== null && ((s.legal && s.actorSeat === seat) || !!s.reload);
  }

  render() {
    const bar = $("#table-tabs");
    if (!bar) return;
    const cur = this.view.tableId;
    const hidden = this.order.length < 2 || $("#view-table").hidden;
    const tabs = hidden ? [] : this.order.map((id) => {
      const active = id === cur;
      return [id, active, !active && this.needs(this.states.get(id)), this.names.get(id) || id];
    });
    bar.hidden = hidden;
    // drawn again only when a tab changed, not at every event of a table in the background
    redraw(bar, JSON.stringify(tabs), () => {
      for (const [id, active, needs, name] of tabs) {
        const tab = el("a", {
          href: `#/table/${encodeURIComponent(id)}`,
          class: `table-tab${active ? " active" : ""}${needs ? " needs-you" : ""}`,
          dataset: { table: id },
          "aria-current": active ? "page" : null,
        }, el("span", { raw: name }));
        if (needs) tab.append(el("span", { class: "badge", t: "multi.your_turn" }));
        bar.append(tab);
      }
    });
  }
}
