// Lama Games browser client: lobby, live table over WebSocket, replay viewer.
// Plain ES modules, no build step, no external resources.
import { h, clear } from "./dom.js";
import * as i18n from "./i18n.js";

const { t } = i18n;
const main = document.getElementById("main");
const renderers = {};
let games = [];
let rerender = () => {};
let cleanup = () => {};

// ------------------------------------------------------------------ utilities
async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try { response = await fetch(path, init); } catch { throw new Error(t("err.network")); }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data.error, data.message));
  return data;
}

// A server error in the reader's language, by its code; the server's (English) message only
// for codes the catalog does not know, or as the detail of "invalid".
function errorText(code, message) {
  const key = `err.${code}`;
  if (t(key) === key) return message || t("err.generic");
  return code === "invalid" && message ? `${t(key)} (${message})` : t(key);
}

export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast toast-${kind}` }, text);
  box.append(el);
  setTimeout(() => el.classList.add("toast-out"), 4200);
  setTimeout(() => el.remove(), 4800);
}

const store = {
  get: (k) => localStorage.getItem(`lama.${k}`),
  set: (k, v) => localStorage.setItem(`lama.${k}`, v),
  json: (k) => { try { return JSON.parse(localStorage.getItem(`lama.${k}`) || "null"); } catch { return null; } },
};

async function renderer(path) {
  if (!renderers[path]) renderers[path] = await import(`/static/${path}`);
  return renderers[path];
}

// Log lines of one event: the game's own (eventLines: the action and what it led to) or its
// eventText.
// Moves a bot made for a person say so: "(bot for Robin)", "(time ran out)".
function eventLines(R, event, seats) {
  const lines = R.eventLines ? R.eventLines(event, seats, t) : [R.eventText(event, seats, t)];
  const who = event.player >= 0 && seats[event.player] ? seats[event.player].name : "";
  const why = event.by === "stand-in" ? t("log.standIn", { name: who }) : event.by === "clock" ? t("log.clock") : event.by === "timer" ? t("log.timer") : "";
  if (why && lines.length) lines[0] = `${lines[0]} (${why})`;
  return lines;
}

// Room codes are letters and digits (the server's alphabet is a subset).
const CODE_RE = /^[A-Z0-9]{4,16}$/;

function notFoundPage() {
  main.replaceChildren(h("section", { class: "panel", id: "table-error" }, h("p", {}, t("err.not_found")),
    h("a", { class: "btn", href: "/", onclick: link }, t("table.lobby"))));
  rerender = notFoundPage;
}

function gameIdsFor(...ids) { return [...new Set(ids.filter(Boolean))]; }

// An idempotency key for an action message (the server never applies one twice).
function newRef() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

let connKey = null;
function setConn(stateKey) {
  connKey = stateKey;
  const el = document.getElementById("conn");
  if (!stateKey) { el.hidden = true; return; }
  el.hidden = false;
  el.className = `conn conn-${stateKey}`;
  el.textContent = t(`conn.${stateKey}`);
}

// Sound: a soft two-note chime made with WebAudio (no files).
let audio;
function soundOn() { return store.get("sound") !== "off"; }
function chime() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.4);
    });
  } catch { /* no audio: fine */ }
}

function speakerIcon(on) {
  return h("svg", { viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" },
    h("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
    on
      ? h("path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" })
      : h("path", { d: "M16 9l5 6M21 9l-5 6", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
}

function updateChrome() {
  document.getElementById("brand-name").textContent = t("app.title");
  const sound = document.getElementById("sound");
  sound.replaceChildren(speakerIcon(soundOn()));
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.title = soundOn() ? t("sound.on") : t("sound.off");
  sound.setAttribute("aria-label", sound.title);
  document.getElementById("lang").value = i18n.lang();
  document.getElementById("lang-label").textContent = t("chrome.language");
  document.getElementById("skip").textContent = t("chrome.skip");
  setConn(connKey); // re-translate the connection pill
}

// ------------------------------------------------------------------ lobby
async function lobbyPage() {
  document.title = t("app.title");
  const [gameList, tables] = await Promise.all([api("/api/games"), api("/api/tables")]);
  games = gameList;
  await i18n.load(i18n.lang(), gameList.map((g) => g.id));
  const form = createForm(gameList);
  const list = h("ul", { class: "table-list" });
  for (const info of tables) list.append(tableItem(info));
  if (!tables.length) list.append(h("li", { class: "muted" }, t("lobby.none")));
  const codeInput = h("input", { id: "room-code", name: "code", maxlength: 8, autocomplete: "off", placeholder: "K7QF2M", class: "code-input" });
  const goForm = h("form", { class: "go-form", onsubmit: (e) => {
    e.preventDefault();
    const c = codeInput.value.trim().toUpperCase();
    if (!c) return;
    if (CODE_RE.test(c)) navigate(`/t/${c}`);
    else { toast(t("err.not_found")); codeInput.setAttribute("aria-invalid", "true"); codeInput.focus(); }
  } },
    h("label", { for: "room-code" }, t("lobby.code")), codeInput, h("button", { type: "submit", class: "btn" }, t("lobby.go")));
  main.replaceChildren(h("div", { class: "lobby" },
    h("section", { class: "panel hero" },
      h("img", { src: "/static/favicon.svg", alt: "", width: 72, height: 72 }),
      h("div", {}, h("h1", {}, t("app.title")), h("p", {}, t("app.tagline")))),
    h("section", { class: "panel" }, h("h2", {}, t("lobby.create")), form),
    h("section", { class: "panel" }, h("h2", {}, t("lobby.open")), list, goForm)));
  rerender = lobbyPage;
}

function tableItem(info) {
  const names = info.seats.map(seatName).join(", ");
  const actions = [h("a", { class: "btn btn-small", href: `/t/${info.code}`, onclick: link }, t("lobby.watch"))];
  if (info.free_seats > 0 && info.status !== "finished") {
    actions.unshift(h("button", { class: "btn btn-small btn-primary", type: "button", onclick: () => claim(info.code) }, t("lobby.join")));
  }
  return h("li", { class: "table-item" },
    h("div", {},
      h("strong", {}, `${info.game_name} · ${info.code}`),
      h("div", { class: "muted" }, `${t(`status.${info.status}`)} · ${names}`,
        info.free_seats ? ` · ${t("lobby.free", { n: info.free_seats })}` : "")),
    h("div", { class: "item-actions" }, actions));
}

// A seat's display name: the chosen one, else "Seat N" or the bot kind, in the reader's
// language (the server stores no default names).
export function seatName(seat) {
  if (!seat) return "";
  if (seat.name) return seat.name;
  return seat.kind === "bot" ? `${t(`bot.${seat.bot_kind}`)} ${seat.seat + 1}` : t("lobby.seat", { n: seat.seat + 1 });
}

function myName() { return store.get("name") || ""; }

async function claim(code) {
  // The name typed in the lobby's "Your name" field wins over the one remembered.
  const field = document.getElementById("your-name");
  const typed = field ? field.value.trim() : "";
  if (typed) store.set("name", typed);
  const name = typed || myName() || (i18n.lang() === "de" ? "Gast" : "Guest");
  try {
    const res = await api(`/api/tables/${code}/claim`, { name });
    store.set(`seat.${code}`, res.token);
    navigate(`/t/${code}`);
  } catch (e) { toast(e.message); }
}

function createForm(gameList) {
  let seats = [{ kind: "human", you: true }, { kind: "bot", bot_kind: "heuristic" }, { kind: "bot", bot_kind: "benchmark" }];
  let options = null; // the game's own fields (its renderer's createOptions), if any
  const seatBox = h("ul", { class: "seat-list" });
  const optionBox = h("div", { class: "game-options" });
  const nameInput = h("input", { id: "your-name", name: "name", maxlength: 32, required: true, value: myName(), autocomplete: "nickname" });
  const gameSelect = h("select", { id: "game", name: "game" }, gameList.map((g) => h("option", { value: g.id }, t(`${g.id}.name`) === `${g.id}.name` ? g.name : t(`${g.id}.name`))));
  const clock = h("select", { id: "clock" }, [["", t("lobby.off")], ["30", t("lobby.seconds", { n: 30 })], ["60", t("lobby.seconds", { n: 60 })], ["120", t("lobby.seconds", { n: 120 })]].map(([v, l]) => h("option", { value: v }, l)));
  const away = h("select", { id: "away" }, [30, 60, 180, 600].map((n) => h("option", { value: n, selected: n === 60 }, t("lobby.seconds", { n }))));
  const alertness = h("select", { id: "alertness" }, [["", t("lobby.off")], ...[10, 20, 30, 60].map((n) => [String(n), t("lobby.seconds", { n })])].map(([v, l]) => h("option", { value: v }, l)));
  const alertnessField = h("div", { class: "field", hidden: true },
    h("label", { for: "alertness" }, t("lobby.alertness")), alertness, h("small", { class: "muted" }, t("lobby.alertnessHelp")));
  const pub = h("input", { type: "checkbox", id: "public", checked: true });
  const current = () => gameList.find((g) => g.id === gameSelect.value) || gameList[0];

  function drawSeats() {
    const game = current();
    const count = seats.length;
    seatBox.replaceChildren(...seats.map((seat, i) => {
      const num = h("span", { class: "seat-num", "aria-hidden": "true" }, String(i + 1));
      const extra = options && options.seatControl ? options.seatControl(i, count, drawSeats) : null;
      if (seat.you) return h("li", { class: "seat-row" }, num, h("span", { class: "seat-you" }, t("lobby.you")), extra);
      const kind = h("select", { "aria-label": t("lobby.seat", { n: i + 1 }), onchange: (e) => { const v = e.target.value; seats[i] = v === "human" ? { kind: "human" } : { kind: "bot", bot_kind: v }; } },
        h("option", { value: "human", selected: seat.kind === "human" }, t("lobby.human")),
        game.bot_kinds.map((k) => h("option", { value: k, selected: seat.bot_kind === k }, `${t("lobby.bot")}: ${t(`bot.${k}`)}`)));
      const remove = seats.length > game.min_players
        ? h("button", { type: "button", class: "icon-button", "aria-label": t("lobby.removeSeat"), title: t("lobby.removeSeat"), onclick: () => { seats.splice(i, 1); drawSeats(); } }, "✕")
        : null;
      return h("li", { class: "seat-row" }, num, kind, extra, remove);
    }), seats.length < game.max_players
      ? h("li", {}, h("button", { type: "button", class: "btn btn-small", id: "add-seat", onclick: () => { seats.push({ kind: "bot", bot_kind: game.bot_kinds.includes("heuristic") ? "heuristic" : game.bot_kinds[0] }); drawSeats(); } }, `+ ${t("lobby.addSeat")}`))
      : null);
  }

  async function gameChanged() {
    const game = current();
    seats = seats.slice(0, game.max_players);
    while (seats.length < game.min_players) seats.push({ kind: "bot", bot_kind: game.bot_kinds[0] });
    alertnessField.hidden = !game.windows;
    options = null;
    optionBox.replaceChildren();
    try {
      const R = await renderer(game.renderer);
      if (gameSelect.value !== game.id) return; // changed again meanwhile
      options = R.createOptions ? R.createOptions(game, t) : null;
      if (options && options.fields) optionBox.replaceChildren(options.fields);
    } catch (err) { toast(err.message); }
    drawSeats();
  }
  drawSeats();
  gameChanged();
  gameSelect.addEventListener("change", gameChanged);

  return h("form", { class: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) { nameInput.focus(); return; }
    store.set("name", name);
    const body = {
      game: gameSelect.value,
      // Only chosen names are stored: others are shown as "Seat N" / the bot kind in each
      // reader's language.
      seats: seats.map((s) => (s.you ? { kind: "human", name } : s.kind === "human" ? { kind: "human" } : { kind: "bot", bot_kind: s.bot_kind })),
      away_timeout: Number(away.value),
      public: pub.checked,
    };
    if (options && options.params) body.params = options.params(seats.length);
    if (clock.value) body.turn_clock = Number(clock.value);
    if (current().windows && alertness.value) body.alertness = Number(alertness.value);
    try {
      const res = await api("/api/tables", body);
      store.set(`host.${res.code}`, res.host_token);
      store.set(`seat.${res.code}`, res.seats[0].token);
      store.set(`invites.${res.code}`, JSON.stringify(res.seats.filter((s) => s.invite && s.seat !== 0)));
      await api(`/api/tables/${res.code}/join`, { token: res.seats[0].token, name });
      if (!res.seats.slice(1).some((s) => s.kind === "human")) await api(`/api/tables/${res.code}/start`, { host_token: res.host_token });
      navigate(`/t/${res.code}`);
    } catch (err) { toast(err.message); }
  } },
    h("div", { class: "field" }, h("label", { for: "your-name" }, t("lobby.yourName")), nameInput),
    h("div", { class: "field" }, h("label", { for: "game" }, t("lobby.game")), gameSelect),
    h("fieldset", { class: "field" }, h("legend", {}, t("lobby.seats")), seatBox),
    optionBox,
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "clock" }, t("lobby.turnClock")), clock),
      h("div", { class: "field" }, h("label", { for: "away" }, t("lobby.away")), away)),
    alertnessField,
    h("label", { class: "check" }, pub, " ", t("lobby.public")),
    h("button", { type: "submit", class: "btn btn-primary btn-big", id: "create" }, t("lobby.createButton")));
}

// ------------------------------------------------------------------ table
function tablePage(code) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const invited = hash.get("seat");
  if (invited) {
    store.set(`seat.${code}`, invited);
    history.replaceState(null, "", `/t/${code}`);
  }
  const view = new TableView(code, Boolean(invited));
  view.start();
  cleanup = () => view.stop();
  rerender = () => view.draw();
}

class TableView {
  constructor(code, invited) {
    this.code = code;
    this.token = store.get(`seat.${code}`);
    this.host = store.get(`host.${code}`);
    this.needsName = invited;
    this.msg = null;
    this.ws = null;
    this.retry = 0;
    this.stopped = false;
    this.wasMyTurn = false;
    this.pending = null; // the action message sent and not yet answered (ack or error)
    this.pendingTimer = null;
    this.reconnected = false;
    this.clockTimer = null;
  }

  start() {
    main.replaceChildren(h("p", { class: "loading" }, t("conn.connecting")));
    this.connect();
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.clockTimer);
    if (this.ws) this.ws.close();
    setConn(null);
    document.title = t("app.title");
  }

  connect() {
    if (this.stopped) return;
    setConn("connecting");
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    ws.onopen = () => { this.reconnected = Boolean(this.msg); ws.send(JSON.stringify({ type: "hello", token: this.token || null })); };
    ws.onmessage = (e) => this.onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.stopped || this.ws !== ws) return;
      if (e.code === 4404 || e.code === 4403 || e.code === 4409) { setConn(null); return; }
      setConn("offline");
      this.draw(); // the action buttons wait until the connection is back
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  online() { return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN); }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(message)); return true; }
    toast(t("conn.offline"));
    return false;
  }

  async onMessage(m) {
    if (m.type === "state") {
      this.retry = 0;
      setConn("online");
      const first = !this.msg;
      this.msg = m;
      if (this.reconnected) {
        // Back after a lost connection: an unanswered action is sent again with the same ref
        // if nothing happened meanwhile (the server never applies a ref twice).
        this.reconnected = false;
        if (this.pending && this.pending.version === m.version) this.ws.send(JSON.stringify(this.pending));
        else this.setPending(null);
      }
      if (first) {
        this.gameInfo = games.find((g) => g.id === m.game);
        await i18n.load(i18n.lang(), gameIdsFor(m.game));
        const info = await api(`/api/tables/${this.code}`).catch(() => null);
        this.info = info;
        this.renderer = await renderer(info ? info.renderer : `games/${m.game}/render.js`);
        if (this.needsName && m.seat !== null) {
          // Arrived through an invite link: claim the seat under the saved name, or ask.
          if (myName()) api(`/api/tables/${this.code}/join`, { token: this.token, name: myName() }).catch((e) => toast(e.message));
          else if (m.status === "waiting") this.askName = true;
          else api(`/api/tables/${this.code}/join`, { token: this.token }).catch((e) => toast(e.message));
        }
      }
      this.draw();
    } else if (m.type === "ack") {
      if (this.pending && m.ref === this.pending.ref) {
        this.setPending(null);
        // The new state follows at once; a duplicate changed nothing, so redraw now.
        if (m.duplicate || (this.msg && this.msg.version >= m.version)) this.draw();
      }
    } else if (m.type === "error") {
      if (!m.ref || (this.pending && m.ref === this.pending.ref)) this.setPending(null);
      const key = `err.${m.code}`;
      toast(errorText(m.code, m.message));
      if (m.code === "not_found" || m.code === "bad_token" || m.code === "seat_taken") {
        if (m.code !== "not_found") localStorage.removeItem(`lama.seat.${this.code}`);
        // A taken seat (claimed from the lobby) or a stale link: offer to watch instead.
        const watch = m.code === "not_found" ? null : h("button", { type: "button", class: "btn btn-primary", id: "watch-instead", onclick: () => {
          this.token = null; this.needsName = false; this.msg = null; this.connect();
        } }, t("table.watchInstead"));
        main.replaceChildren(h("section", { class: "panel", id: "table-error" }, h("p", {}, t(key)), h("div", { class: "item-actions" }, watch, h("a", { class: "btn", href: "/", onclick: link }, t("table.lobby")))));
        return;
      }
      this.draw();
    } else if (m.type === "rematch") {
      if (m.token) store.set(`seat.${m.code}`, m.token);
      navigate(`/t/${m.code}`);
    }
  }

  setPending(message) {
    this.pending = message;
    clearTimeout(this.pendingTimer);
    if (message) this.pendingTimer = setTimeout(() => { this.pending = null; this.draw(); }, 8000);
  }

  act(notation) {
    if (!this.msg || this.pending) return;
    const message = { type: "action", version: this.msg.version, action: notation, ref: newRef() };
    if (this.send(message)) {
      this.setPending(message);
      main.querySelectorAll(".actions button, [data-action-target]").forEach((b) => {
        if (b instanceof HTMLButtonElement) b.disabled = true; else b.classList.add("is-pending");
      });
    }
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
    const n = Number(e.key);
    if (n >= 1 && n <= 9) {
      const button = main.querySelector(`.actions button[data-shortcut="${n}"]`);
      if (button && !button.disabled) { e.preventDefault(); button.click(); }
    }
  }

  draw() {
    if (!this.msg || !this.renderer) return;
    const m = { ...this.msg, seats: this.msg.seats.map((s) => ({ ...s, name: seatName(s) })) };
    const R = this.renderer;
    const gameName = t(`${m.game}.name`);
    const mine = m.seat !== null && m.acting.includes(m.seat) && m.legal.length > 0;
    if (mine && !this.wasMyTurn) chime();
    this.wasMyTurn = mine;
    document.title = mine ? t("title.yourTurn", { game: gameName }) : `${gameName} · ${m.code}`;

    // Keep the keyboard focus on the same control across redraws (data-focus keys).
    const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("[data-focus]") : null;
    const focusKey = focused && main.contains(focused) ? focused.dataset.focus : null;
    const legal = m.status === "playing" ? m.legal.map((a) => a.action) : [];
    const board = h("div", { class: "board", id: "board" });
    if (m.view) {
      R.render(board, m.view, {
        t, seat: m.seat, seats: m.seats, acting: m.acting, events: m.events, status: m.status,
        legal, pending: Boolean(this.pending), act: (notation) => this.act(notation),
      });
    }

    const head = h("div", { class: "table-head" },
      h("h1", {}, gameName, h("span", { class: "code-chip", title: t("lobby.code") }, m.code)),
      h("span", { class: `status status-${m.status}` }, t(`status.${m.status}`)));

    const side = h("aside", { class: "side" }, this.log(m, R));
    main.replaceChildren(h("div", { class: "table-page" }, head, this.banner(m, R, mine), this.controls(m, R, mine), board, side));
    const again = focusKey ? [...main.querySelectorAll("[data-focus]")].find((el) => el.dataset.focus === focusKey) : null;
    if (again) again.focus({ preventScroll: true });
    else if (mine && !this.pending) {
      const first = main.querySelector(".actions button");
      if (first && !main.contains(document.activeElement)) first.focus({ preventScroll: true });
    }
    clearInterval(this.clockTimer);
    if (m.clock) {
      const started = performance.now();
      const el = main.querySelector(".clock");
      this.clockTimer = setInterval(() => {
        const left = Math.max(0, Math.ceil(m.clock.remaining - (performance.now() - started) / 1000));
        if (el) el.textContent = t("table.clock", { n: left });
      }, 250);
    }
  }

  banner(m, R, mine) {
    if (m.status === "waiting") return this.waitingPanel(m);
    if (m.status === "finished") return this.finishedPanel(m, R);
    const current = m.acting.map((i) => m.seats[i]?.name).filter(Boolean).join(", ");
    const own = R.headline ? R.headline(m.view, { t, seat: m.seat, seats: m.seats, acting: m.acting, mine }) : null;
    const text = own || (mine ? t("table.yourTurn") : m.seat === null && !m.acting.length ? t("table.spectating")
      : m.acting.length > 1 ? t("table.actingMany", { names: current }) : current ? t("table.turnOf", { name: current }) : "…");
    const clock = m.clock ? h("span", { class: "clock" }, t("table.clock", { n: Math.ceil(m.clock.remaining) })) : null;
    const hintText = mine && R.hint ? R.hint(m.view, t) : m.seat === null ? t("table.spectating") : "";
    return h("div", { class: `banner ${mine ? "banner-mine" : ""}`, role: "status", "aria-live": "polite" },
      h("strong", {}, text), clock, hintText ? h("span", { class: "hint" }, hintText) : null);
  }

  // A spectator of a public table with a free human seat may take it (as in the lobby).
  joinButton(m) {
    const free = m.seats.some((s) => s.kind === "human" && !s.joined);
    if (m.seat !== null || !free || m.status === "finished" || !(this.info && this.info.public)) return null;
    return h("button", { type: "button", class: "btn btn-primary", id: "join-table", onclick: () => claim(m.code) }, t("lobby.join"));
  }

  controls(m, R, mine) {
    if (m.status !== "playing" || m.seat === null) return h("div", { class: "controls" }, m.status === "playing" ? this.joinButton(m) : null);
    const me = m.seats[m.seat];
    const legal = R.sortActions ? R.sortActions(m.legal, m.view) : m.legal;
    const buttons = legal.map((a, i) => h("button", {
      type: "button", class: `btn action ${i === 0 ? "btn-primary" : ""} ${R.actionClass ? R.actionClass(a.action) : ""}`,
      dataset: { action: a.action, shortcut: String(i + 1), focus: `action:${a.action}` },
      disabled: Boolean(this.pending) || !this.online(), title: R.actionLabel(a.action, t, m.view) || a.label, onclick: () => this.act(a.action),
    }, R.actionContent ? R.actionContent(a.action, t, m.view) : R.actionLabel(a.action, t, m.view), i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null));
    const away = me.replaced
      ? h("button", { type: "button", class: "btn btn-small", onclick: () => this.send({ type: "back" }) }, t("table.back"))
      : h("button", { type: "button", class: "btn btn-small btn-quiet", onclick: () => this.send({ type: "leave" }) }, t("table.leave"));
    return h("div", { class: "controls" }, mine ? h("div", { class: "actions", role: "group" }, buttons) : null, h("div", { class: "away-toggle" }, away));
  }

  waitingPanel(m) {
    const invites = store.json(`invites.${m.code}`) || [];
    const isHost = Boolean(this.host);
    const rows = invites.map((inv) => {
      const url = `${location.origin}${inv.invite}`;
      const seat = m.seats[inv.seat];
      if (seat && seat.joined) {
        // Taken (by the invitee, or claimed from the lobby with its own new token).
        return h("li", { class: "invite" }, h("span", { class: "dot dot-on" }),
          h("span", { class: "invite-name" }, t("table.taken", { name: seatName(seat) })));
      }
      return h("li", { class: "invite" },
        h("span", { class: `dot ${seat && seat.joined ? "dot-on" : ""}` }),
        h("span", { class: "invite-name" }, seat ? seat.name : inv.name),
        h("input", { class: "invite-url", readonly: true, value: url, "aria-label": inv.name, onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn btn-small", onclick: async (e) => {
          try { await navigator.clipboard.writeText(url); e.target.textContent = t("table.copied"); } catch { e.target.previousSibling.select(); }
        } }, t("table.copy")));
    });
    let nameForm = null;
    if (this.askName && m.seat !== null) {
      const input = h("input", { id: "join-name", maxlength: 32, value: myName() || m.seats[m.seat].name, required: true });
      nameForm = h("form", { class: "go-form", onsubmit: async (e) => {
        e.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        store.set("name", name);
        try { await api(`/api/tables/${m.code}/join`, { token: this.token, name }); this.askName = false; this.draw(); } catch (err) { toast(err.message); }
      } }, h("label", { for: "join-name" }, t("table.joinAs")), input, h("button", { class: "btn btn-primary", type: "submit" }, "OK"));
    }
    return h("section", { class: "panel waiting" },
      nameForm,
      isHost && rows.length ? [h("h2", {}, t("table.invites")), h("ul", { class: "invites" }, rows)] : null,
      isHost
        ? h("button", { type: "button", class: "btn btn-primary btn-big", id: "start", onclick: async () => {
          try { await api(`/api/tables/${m.code}/start`, { host_token: this.host }); } catch (err) { toast(err.message); }
        } }, t("table.start"))
        : h("p", {}, m.seat === null ? t("table.spectating") : t("table.waitHost")),
      isHost ? null : this.joinButton(m));
  }

  finishedPanel(m, R) {
    // The game module may describe the result ({winners, rows: [{seat, text}]} best first);
    // otherwise: view.winners and view.scores, lowest score first.
    const result = R && R.result && m.view ? R.result(m.view, t) : {
      winners: m.view?.winners || [],
      rows: m.view?.scores ? m.seats.map((_, i) => ({ seat: i, score: m.view.scores[i] })).sort((a, b) => a.score - b.score).map((r) => ({ seat: r.seat, text: String(r.score) })) : [],
    };
    const winners = result.winners.map((i) => m.seats[i].name);
    const title = winners.length > 1 ? t("table.winners", { names: winners.join(" & ") }) : winners.length ? t("table.winner", { names: winners[0] }) : t("table.noWinner");
    const scores = result.rows.length
      ? h("ol", { class: "final-scores" }, result.rows.map((row) =>
        h("li", { class: result.winners.includes(row.seat) ? "winner" : "" }, h("span", {}, m.seats[row.seat].name), h("strong", {}, row.text))))
      : null;
    const canRematch = m.seat !== null || this.host;
    return h("section", { class: "panel finished", role: "status" },
      h("h2", {}, t("table.gameOver"), " – ", title),
      scores,
      h("div", { class: "item-actions" },
        canRematch ? h("button", { type: "button", class: "btn btn-primary", id: "rematch", onclick: async () => {
          try {
            const res = await api(`/api/tables/${m.code}/rematch`, { token: this.token || this.host });
            store.set(res.seat === null ? `host.${res.code}` : `seat.${res.code}`, res.token);
            navigate(`/t/${res.code}`);
          } catch (err) { toast(err.message); }
        } }, t("table.rematch")) : null,
        m.rematch ? h("a", { class: "btn", href: `/t/${m.rematch}`, onclick: link }, `→ ${m.rematch}`) : null,
        h("a", { class: "btn", href: `/replay/${m.code}`, onclick: link, id: "replay-link" }, t("table.replay")),
        h("a", { class: "btn", href: `/api/tables/${m.code}/record`, download: "" }, t("table.download")),
        h("a", { class: "btn btn-quiet", href: "/", onclick: link }, t("table.lobby"))));
  }

  log(m, R) {
    const lines = m.events.flatMap((e) => eventLines(R, e, m.seats).map((text, i) => ({ text, cls: i ? "ev ev-note" : `ev ev-${e.by}` })));
    const items = lines.reverse().slice(0, 40).map((line) => h("li", { class: line.cls }, line.text));
    return h("details", { class: "log", open: window.innerWidth > 900 ? true : null },
      h("summary", {}, t("table.log")), h("ol", { reversed: true }, items));
  }
}

// ------------------------------------------------------------------ replay
async function replayPage(code) {
  let data;
  try { data = await api(`/api/tables/${code}/replay`); } catch (e) {
    main.replaceChildren(h("section", { class: "panel" }, h("p", {}, e.message), h("a", { class: "btn", href: `/t/${code}`, onclick: link }, `← ${t("replay.toTable")}`)));
    return;
  }
  await i18n.load(i18n.lang(), gameIdsFor(data.game));
  const R = await renderer(data.renderer);
  data.seats = data.seats.map((s) => ({ ...s, name: seatName(s), connected: true, replaced: false })); // no presence in replays
  const n = data.frames.length - 1;
  let step = 0; // from the start: the last step would give the result away
  let timer = null;
  const board = h("div", { class: "board" });
  const slider = h("input", { type: "range", min: 0, max: n, value: step, id: "replay-slider", "aria-label": t("replay.step", { i: step, n }) });
  const label = h("span", { class: "replay-step", "aria-live": "polite" });
  const eventLine = h("p", { class: "replay-event" });
  const playBtn = h("button", { type: "button", class: "btn", id: "replay-play" });
  function show(i) {
    step = Math.max(0, Math.min(n, i));
    slider.value = String(step);
    label.textContent = t("replay.step", { i: step, n });
    const ev = step > 0 ? data.events[step - 1] : null;
    eventLine.textContent = ev ? (eventLines(R, ev, data.seats).join(" · ") || R.eventText(ev, data.seats, t)) : "—";
    R.render(board, data.frames[step], { t, seat: null, seats: data.seats, acting: [], events: data.events.slice(0, step), status: step === n ? "finished" : "playing", animate: false, legal: [], act: () => {} });
    playBtn.textContent = timer ? `⏸ ${t("replay.pause")}` : `▶ ${t("replay.play")}`;
  }
  function toggle() {
    if (timer) { clearInterval(timer); timer = null; } else {
      if (step >= n) step = 0;
      timer = setInterval(() => { if (step >= n) { clearInterval(timer); timer = null; show(step); } else show(step + 1); }, 700);
    }
    show(step);
  }
  playBtn.addEventListener("click", toggle);
  slider.addEventListener("input", () => show(Number(slider.value)));
  const btn = (key, id, fn) => h("button", { type: "button", class: "btn", id, onclick: fn }, t(key));
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    if (e.key === "ArrowLeft") { e.preventDefault(); show(step - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); show(step + 1); }
    if (e.key === "Home") show(0);
    if (e.key === "End") show(n);
  };
  document.addEventListener("keydown", keys);
  cleanup = () => { document.removeEventListener("keydown", keys); clearInterval(timer); };
  main.replaceChildren(h("div", { class: "table-page" },
    h("div", { class: "table-head" }, h("h1", {}, t("replay.title", { code })),
      h("a", { class: "btn btn-small", href: `/api/tables/${code}/record`, download: "" }, t("table.download"))),
    h("div", { class: "panel replay-bar" },
      btn("replay.first", "replay-first", () => show(0)), btn("replay.prev", "replay-prev", () => show(step - 1)),
      playBtn, btn("replay.next", "replay-next", () => show(step + 1)), btn("replay.last", "replay-last", () => show(n)),
      slider, label),
    eventLine, board));
  show(step);
  rerender = () => replayPage(code);
}

// ------------------------------------------------------------------ routing
function link(e) {
  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(e.currentTarget.getAttribute("href"));
}

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

async function route() {
  cleanup();
  cleanup = () => {};
  const path = location.pathname;
  try {
    let m;
    if ((m = path.match(/^\/t\/([A-Za-z0-9]+)$/))) {
      if (!games.length) games = await api("/api/games");
      tablePage(m[1].toUpperCase());
    } else if ((m = path.match(/^\/replay\/([A-Za-z0-9]+)$/))) await replayPage(m[1].toUpperCase());
    else if (path.startsWith("/t/") || path.startsWith("/replay/")) notFoundPage();
    else await lobbyPage();
  } catch (e) { toast(e.message); }
  main.focus({ preventScroll: true });
}

async function boot() {
  await i18n.load(i18n.preferred(), ["dice"]);
  updateChrome();
  document.getElementById("brand").addEventListener("click", link);
  document.getElementById("lang").addEventListener("change", async (e) => {
    store.set("lang", e.target.value);
    await i18n.load(e.target.value, games.map((g) => g.id));
    updateChrome();
    rerender();
  });
  document.getElementById("sound").addEventListener("click", () => {
    store.set("sound", soundOn() ? "off" : "on");
    updateChrome();
    if (soundOn()) chime();
  });
  window.addEventListener("popstate", route);
  await route();
}

boot();
