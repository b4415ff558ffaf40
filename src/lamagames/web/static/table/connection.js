// The table's WebSocket: hello, reconnecting with back-off, the connection pill, and the
// one action message in flight, which is kept until the server answers it (ack or error),
// however long the connection is away, and sent again after a reconnect (same ref: the
// server never applies a ref twice). The error "unavailable" (the server could not store the
// move; nothing was applied) is treated the same way: the move is kept and sent again.
import * as i18n from "../i18n.js";

const { t } = i18n;

let pillKey = null;
/** Show the connection pill in the top bar (null: hide it). */
export function setPill(stateKey) {
  pillKey = stateKey;
  const el = document.getElementById("conn");
  if (!stateKey) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.className = `conn conn-${stateKey}`;
  el.textContent = t(`conn.${stateKey}`);
}

/** Re-translate the pill after a language change. */
export function refreshPill() {
  setPill(pillKey);
}

// An idempotency key for an action message (the server never applies one twice).
export function newRef() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One table's connection.
 *
 * hooks: token() (the seat token or null), onState(msg), onAck(msg), onError(msg),
 * onClosed() (the connection dropped), onFatal(code) (closed for good: 4403/4404/4409),
 * onPending() (the action in flight changed: sent, waiting, retry, answered),
 * onHints(msg) (the answer to a "hint" message).
 */
export class TableConnection {
  constructor(code, hooks) {
    this.code = code;
    this.hooks = hooks;
    this.ws = null;
    this.retry = 0;
    this.stopped = false;
    this.reconnected = false;
    this.seenState = false;
    /** The action message sent (or to send) and not answered yet, or null. */
    this.pending = null;
    /** "sent" (on its way / waiting for the answer), "waiting" (no connection) or
     * "retry" (the server could not store it; sent again shortly). */
    this.pendingStatus = null;
    this.unavailable = 0;
    this.retryTimer = null;
  }

  connect() {
    if (this.stopped) return;
    setPill("connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    ws.onopen = () => {
      this.reconnected = this.seenState;
      ws.send(JSON.stringify({ type: "hello", token: this.hooks.token() || null }));
    };
    ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.stopped || this.ws !== ws) return;
      if (e.code === 4404 || e.code === 4403 || e.code === 4409) {
        setPill(null);
        return;
      }
      setPill("offline");
      if (this.pending) this.setPendingStatus("waiting");
      this.hooks.onClosed();
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
    setPill(null);
  }

  online() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Send a message now; false (and nothing sent) when offline. */
  send(message) {
    if (!this.online()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Send an action chosen at `version`; it stays pending until the server answers. */
  act(version, action) {
    if (this.pending) return false;
    this.pending = { type: "action", version, action, ref: newRef() };
    this.setPendingStatus(this.send(this.pending) ? "sent" : "waiting");
    return true;
  }

  setPendingStatus(status) {
    this.pendingStatus = this.pending ? status : null;
    this.hooks.onPending();
  }

  resolvePending() {
    this.pending = null;
    this.unavailable = 0;
    clearTimeout(this.retryTimer);
    this.setPendingStatus(null);
  }

  onMessage(m) {
    if (m.type === "state") {
      this.retry = 0;
      this.seenState = true;
      setPill("online");
      if (this.reconnected) {
        this.reconnected = false;
        this.afterReconnect(m);
      }
      this.hooks.onState(m);
    } else if (m.type === "ack") {
      if (this.pending && m.ref === this.pending.ref) this.resolvePending();
      this.hooks.onAck(m);
    } else if (m.type === "error") {
      const mine = this.pending && m.ref === this.pending.ref;
      if (mine && m.code === "unavailable") {
        this.retryLater();
        return;
      }
      if (!m.ref || mine) this.resolvePending();
      this.hooks.onError(m);
    } else if (m.type === "hints") {
      this.hooks.onHints(m);
    } else if (m.type === "rematch") {
      this.hooks.onRematch(m);
    } else if (m.type === "reaction" || m.type === "chat") {
      this.hooks.onTalk(m);
    }
  }

  // The server could not store the move (database away; nothing applied): keep it, as if
  // the connection were lost, and send the same message again after a growing pause.
  retryLater() {
    const p = this.pending;
    this.setPendingStatus("retry");
    clearTimeout(this.retryTimer);
    const delay = Math.min(8000, 1000 * 2 ** this.unavailable++);
    this.retryTimer = setTimeout(() => {
      if (this.pending !== p) return;
      // Offline now: the reconnect sends it (afterReconnect).
      this.setPendingStatus(this.send(p) ? "sent" : "waiting");
    }, delay);
  }

  // Back after a lost connection (perhaps a server restart): the action in flight may have
  // been applied (its event is in the log at its version: done), else it is sent again
  // with the same ref and the server answers it (an "ack", or an "error" saying why not).
  afterReconnect(m) {
    const p = this.pending;
    if (!p) return;
    const done =
      m.seat !== null &&
      m.events.some((e) => e.index === p.version && e.player === m.seat && e.action === p.action && e.by === "human");
    if (done) {
      this.resolvePending();
      return;
    }
    this.send(p);
    this.setPendingStatus("sent");
  }
}
