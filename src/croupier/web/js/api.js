// HTTP API (accounts, exchange, lobby, hand history). The session is the server's
// httponly cookie, so the page never holds the token.

export class ApiError extends Error {
  constructor(status, code, message, url = "") {
    super(message || code);
    this.status = status;
    this.code = code;
    this.url = url; // where it is done instead (tournament_elsewhere)
  }
}

async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "");
  }
  const text = await r.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!r.ok) {
    const err = (data && data.error) || {};
    const url = typeof err.url === "string" ? err.url : "";
    throw new ApiError(r.status, err.code || `http_${r.status}`, err.message || "", url);
  }
  return data;
}

export const api = {
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  logout: () => call("POST", "/api/logout"),
  me: () => call("GET", "/api/me"),
  exchange: (diamonds, key) => call("POST", "/api/exchange", { diamonds, key }),
  tables: () => call("GET", "/api/tables"),
  // The arcade and its points shop (server/arcade.py).
  arcade: () => call("GET", "/api/arcade"),
  shop: () => call("GET", "/api/shop"),
  shopBuy: (item) => call("POST", "/api/shop/buy", { item }),
  shopEquip: (body) => call("POST", "/api/shop/equip", body),
  // Table options kept per account on the server (server/options.py).
  options: () => call("GET", "/api/options"),
  setOptions: (values) => call("PUT", "/api/options", values),
  hands: (limit = 50) => call("GET", `/api/hands?limit=${limit}`),
  // Tournaments: register, unregister, fill (a Sit & Go's free seats with bots); my results.
  tournament: (id, action, body) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`, body),
  tournamentResults: () => call("GET", "/api/tournaments/results"),
  // The hand's engine events redacted for us (the replayer's source).
  handRecord: (tableId, handId) =>
    call("GET", `/api/hands/${encodeURIComponent(tableId)}/${encodeURIComponent(handId)}.json`),
  handText: async (tableId, handId, fmt) => {
    const r = await fetch(`/api/hands/${encodeURIComponent(tableId)}/${encodeURIComponent(handId)}.${fmt}`, {
      credentials: "same-origin",
    });
    if (!r.ok) {
      let code = `http_${r.status}`;
      try {
        code = (await r.json()).error.code;
      } catch {
        /* keep the status code */
      }
      throw new ApiError(r.status, code, "");
    }
    return r.text();
  },
};
