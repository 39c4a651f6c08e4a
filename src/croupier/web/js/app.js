// The client's entry point: languages, the connection and its banner, the account, and a
// hash router over the four views (lobby, table, history, account).
import { api } from "./api.js";
import { CasinoView } from "./casino.js";
import { Arcade } from "./arcade.js";
import { $, $$, fmt, setRaw, setT } from "./dom.js";
import { currentLang, initialLang, loadLanguages, onLangChange, setLang, t, translateAll } from "./i18n.js";
import { Connection, socketUrl } from "./net.js";
import { History } from "./history.js";
import { Lobby } from "./lobby.js";
import { MultiTable } from "./multitable.js";
import { arrivedFleeing, firstUp, openAt, parseKnew } from "./nodes.js";
import { Options } from "./options.js";
import { renderSeated } from "./seated.js";
import { Sound } from "./sound.js";
import { TableView } from "./tableview.js";
import { Tournaments } from "./tournaments.js";
import { TournamentHud } from "./tournamenthud.js";

const ctx = {
  net: null,
  account: null,
  welcome: null,
  peers: [], // the room's other processes (the welcome's): where to go on if this one dies
  sound: new Sound(),
  summaries: new Map(),
  privateSpecs: new Map(),
  toast,
  errorText,
  go,
  goSit,
  refreshAccount,
};

let toastTimer = null;
function toast(key, params = {}, kind = "error") {
  const box = $("#toast");
  setT(box, key, params);
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 5000);
}

/** The translation key of an error code (a generic message for unknown codes). */
function errorText(code) {
  const key = `error.${code}`;
  return t(key) === key ? "error.generic" : key;
}

function go(hash) {
  if (location.hash !== hash) location.hash = hash;
  else route();
}

/** Go to the table of ``hash`` and ask for its buy-in there: the dialog is the table's
 * once it is open (its range, its seats), never the one the page showed before. */
function goSit(hash) {
  arrivedToSit = true;
  go(hash);
}

function banner(status, detail) {
  const b = $("#banner");
  if (status === "connecting" && !detail.attempt && b.hidden) return; // a first connection
  if (status === "open") {
    if (!b.hidden && b.dataset.state !== "ok") {
      b.dataset.state = "ok";
      setT(b, "net.restored");
      setTimeout(() => {
        if (b.dataset.state === "ok") b.hidden = true;
      }, 1500);
    }
    return;
  }
  b.hidden = false;
  b.dataset.state = status;
  if (status === "lost") setT(b, "net.lost", { seconds: Math.max(1, Math.round(detail.delay / 1000)) });
  else if (status === "connecting") setT(b, detail.attempt ? "net.reconnecting" : "net.connecting");
  else if (status === "closed") setT(b, `net.closed.${[4001, 4002, 4003].includes(detail.code) ? detail.code : "other"}`);
}

// The session cookie is httponly: a flag remembers whether we logged in, so a guest's page
// never asks /api/me (and never logs a 401).
const SESSION_FLAG = "croupier.session";

/** Sent here by another process of the room (a table served here, tableview.js) with
 *  ``?signed_in=1``: the session cookie came along (cookies are per host, not per port), so
 *  ask /api/me as the page there did; a wrong hint only costs a 401. */
function arrivedSignedIn() {
  const params = new URLSearchParams(location.search);
  if (!["signed_in", "sit", "fled", "knew"].some((k) => params.has(k))) return;
  if (params.has("signed_in")) localStorage.setItem(SESSION_FLAG, "1");
  arrivedToSit = params.has("sit"); // the seat asked for there: the buy-in dialog here
  if (params.has("fled")) {
    arrivedFleeing(params.get("fled")); // the page's process there died (nodes.js)
    toast("net.moved_on", {}, "ok");
  }
  table.knew = parseKnew(params.get("knew")); // the table as the page there knew it
  params.delete("signed_in");
  params.delete("sit");
  params.delete("fled");
  params.delete("knew");
  const rest = params.toString() ? `?${params}` : "";
  window.history.replaceState(null, "", `${location.pathname}${rest}${location.hash}`);
}

let arrivedToSit = false;

async function refreshAccount() {
  if (!localStorage.getItem(SESSION_FLAG)) {
    ctx.account = null;
  } else {
    try {
      ctx.account = await api.me();
    } catch (e) {
      ctx.account = null;
      if (e.status === 401) localStorage.removeItem(SESSION_FLAG);
    }
  }
  renderAccount();
  return ctx.account;
}

