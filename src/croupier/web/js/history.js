// The player's hands: a list, a step-by-step replayer (from the hand's archived events,
// redacted for us: hand names and side pots as the table showed them; the PHH record if
// the events cannot be had) and downloads as PHH and PokerStars text.
import { api } from "./api.js";
import { cardRow } from "./cards.js";
import { $, clear, el, fmt, setT } from "./dom.js";
import { handName } from "./hands.js";
import { currentLang, t } from "./i18n.js";
import { parsePhh, replay } from "./phh.js";
import { replayRecord } from "./replay.js";

/** The game's name from an archived hand's `game` ("nlhe 1/2 room"). */
function gameName(h) {
  const key = `game.${String(h.game).split(" ")[0]}`;
  return t(key);
}

export class History {
  constructor(ctx) {
    this.ctx = ctx;
    this.rows = [];
    this.states = null;
    this.step = 0;
    this.current = null;
    $("#r-first").addEventListener("click", () => this.go(0));
    $("#r-prev").addEventListener("click", () => this.go(this.step - 1));
    $("#r-next").addEventListener("click", () => this.go(this.step + 1));
    $("#r-last").addEventListener("click", () => this.go(Infinity));
    $("#r-close").addEventListener("click", () => {
      this.states = null;
      $("#replayer").hidden = true;
    });
    // The arrow keys step through the hand while the replayer is open (Home/End: ends).
    document.addEventListener("keydown", (ev) => {
      if ($("#view-history").hidden || $("#replayer").hidden || !this.states) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
      const moves = { ArrowRight: this.step + 1, ArrowLeft: this.step - 1, Home: 0, End: Infinity };
      if (!(ev.key in moves)) return;
      ev.preventDefault();
      this.go(moves[ev.key]);
    });
  }

  async load() {
    const logged = !!this.ctx.account;
    $("#history-login").hidden = logged;
    $("#hands").hidden = !logged;
    if (!logged) {
      this.rows = [];
      this.render();
      return;
    }
    try {
      this.rows = await api.hands(100);
    } catch (e) {
      this.ctx.toast(this.ctx.errorText(e.code));
      this.rows = [];
    }
    this.render();
  }

  render() {
    const body = clear($("#hands tbody"));
    for (const h of this.rows) {
      const base = `/api/hands/${encodeURIComponent(h.table_id)}/${encodeURIComponent(h.hand_id)}`;
      const when = new Date(h.ended_ms).toLocaleString(currentLang() === "fr" ? "fr-FR" : "en-GB");
      body.append(el("tr", { dataset: { hand: `${h.table_id}/${h.hand_id}` } },
        el("td", {}, el("span", { raw: when })),
        el("td", {}, this.tableName(h)),
        el("td", {}, el("span", { raw: `#${h.hand_id}` })),
        el("td", { class: "hand-cards" }, cardRow(h.cards || [], { small: true }),
          h.board && h.board.length ? el("span", { class: "board-sep", raw: "|" }) : null,
          h.board && h.board.length ? cardRow(h.board, { small: true }) : null),
        el("td", { class: h.net > 0 ? "win" : h.net < 0 ? "loss" : "" }, el("span", { raw: `${h.net > 0 ? "+" : ""}${fmt(h.net)}` })),
        el("td", {}, el("div", { class: "actions" },
          el("button", { type: "button", class: "replay", t: "history.replay", onclick: () => this.open(h) }),
          el("a", { href: `${base}.phh`, download: `${this.fileName(h)}.phh`, class: "button", t: "history.download_phh" }),
          el("a", { href: `${base}.txt`, download: `${this.fileName(h)}.txt`, class: "button", t: "history.download_txt" })))));
    }
    $("#hands-empty").hidden = !this.ctx.account || this.rows.length > 0;
    if (this.states) this.draw();
  }

  /** The table as the lobby named it; a private table by its game (its id holds its code). */
  tableName(h) {
    if (h.table_id.startsWith("private-")) return el("span", { t: "history.private_table", params: { game: gameName(h) } });
    return el("span", { raw: h.table_name || h.table_id });
  }

