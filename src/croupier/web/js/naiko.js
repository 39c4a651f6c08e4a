// Naiko mode (SPEC §9, engine/naiko.py): the Carrousel with each power's cost and whether
// you may use it now, the Destellos counter, the target picker for Ancre Courte, the Sceau
// Protecteur prompt with its 8 s countdown, and the private Coup d'Œil peek. What may be
// used, on whom and for how much comes from the server (the turn's `powers` offers and the
// status's `costs`, R-NAIKO-4..8); the panel only shows it.
//
// The panel sends {type: "use_power", power, target_seat?, card?, version} and
// {type: "respond_ancre", block} (docs/protocol.md, "Naiko mode"), which the server hands to
// the table as UsePower and RespondAncre. It reads the engine events power_used / peeked /
// power_resolved and the table notices carrousel, ancre_window and turn.naiko.
import { cardSvg } from "./cards.js";
import { $, clear, el, redraw, setRaw } from "./dom.js";
import { t } from "./i18n.js";
import { myPosition } from "./tablestate.js";

export const POWERS = ["coup_d_oeil", "echange_de_manche", "ancre_courte", "sceau_protecteur"];
const WINDOW_SECONDS = 8;

// The server's refusal codes (engine/naiko.py power_options) to the reason shown.
const REASONS = {
  not_in_carrousel: "naiko.why.not_offered",
  already_used: "naiko.why.used",
  not_enough_destellos: "naiko.why.cost",
  not_turn: "naiko.why.not_turn",
  one_per_turn: "naiko.why.one_per_turn",
  table_quota: "naiko.why.quota",
  river: "naiko.why.river",
  preflop: "naiko.why.preflop",
  no_ancre: "naiko.why.no_ancre",
  not_in_hand: "naiko.why.not_in_hand",
  invalid_target: "naiko.why.no_target",
  response_pending: "naiko.why.window",
};

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

  /** The server's offer for `power` this turn (R-NAIKO-4..8), or null when none was sent. */
  offer(power) {
    const s = this.state;
    if (!s.legal || !s.naiko.powers) return null;
    return s.naiko.powers.find((o) => o.power === power) || null;
  }

  /**
   * Why `me` may not use `power` now (a translation key), or null when it is allowed. The
   * server decides (the offers sent with each turn, the Ancre window it opens only when
   * the target can block); nothing about costs, targets or timing is worked out here.
   */
  why(power) {
    const s = this.state;
    const pos = myPosition(s, this.view.me);
    if (!s.hand || pos < 0) return "naiko.why.not_in_hand";
    if (s.naiko.carrousel && !s.naiko.carrousel.includes(power)) return "naiko.why.not_offered";
    if (power === "sceau_protecteur") {
      const w = s.naiko.window;
      return w && w.target === pos ? null : "naiko.why.no_ancre";
    }
    const o = this.offer(power);
    if (!o) return s.naiko.window ? "naiko.why.window" : "naiko.why.not_turn";
    return o.usable ? null : REASONS[o.reason] || "naiko.why.not_now";
  }

  render() {
    const s = this.state;
    const box = $("#naiko");
    box.hidden = !s || this.view.profile !== "naiko";
    if (box.hidden) return;
    setRaw($("#destellos"), `${s.naiko.destellos}/3`);
    // the powers' buttons: drawn again only when one of them changed (see dom.redraw)
    const powers = POWERS.map((p) => [p, this.why(p), s.naiko.costs[p]]);
    redraw($("#carrousel"), JSON.stringify(powers), (list) => {
      for (const [p, why, cost] of powers) {
        const tipId = `tip-${p}`;
        list.append(el("div", { class: "power" },
          el("button", { type: "button", class: "power-btn", disabled: why !== null || p === "sceau_protecteur",
            "aria-describedby": tipId, dataset: { power: p }, onclick: () => this.use(p) },
          el("span", { t: `naiko.power.${p}` }), " ",
          cost !== undefined ? el("span", { class: "cost", t: "naiko.cost", params: { n: cost } }) : ""),
          el("span", { id: tipId, role: "tooltip", class: "tip", t: `naiko.tip.${p}` }),
          why ? el("span", { class: "muted small", t: why }) : el("span", { class: "ok small", t: "naiko.why.ok" })));
      }
    });
    this.renderTargets();
    const pos = myPosition(s, this.view.me);
    const w = s.naiko.window;
    const sceau = $("#sceau");
    sceau.hidden = !(w && w.target === pos);
    const key = w ? `${s.handNo}:${w.caster}:${w.target}` : null;
    if (key !== this.windowKey) this.windowStart = w ? performance.now() : null;
    this.windowKey = key;
    this.closesAt = w ? w.closesAt : null;
    const cards = s.hand && pos >= 0 ? s.hand.players[pos].cards.filter((c) => c) : [];
    redraw($("#naiko-card"), JSON.stringify(cards), (exch) => {
      for (const c of cards) exch.append(el("option", { value: c, raw: c }));
    });
    $("#naiko-card-row").hidden = this.why("echange_de_manche") !== null;
    $("#sceau-block").disabled = this.why("sceau_protecteur") !== null || this.view.busy;
    const peek = $("#peek");
    peek.hidden = !s.naiko.peeks.length;
    const pc = clear($("#peek-cards"));
    for (const c of s.naiko.peeks) pc.append(cardSvg(c, { small: true }));
  }

  /** The Ancre's target picker: exactly the seats the server offers. */
  renderTargets() {
    const s = this.state;
    const targets = $("#naiko-target-select");
    const keep = targets.value;
    const o = this.offer("ancre_courte");
    const seats = (o && o.usable ? o.target_seats : []).map((seat) => {
      const info = s.seats[seat];
      return [String(seat), info ? info.name : `#${seat + 1}`];
    });
    // an open list stays open while its seats stay the same (see dom.redraw)
    if (redraw(targets, JSON.stringify(seats), () => {
      for (const [value, name] of seats) targets.append(el("option", { value, raw: name }));
    }) && [...targets.options].some((x) => x.value === keep)) targets.value = keep;
    $("#naiko-target").hidden = this.why("ancre_courte") !== null;
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
    const msg = { type: "use_power", power, version: this.state.version };
    if (power === "ancre_courte") msg.target_seat = Number($("#naiko-target-select").value);
    if (power === "echange_de_manche") msg.card = $("#naiko-card").value;
    this.view.command(msg, { bar: true });
  }

  respond(block) {
    this.view.command({ type: "respond_ancre", block }, { bar: true });
  }
}

export function powerName(id) {
  return t(`naiko.power.${id}`);
}
