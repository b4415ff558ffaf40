// The live table page: connection + seats + action bar + log around the game's renderer.
// Every update patches the page in place (dom.js patch), so a button being pressed while a
// bot moves stays the same button and its click counts.
import { h, patch } from "../dom.js";
import * as i18n from "../i18n.js";
import { api, errorText, gameIdsFor, link, main, myName, navigate, page, renderer, store, toast } from "../common.js";
import { reviewPanel } from "../review.js";
import { chime } from "../sound.js";
import { actionBar, onActionKey } from "./actions.js";
import { Alerts, alertMenu, countdown, tick } from "./alerts.js";
import { TableConnection } from "./connection.js";
import { lastHappened, logPanel, recent, remember } from "./log.js";
import { joinButton, waitingPanel, withNames } from "./seats.js";
import { Talk } from "./talk.js";
import { markSuggested, tutorialPanel } from "./tutorial.js";

const { t } = i18n;

/** How long (ms) a bot's turn goes on without news before the banner says it is thinking. */
export const THINKING_AFTER = 1500;

/** Below this many screen pixels per SVG unit a board drops its small labels (board-small). */
export const SMALL_BOARD = 0.6;

/** The smallest font size (screen pixels) of any text a board draws (issue 19). */
export const MIN_BOARD_TEXT = 9;

/**
 * Board text stays readable (issue 19, a new-user trial: the Lama Express labels were
 * 4.9-6.7 px tall at 390x844). Each SVG of the board marked `data-scale-text` gets
 * `--board-scale`, the screen pixels one of its units takes (its viewBox fitted into its box,
 * CSS zoom included); its style sheet keeps each label's font at least so many screen pixels
 * (`font-size: max(12px, calc(9px / var(--board-scale)))`). Below SMALL_BOARD it gets the
 * class `board-small` too (the band's discs grow). A label that cannot grow past a size
 * inside its box (marked `data-fixed-text` by the renderer: the Lama Express station names
 * and cars' numbers, the LAMA Dice cards' corner numbers, SVG or HTML) is left out (class
 * `board-text-off`) while its font would take fewer than MIN_BOARD_TEXT screen pixels: the
 * same information shows elsewhere (the player cards, the card's big number). Runs after
 * each draw (the patch drops all three) and on every resize.
 */
export function scaleBoardText(board) {
  for (const svg of board.querySelectorAll("svg[data-scale-text]")) {
    const box = svg.getBoundingClientRect();
    const view = svg.viewBox && svg.viewBox.baseVal;
    if (!view || !view.width || !view.height || !box.width || !box.height) continue;
    const scale = Math.min(box.width / view.width, box.height / view.height);
    svg.style.setProperty("--board-scale", scale.toFixed(4));
    svg.classList.toggle("board-small", scale < SMALL_BOARD);
  }
  for (const label of board.querySelectorAll("[data-fixed-text]")) {
    label.classList.toggle("board-text-off", renderedFontSize(label) < MIN_BOARD_TEXT - 0.01);
  }
}

/** The font size of `el` on screen (pixels): its computed size times its SVG's scale (the
 * CTM, CSS zoom included) or, in HTML, times the CSS zoom it sits under. */
export function renderedFontSize(el) {
  const size = parseFloat(getComputedStyle(el).fontSize) || 0;
  if (el instanceof SVGGraphicsElement) {
    const svg = el.ownerSVGElement;
    const box = svg && svg.getBoundingClientRect();
    const view = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!box || !view || !view.width || !view.height) return size;
    return size * Math.min(box.width / view.width, box.height / view.height);
  }
  return size * (el.currentCSSZoom || 1);
}

/** The smallest CSS zoom fitBoard gives a board, the steps it tries going down, and the
 * precision of its search between two steps. */
export const BOARD_ZOOM_MIN = 0.3;
export const BOARD_ZOOM_STEP = 0.05;
export const BOARD_ZOOM_PRECISION = 0.002;

