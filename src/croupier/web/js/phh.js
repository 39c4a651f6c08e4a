// A small reader of PHH hand histories (the Poker Hand History format the server exports)
// and a step-by-step replay of one hand: `parsePhh(text)` → fields; `replay(fields)` → the
// list of states after each action (for the replayer).

function parseValue(raw) {
  const v = raw.trim();
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1);
  try {
    return JSON.parse(v.replace(/'([^']*)'/g, '"$1"'));
  } catch {
    return v;
  }
}

export function parsePhh(text) {
  const out = {};
  let key = null;
  let buf = "";
  const depth = (s) => (s.match(/\[/g) || []).length - (s.match(/\]/g) || []).length;
  for (const line of text.split(/\r?\n/)) {
    const l = line.trim();
    if (key !== null) {
      buf += ` ${l}`;
      if (depth(buf) <= 0) {
        out[key] = parseValue(buf.replace(/,\s*\]/g, "]"));
        key = null;
      }
      continue;
    }
    if (!l || l.startsWith("#") || l.startsWith("[")) continue;
    const i = l.indexOf("=");
    if (i < 0) continue;
    const k = l.slice(0, i).trim();
    const v = l.slice(i + 1).trim();
    if (depth(v) > 0) {
      key = k;
      buf = v;
    } else {
      out[k] = parseValue(v);
    }
  }
  if (!Array.isArray(out.actions) || !Array.isArray(out.starting_stacks)) {
    throw new Error("not a PHH hand");
  }
  return out;
}

function cardsOf(s) {
  const out = [];
  for (let i = 0; i + 1 < s.length; i += 2) {
    const c = s.slice(i, i + 2);
    out.push(c === "??" ? null : c);
  }
  return out;
}

/** Every state of the hand: [initial, after action 1, …]; each has `note` = {key, params}. */
export function replay(h) {
  const n = h.starting_stacks.length;
  const names = h.players || Array.from({ length: n }, (_, i) => `p${i + 1}`);
  const st = {
    names,
    stacks: [...h.starting_stacks],
    bets: Array(n).fill(0),
    pot: 0,
    folded: Array(n).fill(false),
    cards: Array.from({ length: n }, () => []),
    board: [],
    note: { key: "replay.start", params: {} },
    actor: -1,
  };
  const post = (i, amount, toBet) => {
    const a = Math.min(amount, st.stacks[i]);
    st.stacks[i] -= a;
    if (toBet) st.bets[i] += a;
    else st.pot += a;
  };
  (h.antes || []).forEach((a, i) => a && post(i, a, false));
  (h.blinds_or_straddles || []).forEach((b, i) => b && post(i, b, true));
  const states = [structuredClone(st)];
  const collect = () => {
    st.pot += st.bets.reduce((a, b) => a + b, 0);
    st.bets.fill(0);
  };
  for (const action of h.actions) {
    const parts = String(action).split(/\s+/);
    st.actor = -1;
    if (parts[0] === "d" && parts[1] === "dh") {
      const p = Number(parts[2].slice(1)) - 1;
      st.cards[p] = [...st.cards[p], ...cardsOf(parts[3] || "")];
      st.note = { key: "replay.dealt", params: { name: names[p] } };
    } else if (parts[0] === "d" && parts[1] === "db") {
      collect();
      st.board = [...st.board, ...cardsOf(parts[2] || "")];
      st.note = { key: "replay.board", params: {} };
    } else if (/^p\d+$/.test(parts[0])) {
      const p = Number(parts[0].slice(1)) - 1;
      st.actor = p;
      const name = names[p];
      const maxBet = Math.max(...st.bets);
      if (parts[1] === "f") {
        st.folded[p] = true;
        st.note = { key: "replay.fold", params: { name } };
      } else if (parts[1] === "cc") {
        const need = maxBet - st.bets[p];
        post(p, need, true);
        st.note = need > 0 ? { key: "replay.call", params: { name, amount: need } } : { key: "replay.check", params: { name } };
      } else if (parts[1] === "cbr") {
        const to = Number(parts[2]);
        post(p, to - st.bets[p], true);
        st.note = { key: maxBet > 0 ? "replay.raise" : "replay.bet", params: { name, amount: to } };
      } else if (parts[1] === "sm") {
        if (parts[2] && parts[2] !== "-") {
          st.cards[p] = cardsOf(parts[2]);
          st.note = { key: "replay.show", params: { name } };
        } else {
          st.note = { key: "replay.muck", params: { name } };
        }
      } else if (parts[1] === "sd") {
        const gone = new Set(cardsOf(parts[2] || "").filter(Boolean));
        const k = cardsOf(parts[2] || "").length;
        let hidden = cardsOf(parts[2] || "").filter((c) => c === null).length;
        st.cards[p] = st.cards[p].filter((c) => {
          if (c !== null && gone.has(c)) return false;
          if (c === null && hidden > 0) {
            hidden -= 1;
            return false;
          }
          return true;
        });
        st.note = { key: "replay.draw", params: { name, n: k } };
      } else {
        st.note = { key: "replay.other", params: { text: action } };
      }
    } else {
      st.note = { key: "replay.other", params: { text: action } };
    }
    states.push(structuredClone(st));
  }
  if (Array.isArray(h.finishing_stacks)) {
    collect();
    st.actor = -1;
    st.stacks = [...h.finishing_stacks];
    st.pot = 0;
    st.note = { key: "replay.end", params: {} };
    states.push(structuredClone(st));
  }
  return states;
}
