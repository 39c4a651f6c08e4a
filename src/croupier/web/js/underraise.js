// R-BET-9 in the amount box: at `room` tables (the server sends `call_above` and
// `round_up_from` with the legal actions) an amount above the call but below half the
// minimum raise increment counts as a call, and from half up it is raised to the minimum.
// `naiko` and `arcade` tables stay strict (both fields are 0). The server decides; this
// only says, before sending, what the amount will count as.

/** Whether the table accepts amounts below the minimum raise (room tables). */
export function lenient(lg) {
  return !!(lg && lg.round_up_from && lg.round_up_from > lg.call_above);
}

/** The lowest amount the box accepts: the minimum raise, or just above the call at room tables. */
export function lowestAmount(lg) {
  return lenient(lg) ? Math.min(lg.min_raise, lg.call_above + 1) : lg.min_raise;
}

/**
 * What a raise-to amount `v` counts as:
 * `{kind: "raise", to}` a raise as typed; `{kind: "call"}` counts as a call (check when
 * nothing is to call); `{kind: "round_up", to}` raised to the minimum; `{kind: "invalid"}`
 * outside what the table accepts.
 */
export function countsAs(lg, v) {
  if (!lg || !lg.can_raise || !Number.isInteger(v) || v > lg.max_raise) return { kind: "invalid" };
  if (v >= lg.min_raise) return { kind: "raise", to: v };
  if (!lenient(lg) || v <= lg.call_above) return { kind: "invalid" };
  if (v < lg.round_up_from) return { kind: "call" };
  return { kind: "round_up", to: lg.min_raise };
}
