// One table on screen: seats, cards, pots, the action bar (legal actions only, bounded
// sizing, presets), draw selection, show/muck, sit out/in, reload, leave, chat, the winner
// display, the Naiko panel, and the keyboard shortcuts. Every command waits for its ack.
import { avatarImg, EMOTE_NAMES, emoteImg } from "./arcade.js";
import { cardRow, cardSvg } from "./cards.js";
import { $, clear, el, fmt, redraw, setRaw, setT } from "./dom.js";
import { handName } from "./hands.js";
import { t } from "./i18n.js";
import { NaikoPanel } from "./naiko.js";
import { applyEvent, emptyState, fromSnapshot, mySeat, myPosition, sidePots } from "./tablestate.js";
import { TableClock } from "./clock.js";
import { countsAs, lowestAmount } from "./underraise.js";
import { PreActions } from "./preactions.js";
import { TableTools } from "./tabletools.js";
import { fledFrom, nodeUrl, openAt, probeFled, restartedSince } from "./nodes.js";

const CLOCK = { room: 30, naiko: 20, arcade: 15 };
const RETRY_MOVING_MS = 1000; // a table being taken over from a dead process: ask again
const STUD_GAMES = ["7stud", "stud8", "razz", "soko"];
const CANNED = ["gl", "gg", "nh", "ty", "wp", "hurry", "oops"];

export class TableView {
  constructor(ctx) {
    this.ctx = ctx;
    this.tableId = null;
    this.state = null;
    this.live = false;
    this.busy = false;
    this.codes = new Map();
    this.clock = new TableClock(); // the server's table clock, from each frame's `now`
    this.span = null; // seconds the current turn had when it began (the timer bar's length)
    this.discards = new Set();
    this.wantSit = false;
    // a room of several processes (nodes.js): the table being taken over here, and the
    // table as a page that fled a dead process knew it ({tableId, epoch}, or null)
    this.moving = false;
    this.knew = null;
    this.naiko = new NaikoPanel(this);
    this.pre = new PreActions(this); // pre-selected actions while others act
    this.bind();
    this.tools = new TableTools(this); // time bank, the away report
    setInterval(() => this.tick(), 250);
  }

  /** The server's table clock minus the page's clock, in seconds (null: not known yet). */
  get offset() {
    return this.clock.offset;
  }

  get me() {
    return this.ctx.account ? String(this.ctx.account.id) : null;
  }

  get summary() {
    return this.ctx.summaries.get(this.tableId) || null;
  }

  get profile() {
    const s = this.summary;
    if (s) return s.profile;
    const p = this.ctx.privateSpecs.get(this.tableId);
    return p ? p.profile : "room";
  }

  // -- connection ---------------------------------------------------------------------

  open(tableId) {
    if (this.tableId === tableId && this.state) {
      this.render();
      return;
    }
    if (this.tableId && this.tableId !== tableId) this.ctx.net.send({ type: "unsubscribe", table_id: this.tableId });
    clearTimeout(this.retry);
    this.tableId = tableId;
    this.state = emptyState(tableId);
    this.state.version = -1;
    this.live = false;
    this.discards.clear();
    this.pre.clear();
    clear($("#chat-lines"));
    this.subscribe(false);
    this.render();
  }

  close() {
    clearTimeout(this.retry);
    if (this.tableId) this.ctx.net.send({ type: "unsubscribe", table_id: this.tableId });
    this.tableId = null;
    this.state = null;
  }

  subscribe(resume) {
    if (!this.tableId || !this.ctx.net || !this.ctx.net.isOpen) return;
    const msg = { type: "subscribe", table_id: this.tableId };
    const code = this.codes.get(this.tableId);
    if (code) msg.code = code;
    if (resume && this.state && this.state.version >= 0 && this.state.epoch !== null) {
      msg.since = this.state.version;
      msg.epoch = this.state.epoch;
    }
    this.live = false;
    this.ctx.net.send(msg);
  }

  onOpen() {
    this.busy = false;
    this.subscribe(true);
    this.render();
  }

  onError(m) {
    if (!this.tableId) return false;
    if (m.code === "table_elsewhere") {
      // A room of several processes: the table is served by another one (its address in
      // m.url). The same page opens there, on this table.
      if (this.goThere(m.url)) return true;
    }
    if (m.code === "table_restarting") {
      this.retrySoon(); // taken over here from a process that died
      return true;
    }
    if (["unknown_table", "bad_code", "spectators_not_allowed", "login_required", "not_subscribed"].includes(m.code)) {
      this.ctx.toast(this.ctx.errorText(m.code));
      return true;
    }
    return false;
  }

