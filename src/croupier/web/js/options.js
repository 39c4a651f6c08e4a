// Table options, kept per account on the server (GET/PUT /api/options, so they follow the
// player to any browser): a four-colour deck, card and chip animations (off by default
// under prefers-reduced-motion), a sound on your turn, a warning sound when your clock
// runs low, and auto-muck (a beaten hand is mucked at showdown without asking, where the
// table lets losers muck). A guest keeps the defaults. An option never set keeps its
// default; options saved in this browser by an older version are sent up once.
import { api } from "./api.js";
import { $ } from "./dom.js";

const KEYS = ["four_colour", "animations", "sound_turn", "sound_clock", "auto_muck"];

function defaults() {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return { four_colour: false, animations: !reduced, sound_turn: false, sound_clock: false, auto_muck: false };
}

export class Options {
  constructor(ctx) {
    this.ctx = ctx;
    this.values = defaults();
    this.loading = null;
    for (const k of KEYS) {
      const box = $(`#opt-${k}`);
      if (box) box.addEventListener("change", () => this.set(k, box.checked));
    }
  }

  get key() {
    return this.ctx.account ? ["croupier", "options", this.ctx.account.id].join(".") : null; // per account
  }

  /** Read the account's options from the server (after login; a guest's defaults). */
  load() {
    this.values = defaults();
    this.apply();
    const key = this.key;
    if (!key) return Promise.resolve();
    this.loading = this.fetch(key);
    return this.loading;
  }

  async fetch(key) {
    let got;
    try {
      got = (await api.options()).options || {};
    } catch {
      return; // offline or logged out meanwhile: the defaults stand
    }
    if (this.key !== key) return; // another account logged in meanwhile
    const legacy = this.legacy(key);
    for (const k of KEYS) if (typeof got[k] === "boolean") this.values[k] = got[k];
    if (legacy && !Object.keys(got).length) {
      Object.assign(this.values, legacy);
      api.setOptions(legacy).catch(() => {});
    }
    if (legacy) localStorage.removeItem(key);
    this.apply();
  }

  /** Options an older version kept in this browser, if any. */
  legacy(key) {
    try {
      const saved = JSON.parse(localStorage.getItem(key) || "null");
      if (!saved || typeof saved !== "object") return null;
      const out = {};
      for (const k of KEYS) if (typeof saved[k] === "boolean") out[k] = saved[k];
      return Object.keys(out).length ? out : null;
    } catch {
      return null;
    }
  }

  async set(k, on) {
    const before = this.values[k];
    this.values[k] = !!on;
    this.apply();
    if (!this.key) return;
    try {
      const got = (await api.setOptions({ [k]: !!on })).options || {};
      if (typeof got[k] === "boolean") this.values[k] = got[k];
    } catch (e) {
      this.values[k] = before; // not saved: show what the server has
      this.ctx.toast(e.code === "login_required" ? "lobby.login_to_play" : "options.not_saved");
    }
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
