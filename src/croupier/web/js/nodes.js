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

/** Open ``hash`` at the process at ``url``; false if ``url`` is not one to follow. */
export function openAt(url, hash, { signedIn = false, sit = false } = {}) {
  const there = nodeUrl(url);
  if (!there) return false;
  const query = new URLSearchParams();
  if (signedIn) query.set("signed_in", "1");
  if (sit) query.set("sit", "1"); // the player asked for a seat
  const search = query.toString() ? `?${query}` : "";
  location.assign(`${there}/${search}${hash}`);
  return true;
}