  /** The table is being restarted at this process (taken over from one that died): say
   * so once, and ask for it again in a moment. */
  retrySoon() {
    if (!this.moving) this.ctx.toast("error.table_moving", {}, "ok");
    this.moving = true;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.subscribe(false), RETRY_MOVING_MS);
  }

  /** Open this page, on this table, at the room's process at ``url`` (a room of several
   * processes: the table is served there). False if ``url`` is not one to follow. */
  goThere(url) {
    if (!nodeUrl(url)) return false;
    if (fledFrom(url)) {
      // The process this page fled (it died) still holds the table's lease until it
      // expires; this process takes the table over then. Unless it answers again (it was
      // restarted): then the table is followed there at the next answer.
      this.retrySoon();
      probeFled(url);
      return true;
    }
    this.ctx.toast(this.ctx.errorText("table_elsewhere"), {}, "ok");
    // (``knew``: a page that fled a dead process and follows the table on, restarted there)
    return openAt(url, location.hash, { signedIn: !!this.ctx.account, sit: this.wantSit, knew: this.knew });
  }

  onMessage(m) {
    if (m.table_id !== this.tableId) return;
    if (m.type === "table_info") {
      // The table's settings (game, stakes, seats, buy-ins, profile, bots) from the server:
      // a private table's too, for a player who came with its code.
      this.ctx.summaries.set(m.table_id, m.table);
    } else if (m.type === "snapshot") {
      this.clock.sync(m.now);
      this.state = fromSnapshot(m, this.me);
      // the page came from a process that died: the table restarted since (the crash
      // policy sent every stack home) if its epoch is newer than the one known there
      if (restartedSince(this.knew, m.table_id, m.epoch)) this.ctx.toast("table.restarted_here", {}, "ok");
      if (this.knew && this.knew.tableId === m.table_id) this.knew = null;
    } else if (m.type === "subscribed") {
      this.live = true;
      if (this.moving) this.ctx.toast("table.restarted_here", {}, "ok"); // (the crash policy)
      this.moving = false;
      if (this.wantSit) {
        this.wantSit = false;
        if (mySeat(this.state, this.me) === null) this.askSit();
      }
    } else if (m.type === "event") {
      const s = this.state;
      if (s.epoch !== null && m.epoch !== s.epoch) {
        this.ctx.net.send({ type: "resync", table_id: this.tableId });
        return;
      }
      if (m.version <= s.version) return;
      if (s.version >= 0 && m.version > s.version + 1) {
        this.ctx.net.send({ type: "resync", table_id: this.tableId });
        return;
      }
      this.clock.sync(m.now);
      this.state = applyEvent(s, m, this.me);
      const e = m.event;
      // The full length of the timer bar: the seconds left when the turn (or a time bank) began.
      if ((e.type === "turn" || e.type === "time_bank_used") && typeof m.now === "number") {
        this.span = Math.max(1, e.deadline - m.now);
      }
      this.tools.onEvent(e, this.state, this.me);
      if (e.type === "hand_began") this.pre.clear();
      if (e.type === "turn" && this.live && this.state.legal) {
        // a pre-selected action goes out at once (the server's events will say it happened)
        if (!this.pre.fire() && this.option("sound_turn")) this.ctx.sound.beep();
      }
      if (e.type === "turn" || e.type === "hand_began") this.discards.clear();
      // A busted player is offered a rebuy at once (the dialog states the real range).
      if (e.type === "reload_offered" && this.live && String(e.player_id) === this.me) {
        this.render();
        this.askReload();
        return;
      }
    } else if (m.type === "chat") {
      this.addChat(m);
      return;
    }
    this.render();
  }

  // -- commands -------------------------------------------------------------------------

  async command(msg, { bar = false } = {}) {
    if (bar) {
      this.busy = true;
      this.renderBar();
    }
    const ack = await this.ctx.net.command({ table_id: this.tableId, ...msg });
    if (bar) this.busy = false;
    if (!ack.accepted && ack.code === "table_elsewhere" && ack.data) {
      this.wantSit = msg.type === "sit"; // asked there again, with the buy-in dialog
      if (this.goThere(ack.data.url)) return ack;
      this.wantSit = false;
    }
    if (!ack.accepted) {
      this.ctx.toast(this.ctx.errorText(ack.code));
      if (ack.code === "stale_version") this.ctx.net.send({ type: "resync", table_id: this.tableId });
    }
    this.render();
    return ack;
  }

  act(action, amount) {
    if (this.busy || !this.state || !this.state.legal) return;
    const msg = { type: "act", action, version: this.state.version };
    if (action === "raise") msg.amount = amount;
    this.command(msg, { bar: true });
  }

  raise() {
    const lg = this.state && this.state.legal;
    if (!lg || !lg.can_raise) return;
    let v = Number($("#amount").value);
    if (Number.isInteger(v) && v > lg.max_raise) v = lg.max_raise; // clamped, not refused
    if (countsAs(lg, v).kind === "invalid") {
      this.ctx.toast("error.amount_range", { min: lowestAmount(lg), max: lg.max_raise });
      return;
    }
    this.act("raise", v); // the server counts an under-raise as a call or the minimum (R-BET-9)
  }

  draw() {
    const lg = this.state && this.state.legal;
    if (this.busy || !lg || !lg.can_draw) return;
    this.command({ type: "draw", discards: [...this.discards].join(" "), version: this.state.version }, { bar: true });
  }

  show(yes) {
    const lg = this.state && this.state.legal;
    if (this.busy || !lg || !lg.show_or_muck) return;
    this.command({ type: "show", show: yes }, { bar: true });
  }

  askSit(seat = null) {
    if (!this.ctx.account) {
      this.ctx.toast("lobby.login_to_play");
      return;
    }
    if (!this.live) {
      this.wantSit = true;
      return;
    }
    if (seat === null && mySeat(this.state, this.me) !== null) return; // seated here already
    // watched here from another process of the room: seats are taken where it runs
    const served = this.summary && this.summary.node_url;
    if (served) {
      this.wantSit = true;
      if (this.goThere(served)) return;
      this.wantSit = false;
    }
    // Arcade tables: "level 6 needed, you are level N" before any buy-in dialog.
    if (this.profile === "arcade" && this.ctx.arcade && this.ctx.arcade.gate()) return;
    const s = this.summary;
    const p = this.ctx.privateSpecs.get(this.tableId);
    const bb = p ? p.big_blind : 2;
    const min = s ? s.buy_in_min : p && p.buy_in_min ? p.buy_in_min : 40 * bb;
    // R-SEAT-1: Fixed- and Spread-Limit tables have no maximum (buy_in_max 0): your chips
    const noMax = !!s && s.buy_in_max === 0;
    const max = noMax ? this.balance() : s ? s.buy_in_max : p && p.buy_in_max ? p.buy_in_max : 200 * bb;
    $("#sit-blind").hidden = !this.blindChoice();
    $("#sit-wait").checked = true;
    this.openAmountDialog("sit.title", min, max, Math.min(max, Math.max(min, 100 * bb)), (amount) => {
      const msg = { type: "sit", buy_in: amount };
      if (this.blindChoice()) msg.post_big_blind = $("#sit-post").checked; // R-SEAT-3
      if (seat !== null) msg.seat = seat;
      const code = this.codes.get(this.tableId);
      if (code) msg.code = code;
      return this.command(msg).then((ack) => {
        if (ack.accepted) this.ctx.refreshAccount();
      });
    });
  }

  /** Tables where a new player posts a big blind or waits for it (R-POS-6, R-SEAT-3):
   * blinds (not stud) and the standard button (not arcade). */
  blindChoice() {
    const s = this.summary;
    const p = this.ctx.privateSpecs.get(this.tableId);
    if (this.profile === "arcade") return false;
    if (s) return !s.ante;
    return !(p && STUD_GAMES.includes(p.game));
  }

  /** Waiting for the big blind, or owing missed blinds: say so and offer both choices. */
  renderBlindChoice(info) {
    const s = this.state;
    const waiting = !!info && !info.sitting_out && (info.waiting_bb || info.owes_bb) && s.handNo > 0;
    const wait = $("#t-waiting");
    wait.hidden = !waiting;
    if (waiting) setT(wait, info.post_now ? "rules.posting_next" : "rules.waiting_bb");
    $("#t-postnow").hidden = !waiting || info.post_now;
    const owes = !!info && info.sitting_out && (info.owes_bb || info.owes_sb);
    $("#t-sitin-wait").hidden = !owes;
    if (info && info.sitting_out) setT($("#t-sitin"), owes ? "rules.sit_in_post" : "table.sit_in");
  }

  /** The account's chips (the most a table without a maximum buy-in can take). */
  balance() {
    return this.ctx.account && Number.isInteger(this.ctx.account.chips) ? this.ctx.account.chips : 0;
  }

  askReload() {
    const r = this.state.reload;
    const s = this.summary;
    // The real range: what brings the stack to the table's buy-in range (R-SEAT-1); a table
    // with no maximum (buy_in_max 0, limit games) takes up to the account's chips.
    const seat = mySeat(this.state, this.me);
    const stack = seat === null || !this.state.seats[seat] ? 0 : this.state.seats[seat].stack;
    const low = r ? r.min : s ? s.buy_in_min : 1;
    const high = r ? r.max : s ? s.buy_in_max : 0;
    const min = Math.max(1, low - stack);
    const max = high ? Math.max(min, high - stack) : Math.max(min, this.balance());
    $("#sit-blind").hidden = true; // a reload has no first-hand choice (R-SEAT-3 is for sitting)
    this.openAmountDialog("table.reload", min, max, max, (amount) =>
      this.command({ type: "reload", amount }).then(() => this.ctx.refreshAccount()), "table.reload");
  }

  openAmountDialog(titleKey, min, max, value, then, confirmKey = "sit.confirm") {
    const d = $("#sit-dialog");
    setT($("#sit-title"), titleKey);
    setT($("#sit-confirm"), confirmKey);
    const noMax = this.summary && this.summary.buy_in_max === 0;
    if (noMax) setT($("#sit-range"), "rules.sit_range_no_max", { min: fmt(min) });
    else setT($("#sit-range"), "sit.range", { min: fmt(min), max: fmt(max) });
    const input = $("#sit-amount");
    input.min = String(min);
    input.max = String(max);
    input.value = String(value);
    this.dialogThen = then;
    d.showModal();
    input.focus();
    input.select();
  }

  bind() {
    $("#sit-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = $("#sit-amount");
      const v = Number(input.value);
      if (!Number.isInteger(v) || v < Number(input.min) || v > Number(input.max)) {
        this.ctx.toast("error.amount_range", { min: input.min, max: input.max });
        return;
      }
      $("#sit-dialog").close();
      if (this.dialogThen) this.dialogThen(v);
    });
    $("#sit-cancel").addEventListener("click", () => $("#sit-dialog").close());
    $("#t-sit").addEventListener("click", () => this.askSit());
    $("#t-sitout").addEventListener("click", () => this.command({ type: "sit_out" }));
    $("#t-sitin").addEventListener("click", () => this.command({ type: "sit_in", post_blinds: true }));
    $("#t-sitin-wait").addEventListener("click", () => this.command({ type: "sit_in", post_blinds: false }));
    $("#t-postnow").addEventListener("click", () => this.command({ type: "sit_in", post_blinds: true }));
    $("#t-leave").addEventListener("click", async () => {
      const ack = await this.command({ type: "leave" });
      if (ack.accepted) this.ctx.refreshAccount();
    });
    $("#t-reload").addEventListener("click", () => this.askReload());
    $("#t-lobby").addEventListener("click", () => this.ctx.go("#/lobby"));
    // Narrow screens: the hand log and the chat live in a drawer over the table.
    const drawer = (open) => {
      document.body.classList.toggle("drawer-open", open);
      $("#t-drawer").setAttribute("aria-expanded", String(open));
      if (open) $("#log").scrollTop = $("#log").scrollHeight; // the newest line in view
    };
    $("#t-drawer").addEventListener("click", () => drawer(!document.body.classList.contains("drawer-open")));
    $("#drawer-close").addEventListener("click", () => drawer(false));
    $("#a-fold").addEventListener("click", () => this.act("fold"));
    $("#a-check").addEventListener("click", () => this.act("check"));
    $("#a-call").addEventListener("click", () => this.act("call"));
    $("#a-raise").addEventListener("click", () => this.raise());
    $("#a-show").addEventListener("click", () => this.show(true));
    $("#a-muck").addEventListener("click", () => this.show(false));
    $("#a-draw").addEventListener("click", () => this.draw());
    $("#a-bringin").addEventListener("click", () => this.act("bring_in"));
    $("#a-split").addEventListener("click", () => this.act("offer_split"));
    $("#a-accept").addEventListener("click", () => this.act("accept_split"));
    $("#a-decline").addEventListener("click", () => this.act("decline_split"));
    const range = $("#amount-range");
    const num = $("#amount");
    range.addEventListener("input", () => {
      num.value = range.value;
    });
    num.addEventListener("input", () => {
      range.value = num.value;
    });
    num.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        this.raise();
      }
    });
    for (const b of document.querySelectorAll("[data-preset]")) {
      b.addEventListener("click", () => this.preset(b.dataset.preset));
    }
    $("#chat-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = $("#chat-text").value.trim();
      if (!text) return;
      const ack = await this.command({ type: "chat", text });
      if (ack.accepted) $("#chat-text").value = "";
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  // -- sizing -----------------------------------------------------------------------------

  presetAmount(kind) {
    const lg = this.state.legal;
    const h = this.state.hand;
    const pos = myPosition(this.state, this.me);
    const myBet = h && h.players[pos] ? h.players[pos].bet : 0;
    const toCall = lg.can_call ? lg.call : 0;
    const maxBet = myBet + toCall;
    const potAfterCall = (h ? h.pot : 0) + toCall;
    let v;
    if (kind === "min") v = lg.min_raise;
    else if (kind === "max") v = lg.max_raise;
    else if (kind === "pot") v = maxBet + potAfterCall;
    else v = maxBet + Math.floor(potAfterCall / 2);
    return Math.max(lg.min_raise, Math.min(lg.max_raise, v));
  }

  preset(kind) {
    const lg = this.state && this.state.legal;
    if (!lg || !lg.can_raise) return;
    const v = this.presetAmount(kind);
    $("#amount").value = String(v);
    $("#amount-range").value = String(v);
    this.renderBar();
  }

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if ($("#view-table").hidden || document.querySelector("dialog[open]")) return;
    const tag = (ev.target && ev.target.tagName) || "";
    const inField = ["INPUT", "TEXTAREA", "SELECT"].includes(tag) && ev.target.id !== "amount-range";
    if (inField && ev.target.id !== "amount") return;
    if (ev.target.id === "amount" && !["Enter", "Escape"].includes(ev.key)) return;
    const lg = this.state && this.state.legal;
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (k === "?") {
      $("#help-dialog").showModal();
      ev.preventDefault();
      return;
    }
    if (!lg || this.busy) return;
    let done = true;
    if (k === "f" && lg.can_fold) this.act("fold");
    else if (k === "c" && lg.can_check) this.act("check");
    else if (k === "c" && lg.can_call) this.act("call");
    else if (k === "i" && lg.can_bring_in) this.act("bring_in");
    else if (k === "p" && lg.can_offer_split) this.act("offer_split");
    else if (k === "y" && lg.split_answer) this.act("accept_split");
    else if (k === "n" && lg.split_answer) this.act("decline_split");
    else if ((k === "b" || k === "r") && lg.can_raise) {
      $("#amount").focus();
      $("#amount").select();
    } else if (k === "Enter" && lg.can_raise) this.raise();
    else if (k === "Escape") $("#amount").blur();
    else if ((k === "ArrowUp" || k === "ArrowDown") && lg.can_raise) {
      const bb = this.bigBlind();
      const v = Number($("#amount").value) + (k === "ArrowUp" ? bb : -bb);
      $("#amount").value = String(Math.max(lg.min_raise, Math.min(lg.max_raise, v)));
      $("#amount-range").value = $("#amount").value;
    } else if (k === "s" && lg.show_or_muck) this.show(true);
    else if (k === "m" && lg.show_or_muck) this.show(false);
    else if (k === "d" && lg.can_draw) this.draw();
    else if (k === "t" && !$("#a-timebank").hidden) this.tools.useBank();
    else done = false;
    if (done) ev.preventDefault();
  }

  bigBlind() {
    const s = this.summary;
    if (s && s.stakes) return Number(s.stakes.split("/")[1]) || 1;
    const p = this.ctx.privateSpecs.get(this.tableId);
    return p ? p.big_blind : 1;
  }

  // -- clock ------------------------------------------------------------------------------

  remaining() {
    const s = this.state;
    return s ? this.clock.remaining(s.deadline) : null;
  }

  option(k) {
    return !this.ctx.options || this.ctx.options.values[k];
  }

  tick() {
    if (!this.state || $("#view-table").hidden) return;
    const left = this.remaining();
    // A warning tone once when your own clock runs low (5 s), if chosen in the options.
    const mine = this.state.legal && this.state.actorSeat === mySeat(this.state, this.me);
    if (mine && left !== null && left <= 5 && this.warned !== this.state.deadline) {
      this.warned = this.state.deadline;
      if (this.option("sound_clock")) this.ctx.sound.beep(880, 200);
    }
    for (const node of document.querySelectorAll(".seat .timer")) {
      const seat = Number(node.dataset.seat);
      if (seat === this.state.actorSeat && left !== null) {
        node.hidden = false;
        setRaw(node.querySelector(".secs"), `${Math.ceil(left)}`);
        node.querySelector(".bar").style.width = `${Math.min(100, (left / (this.span || CLOCK[this.profile] || 30)) * 100)}%`;
      } else {
        node.hidden = true;
      }
    }
    this.naiko.tick();
  }

  // -- rendering --------------------------------------------------------------------------

  render() {
    if (!this.state) return;
    const s = this.state;
    const sum = this.summary;
    setRaw($("#table-title"), sum ? sum.name : this.tableId);
    const info = $("#table-info");
    const priv = this.ctx.privateSpecs.get(this.tableId);
    const code = this.codes.get(this.tableId) || (priv && priv.code);
    if (sum && sum.private && code) setT(info, "table.info_private", { game: t(`game.${sum.game}`), stakes: sum.stakes, n: s.handNo, code });
    else if (sum) setT(info, "table.info", { game: t(`game.${sum.game}`), stakes: sum.stakes, n: s.handNo });
    else if (priv) setT(info, "table.info_private", { game: t(`game.${priv.game}`), stakes: `${priv.small_blind}/${priv.big_blind}`, n: s.handNo, code: priv.code });
    else setT(info, "table.info_short", { n: s.handNo });
    this.renderSeats();
    const mine = this.ctx.arcade && this.me ? this.ctx.arcade.lookOf(this.me) : null;
    const felt = mine && this.ctx.arcade.colour(mine.felt);
    if (felt) $("#felt").style.setProperty("--felt", felt);
    else $("#felt").style.removeProperty("--felt");
    this.renderCenter();
    this.renderResults();
    this.renderLog();
    this.renderButtons();
    this.renderBar();
    this.pre.render();
    this.tools.renderAway();
    this.renderChatTools();
    this.naiko.render();
    this.tick();
  }

  maxSeats() {
    const sum = this.summary;
    if (sum) return sum.seats;
    const p = this.ctx.privateSpecs.get(this.tableId);
    if (p) return p.seats;
    const seats = Object.keys(this.state.seats).map(Number);
    return Math.max(6, ...seats.map((x) => x + 1));
  }

  renderSeats() {
    const s = this.state;
    const felt = $("#felt");
    for (const n of felt.querySelectorAll(".seat")) n.remove();
    const n = this.maxSeats();
    const mine = mySeat(s, this.me);
    const rot = mine === null ? 0 : mine;
    for (let seat = 0; seat < n; seat += 1) {
      const angle = Math.PI / 2 + ((seat - rot) * 2 * Math.PI) / n;
      const x = 50 + 42 * Math.cos(angle);
      const y = 50 + 40 * Math.sin(angle);
      const node = this.seatNode(seat);
      node.style.left = `${x}%`;
      node.style.top = `${y}%`;
      felt.append(node);
    }
  }

  seatNode(seat) {
    const s = this.state;
    const info = s.seats[seat];
    const pos = s.handSeats.indexOf(seat);
    const hp = s.hand && pos >= 0 ? s.hand.players[pos] : null;
    const isMe = info && info.player_id === this.me;
    const node = el("div", {
      class: `seat${info ? "" : " empty"}${isMe ? " me" : ""}${s.actorSeat === seat ? " acting" : ""}${hp && hp.folded ? " folded" : ""}`,
      dataset: { seat: String(seat) },
    });
    if (!info) {
      if (this.ctx.account && mySeat(s, this.me) === null && this.live) {
        node.append(el("button", { type: "button", class: "sit-here", t: "table.sit_here",
          params: { n: seat + 1 }, onclick: () => this.askSit(seat) }));
      } else {
        node.append(el("span", { class: "muted small", t: "table.empty_seat", params: { n: seat + 1 } }));
      }
      return node;
    }
    const stack = hp ? hp.stack : info.stack;
    const look = this.ctx.arcade ? this.ctx.arcade.lookOf(info.player_id) : null;
    const back = look && this.ctx.arcade.colour(look.card_back);
    if (back) node.style.setProperty("--card-back", back);
    const head = el("div", { class: "seat-head" },
      look ? avatarImg(look) : null,
      el("span", { class: "name", raw: info.name || info.player_id }),
      info.is_bot ? el("span", { class: "tag tag-bot", t: "table.bot" }) : null,
      s.button === seat ? el("span", { class: "dealer", raw: "D", attrT: { "aria-label": "table.dealer", title: "table.dealer" } }) : null);
    node.append(head);
    node.append(el("div", { class: "stack" }, el("span", { class: "sr-only", t: "table.stack" }), el("span", { class: "chips", raw: fmt(stack) })));
    if (hp && hp.cards.length) {
      const row = cardRow(hp.cards);
      if (isMe && s.legal && s.legal.can_draw) {
        row.classList.add("selectable");
        for (const svgNode of row.children) {
          const code = svgNode.dataset.card;
          svgNode.setAttribute("tabindex", "0");
          svgNode.setAttribute("role", "checkbox");
          svgNode.setAttribute("aria-checked", String(this.discards.has(code)));
          if (this.discards.has(code)) svgNode.classList.add("selected");
          const toggle = () => {
            if (this.discards.has(code)) this.discards.delete(code);
            else if (this.discards.size < s.legal.max_discards) this.discards.add(code);
            this.render();
          };
          svgNode.addEventListener("click", toggle);
          svgNode.addEventListener("keydown", (ev) => {
            if (ev.key === " ") {
              ev.preventDefault();
              toggle();
            }
          });
        }
      }
      markWinning(row, this.winningCards(seat));
      node.append(row);
    }
    const status = [];
    if (hp && hp.folded) status.push("table.folded");
    else if (hp && hp.all_in) status.push("table.all_in");
    if (info.busted) status.push("table.busted");
    else if (info.sitting_out) status.push("table.sitting_out");
    if (info.disconnected_at !== null && info.disconnected_at !== undefined) status.push("table.disconnected");
    const shown = hp && hp.handName ? hp.handName.map((x) => handName(x)).join(" / ") : "";
    // the last action says nothing more once the hand is shown down
    if (hp && hp.last && !hp.folded && !hp.all_in && !shown) status.push(`table.last.${hp.last}`);
    // One line under the cards (statuses, then the hand shown), cut with an ellipsis and
    // whole in its tooltip: a seat keeps its height whatever happens, so seats never grow
    // into each other on a short screen.
    if (status.length || shown) {
      const line = el("div", { class: "seat-line" },
        ...status.map((k) => el("span", { class: "status", t: k })),
        shown ? el("span", { class: "hand-name", raw: shown }) : null);
      node.append(line);
      line.title = [...line.children].map((n) => n.textContent.trim()).join(" · ");
    }
    if (hp && hp.bet > 0) node.append(el("div", { class: "bet" }, el("span", { class: "sr-only", t: "table.bet" }), el("span", { raw: fmt(hp.bet) })));
    node.append(el("div", { class: "timer", dataset: { seat: String(seat) }, hidden: true },
      el("div", { class: "bar" }), el("span", { class: "secs", raw: "" })));
    return node;
  }

  renderCenter() {
    const s = this.state;
    const board = clear($("#board"));
    const pots = clear($("#pots"));
    if (!s.hand) {
      if (s.voided) pots.append(el("span", { t: "table.voided" }));
      else if (Object.keys(s.seats).length < 2) pots.append(el("span", { class: "muted", t: "table.waiting" }));
      return;
    }
    for (const c of s.hand.board) board.append(cardSvg(c));
    markWinning(board, this.winningCards(null));
    const list = s.hand.phase === "ended" ? [] : sidePots(s.hand.players);
    if (list.length <= 1) {
      if (s.hand.pot > 0) pots.append(el("div", { class: "pot" }, el("span", { t: "table.pot" }), " ", el("strong", { raw: fmt(s.hand.pot) })));
    } else {
      list.forEach((p, i) => {
        pots.append(el("div", { class: "pot" },
          el("span", { t: i === 0 ? "table.main_pot" : "table.side_pot", params: { n: i } }), " ",
          el("strong", { raw: fmt(p.amount) })));
      });
    }
  }

  /** The codes of the winning five cards at the showdown: those of ``seat``'s hand, or
   *  (``seat`` null) those of every winner, for the board. Empty outside a showdown. */
  winningCards(seat) {
    const r = this.state.results;
    const out = new Set();
    if (!r) return out;
    for (const a of r.awards) {
      if (seat !== null && a.seat !== seat) continue;
      for (const c of a.cards || []) out.add(c);
    }
    return out;
  }

  renderResults() {
    const box = $("#results");
    const r = this.state.results;
    clear(box);
    if (!r || !r.awards.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    // An uncontested pot is "Pot won", not a showdown; pots are "the main pot" and
    // "side pot 1…" when there are several.
    const contested = r.awards.some((a) => a.hand);
    box.append(el("h2", { t: contested ? "results.title" : "results.uncontested" }));
    const several = r.awards.some((a) => a.pot > 0);
    const ul = el("ul");
    for (const a of r.awards) {
      const key = !several ? "results.won_pot" : a.pot === 0 ? "results.won_main" : "results.won_side";
      ul.append(el("li", { class: "award", dataset: { pot: String(a.pot) } },
        el("strong", { raw: a.name }), " ",
        el("span", { t: key, params: { amount: fmt(a.amount), n: a.pot } }),
        a.share === "low" ? el("span", { t: "results.low" }) : null, " ",
        a.hand ? el("span", { t: "results.with" }) : null,
        a.hand ? el("span", { class: "hand-name", raw: ` ${handName(a.hand)}` }) : null));
    }
    box.append(ul);
  }

  renderLog() {
    const ol = clear($("#log"));
    for (const entry of this.state.log.slice(-14)) {
      const params = { ...entry.params };
      if (params.street) params.street = t(`street.${params.street}`);
      if (params.action) params.action = t(`bar.${params.action}`);
      ol.append(el("li", { t: entry.key, params }));
    }
    ol.scrollTop = ol.scrollHeight; // the newest line stays in view
  }

  renderButtons() {
    const s = this.state;
    const seat = mySeat(s, this.me);
    const info = seat === null ? null : s.seats[seat];
    $("#t-sit").hidden = seat !== null || !this.ctx.account || !this.live;
    $("#t-sitout").hidden = !info || info.sitting_out;
    // busted: no chips to sit in with; the seat offers Reload and Leave (R-SEAT-1)
    $("#t-sitin").hidden = !info || !info.sitting_out || !!info.busted;
    $("#t-reload").hidden = !info;
    $("#t-leave").hidden = !info;
    this.renderBlindChoice(info);
  }

  renderBar() {
    const bar = $("#actionbar");
    const s = this.state;
    const lg = s && s.legal && s.actorSeat === mySeat(s, this.me) ? s.legal : null;
    bar.hidden = !lg;
    this.tools.renderBank(lg);
    if (!lg) return;
    bar.classList.toggle("busy", this.busy);
    const showdown = lg.show_or_muck;
    const vis = (id, on) => {
      const b = $(id);
      b.hidden = !on;
      b.disabled = this.busy || !on;
    };
    vis("#a-fold", lg.can_fold && !showdown);
    vis("#a-check", lg.can_check && !showdown);
    vis("#a-call", lg.can_call && !showdown);
    vis("#a-raise", lg.can_raise && !showdown);
    vis("#a-show", showdown);
    vis("#a-muck", showdown);
    vis("#a-draw", lg.can_draw);
    // Stud's bring-in (R-POS-5) and the 32-Card Draw split (R-DRAW-5), when legal.
    vis("#a-bringin", !!lg.can_bring_in && !showdown);
    vis("#a-split", !!lg.can_offer_split && !showdown);
    vis("#a-accept", !!lg.split_answer);
    vis("#a-decline", !!lg.split_answer);
    $("#split-help").hidden = !lg.split_answer;
    $("#draw-help").hidden = !lg.can_draw;
    if (lg.can_call) setT($("#a-call-label"), "bar.call_n", { amount: fmt(lg.call) });
    if (lg.can_bring_in) setT($("#a-bringin-label"), "bar.bring_in_n", { amount: fmt(lg.bring_in) });
    const sizing = $("#sizing");
    // Fixed limit (or a single legal size): Bet/Raise at that amount, no slider or box.
    const fixed = lg.can_raise && lg.min_raise === lg.max_raise;
    sizing.hidden = !lg.can_raise || showdown || fixed;
    if (lg.can_draw) setT($("#a-draw-label"), this.discards.size ? "bar.draw_n" : "bar.stand_pat", { n: this.discards.size });
    if (lg.can_raise) {
      const range = $("#amount-range");
      const num = $("#amount");
      for (const x of [range, num]) {
        x.min = String(x === num ? lowestAmount(lg) : lg.min_raise);
        x.max = String(lg.max_raise);
        x.disabled = this.busy;
      }
      let v = Number(num.value);
      if (Number.isInteger(v) && v > lg.max_raise && num.dataset.turn === String(s.turnVersion)) v = lg.max_raise;
      if (countsAs(lg, v).kind === "invalid" || num.dataset.turn !== String(s.turnVersion)) {
        v = lg.min_raise;
        num.value = String(v);
        num.dataset.turn = String(s.turnVersion);
      }
      range.value = String(v);
      const h = s.hand;
      const facing = h && h.players.some((p) => p.bet > 0);
      setT($("#a-raise-label"), facing ? "bar.raise_n" : "bar.bet_n", { amount: fmt(v) });
      this.renderAmountHint(lg, v);
      num.oninput = () => {
        // An amount over the maximum is clamped in the box at once (not refused later).
        if (Number(num.value) > lg.max_raise) num.value = String(lg.max_raise);
        range.value = num.value;
        setT($("#a-raise-label"), facing ? "bar.raise_n" : "bar.bet_n", { amount: num.value });
        this.renderAmountHint(lg, Number(num.value));
      };
      range.oninput = () => {
        num.value = range.value;
        setT($("#a-raise-label"), facing ? "bar.raise_n" : "bar.bet_n", { amount: range.value });
        this.renderAmountHint(lg, Number(range.value));
      };
      // Pot limit: the maximum is the pot, so its preset says "Pot" (never more than the
      // pot maximum); no-limit keeps Pot and All-in apart.
      const potLimit = ["pot_limit", "half_pot_limit"].includes(h && h.structure);
      for (const b of document.querySelectorAll("[data-preset]")) {
        const kind = b.dataset.preset;
        const pv = this.presetAmount(kind);
        b.disabled = this.busy;
        if (kind === "max") setT(b, potLimit ? (h.structure === "pot_limit" ? "bar.pot" : "bar.max") : "bar.all_in");
        if (potLimit && kind === "pot") b.hidden = true;
        else b.hidden = kind !== "min" && kind !== "max" && (pv <= lg.min_raise || pv >= lg.max_raise);
      }
    }
  }

  /** Under the amount box, what the amount will count as before it is sent (R-BET-9). */
  renderAmountHint(lg, v) {
    const hint = $("#amount-hint");
    if (!hint) return;
    const what = countsAs(lg, v);
    hint.hidden = what.kind !== "call" && what.kind !== "round_up";
    if (what.kind === "call") setT(hint, lg.can_call ? "rules.counts_as_call" : "rules.counts_as_check");
    else if (what.kind === "round_up") setT(hint, "rules.raised_to", { amount: fmt(what.to) });
  }

  renderChatTools() {
    const arcade = this.profile === "arcade";
    $("#chat-form").hidden = arcade || !this.ctx.account;
    const shown = arcade && !!this.ctx.account;
    const mine = shown && this.ctx.arcade ? this.ctx.arcade.lookOf(this.me) : null;
    const set = mine && mine.emotes === "emotes_party" ? "party" : "basic";
    // drawn again only when they change, not at every event (see dom.redraw)
    redraw($("#canned"), JSON.stringify([shown, set]), (box) => {
      if (!shown) return;
      for (const c of CANNED) {
        box.append(el("button", { type: "button", t: `chat.canned.${c}`, onclick: () => this.command({ type: "chat", canned: c }) }));
      }
      for (const name of EMOTE_NAMES) {
        box.append(el("button", { type: "button", class: "emote", attrT: { "aria-label": `chat.emote.${name}`, title: `chat.emote.${name}` },
          onclick: () => this.command({ type: "chat", emote: name }) }, emoteImg(name, set)));
      }
    });
  }

  addChat(m) {
    const ul = $("#chat-lines");
    let body;
    if (m.text !== undefined) body = el("span", { raw: m.text });
    else if (m.canned !== undefined) body = el("span", { t: `chat.canned.${m.canned}` });
    else body = emoteImg(m.emote, m.emote_set === "emotes_party" ? "party" : "basic");
    ul.append(el("li", {}, el("strong", { raw: m.from }), el("span", { raw: ": " }), body));
    while (ul.children.length > 50) ul.firstChild.remove();
  }
}

/** Highlight the cards of ``row`` that are among ``codes`` (the winning five) and dim the
 *  others, only while a showdown highlight applies. */
function markWinning(row, codes) {
  if (!codes.size) return;
  for (const node of row.children) {
    const code = node.dataset ? node.dataset.card : "";
    node.classList.add(codes.has(code) ? "winning" : "not-winning");
  }
}

/** An http(s) origin from the server's ``url`` (anything else is refused: null). */
