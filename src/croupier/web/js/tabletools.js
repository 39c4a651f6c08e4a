// Small parts of the table page around the action bar: the time-bank button (with the
// seconds left in your bank, R-TIME-1) and the note explaining what the table decided for
// you while you were away (the server's private `away_report`, R-TIME-2/R-TIME-3).
import { $, clear, el, setT } from "./dom.js";
import { awayKey, mySeat } from "./tablestate.js";

/** Seconds left in your time bank (0: none at this table, or spent). */
export function bankLeft(s, me) {
  const seat = mySeat(s, me);
  const info = seat === null ? null : s.seats[seat];
  return info && typeof info.time_bank === "number" ? Math.max(0, Math.floor(info.time_bank)) : 0;
}

export class TableTools {
  constructor(view) {
    this.view = view;
    this.bankRunning = false; // the bank is running for this turn (the server said so)
    $("#a-timebank").addEventListener("click", () => this.useBank());
    $("#away-dismiss").addEventListener("click", () => {
      if (this.view.state) this.view.state.away = null;
      this.renderAway();
    });
  }

  onEvent(e, s, me) {
    if (e.type === "turn") this.bankRunning = false;
    if (e.type === "time_bank_used" && s.seats[e.seat] && s.seats[e.seat].player_id === String(me)) {
      this.bankRunning = true;
    }
  }

  async useBank() {
    const v = this.view;
    if (v.busy || !v.state || !v.state.legal) return;
    const ack = await v.command({ type: "time_bank" }, { bar: true });
    if (ack.accepted) this.bankRunning = true;
    v.render();
  }

  renderBank(lg) {
    const v = this.view;
    const b = $("#a-timebank");
    const left = v.state ? bankLeft(v.state, v.me) : 0;
    b.hidden = !lg || left <= 0 || this.bankRunning;
    b.disabled = v.busy || b.hidden;
    setT($("#a-timebank-label"), "bar.time_bank_n", { n: left });
  }

  renderAway() {
    const v = this.view;
    const box = $("#away-note");
    const away = v.state ? v.state.away : null;
    box.hidden = !away;
    const list = clear($("#away-lines"));
    if (!away) return;
    for (const a of away.actions) {
      list.append(el("li", { t: awayKey(a.action), params: { secs: Math.round(a.away_seconds) } }));
    }
  }
}
