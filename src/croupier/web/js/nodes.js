// A room served by several processes (docs/architecture.md, "A room on several
// processes"): a table, the tournaments or the casino may be served by another process
// than this page's. The page then opens there, on the same view, signed in (the session
// cookie belongs to the host, not to the port).

/** The origin of ``url`` if it is an http(s) address to follow, else null. */
export function nodeUrl(url) {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** Open ``hash`` at the process at ``url``; false if ``url`` is not one to follow (nor
 * the process this page fled, below). ``fled``: the origin of this page's process, which
 * stopped answering. */
export function openAt(url, hash, { signedIn = false, sit = false, fled = null, knew = null } = {}) {
  const there = nodeUrl(url);
  if (!there || fledFrom(there)) return false;
  const query = new URLSearchParams();
  if (signedIn) query.set("signed_in", "1");
  if (sit) query.set("sit", "1"); // the player asked for a seat
  if (fled) query.set("fled", fled);
  if (knew) query.set("knew", `${knew.epoch}:${knew.tableId}`); // see restartedSince
  const search = query.toString() ? `?${query}` : "";
  location.assign(`${there}/${search}${hash}`);
  return true;
}

// When the page's own process dies, the page goes on at another process of the room (the
// welcome's ``peers``): the one that answers first. That process takes the dead one's
// tables over once their leases expire (a few seconds); until then it still names the dead
// one as their server, and the page must not follow it back there, unless it answers again
// (it was restarted, and may serve the table again).

/** How long the page does not follow a table to the process it fled (ms). */
export const FLED_MS = 60000;

let fled = null; // { origin, until }: the process this page came from because it died

/** This page was opened by one that fled ``origin`` (its ``?fled=`` parameter). */
export function arrivedFleeing(origin, now = Date.now()) {
  const o = nodeUrl(origin);
  fled = o && o !== location.origin ? { origin: o, until: now + FLED_MS } : null;
}

/** The process this page fled answers again (restarted): follow tables there again. */
export function forgetFled() {
  fled = null;
}

let probing = false;

/** Ask whether the process this page fled (``url``) answers again, one probe at a time:
 * if it does (it was restarted), forget it was fled, so its tables are followed there. */
export function probeFled(url) {
  if (probing) return;
  probing = true;
  firstUp([url]).then((up) => {
    probing = false;
    if (up) forgetFled();
  });
}

/** ``?knew=epoch:table``: the table and its epoch as the page that fled knew them, or null. */
export function parseKnew(value) {
  const m = /^(\d+):(.+)$/.exec(value || "");
  return m ? { epoch: Number(m[1]), tableId: m[2] } : null;
}

/** Whether a snapshot of ``tableId`` at ``epoch`` is the table ``knew`` restarted since
 * (restored from its journal by the crash policy: a new epoch). */
export function restartedSince(knew, tableId, epoch) {
  return !!knew && knew.tableId === tableId && typeof epoch === "number" && epoch > knew.epoch;
}

/** Whether ``url`` is the process this page fled, lately. */
export function fledFrom(url, now = Date.now()) {
  return fled !== null && nodeUrl(url) === fled.origin && now < fled.until;
}

/** The first of ``peers`` (the origins of the room's other processes) that answers, or
 * null. The answer is opaque (another origin): only that it came counts. */
export async function firstUp(peers, timeoutMs = 2000) {
  for (const peer of peers) {
    const there = nodeUrl(peer);
    if (!there || there === location.origin) continue;
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    try {
      await fetch(`${there}/health`, { mode: "no-cors", cache: "no-store", signal: ctl.signal });
      return there;
    } catch {
      // down too, or out of reach: the next one
    } finally {
      clearTimeout(timer);
    }
  }
  return null;
}