/** Whether `inner` (the board's drawing) fits inside `board` at CSS zoom `zoom` (it is left
 * at that zoom): its height on screen and its width, the overflowing part included. */
function boardFits(board, inner, zoom) {
  if (zoom === 1) inner.style.removeProperty("zoom");
  else inner.style.setProperty("zoom", String(zoom));
  const high = inner.getBoundingClientRect().height;
  const wide = inner.scrollWidth * zoom;
  return high <= board.clientHeight + 0.5 && wide <= board.clientWidth + 0.5;
}

export function tablePage(code) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const invited = hash.get("seat");
  if (invited) {
    store.set(`seat.${code}`, invited);
    history.replaceState(null, "", `/t/${code}`);
  }
  const view = new TableView(code, Boolean(invited));
  view.start();
  page.cleanup = () => view.stop();
  page.rerender = () => {
    view.draw();
    if (view.review) view.review.redraw();
  };
}

class TableView {
  constructor(code, invited) {
    this.code = code;
    this.token = store.get(`seat.${code}`);
    this.host = store.get(`host.${code}`);
    this.needsName = invited;
    this.msg = null;
    /** Every event seen on this page, by index (state messages carry only the latest). */
    this.log = new Map();
    this.wasMyTurn = false;
    this.alerts = new Alerts();
    this.clockTimer = null;
    /** The renderer's memory for this page (what it drew last, to animate changes once). */
    this.memory = {};
    this.conn = new TableConnection(code, {
      token: () => this.token,
      onState: (m) => this.onState(m),
      onAck: (m) => {
        // The new state follows at once; a duplicate changed nothing, so redraw now.
        if (m.duplicate || (this.msg && this.msg.version >= m.version)) this.draw();
      },
      onError: (m) => this.onError(m),
      onRematch: (m) => {
        if (m.token) store.set(`seat.${m.code}`, m.token);
        navigate(`/t/${m.code}`);
      },
      onClosed: () => this.draw(), // the action buttons wait until the connection is back
      onPending: () => this.draw(),
      onTalk: (m) => this.talk.onMessage(m),
      onHints: (m) => {
        if (this.hints && m.ref === this.hints.ref) {
          this.hints.list = m.hints;
          this.draw();
          this.showHints();
        }
      },
    });
    /** Reactions shown by the seats and chat lines (talk.js). */
    this.talk = new Talk(() => this.draw());
    /** The last hint asked for: {ref, version, list (null while it is worked out)}. */
    this.hints = null;
    /** The "bot_unavailable" error of a table that cannot go on (players and spectators
     * alike), kept in the banner until the table moves on; a toast alone would fade. */
    this.stuck = null;
    /** Since when (performance.now()) the table shows its current version: the bots' wait. */
    this.since = { version: null, at: 0 };
    this.thinkTimer = null;
    /** Whether the page placed the keyboard focus once (placeFocus). */
    this.focusPlaced = false;
  }

  start() {
    main.replaceChildren(h("p", { class: "loading" }, t("conn.connecting")));
    this.conn.connect();
    this.keys = (e) => onActionKey(e, main);
    document.addEventListener("keydown", this.keys);
    this.resized = () => this.fitBoard();
    window.addEventListener("resize", this.resized);
    // A game's style sheet arriving after the first draw changes the board's size.
    document.addEventListener("load", this.resized, true);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    window.removeEventListener("resize", this.resized);
    document.removeEventListener("load", this.resized, true);
    document.body.classList.remove("fit");
    clearInterval(this.clockTimer);
    clearTimeout(this.thinkTimer);
    this.talk.stop();
    if (this.review) this.review.stop();
    this.conn.stop();
    this.alerts.stop();
    document.title = t("app.title");
  }

  send(message) {
    if (this.conn.send(message)) return true;
    toast(t("conn.offline"));
    return false;
  }

  act(notation) {
    if (!this.msg || this.conn.pending) return;
    this.conn.act(this.msg.version, notation);
  }

