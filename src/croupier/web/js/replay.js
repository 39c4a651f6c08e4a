// The replayer's steps from a hand's archived engine events (`GET /api/hands/{table}/{hand}.json`,
// already redacted for us by the server): the same reducer as the live table
// (tablestate.js), so each step has the names, stacks, bets, cards, the hand names shown
// and the main and side pots as the table showed them. `replayRecord(record)` → steps.
import { applyEvent, emptyState, sidePots } from "./tablestate.js";

const SILENT = { hole_dealt: "replay.dealt", board_dealt: "replay.board" };

function step(s, e, note) {
  const h = s.hand;
  const bets = h.players.map((p) => p.bet);
  const inBets = bets.reduce((a, b) => a + b, 0);
  const ended = h.phase === "ended";
  const pots = ended && s.results && s.results.pots
    ? s.results.pots.map((p) => ({ amount: p.amount }))
    : sidePots(h.players);
  return {
    names: h.players.map((_, i) => s.seats[s.handSeats[i]]?.name ?? `#${i + 1}`),
    stacks: h.players.map((p) => p.stack),
    bets,
    pot: Math.max(0, h.pot - inBets),
    pots: pots.length > 1 ? pots.map((p) => p.amount) : null,
    folded: h.players.map((p) => p.folded),
    cards: h.players.map((p) => [...p.cards]),
    hands: h.players.map((p) => (p.handName ? [...p.handName] : null)),
    board: [...h.board],
    actor: typeof e.player === "number" && e.type === "acted" ? e.player : -1,
    awards: s.results ? s.results.awards.map((a) => ({ ...a })) : [],
    note,
  };
}

/** Every step of the hand in `record` (the `.json` download): one per engine event from
 * `hand_started` on; each has `note` = {key, params} (the table's log line, or a replay one). */
export function replayRecord(record) {
  const players = record.names.map((_, i) => String(i));
  const me = String(record.you);
  let s = emptyState(record.table_id);
  record.seats.forEach((seat, i) => {
    s.seats[seat] = {
      seat, player_id: players[i], name: record.names[i], is_bot: false, stack: 0,
      sitting_out: false, busted: false, disconnected_at: null, leaving: false,
    };
  });
  let version = 0;
  const msg = (event) => ({ type: "event", version: ++version, epoch: 0, players, event });
  s = applyEvent(s, msg({
    type: "hand_began", hand_no: Number(record.hand_id) || 0, button: record.button,
    seats: record.seats, players, blinds: [], dead: [], commitment: "",
  }), me);
  const steps = [];
  for (const e of record.events) {
    s = applyEvent(s, msg(e), me);
    if (!s.hand) continue;
    const last = s.log[s.log.length - 1];
    let note;
    if (last && last.v === s.version) note = { key: last.key, params: { ...last.params } };
    else if (SILENT[e.type]) {
      const p = typeof e.player === "number" ? e.player : -1;
      note = { key: SILENT[e.type], params: { name: p >= 0 ? record.names[p] : "" } };
    } else if (e.type === "hand_ended") note = { key: "replay.end", params: {} };
    else continue; // nothing visible changed (e.g. a burnt card)
    steps.push(step(s, e, note));
  }
  return steps;
}
