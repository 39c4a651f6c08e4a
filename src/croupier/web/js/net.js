// The WebSocket connection (protocol: docs/protocol.md): hello, commands with ids and
// acks, reconnection with exponential backoff, and a status the banner shows.
// Nothing a user clicks counts until the server's ack (no optimistic UI).

const FINAL_CLOSES = new Set([4001, 4002, 4003]); // auth required, logged out, replaced

export class Connection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.ws = null;
    this.status = "idle"; // idle | connecting | open | lost | closed
    this.attempt = 0;
    this.pending = new Map();
    this.seq = 0;
    this.timer = null;
    this.stopped = false;
    this.welcome = null;
  }

  start() {
    this.stopped = false;
    this._open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, "bye");
  }

  /** Close the socket as a network failure would (used by the tests and "reconnect now"). */
  drop() {
    if (this.ws) this.ws.close(4900, "dropped by the client");
  }

  _setStatus(s, detail = {}) {
    this.status = s;
    this.dispatchEvent(new CustomEvent("status", { detail: { status: s, ...detail } }));
  }

  _open() {
    clearTimeout(this.timer);
    this._setStatus("connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this._schedule();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      // lines: the server may put several messages in one frame, one per line
      ws.send(JSON.stringify({ type: "hello", client: "croupier-web/1", lines: true }));
    });
    ws.addEventListener("message", (ev) => {
      if (typeof ev.data !== "string") return;
      for (const line of ev.data.split("\n")) this._receive(line);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({ type: "ack", id, accepted: false, code: "disconnected", message: "" });
      }
      this.pending.clear();
      if (this.stopped) {
        this._setStatus("closed", { code: ev.code });
      } else if (FINAL_CLOSES.has(ev.code)) {
        this._setStatus("closed", { code: ev.code });
      } else {
        this._schedule();
      }
    });
  }

  /** One message from the server (one line of a frame). */
  _receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "welcome") {
      this.attempt = 0;
      this.welcome = msg;
      this._setStatus("open");
    }
    if (msg.type === "ack" && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve(msg);
    }
    if (msg.type === "error" && msg.id && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve({ type: "ack", id: msg.id, accepted: false, code: msg.code, message: msg.message });
    }
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  _schedule() {
    this.attempt += 1;
    const base = Math.min(10000, 400 * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this._setStatus("lost", { attempt: this.attempt, delay });
    this.timer = setTimeout(() => this._open(), delay);
  }

  get isOpen() {
    return this.status === "open" && this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send a command with a fresh id; resolves with its ack (refused if the link drops). */
  command(msg, timeoutMs = 15000) {
    const id = `c${Date.now().toString(36)}${(this.seq++).toString(36)}`;
    return new Promise((resolve) => {
      if (!this.send({ ...msg, id })) {
        resolve({ type: "ack", id, accepted: false, code: "disconnected", message: "" });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ type: "ack", id, accepted: false, code: "timeout", message: "" });
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
    });
  }
}

export function socketUrl(loc = window.location) {
  const proto = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${loc.host}/ws`;
}