  async onState(m) {
    const first = !this.msg;
    this.msg = m;
    if (this.stuck && (m.version > this.stuck.version || m.status !== "playing")) this.stuck = null;
    remember(this.log, m.events);
    if (first) {
      await i18n.load(i18n.lang(), gameIdsFor(m.game));
      const info = await api(`/api/tables/${this.code}`).catch(() => null);
      this.info = info;
      this.renderer = await renderer(info ? info.renderer : `games/${m.game}/render.js`);
      if (this.needsName && m.seat !== null) {
        // Arrived through an invite link: claim the seat under the saved name, or ask.
        if (myName())
          api(`/api/tables/${this.code}/join`, { token: this.token, name: myName() }).catch((e) => toast(e.message));
        else if (m.status === "waiting") this.askName = true;
        else api(`/api/tables/${this.code}/join`, { token: this.token }).catch((e) => toast(e.message));
      }
    }
    this.draw();
  }

  onError(m) {
    if (m.ref && this.hints && m.ref === this.hints.ref) this.hints = null;
    if (m.code === "bot_unavailable") this.stuck = m;
    toast(errorText(m.code, m.message));
    if (m.code === "not_found" || m.code === "bad_token" || m.code === "seat_taken") {
      if (m.code !== "not_found") store.remove(`seat.${this.code}`);
      // A taken seat (claimed from the lobby) or a stale link: offer to watch instead.
      const watch =
        m.code === "not_found"
          ? null
          : h(
              "button",
              {
                type: "button",
                class: "btn btn-primary",
                id: "watch-instead",
                onclick: () => {
                  this.token = null;
                  this.needsName = false;
                  this.msg = null;
                  this.conn.seenState = false;
                  this.conn.connect();
                },
              },
              t("table.watchInstead"),
            );
      main.replaceChildren(
        h(
          "section",
          { class: "panel", id: "table-error" },
          h("p", {}, t(`err.${m.code}`)),
          h(
            "div",
            { class: "item-actions" },
            watch,
            h("a", { class: "btn", href: "/", onclick: link }, t("table.lobby")),
          ),
        ),
      );
      return;
    }
    this.draw();
  }

  draw() {
    if (!this.msg || !this.renderer) return;
    const m = withNames(this.msg);
    const R = this.renderer;
    const gameName = t(`${m.game}.name`);
    const mine = m.seat !== null && m.acting.includes(m.seat) && m.legal.length > 0;
    if (mine && !this.wasMyTurn) chime();
    this.wasMyTurn = mine;
    // Until the seat acts: a move in flight ends the alert, the next turn or chance starts one.
    // A chance out of turn (the game's renderer says which) has its own title (issue 19).
    const chance = mine && m.view && R.chance ? R.chance(m.view) : false;
    this.alerts.update(mine && !this.conn.pending, {
      mine: t(chance ? "title.yourChance" : "title.yourTurn", { game: gameName }),
      plain: `${gameName} · ${m.code}`,
    });

    const legal = m.status === "playing" ? m.legal.map((a) => a.action) : [];
    const latest = recent(this.log);
    const board = h("div", { class: "board", id: "board" });
    if (m.view) {
      R.render(board, m.view, {
        t,
        seat: m.seat,
        seats: m.seats,
        acting: m.acting,
        events: latest,
        status: m.status,
        legal,
        pending: Boolean(this.conn.pending),
        act: (notation) => this.act(notation),
        memory: this.memory,
      });
    }
    const head = h(
      "div",
      { class: "table-head" },
      h(
        "h1",
        { id: "table-title", tabindex: "-1" },
        gameName,
        h("span", { class: "code-chip", title: t("lobby.code") }, m.code),
      ),
      h(
        "div",
        { class: "table-head-tools" },
        m.seat !== null && m.status === "playing" ? alertMenu(() => this.draw()) : null,
        h("span", { class: `status status-${m.status}` }, t(`status.${m.status}`)),
      ),
    );
    const side = h(
      "aside",
      { class: "side" },
      tutorialPanel(this, m, R),
      this.talk.panel(this, m),
      logPanel(m, R, this.log),
    );
    const fresh = h(
      "div",
      { class: "table-page", id: "table-page", dataset: { code: m.code } },
      head,
      this.banner(m, R, mine),
      m.status === "waiting" ? null : lastHappened(m, R, latest),
      actionBar(this, m, R, mine, joinButton(this, m)),
      board,
      side,
    );
    markSuggested(this, m, fresh);

    // Keep the page's elements (a pressed button, the focus, an open log): patch in place.
    const live = main.querySelector(":scope > #table-page");
    if (live && live.dataset.code === m.code) patch(live, fresh);
    else main.replaceChildren(fresh);
    // Until the game is over (waiting for the host, then playing), the page fits the
    // screen (style.css body.fit, issue 19); the finished page scrolls to its review.
    document.body.classList.toggle("fit", m.status !== "finished");
    this.fitBoard();
    if (m.status === "finished") this.showReview(m, R);
    this.placeFocus(mine);
    clearInterval(this.clockTimer);
    if (m.clock) {
      const started = performance.now();
      const el = main.querySelector("#countdown");
      const left = () => Math.max(0, m.clock.remaining - (performance.now() - started) / 1000);
      tick(el, left());
      this.clockTimer = setInterval(() => tick(el, left()), 250);
    }
  }

