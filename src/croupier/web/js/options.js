// Table options, kept per account (in this browser, under the account's id): a four-colour
// deck, card and chip animations (off by default under prefers-reduced-motion), a sound on
// your turn and a warning sound when your clock runs low.
import { $ } from "./dom.js";

const KEYS = ["four_colour", "animations", "sound_turn", "sound_clock"];

function defaults() {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return { four_colour: false, animations: !reduced, sound_turn: false, sound_clock: false };
}

export class Options {
  constructor(ctx) {
    this.ctx = ctx;
    this.values = defaults();
    for (const k of KEYS) {
      const box = $(`#opt-${k}`);
      if (box) box.addEventListener("change", () => this.set(k, box.checked));
    }
  }

  get key() {
    return this.ctx.account ? ["croupier", "options", this.ctx.account.id].join(".") : null; // per account
  }

  /** Read the account's options (after login, or a guest's defaults). */
  load() {
    this.values = defaults();
    const key = this.key;
    if (key) {
      try {
        const saved = JSON.parse(localStorage.getItem(key) || "{}");
        for (const k of KEYS) if (typeof saved[k] === "boolean") this.values[k] = saved[k];
      } catch {
        // a damaged entry: the defaults stand
      }
    }
    this.apply();
  }

  set(k, on) {
    this.values[k] = !!on;
    if (this.key) localStorage.setItem(this.key, JSON.stringify(this.values));
    this.apply();
  }

  apply() {
    const v = this.values;
    document.body.classList.toggle("four-colour", v.four_colour);
    document.body.classList.toggle("no-anim", !v.animations);
    this.ctx.sound.enable(v.sound_turn || v.sound_clock);
    for (const k of KEYS) {
      const box = $(`#opt-${k}`);
      if (box) box.checked = v[k];
    }
    const master = $("#sound");
    if (master) master.checked = v.sound_turn || v.sound_clock;
  }
}
