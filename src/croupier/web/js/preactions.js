// Pre-actions: while others act, tick what to do when the action comes to you — check/fold,
// check, call (this amount), call any, fold to any bet. A choice tied to the amount to call
// (check, call X) is cleared when that amount changes; every choice is cleared at a new
// betting round or hand. When your turn comes the chosen action is sent as an ordinary
// `act` (nothing happens on the page until the server's events say so).
import { $, el, fmt, redraw } from "./dom.js";
import { myPosition } from "./tablestate.js";

/**
 * What the pre-action row offers now, or null when there is nothing to pre-select (no hand,
 * not in it, folded, all-in, your own turn, a draw or the showdown).
 * `toCall`: the chips a call would add now.
 */
export function preOptions(s, me) {
  const h = s && s.hand;
  if (!h || h.phase !== "betting" || s.legal) return null;
  const pos = myPosition(s, me);
  const p = pos >= 0 ? h.players[pos] : null;
  if (!p || p.folded || p.all_in || p.stack <= 0) return null;
  const top = Math.max(0, ...h.players.map((q) => q.bet));
  const toCall = Math.min(p.stack, Math.max(0, top - p.bet));
  const kinds = toCall === 0 ? ["check_fold", "check", "call_any"] : ["fold_any", "call", "call_any"];
  return { toCall, kinds, round: `${s.handNo}:${h.street}` };
}

/** The action a pre-action `choice` takes with the legal actions `lg`, or null (none fits:
 * the choice is dropped and the player decides). */
export function preDecision(choice, lg) {
  if (!choice || !lg) return null;
  switch (choice.kind) {
    case "check_fold":
      return lg.can_check ? "check" : lg.can_fold ? "fold" : null;
    case "fold_any":
      return lg.can_check ? "check" : lg.can_fold ? "fold" : null;
    case "check":
      return lg.can_check ? "check" : null;
    case "call":
      if (lg.can_call && lg.call === choice.toCall) return "call";
      return null;
    case "call_any":
      return lg.can_call ? "call" : lg.can_check ? "check" : null;
    default:
      return null;
  }
}

export class PreActions {
  constructor(view) {
    this.view = view;
    this.choice = null; // {kind, toCall, round}
  }

  clear() {
    this.choice = null;
  }

  /** Keep the choice only while it still means what the player ticked. */
  revise(opts) {
    const c = this.choice;
    if (!c) return;
    if (!opts) return; // our turn (or between rounds): the turn decides below
    if (c.round !== opts.round) this.choice = null;
    else if ((c.kind === "check" || c.kind === "call") && c.toCall !== opts.toCall) this.choice = null;
    else if (!opts.kinds.includes(c.kind) && c.kind !== "call_any") this.choice = null;
  }

  /** Our turn came: send the pre-selected action, if it still fits. Returns true if sent. */
  fire() {
    const v = this.view;
    const s = v.state;
    const c = this.choice;
    this.choice = null;
    if (!c || !s || !s.legal || v.busy) return false;
    const h = s.hand;
    if (!h || c.round !== `${s.handNo}:${h.street}`) return false;
    const action = preDecision(c, s.legal);
    if (!action) return false;
    v.act(action);
    return true;
  }

  render() {
    const v = this.view;
    const box = $("#preactions");
    if (!box) return;
    const opts = v.state && v.ctx.account ? preOptions(v.state, v.me) : null;
    this.revise(opts);
    box.hidden = !opts;
    // the boxes are ticked while the others act: drawn again only when they change
    redraw(box, JSON.stringify([opts, this.choice && this.choice.kind]), () => {
      if (!opts) return;
      for (const kind of opts.kinds) {
        const id = `pre-${kind}`;
        const input = el("input", { type: "checkbox", id, dataset: { pre: kind } });
        input.checked = !!this.choice && this.choice.kind === kind;
        input.addEventListener("change", () => {
          this.choice = input.checked ? { kind, toCall: opts.toCall, round: opts.round } : null;
          this.render();
        });
        const label = kind === "call"
          ? el("span", { t: "pre.call_n", params: { amount: fmt(opts.toCall) } })
          : el("span", { t: `pre.${kind}` });
        box.append(el("label", { class: "pre", for: id }, input, " ", label));
      }
    });
  }
}