  /**
   * Where the keyboard focus goes (issue 19: an opened table page left it on the page as a
   * whole, so Tab started over at the top bar and a screen reader said nothing of the table).
   * Only while nothing else holds it (the page itself, the main region, the table's heading):
   * your turn or chance puts it on the first action button; a page opened when it is not
   * your turn puts it once on the table's heading (then Tab reaches the alerts, the actions
   * and the board). A button, a link, the chat field or the board keeps it.
   */
  placeFocus(mine) {
    const at = document.activeElement;
    const heading = main.querySelector("#table-title");
    const idle = !at || at === document.body || at === main || (heading !== null && at === heading);
    const opened = !this.focusPlaced;
    this.focusPlaced = true;
    if (!idle) return;
    const first = mine && !this.conn.pending ? main.querySelector(".actions button:not(:disabled)") : null;
    if (first) first.focus({ preventScroll: true });
    else if (opened && heading) heading.focus({ preventScroll: true });
  }

  /**
   * At a fitted page the action bar may scroll inside with the hint table open (issue 19):
   * on an upright phone with many buttons the table came under them, out of sight. If its
   * heading is out of sight the bar scrolls to show the table; else nothing moves.
   */
  showHints() {
    const heading = main.querySelector("#hint-panel h2");
    const bar = main.querySelector("#controls");
    if (!heading || !bar) return;
    if (heading.getBoundingClientRect().bottom > bar.getBoundingClientRect().bottom) {
      heading.parentElement.scrollIntoView({ block: "nearest" });
    }
  }

  /**
   * Shrink the board (CSS zoom) to the largest scale at which it fits the room the fitted
   * page gives it: the Lama Express board scales by itself (an SVG), the LAMA Dice cards are
   * HTML. A smaller zoom gives the cards a wider layout (more players side by side), so the
   * height jumps as the zoom crosses such a step and is not proportional to it: shrinking
   * by the measured ratio overshot at 844x390 (0.47, the board 250 of its 328 pixels high,
   * the names 7.5 px, issue 19). The zoom steps down by BOARD_ZOOM_STEP from 1 to the first
   * that fits, then bisects up to the next step for the largest that fits (to within
   * BOARD_ZOOM_PRECISION), never below BOARD_ZOOM_MIN. Runs after each draw (the patch
   * drops the zoom) and on every resize.
   */
  fitBoard() {
    const board = main.querySelector("#board");
    const inner = board && board.firstElementChild;
    if (!inner) return;
    inner.style.removeProperty("zoom");
    if (document.body.classList.contains("fit") && !boardFits(board, inner, 1)) {
      let high = 1;
      let low = Math.max(BOARD_ZOOM_MIN, high - BOARD_ZOOM_STEP);
      while (low > BOARD_ZOOM_MIN && !boardFits(board, inner, low)) {
        high = low;
        low = Math.max(BOARD_ZOOM_MIN, low - BOARD_ZOOM_STEP);
      }
      while (high - low > BOARD_ZOOM_PRECISION) {
        const mid = (low + high) / 2;
        if (boardFits(board, inner, mid)) low = mid;
        else high = mid;
      }
      inner.style.setProperty("zoom", low.toFixed(4));
    }
    scaleBoardText(board);
  }

