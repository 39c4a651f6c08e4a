// The arcade (seed 000, docs/arcade.md): the entry icon at the top right (shown only while
// the arcade is available), the arcade page with the quick match and its live feedback,
// the level gate ("level 6 needed, you are level N", always before any buy-in dialog),
// level-up announcements, the points shop, and each player's look at the table
// (avatar, card back, felt, emote set), drawn from SVG files shipped in web/img.
import { api } from "./api.js";
import { $, clear, el, fmt, setRaw, setT } from "./dom.js";

export const EMOTE_NAMES = ["smile", "laugh", "cry", "angry", "thumbs_up", "clap", "think"];
const DEFAULT_LOOK = { card_back: "back_classic", felt: "felt_green", avatar: "avatar_default", emotes: "emotes_basic" };

/** An emote as an image (never an emoji font): `set` is the sender's emote set. */
export function emoteImg(name, set = "basic") {
  const known = EMOTE_NAMES.includes(name) ? name : "smile";
  return el("img", { class: `emote-img emote-set-${set === "party" ? "party" : "basic"}`,
    src: `img/emotes/${known}.svg`, alt: "", width: 28, height: 28, attrT: { alt: `chat.emote.${known}`, title: `chat.emote.${known}` } });
}

/** A player's avatar image from their look (`avatar_fox` → img/avatars/fox.svg). */
export function avatarImg(look) {
  const id = (look && look.avatar) || DEFAULT_LOOK.avatar;
  const name = id.replace(/^avatar_/, "");
  return el("img", { class: "avatar", src: `img/avatars/${encodeURIComponent(name)}.svg`, alt: "",
    width: 28, height: 28, dataset: { look: id } });
}

export class Arcade {
  constructor(ctx) {
    this.ctx = ctx;
    this.status = null; // GET /api/arcade
    this.open = true; // the lobby's arcade_open
    this.queued = false;
    this.queue = null; // the last quick_match_status
    this.catalogue = null; // GET /api/shop
    this.looks = new Map(); // player id -> look, from the seat data sent by the server
    $("#arcade-quick").addEventListener("click", () => this.quickMatch());
    $("#level-ok").addEventListener("click", () => $("#level-dialog").close());
  }

  async load() {
    try {
      this.status = await api.arcade();
      this.open = this.status.open;
    } catch {
      this.status = null;
    }
    this.render();
  }

  get minLevel() {
    return this.status ? this.status.min_level : 6;
  }

  /** Whether the logged-in player may play arcade tables (level and opening hours). */
  mayPlay() {
    const a = this.ctx.account;
    return !!a && a.level >= this.minLevel;
  }

  /** Show "level N needed, you are level M" (a dialog), or that the arcade is closed;
   * true when the player may not sit at an arcade table now. */
  gate() {
    const a = this.ctx.account;
    if (a && !this.open) {
      this.ctx.toast("error.arcade_closed"); // closed: said before any buy-in dialog too
      return true;
    }
    if (!a || a.level >= this.minLevel) return false;
    setT($("#level-text"), "arcade.level_needed", { need: this.minLevel, level: a.level });
    this.renderXp($("#level-xp"));
    $("#level-dialog").showModal();
    return true;
  }

  renderXp(node) {
    const a = this.ctx.account;
    const xp = this.status ? this.status.experience : { per_hand: 10, per_win: 5, arcade_level: 6, arcade_experience: 1000 };
    const arcade = { arcade: xp.arcade_level, arcade_xp: fmt(xp.arcade_experience) };
    if (a && a.next_level_experience) {
      setT(node, "arcade.xp_rule_next", { hand: xp.per_hand, win: xp.per_win,
        next: a.level + 1, need: fmt(a.next_level_experience), have: fmt(a.experience), ...arcade });
    } else {
      setT(node, "arcade.xp_rule", { hand: xp.per_hand, win: xp.per_win, ...arcade });
    }
  }

