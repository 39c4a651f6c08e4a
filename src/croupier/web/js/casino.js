// Texas Hold'em Bonus at a casino table (R-BONUS-1 … 5, docs/bonus.md): the felt with the
// ante, bonus, flop, turn and river boxes, the balance ("Solde") and bet ("Mise"), the chip
// buttons, clear / repeat, right-click on a box to take its bet back, the keyboard of the
// seed, the pay tables with their exact returns and an optional strategy hint.
//
// The bet slip lives here until "Deal": chips go on the ante and bonus boxes, the slip is
// sent as one casino_deal message; the server raises an ante under the minimum and says so.
import { $, clear, el, fmt, redraw, setRaw, setT } from "./dom.js";
import { cardSvg } from "./cards.js";
import { handName } from "./hands.js";
import { fledFrom, openAt, probeFled } from "./nodes.js";
import { t } from "./i18n.js";

const SPOTS = ["ante", "bonus", "flop", "turn", "river"];
const RETRY_MOVING_MS = 1000; // the casino taken over from a process that died: ask again
const DEFAULT_INFO = { ante_min: 2, ante_max: 1000, bonus_min: 1, bonus_max: 25, chips: [1, 5, 25, 100, 500] };

export class CasinoView {
  constructor(ctx) {
    this.ctx = ctx;
    this.tableId = null;
    this.state = null;
    this.info = DEFAULT_INFO;
    this.slip = { ante: 0, bonus: 0 };
    this.lastBets = null; // the bets of the last round dealt (repeat: from the 2nd round)
    this.chip = 5;
    this.hintKey = null;
    this.hintText = null;
    this.tick = null;
    this.lobbyRows = [];
    this.message = null;
    this.lastRound = 0;
    this.touched = false; // the slip was used since the last round ended (boxes show the slip)
    for (const spot of SPOTS) {
      const box = $(`#c-spot-${spot}`);
      box.addEventListener("click", () => this.place(spot));
      box.addEventListener("contextmenu", (ev) => {
        ev.preventDefault();
        this.takeBack(spot);
      });
    }
    $("#c-deal").addEventListener("click", () => this.deal());
    $("#c-clear").addEventListener("click", () => this.clearBet());
    $("#c-repeat").addEventListener("click", () => this.repeat());
    $("#c-play").addEventListener("click", () => this.decide("bet"));
    $("#c-fold").addEventListener("click", () => this.decide("check"));
    $("#c-sit").addEventListener("click", () => this.sit());
    $("#c-stand").addEventListener("click", () => this.stand());
    $("#c-lobby").addEventListener("click", () => ctx.go("#/lobby"));
    $("#c-hint-on").checked = localStorage.getItem("croupier-casino-hint") === "1";
    $("#c-hint-on").addEventListener("change", (ev) => {
      localStorage.setItem("croupier-casino-hint", ev.target.checked ? "1" : "0");
      this.hintKey = null;
      this.render();
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    this.renderChips();
  }

  // -- lobby ---------------------------------------------------------------------------

  onLobby(rows) {
    this.lobbyRows = rows || [];
    $("#casino-lobby").hidden = this.lobbyRows.length === 0;
    // drawn again only when the casino's tables changed, not at every lobby message
    redraw($("#casino-list"), JSON.stringify(this.lobbyRows), (list) => {
      for (const r of this.lobbyRows) {
        list.append(el("li", { class: "casino-row", dataset: { table: r.table_id } },
          el("span", { class: "casino-name", raw: r.name }),
          el("span", { class: "muted small", t: "casino.lobby_limits",
            params: { min: r.ante_min, max: r.ante_max, bmin: r.bonus_min, bmax: r.bonus_max } }),
          el("span", { class: "small", raw: `${r.players}/${r.seats}` }),
          el("button", { type: "button", class: "primary", t: "casino.open",
            onclick: () => {
              const hash = `#/casino/${encodeURIComponent(r.table_id)}`;
              // run by another process of the room: played there
              if (!(r.node_url && openAt(r.node_url, hash, { signedIn: !!this.ctx.account }))) this.ctx.go(hash);
            } })));
      }
    });
  }

  // -- connection ----------------------------------------------------------------------

  open(tableId) {
    if (this.tableId && this.tableId !== tableId) this.close();
    this.tableId = tableId;
    this.state = null;
    this.render();
    this.subscribe();
    clearInterval(this.tick);
    this.tick = setInterval(() => this.renderClock(), 250);
  }

  close() {
    clearTimeout(this.retry);
    this.moving = false;
    if (this.tableId && this.ctx.net) this.ctx.net.send({ type: "casino_unsubscribe", table_id: this.tableId });
    this.tableId = null;
    this.state = null;
    clearInterval(this.tick);
  }

  get active() {
    return !!this.tableId && !$("#view-casino").hidden;
  }

  onOpen() {
    if (this.tableId) this.subscribe();
  }

  async subscribe() {
    if (!this.ctx.net) return;
    const tableId = this.tableId;
    const wasSeated = this.state && this.state.you;
    clearTimeout(this.retry);
    const ack = await this.command({ type: "casino_subscribe" }, false);
    if (this.tableId !== tableId || ack.code === "disconnected") return; // (asked again on reconnection)
    if (!ack.accepted) {
      const url = ack.code === "table_elsewhere" && ack.data ? ack.data.url : null;
      const moving = ack.code === "table_restarting" || (!!url && fledFrom(url));
      if (moving || ack.code === "timeout") {
        // the casino's process died (this page fled it): it still holds the casino's
        // lease until that expires, then another process of the room takes it over; say
        // so once and ask again (and follow it back there if it answers again, restarted)
        if (moving && !this.moving) this.say("casino.moving", {}, "ok");
        this.moving = this.moving || moving;
        if (url) probeFled(url);
        this.retry = setTimeout(() => this.subscribe(), RETRY_MOVING_MS);
      } else if (ack.code !== "table_elsewhere") {
        this.say(this.errorKey(ack.code), ack.data || {}); // (elsewhere: the page went there)
      }
      return;
    }
    if (this.moving) this.say("casino.moved", {}, "ok");
    this.moving = false;
    // After a reconnection (or a server restart) a player who had a seat takes it again.
    if (wasSeated && this.ctx.account) await this.command({ type: "casino_sit" }, false);
  }

  onMessage(m) {
    if (m.table_id !== this.tableId) return;
    if (m.type === "casino_info") {
      this.info = m.info;
      this.renderChips();
      this.renderPaytable();
      return;
    }
    const before = this.state;
    this.state = m;
    if (m.last && m.last.round_no !== this.lastRound) {
      this.lastRound = m.last.round_no;
      this.touched = false;
      this.message = null;
    }
    if (before && before.phase !== "betting" && m.phase === "betting") this.hintKey = null;
    this.render();
  }

  async command(msg, report = true) {
    const ack = await this.ctx.net.command({ ...msg, table_id: this.tableId });
    if (!ack.accepted && ack.code === "table_elsewhere" && ack.data) {
      // run by another process of the room: played there
      if (openAt(ack.data.url, location.hash, { signedIn: !!this.ctx.account })) return ack;
    }
    if (!ack.accepted && report) this.say(this.errorKey(ack.code), ack.data || {});
    return ack;
  }

  errorKey(code) {
    const key = `casino.err.${code}`;
    return t(key) === key ? this.ctx.errorText(code) : key;
  }

  say(key, params = {}, kind = "error") {
    this.message = { key, params, kind };
    this.renderMessage();
  }

  // -- the slip --------------------------------------------------------------------------

  get betting() {
    const s = this.state;
    if (!s || !s.you) return false;
    const me = s.seats[s.you.seat];
    return s.phase === "betting" && !(me && me.ready);
  }

  myTurn() {
    const s = this.state;
    return !!(s && s.you && s.you.legal);
  }

  selectChip(value) {
    this.chip = value;
    this.renderChips();
  }

  place(spot) {
    if (!this.betting) return;
    if (spot !== "ante" && spot !== "bonus") return;
    const i = this.info;
    const next = this.slip[spot] + this.chip;
    if (spot === "ante" && next > i.ante_max) return this.say("casino.err.ante_too_large", { max: i.ante_max });
    if (spot === "bonus" && next > i.bonus_max) return this.say("casino.err.bonus_out_of_range", { min: i.bonus_min, max: i.bonus_max });
    const total = this.slip.ante + this.slip.bonus + this.chip;
    if (this.state.you && total > this.state.you.balance) return this.say("casino.err.insufficient_chips");
    this.slip[spot] = next;
    this.touched = true;
    this.message = null;
    this.render();
  }

  takeBack(spot) {
    if (!this.betting || !(spot in this.slip) || !this.slip[spot]) return;
    this.slip[spot] = 0;
    this.touched = true;
    this.say("casino.taken_back", { spot: t(`casino.spot.${spot}`) }, "ok");
    this.render();
  }

  clearBet() {
    const me = this.state && this.state.you ? this.state.seats[this.state.you.seat] : null;
    if (this.state && this.state.phase === "betting" && me && me.ready) {
      this.command({ type: "casino_cancel" }).then((ack) => {
        if (ack.accepted) {
          this.slip = { ante: me.ready.ante, bonus: me.ready.bonus };
          this.say("casino.cancelled", {}, "ok");
          this.render();
        }
      });
      return;
    }
    if (!this.betting) return;
    this.slip = { ante: 0, bonus: 0 };
    this.touched = true;
    this.message = null;
    this.render();
  }

  repeat() {
    if (!this.betting) return;
    if (!this.lastBets) return this.say("casino.err.no_previous_bet");
    const total = this.lastBets.ante + this.lastBets.bonus;
    if (this.state.you && total > this.state.you.balance) return this.say("casino.err.insufficient_chips");
    this.slip = { ...this.lastBets };
    this.touched = true;
    this.message = null;
    this.render();
  }

  async deal() {
    if (!this.betting) return;
    if (!this.slip.ante) return this.say(this.slip.bonus ? "casino.err.ante_required" : "casino.err.no_bet");
    const bets = { ...this.slip };
    $("#c-deal").disabled = true;
    const ack = await this.command({ type: "casino_deal", ante: bets.ante, bonus: bets.bonus });
    if (ack.accepted) {
      this.lastBets = { ante: ack.data.ante, bonus: ack.data.bonus };
      this.slip = { ante: 0, bonus: 0 };
      if (ack.data.raised) this.say("casino.raised", { min: ack.data.ante }, "ok");
      else this.message = null;
    }
    this.render();
  }

  /** "bet" means the betting move of the phase (play / bet), "check" the other (fold / check). */
  async decide(kind) {
    const s = this.state;
    if (!this.myTurn()) return;
    const moves = s.you.legal.moves;
    const move = kind === "bet" ? (s.phase === "preflop" ? "play" : "bet") : (s.phase === "preflop" ? "fold" : "check");
    if (!moves.includes(move)) return this.say("casino.err.insufficient_chips");
    $("#c-play").disabled = true;
    $("#c-fold").disabled = true;
    await this.command({ type: "casino_decide", move });
  }

  async sit() {
    if (!this.ctx.account) return this.ctx.toast("lobby.login_to_play");
    await this.command({ type: "casino_sit" });
  }

  async stand() {
    const ack = await this.command({ type: "casino_stand" });
    if (ack.accepted && ack.code === "after_round") this.say("casino.leaving", {}, "ok");
  }

  onKey(ev) {
    if (!this.active || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = ev.key;
    let done = true;
    if (key === "Enter") {
      if (this.myTurn()) this.decide("bet");
      else if (this.betting) this.deal();
      else done = false;
    } else if (key === "Delete" || key === "." || key === "Decimal") {
      this.clearBet();
    } else if (key === "0") {
      this.repeat();
    } else if (key === "-" || key === "Subtract") {
      if (this.myTurn()) this.decide("check");
    } else {
      done = false;
    }
    if (done) ev.preventDefault();
  }

  // -- hint ------------------------------------------------------------------------------

  async maybeHint() {
    const s = this.state;
    const on = $("#c-hint-on").checked;
    const box = $("#c-hint");
    if (!on || !this.myTurn()) {
      box.hidden = true;
      return;
    }
    const key = `${s.round_no}:${s.phase}`;
    if (this.hintKey === key) {
      this.renderHint();
      return;
    }
    this.hintKey = key;
    this.hintText = null;
    box.hidden = false;
    setT(box, "casino.hint_thinking");
    const ack = await this.command({ type: "casino_hint" }, false);
    if (this.hintKey !== key) return;
    if (!ack.accepted) {
      box.hidden = true;
      return;
    }
    this.hintText = ack.data.advice;
    this.renderHint();
  }

  renderHint() {
    const box = $("#c-hint");
    const a = this.hintText;
    box.hidden = !a;
    if (!a) return;
    if (a.wins + a.ties + a.losses > 0) {
      const n = a.wins + a.ties + a.losses;
      const pct = (x) => `${((100 * x) / n).toFixed(1)} %`;
      setT(box, "casino.hint_odds", { move: t(`casino.move.${a.move}`), win: pct(a.wins), tie: pct(a.ties), lose: pct(a.losses) });
    } else {
      setT(box, "casino.hint_preflop", { move: t(`casino.move.${a.move}`), hand: a.hand });
    }
  }

  // -- rendering -------------------------------------------------------------------------

  render() {
    if (!this.tableId) return;
    const s = this.state;
    const me = s && s.you ? s.seats[s.you.seat] : null;
    const seated = !!(s && s.you);
    $("#c-sit").hidden = seated || !s;
    $("#c-stand").hidden = !seated;
    if (s) setRaw($("#c-title"), s.name);
    this.renderStatus();
    this.renderFelt(me);
    this.renderBar(me);
    this.renderResult();
    this.renderMessage();
    this.maybeHint();
  }

  renderStatus() {
    const s = this.state;
    const box = $("#c-status");
    if (!s) return setT(box, "casino.connecting");
    if (s.phase === "betting") {
      if (s.gather_left !== null) return setT(box, "casino.gathering", { s: Math.ceil(s.gather_left) });
      return setT(box, s.you ? "casino.place_bets" : "casino.watching");
    }
    const actor = s.actor_seat !== null ? s.seats[s.actor_seat] : null;
    if (s.you && s.you.legal) return setT(box, `casino.your_turn_${s.phase}`);
    if (actor) return setT(box, "casino.waiting_for", { name: actor.name });
    return setT(box, `casino.phase.${s.phase}`);
  }

  renderClock() {
    const s = this.state;
    if (!s || !this.active) return;
    if (s.seconds_left !== null && s.phase !== "betting") {
      s.seconds_left = Math.max(0, s.seconds_left - 0.25);
      const box = $("#c-status");
      const actor = s.actor_seat !== null ? s.seats[s.actor_seat] : null;
      const secs = Math.ceil(s.seconds_left);
      if (s.you && s.you.legal) setT(box, `casino.your_turn_${s.phase}_clock`, { s: secs });
      else if (actor) setT(box, "casino.waiting_for_clock", { name: actor.name, s: secs });
    } else if (s.gather_left !== null && s.phase === "betting") {
      s.gather_left = Math.max(0, s.gather_left - 0.25);
      setT($("#c-status"), "casino.gathering", { s: Math.ceil(s.gather_left) });
    }
  }

  renderFelt(me) {
    const s = this.state;
    const showLast = s && s.phase === "betting" && s.last;
    // dealer's cards: hidden in a round, shown after it
    const dealer = clear($("#c-dealer-cards"));
    const board = clear($("#c-board"));
    setRaw($("#c-dealer-hand"), "");
    if (s && s.phase !== "betting") {
      dealer.append(cardSvg(null), cardSvg(null));
      for (const c of cardsOf(s.board)) board.append(cardSvg(c, { up: true }));
    } else if (showLast) {
      for (const c of cardsOf(s.last.dealer)) dealer.append(cardSvg(c, { up: true }));
      for (const c of cardsOf(s.last.board)) board.append(cardSvg(c, { up: true }));
      if (s.last.dealer_hand) setRaw($("#c-dealer-hand"), handName(s.last.dealer_hand));
    }
    for (let i = board.children.length; i < 5; i++) board.append(el("span", { class: "c-slot" }));
    // my cards and boxes
    const hole = clear($("#c-hole"));
    let stakes = { ante: this.slip.ante, bonus: this.slip.bonus, flop: 0, turn: 0, river: 0 };
    let mine = null;
    if (s && me && me.in_round) {
      for (const c of cardsOf(me.hole)) hole.append(cardSvg(c, { up: true }));
      stakes = me.stakes;
    } else if (s && me && me.ready) {
      stakes = { ante: me.ready.ante, bonus: me.ready.bonus, flop: 0, turn: 0, river: 0 };
    } else if (showLast && s.you) {
      mine = s.last.results.find((r) => r.seat === s.you.seat);
      if (mine && !this.touched) {
        for (const c of cardsOf(mine.hole)) hole.append(cardSvg(c, { up: true }));
        stakes = mine.stakes;
      } else if (mine) {
        for (const c of cardsOf(mine.hole)) hole.append(cardSvg(c, { small: true, up: true }));
      }
    }
    for (const spot of SPOTS) {
      const box = $(`#c-spot-${spot}`);
      const amount = stakes[spot] || 0;
      setRaw(box.querySelector(".c-spot-amount"), amount ? fmt(amount) : "");
      box.classList.toggle("has-bet", amount > 0);
      const open = this.betting && (spot === "ante" || spot === "bonus");
      box.classList.toggle("open", open);
      box.setAttribute("aria-disabled", open ? "false" : "true");
      box.setAttribute("aria-label", `${t(`casino.spot.${spot}`)}${amount ? ` ${amount}` : ""}`);
    }
    setRaw($("#c-my-hand"), mine && mine.hand && !this.touched ? handName(mine.hand) : "");
    // the other players
    const others = clear($("#c-others"));
    if (!s) return;
    for (const seat of s.seats) {
      if (!seat || (s.you && seat.seat === s.you.seat)) continue;
      const res = showLast ? s.last.results.find((r) => r.seat === seat.seat) : null;
      const cards = seat.in_round ? [null, null] : res ? cardsOf(res.hole) : [];
      const st = seat.in_round ? seat.stakes : seat.ready ? seat.ready : null;
      others.append(el("div", { class: `c-other${seat.to_act ? " acting" : ""}${seat.folded ? " folded" : ""}`, dataset: { seat: seat.seat } },
        el("div", { class: "c-other-name", raw: seat.name }),
        el("div", { class: "c-cards" }, cards.map((c) => cardSvg(c, { small: true, up: !!c }))),
        st ? el("div", { class: "small muted", t: "casino.other_stakes", params: { ante: st.ante, bonus: st.bonus, more: (st.flop || 0) + (st.turn || 0) + (st.river || 0) } }) : null,
        seat.ready && !seat.in_round ? el("div", { class: "small ok", t: "casino.ready" }) : null,
        res ? el("div", { class: `small ${res.net > 0 ? "win" : res.net < 0 ? "loss" : ""}`, t: `casino.other.${res.outcome}`, params: { net: signed(res.net) } }) : null));
    }
  }

  renderBar(me) {
    const s = this.state;
    const you = s && s.you;
    setRaw($("#c-balance"), you ? fmt(you.balance) : "-");
    let stake = this.slip.ante + this.slip.bonus;
    if (me && me.in_round) stake = SPOTS.reduce((a, k) => a + (me.stakes[k] || 0), 0);
    else if (me && me.ready) stake = me.ready.ante + me.ready.bonus;
    setRaw($("#c-stake"), fmt(stake));
    const betting = this.betting;
    const waiting = !!(s && s.phase === "betting" && me && me.ready);
    $("#c-chips").hidden = !you;
    for (const b of $("#c-chips").children) b.disabled = !betting;
    $("#c-deal").hidden = !you || !(betting || waiting);
    $("#c-deal").disabled = !betting; // an empty slip is refused with a message
    $("#c-clear").hidden = !you || !(betting || waiting);
    $("#c-clear").disabled = !(waiting || (betting && this.slip.ante + this.slip.bonus > 0));
    $("#c-repeat").hidden = !you || !(betting || waiting);
    $("#c-repeat").disabled = !betting || !this.lastBets;
    const turn = this.myTurn();
    $("#c-play").hidden = !turn;
    $("#c-fold").hidden = !turn;
    if (turn) {
      const pre = s.phase === "preflop";
      const amount = s.you.legal.amount;
      setT($("#c-play-label"), pre ? "casino.play_amount" : "casino.bet_amount", { n: fmt(amount) });
      setT($("#c-fold-label"), pre ? "casino.fold" : "casino.check");
      const bet = pre ? "play" : "bet";
      $("#c-play").disabled = !s.you.legal.moves.includes(bet);
      $("#c-fold").disabled = false;
    }
  }

  renderResult() {
    const s = this.state;
    const box = $("#c-result");
    const res = s && s.you && s.phase === "betting" && s.last ? s.last.results.find((r) => r.seat === s.you.seat) : null;
    if (!res) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    clear(box);
    box.dataset.round = s.last.round_no;
    const lines = [
      ["ante", res.ante_net], ["flop", res.flop_net], ["turn", res.turn_net], ["river", res.river_net],
    ];
    box.append(
      el("h2", { class: res.net > 0 ? "win" : res.net < 0 ? "loss" : "", t: `casino.outcome.${res.outcome}`, params: { net: signed(res.net) } }),
      el("ul", { class: "c-lines" },
        lines.filter(([k]) => res.stakes[k]).map(([k, v]) => el("li", {},
          el("span", { t: `casino.spot.${k}` }), " ", el("span", { class: v > 0 ? "win" : v < 0 ? "loss" : "", raw: v ? signed(v) : t("casino.push") }))),
        res.stakes.bonus ? el("li", {}, el("span", { t: "casino.spot.bonus" }), " ",
          el("span", { t: `casino.line.${res.bonus_line}` }), " ",
          el("span", { class: res.bonus_net > 0 ? "win" : "loss", raw: signed(res.bonus_net) })) : null),
      el("p", { class: "small muted", t: "casino.paid", params: { paid: fmt(res.paid), wagered: fmt(res.wagered) } }),
    );
  }

  renderMessage() {
    const box = $("#c-message");
    const s = this.state;
    let m = this.message;
    if (!m && s && s.you) {
      const n = (s.notices || []).find((x) => x.seat === s.you.seat);
      if (n && n.code === "timed_out") m = { key: `casino.timed_out_${n.move}`, params: {}, kind: "error" };
      else if (n) m = { key: this.errorKey(n.code), params: {}, kind: "error" };
    }
    if (!m) {
      box.textContent = "";
      box.className = "c-message";
      return;
    }
    setT(box, m.key, m.params);
    box.className = `c-message ${m.kind}`;
  }

  renderChips() {
    const box = clear($("#c-chips"));
    for (const v of this.info.chips) {
      box.append(el("button", {
        type: "button",
        class: `c-chip c-chip-${v}${v === this.chip ? " selected" : ""}`,
        "aria-pressed": v === this.chip ? "true" : "false",
        dataset: { chip: v },
        raw: v,
        onclick: () => this.selectChip(v),
      }));
    }
  }

  renderPaytable() {
    const body = clear($("#c-bonus-table tbody"));
    for (const line of this.info.bonus_lines || []) {
      body.append(el("tr", {}, el("th", { scope: "row", t: `casino.line.${line.key}` }),
        el("td", { t: "casino.n_to_one", params: { n: line.pays } })));
    }
    const ret = clear($("#c-returns tbody"));
    const r = this.info.returns;
    if (!r) return;
    const pct = (x) => `${(100 * x).toFixed(4)} %`;
    ret.append(el("tr", {}, el("th", { scope: "row", t: "casino.return_bonus" }), el("td", { raw: pct(r.bonus) })));
    for (const f of r.main) {
      ret.append(el("tr", { dataset: { strategy: f.strategy } }, el("th", { scope: "row", t: `casino.strategy.${f.strategy.replace(/[ ,]+/g, "_")}` }),
        el("td", { raw: pct(f.ev) })));
    }
  }
}

function cardsOf(text) {
  if (!text) return [];
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

function signed(n) {
  return n > 0 ? `+${fmt(n)}` : n < 0 ? `\u2212${fmt(-n)}` : "0";
}