function renderAccount() {
  const a = ctx.account;
  renderSeated(ctx);
  if (multi) multi.sync();
  if (ctx.options && ctx.options.key !== ctx.optionsFor) {
    ctx.optionsFor = ctx.options.key;
    ctx.options.load(); // this account's options
  }
  const who = $("#who");
  if (a) setRaw(who, a.name);
  else setT(who, "account.guest");
  $("#auth").hidden = !!a;
  $("#profile").hidden = !a;
  if (a) {
    setRaw($("#profile-name"), a.name);
    setRaw($("#acc-chips"), fmt(a.chips));
    setRaw($("#acc-diamonds"), fmt(a.diamonds));
    setRaw($("#acc-level"), a.level);
    setRaw($("#acc-xp"), fmt(a.experience));
    setRaw($("#acc-points"), fmt(a.points));
    setRaw($("#acc-hands"), fmt(a.hands_played));
    $("#exchange-amount").max = String(a.diamonds);
    if (arcade) arcade.renderAccount();
  }
}

function restart() {
  // A new session (login/logout) needs a new socket: the server reads the cookie at hello.
  if (ctx.net) ctx.net.stop();
  startNet();
}

/** The page's process stopped answering (its socket failed twice in a row): go on at
 * another process of the room that answers, on the same view (nodes.js). With none, the
 * socket keeps trying here. */
async function goOn(net) {
  if (goingOn || !ctx.peers.length) return;
  goingOn = true;
  const there = await firstUp(ctx.peers);
  if (there && ctx.net === net && net.status !== "open") {
    const st = table.state; // the table on screen, as known here: told there if it restarted
    const knew = table.tableId && st && st.epoch !== null ? { tableId: table.tableId, epoch: st.epoch } : null;
    openAt(there, location.hash || "#/lobby", { signedIn: !!ctx.account, fled: location.origin, knew });
    return; // the page is leaving
  }
  goingOn = false;
}

let goingOn = false;

function startNet() {
  const net = new Connection(socketUrl());
  ctx.net = net;
  net.addEventListener("status", (ev) => {
    if (ctx.net !== net) return; // an old socket closing after login/logout
    banner(ev.detail.status, ev.detail);
    if (ev.detail.status === "lost" && ev.detail.attempt >= 2) goOn(net);
    if (ev.detail.status === "open") {
      ctx.welcome = net.welcome;
      if (Array.isArray(net.welcome.peers)) ctx.peers = net.welcome.peers;
      lobby.onOpen();
      table.onOpen();
      casino.onOpen();
      multi.onOpen();
      arcade.onOpen();
    }
  });
  net.addEventListener("message", (ev) => {
    if (ctx.net !== net) return;
    const m = ev.detail;
    if (["snapshot", "event", "look"].includes(m.type)) arcade.noteLooks(m); // seats' looks
    if (m.type === "lobby") {
      lobby.onLobby(m);
      tournaments.onLobby(m);
      hud.onRows(m.tournaments);
      casino.onLobby(m.casino);
      arcade.onLobby(m);
    } else if (m.type === "casino_state" || m.type === "casino_info") casino.onMessage(m);
    else if (m.type === "matched") {
      arcade.onMatched(m);
      lobby.onMatched(m);
    } else if (m.type === "quick_match_status" || m.type === "level_up") arcade.onMessage(m);
    else if (m.type === "look") table.render();
    else if (m.type === "table_closed" && m.reason === "moved") {
      // served by another process of the room now: subscribe again to find it there
      if (table.tableId === m.table_id) table.subscribe(false);
      else if (multi.states.has(m.table_id)) multi.watch(m.table_id);
    } else if (m.type === "table_closed") toast("security.table_closed");
    else if (m.table_id && ["snapshot", "event", "subscribed", "chat", "table_info"].includes(m.type)) {
      if (!multi.onMessage(m)) table.onMessage(m); // a table in the background, or the one on screen
    }
    else if (m.type === "error" && !m.id) {
      if (!table.onError(m)) toast(errorText(m.code));
    }
  });
  net.start();
}