  onLobby(msg) {
    if (typeof msg.arcade_open === "boolean" && msg.arcade_open !== this.open) {
      this.open = msg.arcade_open;
      this.render();
    }
  }

  onMessage(m) {
    if (m.type === "quick_match_status") {
      this.queued = true;
      this.queue = m;
      this.renderQuick();
    } else if (m.type === "level_up") {
      this.ctx.toast("arcade.level_up", { level: m.level, diamonds: m.bound_diamonds }, "ok");
      this.ctx.refreshAccount().then(() => this.render());
    }
  }

  /** The table's messages about looks: snapshot seats, player_seated, and `look`. */
  noteLooks(m) {
    if (m.type === "snapshot") {
      for (const s of m.snapshot.seats || []) if (s.look) this.looks.set(String(s.player_id), s.look);
    } else if (m.type === "event" && m.event.type === "player_seated" && m.event.look) {
      this.looks.set(String(m.event.player_id), m.event.look);
    } else if (m.type === "look") {
      this.looks.set(String(m.player_id), m.look);
    }
  }

  lookOf(playerId) {
    return this.looks.get(String(playerId)) || null;
  }

  /** The colour of a look's item from the catalogue (null when unknown). */
  colour(itemId) {
    const items = (this.catalogue || this.status || {}).items || [];
    const found = items.find((i) => i.id === itemId);
    return found && found.look.startsWith("#") ? found.look : null;
  }

  render() {
    const entry = $("#arcade-entry");
    entry.hidden = !this.open;
    if (!$("#view-arcade").hidden) this.renderPage();
    if (!$("#view-shop").hidden) this.renderShop();
  }

  // -- the arcade page ------------------------------------------------------------------

  async openPage() {
    // The level may have changed since the page loaded (hands played elsewhere).
    if (this.ctx.account) await this.ctx.refreshAccount();
    await this.load();
    this.renderPage();
  }

  renderPage() {
    setT($("#arcade-hours"), this.open ? "arcade.open_now" : "arcade.closed_now",
      { windows: this.status && this.status.windows.length ? this.status.windows.join(", ") : "" });
    this.renderXp($("#arcade-xp"));
    this.renderQuick();
  }

  renderQuick() {
    const a = this.ctx.account;
    const btn = $("#arcade-quick");
    const gateNote = $("#arcade-gate");
    const st = $("#arcade-queue");
    gateNote.hidden = true;
    btn.disabled = false;
    if (!a) {
      btn.disabled = true;
      setT(st, "lobby.login_to_play");
    } else if (!this.open) {
      btn.disabled = !this.queued;
      setT(st, "arcade.closed_now", { windows: this.status ? this.status.windows.join(", ") : "" });
    } else if (a.level < this.minLevel) {
      // The level message comes first, in place of the button's effect.
      btn.disabled = true;
      gateNote.hidden = false;
      setT(gateNote, "arcade.level_needed", { need: this.minLevel, level: a.level });
      st.textContent = "";
    } else if (this.queued && this.queue) {
      const q = this.queue;
      if (q.alone) setT(st, "arcade.queue_alone", { waited: Math.round(q.waited) });
      else setT(st, "arcade.queue_gathering", { n: q.waiting, waited: Math.round(q.waited), starts: Math.ceil(q.starts_in || 0) });
    } else if (this.queued) {
      setT(st, "lobby.quick_waiting");
    } else {
      setT(st, "arcade.queue_idle");
    }
    setT(btn, this.queued ? "lobby.quick_cancel" : "lobby.quick_join");
  }

  async quickMatch() {
    if (!this.queued && this.gate()) return;
    const btn = $("#arcade-quick");
    btn.disabled = true;
    const cancel = this.queued;
    const ack = await this.ctx.net.command({ type: "quick_match", cancel });
    btn.disabled = false;
    if (!ack.accepted) {
      this.ctx.toast(this.ctx.errorText(ack.code));
      if (ack.code === "not_queued") this.queued = false;
    } else {
      this.queued = !cancel;
      this.queue = cancel ? null : this.queue;
    }
    this.renderQuick();
  }