  // The game review below a finished table (review.js); a point or a marked move opens the
  // replay at that position.
  showReview(m, R) {
    if (!this.review) {
      this.review = reviewPanel({
        code: m.code,
        seat: m.seat,
        seats: m.seats,
        R,
        onJump: (index) => navigate(`/replay/${m.code}#step=${index}`),
      });
    }
    if (!main.contains(this.review.el)) main.append(this.review.el);
  }

  banner(m, R, mine) {
    if (m.status === "waiting") return waitingPanel(this, m, this.msg);
    if (m.status === "finished") return this.finishedPanel(m, R);
    const current = m.acting
      .map((i) => m.seats[i]?.name)
      .filter(Boolean)
      .join(", ");
    // A bot standing in for an absent person: say so, not "Mum chooses a train" (issue 19).
    const standIn = !mine && m.acting.length === 1 && m.seats[m.acting[0]]?.replaced ? m.seats[m.acting[0]].name : null;
    const own = R.headline ? R.headline(m.view, { t, seat: m.seat, seats: m.seats, acting: m.acting, mine }) : null;
    const text =
      (standIn && t("table.botFor", { name: standIn })) ||
      own ||
      (mine
        ? t("table.yourTurn")
        : m.seat === null && !m.acting.length
          ? t("table.spectating")
          : m.acting.length > 1
            ? t("table.actingMany", { names: current })
            : current
              ? t("table.turnOf", { name: current })
              : "…");
    const total =
      m.clock && this.info ? (m.clock.kind === "alertness" ? this.info.alertness : this.info.turn_clock) : null;
    const clock = m.clock ? countdown(m.clock, total) : null;
    const hintText = mine && R.hint ? R.hint(m.view, t) : m.seat === null ? t("table.spectating") : "";
    const stuck = this.stuck
      ? h(
          "p",
          { class: "banner-stuck", id: "bot-unavailable", role: "alert" },
          errorText(this.stuck.code, this.stuck.message),
        )
      : null;
    return h(
      "div",
      { class: `banner ${mine ? "banner-mine" : ""}`, id: "banner", role: "status", "aria-live": "polite" },
      h("strong", {}, text),
      clock,
      hintText ? h("span", { class: "hint" }, hintText) : null,
      this.thinking(m, mine, current),
      stuck,
    );
  }

  /**
   * Once only bots act and the table has not moved on for THINKING_AFTER ms: "Steady 2 is
   * thinking…" with moving dots, or, while the server still prepares the bots' compiled code
   * (state.preparing: the first run after an install), "Preparing the fast engine (first run
   * only)…" (issue 19: the page sat 7-9 s on "Exact (solver) 2's turn" without a word). In the
   * banner, a polite live region. Until then a timer redraws the page when the time comes.
   */
  thinking(m, mine, names) {
    const bots =
      m.status === "playing" &&
      !mine &&
      m.acting.length > 0 &&
      m.acting.every((i) => m.seats[i] && (m.seats[i].kind === "bot" || m.seats[i].replaced));
    if (this.since.version !== m.version) {
      this.since = { version: m.version, at: performance.now() };
      clearTimeout(this.thinkTimer);
      this.thinkTimer = null;
    }
    if (!bots) return null;
    const waited = performance.now() - this.since.at;
    if (waited < THINKING_AFTER) {
      if (this.thinkTimer === null) {
        this.thinkTimer = setTimeout(
          () => {
            this.thinkTimer = null;
            this.draw();
          },
          THINKING_AFTER - waited + 20,
        );
      }
      return null;
    }
    return h(
      "span",
      { class: "thinking", id: "bot-thinking" },
      h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
      m.preparing ? t("table.preparing") : t("table.thinking", { name: names }),
    );
  }