  fileName(h) {
    const table = h.table_id.startsWith("private-") ? `private-${h.game.split(" ")[0]}` : h.table_id;
    return `${table}-${h.hand_id}`;
  }

  async open(h) {
    try {
      this.states = replayRecord(await api.handRecord(h.table_id, h.hand_id));
      if (!this.states.length) throw new Error("no steps");
    } catch {
      try {
        this.states = replay(parsePhh(await api.handText(h.table_id, h.hand_id, "phh")));
      } catch (e) {
        this.ctx.toast(this.ctx.errorText(e.code || "bad_phh"));
        return;
      }
    }
    this.current = h;
    $("#replayer").hidden = false;
    const table = h.table_id.startsWith("private-") ? t("history.private_table", { game: gameName(h) }) : h.table_name || h.table_id;
    setT($("#replayer-title"), "replayer.title_n", { n: h.hand_id, table });
    this.go(0);
    // the replayer opens at the top of the page, focused for the arrow keys
    window.scrollTo(0, 0);
    $("#replayer").scrollIntoView({ block: "start" });
    $("#r-next").focus();
  }

  go(i) {
    if (!this.states) return;
    this.step = Math.max(0, Math.min(this.states.length - 1, i));
    this.draw();
  }

  draw() {
    const st = this.states[this.step];
    const box = clear($("#replay-table"));
    const pots = st.pots
      ? st.pots.map((amount, i) => el("span", { class: "replay-pot" },
        el("span", { t: i === 0 ? "table.main_pot" : "table.side_pot", params: { n: i } }), " ",
        el("strong", { raw: fmt(amount) })))
      : [el("span", { class: "replay-pot" }, el("span", { t: "table.pot" }), " ",
        el("strong", { raw: fmt(st.pot + st.bets.reduce((a, b) => a + b, 0)) }))];
    box.append(el("div", { class: "replay-board" }, cardRow(st.board), ...pots));
    const ul = el("ul", { class: "replay-players" });
    st.names.forEach((name, i) => {
      ul.append(el("li", { class: `${st.folded[i] ? "folded" : ""}${st.actor === i ? " acting" : ""}` },
        el("strong", { raw: name }), " ",
        el("span", { class: "chips", raw: fmt(st.stacks[i]) }),
        st.bets[i] ? el("span", { class: "bet", raw: fmt(st.bets[i]) }) : null,
        cardRow(st.cards[i], { small: true }),
        st.hands && st.hands[i] ? el("span", { class: "hand-name", raw: st.hands[i].map((x) => handName(x)).join(" / ") }) : null,
        st.folded[i] ? el("span", { class: "status", t: "table.folded" }) : null));
    });
    box.append(ul);
    if (st.awards && st.awards.length) {
      const won = el("ul", { class: "replay-awards" });
      for (const a of st.awards) {
        const key = a.hand ? (a.share === "low" ? "results.won_low" : "results.won_hand") : "results.won";
        won.append(el("li", { class: "award" }, el("strong", { raw: a.name }), " ",
          el("span", { t: key, params: { amount: fmt(a.amount), pot: a.pot + 1 } }),
          a.hand ? el("span", { class: "hand-name", raw: ` ${handName(a.hand)}` }) : null));
      }
      box.append(won);
    }
    const stepText = $("#replay-step");
    setT(stepText, "replayer.step", { i: this.step, n: this.states.length - 1 });
    const params = { ...st.note.params };
    if (params.street) params.street = t(`street.${params.street}`);
    if (params.action) params.action = t(`bar.${params.action}`);
    stepText.append(" ", el("span", { t: st.note.key, params }));
    $("#r-prev").disabled = this.step === 0;
    $("#r-first").disabled = this.step === 0;
    $("#r-next").disabled = this.step === this.states.length - 1;
    $("#r-last").disabled = this.step === this.states.length - 1;
  }
}
