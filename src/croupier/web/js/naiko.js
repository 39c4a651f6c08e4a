// Naiko mode (SPEC §9, engine/naiko.py): the Carrousel with each power's cost and whether
// you may use it now, the Destellos counter, the target picker for Ancre Courte, the Sceau
// Protecteur prompt with its 8 s countdown, and the private Coup d'Œil peek.
//
// The panel sends {type: "use_power", power, target_seat?, card?, version} and
// {type: "respond_ancre", block} (docs/protocol.md, "Naiko mode"), which the server hands to
// the table as UsePower and RespondAncre. It reads the engine events power_used / peeked /
// power_resolved and the table notices carrousel, ancre_window and turn.naiko.
import { cardSvg } from "./cards.js";
import { $, clear, el, setRaw } from "./dom.js";
import { t } from "./i18n.js";
import { mySeat, myPosition } from "./tablestate.js";

export const POWERS = [
  { id: "coup_d_oeil", cost: 1 },
  { id: "echange_de_manche", cost: 2 },
  { id: "ancre_courte", cost: 2 },
  { id: "sceau_protecteur", cost: 1 },
];
const WINDOW_SECONDS = 8;

export class NaikoPanel {
  constructor(view) {
    this.view = view;
    this.windowStart = null;
    this.windowKey = null;
    $("#sceau-block").addEventListener("click", () => this.respond(true));
    $("#sceau-pass").addEventListener("click", () => this.respond(false));
  }

  get state() {
    return this.view.state;
  }

  /** Why `me` may not use `power` now (a translation key), or null when it is allowed. */
  why(power) {
    const s = this.state;
    const me = this.view.me;
    const pos = myPosition(s, me);
    const n = s.naiko;
    if (!s.hand || pos < 0) return "naiko.why.not_in_hand";
    if (n.carrousel && !n.carrousel.includes(power.id)) return "naiko.why.not_offered";
    if (n.used.some((u) => u.player === pos && u.power === power.id)) return "naiko.why.used";
    if (n.destellos < power.cost) return "naiko.why.cost";
    if (power.id === "sceau_protecteur") {
      return n.window && n.window.target === pos ? null : "naiko.why.no_ancre";
    }
    if (s.actorSeat !== mySeat(s, me) || !s.legal) return "naiko.why.not_turn";
    if (n.turnUsed === pos) return "naiko.why.one_per_turn";
    if (n.activations >= 3) return "naiko.why.quota";
    if (power.id === "coup_d_oeil" && s.hand.board.length >= 5) return "naiko.why.river";
    if (power.id === "echange_de_manche" && s.hand.street > 0) return "naiko.why.preflop";
    return null;
  }

  render() {
    const s = this.state;
    const box = $("#naiko");
    box.hidden = !s || this.view.profile !== "naiko";
    if (box.hidden) return;
    setRaw($("#destellos"), `${s.naiko.destellos}/3`);
    const list = clear($("#carrousel"));
    for (const p of POWERS) {
      const why = this.why(p);
      const tipId = `tip-${p.id}`;
      list.append(el("div", { class: "power" },
        el("button", { type: "button", class: "power-btn", disabled: why !== null || p.id === "sceau_protecteur",
          "aria-describedby": tipId, dataset: { power: p.id }, onclick: () => this.use(p) },
        el("span", { t: `naiko.power.${p.id}` }), " ",
        el("span", { class: "cost", t: "naiko.cost", params: { n: p.cost } })),
        el("span", { id: tipId, role: "tooltip", class: "tip", t: `naiko.tip.${p.id}` }),
        why ? el("span", { class: "muted small", t: why }) : el("span", { class: "ok small", t: "naiko.why.ok" })));
    }
    const pos = myPosition(s, this.view.me);
    const targets = $("#naiko-target-select");
    clear(targets);
    if (s.hand) {
      s.hand.players.forEach((p, i) => {
        if (i === pos || p.folded || p.all_in) return;
        const seat = s.seats[s.handSeats[i]];
        targets.append(el("option", { value: String(s.handSeats[i]), raw: seat ? seat.name : `#${i + 1}` }));
      });
    }
    $("#naiko-target").hidden = this.why(POWERS[2]) !== null;
    const w = s.naiko.window;
    const sceau = $("#sceau");
    sceau.hidden = !(w && w.target === pos);
    const key = w ? `${s.handNo}:${w.caster}:${w.target}` : null;
    if (key !== this.windowKey) this.windowStart = w ? performance.now() : null;
    this.windowKey = key;
    this.closesAt = w ? w.closesAt : null;
    const exch = $("#naiko-card");
    clear(exch);
    if (s.hand && pos >= 0) for (const c of s.hand.players[pos].cards) if (c) exch.append(el("option", { value: c, raw: c }));
    $("#naiko-card-row").hidden = this.why(POWERS[1]) !== null;
    $("#sceau-block").disabled = this.why(POWERS[3]) !== null || this.view.busy;
    const peek = $("#peek");
    peek.hidden = !s.naiko.peeks.length;
    const pc = clear($("#peek-cards"));
    for (const c of s.naiko.peeks) pc.append(cardSvg(c, { small: true }));
  }

  tick() {
    if (this.windowStart === null) return;
    // The server's closing time when we know the table clock, else 8 s from when we saw it.
    const off = this.view.offset;
    const left = this.closesAt != null && off != null
      ? Math.max(0, this.closesAt - (performance.now() / 1000 + off))
      : Math.max(0, WINDOW_SECONDS - (performance.now() - this.windowStart) / 1000);
    setRaw($("#sceau-clock"), `${Math.ceil(left)} s`);
  }

  use(power) {
    const msg = { type: "use_power", power: power.id, version: this.state.version };
    if (power.id === "ancre_courte") msg.target_seat = Number($("#naiko-target-select").value);
    if (power.id === "echange_de_manche") msg.card = $("#naiko-card").value;
    this.view.command(msg, { bar: true });
  }

  respond(block) {
    this.view.command({ type: "respond_ancre", block }, { bar: true });
  }
}

export function powerName(id) {
  return t(`naiko.power.${id}`);
}
