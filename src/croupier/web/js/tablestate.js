// The table as the client knows it: a pure reducer over the server's snapshots and events.
// `fromSnapshot(msg, me)` builds a state; `applyEvent(state, msg, me)` returns a new one.
// Engine events speak in engine positions (`players[i]` is the player id at position i);
// `handSeats[i]` is that position's seat. Nothing here guesses: a turn for us carries the
// full view with the legal actions, and replaces what we had.

const LOG_MAX = 60;

export function emptyState(tableId) {
  return {
    tableId,
    epoch: null,
    version: 0,
    seats: {},
    button: null,
    handNo: 0,
    handSeats: [],
    players: [],
    hand: null,
    actorSeat: null,
    deadline: null,
    turnPhase: null,
    legal: null,
    turnVersion: null,
    results: null,
    log: [],
    reload: null,
    // Naiko: my Destellos, powers used this hand ({player, power} by engine position), the
    // private peeks, the open Ancre window (positions, and its closing time on the table
    // clock) and the hand's carrousel (null: not announced); who used a power this turn
    // (-1: nobody) and this betting round's normal activations (the table allows 3).
    naiko: { destellos: 0, used: [], peeks: [], window: null, carrousel: null, turnUsed: -1, activations: 0,
      costs: {}, powers: null },
    voided: null,
    away: null, // the table's report of automatic decisions taken while we were away
  };
}

const AWAY = ["fold", "check", "stand_pat", "protected", "bring_in", "decline_split", "muck", "show"];

/** The translation key telling the player of one automatic decision taken while away. */
export function awayKey(action) {
  return AWAY.includes(action) ? `away.${action}` : "away.other";
}

function clone(s) {
  return structuredClone(s);
}

function pushLog(s, key, params = {}) {
  s.log.push({ key, params, v: s.version });
  if (s.log.length > LOG_MAX) s.log.splice(0, s.log.length - LOG_MAX);
}

function seatName(s, seat) {
  const x = s.seats[seat];
  return x ? x.name || x.player_id : `#${Number(seat) + 1}`;
}

function posName(s, pos) {
  return seatName(s, s.handSeats[pos]);
}

/** The engine position of player `me` in the hand in progress, or -1. */
export function myPosition(s, me) {
  return me == null ? -1 : s.players.indexOf(String(me));
}

export function mySeat(s, me) {
  if (me == null) return null;
  for (const x of Object.values(s.seats)) if (x.player_id === String(me)) return x.seat;
  return null;
}

function handPlayer(p) {
  return {
    stack: p.stack,
    bet: p.bet,
    contributed: p.contributed,
    folded: p.folded,
    all_in: p.all_in,
    cards: p.cards || [],
    up: p.up || [],
    shown: !!p.shown,
    handName: p.handName || null,
    mucked: !!p.mucked,
    last: p.last || null,
  };
}

export function fromSnapshot(msg, me) {
  const snap = msg.snapshot;
  const s = emptyState(msg.table_id);
  s.epoch = msg.epoch;
  s.version = msg.version;
  for (const seat of snap.seats) s.seats[seat.seat] = { ...seat };
  s.button = snap.button;
  s.handNo = snap.hand_no;
  s.handSeats = [...(snap.hand_seats || [])];
  s.players = s.handSeats.map((seat) => (s.seats[seat] ? s.seats[seat].player_id : null));
  if (snap.hand) {
    s.hand = {
      variant: snap.hand.variant,
      structure: snap.hand.structure,
      street: snap.hand.street,
      phase: snap.hand.phase,
      pot: snap.hand.pot,
      board: [...snap.hand.board],
      players: snap.hand.players.map(handPlayer),
    };
    if (snap.hand.legal && myPosition(s, me) === snap.hand.legal.player) s.legal = snap.hand.legal;
  }
  s.actorSeat = snap.actor_seat;
  s.deadline = snap.deadline;
  s.turnPhase = s.hand ? s.hand.phase : null;
  if (s.legal) s.turnVersion = s.version;
  // Naiko: the public status (an Ancre window open at a resync can still be answered).
  if (snap.naiko) naikoStatus(s, snap.naiko, me, snap.window_closes_at ?? null);
  // Naiko: what the server says we may use now, and our own Coup d'Œil of the street.
  s.naiko.powers = snap.powers || null;
  if (snap.peeks) s.naiko.peeks = snap.peeks.filter(Boolean);
  return s;
}

/** Naiko: adopt the table's public status (from a turn or a snapshot). */
function naikoStatus(s, n, me, closesAt) {
  const pos = myPosition(s, me);
  s.naiko.carrousel = [...n.carrousel];
  if (pos >= 0 && n.destellos[pos] !== undefined) s.naiko.destellos = n.destellos[pos];
  s.naiko.used = n.used.flatMap((powers, player) => powers.map((power) => ({ player, power })));
  s.naiko.turnUsed = n.turn_used;
  s.naiko.activations = n.activations;
  s.naiko.window = n.window ? { caster: n.window[0], target: n.window[1], closesAt } : null;
  s.naiko.costs = {};
  for (const [power, cost] of n.costs || []) s.naiko.costs[power] = cost;
}

