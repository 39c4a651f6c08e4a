// The lobby: the table list with filters, join / watch, private tables with their
// invitation code and link (the arcade quick match is on the arcade page, js/arcade.js).
import { $, clear, el, fmt } from "./dom.js";

const SPREAD_GAMES = ["slhe"];
const GAMES = ["nlhe", "plhe", "hplhe", "flhe", "slhe", "plo", "nlo", "hplo", "flo", "plo8", "flo8", "nlo8",
  "7stud", "stud8", "razz", "soko", "5cd", "27td", "27sd", "badugi", "32cd", "shortdeck"];
const FILTERS = [
  ["game", "f-game", (r) => r.game, (v) => ({ t: `game.${v}` })],
  ["structure", "f-structure", (r) => r.structure, (v) => ({ t: `structure.${v}` })],
  ["stakes", "f-stakes", (r) => r.stakes, (v) => ({ raw: v })],
  ["seats", "f-seats", (r) => String(r.seats), (v) => ({ t: "lobby.n_seats", params: { n: v } })],
];

export class Lobby {
  constructor(ctx) {
    this.ctx = ctx;
    this.rows = [];
    this.filter = { game: "", structure: "", stakes: "", seats: "" };
    this.lastCreated = null;
    for (const [name, id] of FILTERS) {
      $(`#${id}`).addEventListener("change", (ev) => {
        this.filter[name] = ev.target.value;
        this.renderRows();
      });
    }
    const pg = $("#p-game");
    for (const g of GAMES) pg.append(el("option", { value: g, t: `game.${g}` }));
    pg.addEventListener("change", () => this.renderSpread());
    this.renderSpread();
    $("#private-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.createPrivate();
    });
    $("#join-code").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.joinCode($("#code-input").value.trim());
    });
    $("#invite-copy").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText($("#invite-link").value);
        ctx.toast("private.copied", {}, "ok");
      } catch {
        $("#invite-link").select();
      }
    });
    $("#invite-open").addEventListener("click", () => {
      if (this.lastCreated) this.openPrivate(this.lastCreated.table_id, this.lastCreated.code);
    });
  }

  onOpen() {
    this.ctx.net.send({ type: "subscribe" });
  }

  onLobby(msg) {
    this.rows = msg.tables;
    for (const r of this.rows) this.ctx.summaries.set(r.table_id, r);
    this.render();
  }

  render() {
    for (const [name, id, get, label] of FILTERS) {
      const sel = $(`#${id}`);
      const values = [...new Set(this.rows.map(get))].sort();
      // The options are rebuilt only when they change: a list open under the player's
      // pointer is not closed by the lobby's news (it comes every second).
      const key = JSON.stringify(values);
      if (sel.dataset.values !== key) {
        sel.dataset.values = key;
        clear(sel);
        sel.append(el("option", { value: "", t: "lobby.any" }));
        for (const v of values) sel.append(el("option", { value: v, ...label(v) }));
      }
      sel.value = values.includes(this.filter[name]) ? this.filter[name] : "";
      this.filter[name] = sel.value;
    }
    this.renderRows();
  }

  /** The table list, updated in place: a row whose table did not change is left as it is,
   * and a changed row keeps its buttons, so a click (or the keyboard's focus) on a button
   * is never lost to the lobby's news arriving under it. */
  renderRows() {
    const body = $("#tables tbody");
    const shown = this.rows.filter((r) =>
      FILTERS.every(([name, , get]) => !this.filter[name] || get(r) === this.filter[name]));
    const ids = new Set(shown.map((r) => r.table_id));
    const old = new Map();
    for (const tr of [...body.children]) {
      if (ids.has(tr.dataset.table)) old.set(tr.dataset.table, tr);
      else tr.remove();
    }
    let at = body.firstElementChild;
    for (const r of shown) {
      const tr = this.row(r, old.get(r.table_id));
      if (tr === at) at = at.nextElementSibling;
      else body.insertBefore(tr, at); // moved only when the order changed
    }
    $("#tables-empty").hidden = shown.length > 0;
  }

  /** The row of table ``r``: ``tr`` (its row now, if any) updated, or a new one. */
  row(r, tr) {
    const sig = JSON.stringify(r);
    if (tr && tr.dataset.sig === sig) return tr;
    const cells = [
      el("th", { scope: "row" }, el("span", { raw: r.name }),
        r.profile !== "room" ? el("span", { class: `tag tag-${r.profile}`, t: `profile.${r.profile}` }) : null),
      el("td", {}, el("span", { t: `game.${r.game}` })),
      el("td", {}, el("span", { raw: r.stakes })),
      el("td", {}, el("span", { raw: `${r.players}/${r.seats}` }),
        r.bots ? el("span", { class: "muted small", t: "lobby.bots", params: { n: r.bots } }) : null),
      el("td", {}, el("span", { raw: fmt(r.average_pot) })),
    ];
    const id = r.table_id;
    if (!tr) {
      const actions = el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", t: "lobby.play",
          onclick: () => this.play(this.rows.find((x) => x.table_id === id)) }));
      tr = el("tr", { dataset: { table: id } }, ...cells, el("td", {}, actions));
    } else {
      for (let i = 0; i < cells.length; i++) tr.children[i].replaceWith(cells[i]);
    }
    tr.dataset.sig = sig;
    const actions = tr.querySelector(".actions");
    actions.querySelector(".primary").disabled = r.players >= r.seats;
    const watch = actions.querySelector(".watch");
    if (r.spectators && !watch) {
      actions.append(el("button", { type: "button", class: "watch", t: "lobby.watch",
        onclick: () => this.ctx.go(`#/table/${encodeURIComponent(id)}`) }));
    } else if (!r.spectators && watch) {
      watch.remove();
    }
    return tr;
  }

  play(row) {
    if (!row) return; // gone from the lobby meanwhile
    // Arcade tables: the level message comes before any buy-in dialog (seed 000).
    if (row.profile === "arcade" && this.ctx.arcade && this.ctx.arcade.gate()) return;
    this.ctx.goSit(`#/table/${encodeURIComponent(row.table_id)}`);
  }

  onMatched(msg) {
    if (msg.seated) this.ctx.go(`#/table/${encodeURIComponent(msg.table_id)}`);
    else this.ctx.toast(this.ctx.errorText(msg.code));
  }

  async createPrivate() {
    const f = $("#private-form");
    const num = (id) => Number($(id).value);
    const spec = {
      type: "create_private",
      game: $("#p-game").value,
      profile: $("#p-profile").value,
      small_blind: num("#p-sb"),
      big_blind: num("#p-bb"),
      seats: num("#p-seats"),
      bots: $("#p-bots").checked,
      buy_in_min: num("#p-bmin"),
      buy_in_max: num("#p-bmax"),
    };
    const spread = $("#p-spread").value.trim();
    if (!$("#p-spread-row").hidden && spread) spec.spread = spread; // R-BET-5: "1-2-3"
    const ints = ["small_blind", "big_blind", "seats", "buy_in_min", "buy_in_max"];
    if (!ints.every((k) => Number.isInteger(spec[k]) && spec[k] >= 0)) {
      this.ctx.toast("error.bad_amount");
      return;
    }
    const btn = f.querySelector("button[type=submit]");
    btn.disabled = true;
    const ack = await this.ctx.net.command(spec);
    btn.disabled = false;
    if (!ack.accepted) {
      this.ctx.toast(this.ctx.errorText(ack.code));
      return;
    }
    const { table_id: tableId, code } = ack.data;
    this.lastCreated = { table_id: tableId, code };
    this.ctx.privateSpecs.set(tableId, { ...spec, code });
    $("#private-result").hidden = false;
    $("#invite-code").textContent = code;
    $("#invite-link").value = `${location.origin}${location.pathname}#/join/${code}`;
  }

  /** The spread-limit maxima field, for Spread-Limit games only (R-BET-5). */
  renderSpread() {
    const spread = SPREAD_GAMES.includes($("#p-game").value);
    $("#p-spread-row").hidden = !spread;
    $("#p-spread-help").hidden = !spread;
  }

  async joinCode(code) {
    if (!code) return;
    const ack = await this.ctx.net.command({ type: "join_private", code });
    if (!ack.accepted) {
      this.ctx.toast(this.ctx.errorText(ack.code));
      return;
    }
    // The server sends the table's settings (game, stakes, seats, buy-ins, profile, bots).
    if (ack.data.table) this.ctx.summaries.set(ack.data.table_id, ack.data.table);
    this.openPrivate(ack.data.table_id, code.toUpperCase());
  }

  openPrivate(tableId, code) {
    this.ctx.table.codes.set(tableId, code);
    this.ctx.go(`#/table/${encodeURIComponent(tableId)}`);
  }
}