function bindAccount() {
  $("#login-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api.login($("#login-name").value.trim(), $("#login-password").value);
      localStorage.setItem(SESSION_FLAG, "1");
    } catch (e) {
      toast(errorText(e.code));
      return;
    }
    $("#login-password").value = "";
    await refreshAccount();
    restart();
    toast("account.welcome", { name: ctx.account ? ctx.account.name : "" }, "ok");
    go("#/lobby");
  });
  $("#signup-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("#signup-name").value.trim();
    const password = $("#signup-password").value;
    try {
      await api.register(name, password);
      await api.login(name, password);
      localStorage.setItem(SESSION_FLAG, "1");
    } catch (e) {
      toast(errorText(e.code));
      return;
    }
    $("#signup-password").value = "";
    await refreshAccount();
    restart();
    toast("account.created", { name }, "ok");
  });
  $("#logout").addEventListener("click", async () => {
    try {
      await api.logout();
    } catch (e) {
      toast(errorText(e.code));
    }
    localStorage.removeItem(SESSION_FLAG);
    ctx.account = null;
    renderAccount();
    table.close();
    restart();
    go("#/account");
  });
  $("#exchange-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const n = Number($("#exchange-amount").value);
    if (!Number.isInteger(n) || n < 1) {
      toast("error.bad_amount");
      return;
    }
    const btn = $("#exchange-form button");
    btn.disabled = true;
    try {
      ctx.account = await api.exchange(n, `x${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`);
      renderAccount();
      $("#exchange-amount").value = "";
      toast("account.exchanged", { n: fmt(n) }, "ok");
    } catch (e) {
      toast(errorText(e.code));
    } finally {
      btn.disabled = false;
    }
  });
}

let lobby;
let arcade;
let table;
let multi;
let history;
let tournaments;
let hud;
let casino;

function show(view) {
  for (const v of $$(".view")) v.hidden = v.id !== `view-${view}`;
  document.body.dataset.view = view; // the table page takes the whole viewport (css)
  for (const a of $$("nav a")) {
    if (a.dataset.view === view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function route() {
  const hash = location.hash || "#/lobby";
  const [, view, arg] = hash.split("/");
  if (view !== "casino" && casino.tableId) casino.close();
  if (view === "casino" && arg) {
    show("casino");
    casino.open(decodeURIComponent(arg));
  } else if (view === "table" && arg) {
    show("table");
    const from = table.tableId;
    table.open(decodeURIComponent(arg));
    if (arrivedToSit) {
      arrivedToSit = false;
      table.askSit();
    }
    hud.render();
    multi.switched(from);
    if (ctx.account) refreshAccount(); // the seats held: the tabs of the other tables
  } else if (view === "join" && arg) {
    show("lobby");
    lobby.joinCode(decodeURIComponent(arg));
  } else if (view === "tournaments") {
    show("tournaments");
    tournaments.render();
  } else if (view === "arcade") {
    show("arcade");
    arcade.openPage();
  } else if (view === "shop") {
    show("shop");
    arcade.openShop();
  } else if (view === "history") {
    show("history");
    history.load();
    tournaments.loadResults();
  } else if (view === "account") {
    show("account");
    refreshAccount();
  } else {
    show("lobby");
    if (ctx.account) refreshAccount(); // the seats held (back to the table)
  }
}

async function main() {
  await loadLanguages();
  setLang(initialLang());
  $("#lang").value = currentLang();
  $("#lang").addEventListener("change", (ev) => setLang(ev.target.value));
  $("#sound").checked = false;
  ctx.options = new Options(ctx);
  ctx.options.load();
  $("#sound").addEventListener("change", (ev) => {
    ctx.options.set("sound_turn", ev.target.checked);
    ctx.options.set("sound_clock", ev.target.checked);
  });
  lobby = new Lobby(ctx);
  arcade = new Arcade(ctx);
  ctx.arcade = arcade;
  ctx.lobby = lobby;
  table = new TableView(ctx);
  multi = new MultiTable(ctx, table);
  ctx.multi = multi;
  history = new History(ctx);
  tournaments = new Tournaments(ctx);
  hud = new TournamentHud(ctx);
  casino = new CasinoView(ctx);
  ctx.casino = casino;
  ctx.table = table;
  ctx.hud = hud;
  onLangChange(() => {
    lobby.render();
    table.render();
    history.render();
    tournaments.render();
    hud.render();
    casino.render();
    casino.renderPaytable();
    arcade.render();
    renderAccount();
  });
  bindAccount();
  arrivedSignedIn();
  await refreshAccount();
  await arcade.load();
  startNet();
  window.addEventListener("hashchange", route);
  route();
  translateAll();
  document.body.dataset.ready = "1";
}

// For tests and debugging: the connection and the current table state.
window.__croupier = ctx;
main().catch((e) => {
  console.error(e);
});