function settleSeatStacks(s, pairs) {
  for (const [seat, stack] of pairs) if (s.seats[seat]) s.seats[seat].stack = stack;
}

/** Apply one `event` message; returns the new state (the old one is untouched). */
export function applyEvent(prev, msg, me) {
  const s = clone(prev);
  s.version = msg.version;
  s.epoch = msg.epoch;
  const e = msg.event;
  if (msg.players && msg.players.length) s.players = [...msg.players];
  const h = s.hand;
  const P = (i) => (h && h.players[i] ? h.players[i] : null);
  switch (e.type) {
    case "player_seated":
      s.seats[e.seat] = {
        seat: e.seat, player_id: e.player_id, name: e.name, is_bot: e.is_bot, stack: e.stack,
        sitting_out: false, busted: false, disconnected_at: null, leaving: false,
        waiting_bb: !!e.waiting_bb, post_now: !!e.post_now, owes_bb: false, owes_sb: false, time_bank: e.time_bank || 0,
      };
      pushLog(s, "log.seated", { name: e.name, seat: e.seat + 1 });
      if (String(e.player_id) === String(me)) s.reload = null;
      break;
    case "player_left":
      pushLog(s, "log.left", { name: seatName(s, e.seat) });
      delete s.seats[e.seat];
      if (String(e.player_id) === String(me)) s.reload = null;
      break;
    case "seat_changed":
      s.seats[e.seat.seat] = { ...e.seat };
      // chips again (a reload): the rebuy offer is answered
      if (String(e.seat.player_id) === String(me) && e.seat.stack > 0) s.reload = null;
      break;
    case "sat_out":
      if (s.seats[e.seat]) {
        s.seats[e.seat].sitting_out = true;
        if (e.reason === "busted") s.seats[e.seat].busted = true; // out of chips (R-SEAT-1)
      }
      pushLog(s, "log.sat_out", { name: seatName(s, e.seat) });
      break;
    case "sat_in":
      if (s.seats[e.seat]) {
        s.seats[e.seat].sitting_out = false;
        s.seats[e.seat].post_now = !!e.post_now; // R-SEAT-3: posts at the next hand, or waits
      }
      pushLog(s, "log.sat_in", { name: seatName(s, e.seat) });
      break;
    case "disconnected":
      if (s.seats[e.seat]) s.seats[e.seat].disconnected_at = e.held_until;
      break;
    case "reconnected":
      if (s.seats[e.seat]) s.seats[e.seat].disconnected_at = null;
      break;
    case "reload_offered":
      if (String(e.player_id) === String(me)) s.reload = { min: e.min_amount, max: e.max_amount };
      break;
    case "hand_began":
      s.handNo = e.hand_no;
      s.button = e.button;
      s.handSeats = [...e.seats];
      s.players = [...e.players];
      for (const seat of e.seats) {
        const info = s.seats[seat]; // dealt in: whatever was owed is settled (R-SEAT-3)
        if (info) Object.assign(info, { waiting_bb: false, owes_bb: false, owes_sb: false, post_now: false });
      }
      s.hand = null;
      s.results = null;
      s.voided = null;
      s.legal = null;
      s.actorSeat = null;
      s.deadline = null;
      s.naiko.peeks = [];
      s.naiko.used = [];
      s.naiko.window = null;
      s.naiko.carrousel = null;
      s.naiko.turnUsed = -1;
      s.naiko.activations = 0;
      s.naiko.powers = null;
      pushLog(s, "log.hand_began", { n: e.hand_no });
      break;
    case "hand_started":
      s.hand = {
        variant: e.variant, structure: e.structure, street: 0, phase: "betting", pot: 0, board: [],
        players: e.stacks.map((stack) =>
          handPlayer({ stack, bet: 0, contributed: 0, folded: false, all_in: false, cards: [], up: [] })),
      };
      break;
    case "forced_bet": {
      const p = P(e.player);
      if (p) {
        p.stack -= e.amount;
        p.contributed += e.amount;
        if (e.kind !== "dead") p.bet += e.amount;
        p.all_in = e.all_in;
        h.pot += e.amount;
      }
      pushLog(s, `log.forced.${e.kind}`, { name: posName(s, e.player), amount: e.amount });
      break;
    }
    case "hole_dealt": {
      const p = P(e.player);
      if (p) {
        p.cards = [...p.cards, ...e.cards];
        p.up = [...p.up, ...e.up];
      }
      break;
    }
    case "board_dealt":
      if (h) h.board = [...h.board, ...e.cards];
      break;
    case "street_started":
      if (h) {
        h.street = e.street;
        h.pot = e.pot;
        h.phase = "betting";
        for (const p of h.players) {
          p.bet = 0;
          p.last = null;
        }
      }
      pushLog(s, "log.street", { street: e.name });
      break;
    case "acted": {
      const p = P(e.player);
      // The engine calls every bet a "raise" (to a total): with no bet to face it is a bet.
      const facing = !!h && h.players.some((q, i) => i !== e.player && q.bet > 0);
      const kind = e.action === "raise" && !facing ? "bet" : e.action;
      if (p) {
        p.stack -= e.added;
        p.bet += e.added;
        p.contributed += e.added;
        h.pot += e.added;
        p.all_in = e.all_in;
        if (e.action === "fold") p.folded = true;
        p.last = e.all_in && e.action !== "fold" ? "all_in" : kind;
      }
      if (s.actorSeat === s.handSeats[e.player]) s.legal = null;
      pushLog(s, `log.acted.${e.all_in && e.action !== "fold" ? "all_in" : kind}`, {
        name: posName(s, e.player), amount: e.amount,
      });
      break;
    }
    case "drew": {
      const p = P(e.player);
      if (p) {
        const keep = [];
        const gone = new Set(e.discarded.filter(Boolean));
        let hidden = e.discarded.filter((c) => c === null).length;
        for (const c of p.cards) {
          if (c !== null && gone.has(c)) continue;
          if (c === null && hidden > 0) {
            hidden -= 1;
            continue;
          }
          keep.push(c);
        }
        p.cards = [...keep, ...e.received];
        p.up = p.cards.map(() => false);
      }
      pushLog(s, "log.drew", { name: posName(s, e.player), n: e.received.length });
      break;
    }
    // 32-Card Draw split (R-DRAW-5): the offer, each answer, the pots divided by agreement.
    case "split_offered":
      pushLog(s, "log.split_offered", { name: posName(s, e.player) });
      break;
    case "split_answered":
      pushLog(s, e.accepted ? "log.split_accepted" : "log.split_declined", { name: posName(s, e.player) });
      break;
    case "split_resolved":
      pushLog(s, e.pots.length ? "log.split_resolved" : "log.split_refused");
      break;
    case "chips_returned": {
      const p = P(e.player);
      if (p) {
        p.stack += e.amount;
        p.bet = Math.max(0, p.bet - e.amount);
        p.contributed -= e.amount;
        h.pot -= e.amount;
      }
      pushLog(s, "log.returned", { name: posName(s, e.player), amount: e.amount });
      break;
    }
    case "cards_shown": {
      const p = P(e.player);
      if (p) {
        p.cards = [...e.cards];
        p.shown = true;
        p.handName = e.hands && e.hands.length ? e.hands : null;
      }
      pushLog(s, "log.shown", { name: posName(s, e.player) });
      break;
    }
    case "cards_mucked": {
      const p = P(e.player);
      if (p) p.mucked = true;
      pushLog(s, "log.mucked", { name: posName(s, e.player) });
      break;
    }
    case "rake_taken":
      if (h) h.pot -= e.amount;
      break;
    case "levy_taken": {
      // The arcade levy (R-RAKE-3) and the points it gives you.
      if (h) h.pot -= e.amount;
      const mine = myPosition(s, me);
      const points = mine >= 0 && e.points ? e.points[mine] || 0 : 0;
      pushLog(s, points ? "log.levy_points" : "log.levy", { amount: e.amount, points });
      break;
    }
    case "pot_awarded": {
      if (!s.results) s.results = { awards: [], net: null, pots: null };
      e.winners.forEach((w, i) => {
        const p = P(w);
        if (p) p.stack += e.amounts[i];
        s.results.awards.push({
          seat: s.handSeats[w], name: posName(s, w), amount: e.amounts[i], hand: e.hand,
          pot: e.pot, share: e.share,
          // the five cards making the winning hand (shown cards only), for the highlight
          cards: e.cards && e.cards[i] ? e.cards[i] : [],
        });
        // "wins X" from the (main) pot, "wins X from side pot N" from the others
        pushLog(s, e.pot === 0 ? "log.won_pot" : "log.won_side", { name: posName(s, w), amount: e.amounts[i], n: e.pot });
      });
      break;
    }
    case "hand_ended":
      if (!s.results) s.results = { awards: [], net: null, pots: null };
      s.results.net = e.net;
      s.results.pots = e.pots;
      if (h) {
        e.stacks.forEach((st, i) => {
          if (h.players[i]) {
            h.players[i].stack = st;
            h.players[i].bet = 0;
          }
        });
        h.phase = "ended";
        h.pot = 0;
      }
      s.actorSeat = null;
      s.deadline = null;
      s.legal = null;
      break;
    case "hand_settled":
      settleSeatStacks(s, e.stacks);
      break;
    case "hand_voided":
      settleSeatStacks(s, e.stacks);
      s.voided = e.reason;
      s.hand = null;
      s.legal = null;
      s.actorSeat = null;
      pushLog(s, "log.voided", { n: e.hand_no });
      break;
    case "carrousel": {
      // Naiko: the hand's powers and each dealt seat's Destellos (R-NAIKO-1, R-NAIKO-2).
      s.naiko.carrousel = [...e.powers];
      const mine = mySeat(s, me);
      for (const [seat, n] of e.destellos) if (seat === mine) s.naiko.destellos = n;
      break;
    }
    case "ancre_window": {
      const caster = s.handSeats.indexOf(e.caster_seat);
      const target = s.handSeats.indexOf(e.target_seat);
      s.naiko.window = { caster, target, closesAt: e.closes_at };
      break;
    }
    case "turn":
      if (e.naiko) naikoStatus(s, e.naiko, me, s.naiko.window ? s.naiko.window.closesAt : null);
      s.actorSeat = e.seat;
      s.deadline = e.deadline;
      s.turnPhase = e.phase;
      if (e.view && String(e.player_id) === String(me)) {
        s.hand = {
          variant: e.view.variant, structure: e.view.structure, street: e.view.street,
          phase: e.view.phase, pot: e.view.pot, board: [...e.view.board],
          players: e.view.players.map((p, i) =>
            handPlayer({ ...p, handName: h && h.players[i] ? h.players[i].handName : null,
              last: h && h.players[i] ? h.players[i].last : null })),
        };
        s.legal = e.view.legal;
        s.turnVersion = msg.version;
        s.naiko.powers = e.powers || null; // the server's offers for this turn (Naiko)
      } else {
        s.legal = null;
        s.naiko.powers = null;
      }
      break;
    case "time_bank_used":
      if (s.actorSeat === e.seat) s.deadline = e.deadline;
      pushLog(s, "log.time_bank", { name: seatName(s, e.seat) });
      break;
    case "timed_out":
      pushLog(s, "log.timed_out", { name: seatName(s, e.seat), action: e.action });
      if (s.actorSeat === e.seat) s.legal = null;
      break;
    case "protected":
      pushLog(s, "log.protected", { name: seatName(s, e.seat) });
      break;
    case "withheld":
      // a notice for another player (their away report): only its version is ours
      break;
    case "away_report":
      // Private: what the table decided for us while we were away (R-TIME-2, R-TIME-3).
      if (String(e.player_id) === String(me)) {
        s.away = { seconds: e.away_seconds, actions: e.actions.map((a) => ({ ...a })) };
        for (const a of e.actions) pushLog(s, awayKey(a.action), { secs: Math.round(a.away_seconds) });
      }
      break;
    // Naiko mode (engine/naiko.py): public power use, private peek, end of an Ancre window.
    case "power_used":
      s.naiko.used.push({ player: e.player, power: e.power });
      s.naiko.powers = null; // until the server sends the turn again with fresh offers
      if (e.power !== "sceau_protecteur") {
        s.naiko.turnUsed = e.player;
        s.naiko.activations += 1;
      }
      if (s.players[e.player] === String(me)) s.naiko.destellos = Math.max(0, s.naiko.destellos - e.cost);
      if (e.power === "ancre_courte" && !s.naiko.window) s.naiko.window = { caster: e.player, target: e.target, closesAt: null };
      pushLog(s, `log.power.${e.power}`, {
        name: posName(s, e.player), target: e.target >= 0 ? posName(s, e.target) : "",
      });
      break;
    case "peeked":
      if (e.card) s.naiko.peeks.push(e.card);
      break;
    case "power_resolved":
      s.naiko.window = null;
      pushLog(s, e.blocked ? "log.power.blocked" : "log.power.applied", {
        name: posName(s, e.caster), target: posName(s, e.target),
      });
      break;
    default:
      break;
  }
  return s;
}

/** Main pot and side pots from each player's contribution (all-in levels), for display. */
export function sidePots(players) {
  const live = players.map((p, i) => ({ i, c: p.contributed, folded: p.folded, allIn: p.all_in }));
  const levels = [...new Set(live.filter((x) => x.allIn && !x.folded).map((x) => x.c))].sort((a, b) => a - b);
  const pots = [];
  let floor = 0;
  for (const lv of [...levels, Infinity]) {
    let amount = 0;
    const eligible = [];
    for (const x of live) {
      const part = Math.max(0, Math.min(x.c, lv) - floor);
      amount += part;
      if (!x.folded && x.c > floor && part > 0) eligible.push(x.i);
    }
    if (amount > 0) pots.push({ amount, eligible });
    if (lv === Infinity) break;
    floor = lv;
  }
  return pots;
}