  onMatched(msg) {
    this.queued = false;
    this.queue = null;
    this.renderQuick();
  }

  onOpen() {
    // A new socket: the server forgot any queue entry of the old one.
    this.queued = false;
    this.queue = null;
    this.renderQuick();
  }

  // -- the points shop ----------------------------------------------------------------------

  async openShop() {
    if (!this.ctx.account) {
      this.catalogue = null;
      this.renderShop();
      return;
    }
    try {
      this.catalogue = await api.shop();
    } catch (e) {
      this.ctx.toast(this.ctx.errorText(e.code));
    }
    this.renderShop();
  }

  renderShop() {
    const box = clear($("#shop-items"));
    const c = this.catalogue;
    $("#shop-login").hidden = !!this.ctx.account;
    if (!c || !this.ctx.account) {
      setRaw($("#shop-points"), "—");
      return;
    }
    setRaw($("#shop-points"), fmt(c.points));
    for (const slot of c.slots) {
      const list = el("ul", { class: "shop-grid" });
      for (const item of c.items.filter((i) => i.slot === slot)) list.append(this.itemNode(item));
      box.append(el("section", { class: "panel shop-slot", dataset: { slot } },
        el("h2", { t: `shop.slot.${slot}` }), list));
    }
  }

  itemNode(item) {
    const c = this.catalogue;
    const owned = c.owned.includes(item.id);
    const equipped = c.equipped[item.slot] === item.id;
    let action;
    if (equipped) {
      action = item.price === 0
        ? el("span", { class: "tag tag-ok", t: "shop.equipped" })
        : el("button", { type: "button", t: "shop.unequip", onclick: () => this.equip({ slot: item.slot }) });
    } else if (owned) {
      action = el("button", { type: "button", class: "primary", t: "shop.equip", onclick: () => this.equip({ item: item.id }) });
    } else {
      const short = c.points < item.price;
      action = el("button", { type: "button", class: short ? "" : "primary", disabled: short,
        t: short ? "shop.short" : "shop.buy", params: { n: fmt(item.price - c.points) },
        onclick: () => this.buy(item) });
    }
    return el("li", { class: `shop-item${equipped ? " equipped" : ""}`, dataset: { item: item.id } },
      this.preview(item),
      el("span", { class: "shop-name", t: `shop.item.${item.id}` }),
      el("span", { class: "shop-price" }, item.price ? el("span", { t: "shop.price", params: { n: fmt(item.price) } })
        : el("span", { class: "muted", t: "shop.free" })),
      equipped && item.price ? el("span", { class: "tag tag-ok", t: "shop.equipped" }) : null,
      action);
  }

  preview(item) {
    if (item.slot === "avatar") return avatarImg({ avatar: item.id });
    if (item.slot === "emotes") {
      return el("span", { class: "shop-preview" }, ...["smile", "laugh", "clap"].map((n) => emoteImg(n, item.look)));
    }
    const cls = item.slot === "felt" ? "swatch swatch-felt" : "swatch swatch-back";
    const sw = el("span", { class: cls, "aria-hidden": "true" });
    sw.style.setProperty("--swatch", item.look);
    return sw;
  }

  async buy(item) {
    try {
      this.catalogue = await api.shopBuy(item.id);
      this.ctx.toast("shop.bought", { n: fmt(item.price) }, "ok");
      this.ctx.refreshAccount();
    } catch (e) {
      this.ctx.toast(this.ctx.errorText(e.code));
    }
    this.renderShop();
  }

  async equip(body) {
    try {
      this.catalogue = await api.shopEquip(body);
    } catch (e) {
      this.ctx.toast(this.ctx.errorText(e.code));
    }
    this.renderShop();
  }

  /** Account page extras: bound diamonds and how experience is earned. */
  renderAccount() {
    const a = this.ctx.account;
    if (!a) return;
    setRaw($("#acc-bound"), fmt(a.bound_diamonds || 0));
    this.renderXp($("#acc-xp-rule"));
  }
}