  /**
   * The game module's summary of a finished game (issue 19: points per round, who brought
   * which llama home when), from every event of the game: the page's own log when it saw
   * the whole game, else the replay's events (fetched once).
   */
  summary(m, R) {
    let events = null;
    if (this.log.has(0)) events = [...this.log.values()].sort((a, b) => a.index - b.index);
    else if (this.allEvents) events = this.allEvents;
    else if (!this.fetchingEvents) {
      this.fetchingEvents = true;
      api(`/api/tables/${this.code}/replay`)
        .then((data) => {
          this.allEvents = data.events;
          this.draw();
        })
        .catch(() => {}); // no summary then; the result and the replay link stay
    }
    return events ? R.summary(events, { t, seats: m.seats, view: m.view }) : null;
  }

  finishedPanel(m, R) {
    // The game module may describe the result ({winners, rows: [{seat, text}]} best first);
    // otherwise: view.winners and view.scores, lowest score first.
    const result =
      R && R.result && m.view
        ? R.result(m.view, t)
        : {
            winners: m.view?.winners || [],
            rows: m.view?.scores
              ? m.seats
                  .map((_, i) => ({ seat: i, score: m.view.scores[i] }))
                  .sort((a, b) => a.score - b.score)
                  .map((r) => ({ seat: r.seat, text: String(r.score) }))
              : [],
          };
    const winners = result.winners.map((i) => m.seats[i].name);
    const title = winners.length
      ? t("table.winner", { names: winners.join(" & "), n: winners.length })
      : t("table.noWinner");
    const scores = result.rows.length
      ? h(
          "ol",
          { class: "final-scores" },
          result.rows.map((row) =>
            h(
              "li",
              { class: result.winners.includes(row.seat) ? "winner" : "" },
              h("span", {}, m.seats[row.seat].name),
              h("strong", {}, row.text),
            ),
          ),
        )
      : null;
    const canRematch = m.seat !== null || this.host;
    const told = R && R.summary ? this.summary(m, R) : null;
    return h(
      "section",
      { class: "panel finished", id: "finished", role: "status" },
      h("h2", {}, t("table.gameOver"), " – ", title),
      scores,
      told
        ? h(
            "section",
            { class: "summary", id: "summary", "aria-labelledby": "summary-title" },
            h("h3", { id: "summary-title" }, t("summary.title")),
            told,
          )
        : null,
      h(
        "div",
        { class: "item-actions" },
        canRematch
          ? h(
              "button",
              {
                type: "button",
                class: "btn btn-primary",
                id: "rematch",
                onclick: async () => {
                  try {
                    const res = await api(`/api/tables/${m.code}/rematch`, { token: this.token || this.host });
                    store.set(res.seat === null ? `host.${res.code}` : `seat.${res.code}`, res.token);
                    navigate(`/t/${res.code}`);
                  } catch (err) {
                    toast(err.message);
                  }
                },
              },
              t("table.rematch"),
            )
          : null,
        m.rematch ? h("a", { class: "btn", href: `/t/${m.rematch}`, onclick: link }, `→ ${m.rematch}`) : null,
        h("a", { class: "btn", href: `/replay/${m.code}`, onclick: link, id: "replay-link" }, t("table.replay")),
        h("a", { class: "btn", href: `/api/tables/${m.code}/record`, download: "" }, t("table.download")),
        h("a", { class: "btn btn-quiet", href: "/", onclick: link }, t("table.lobby")),
      ),
    );
  }
}
