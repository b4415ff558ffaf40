// The live table page: connection + seats + action bar + log around the game's renderer.
// Every update patches the page in place (dom.js patch), so a button being pressed while a
// bot moves stays the same button and its click counts.
import { h, patch } from "../dom.js";
import * as i18n from "../i18n.js";
import { api, errorText, gameIdsFor, link, main, myName, navigate, page, renderer, store, toast } from "../common.js";
import { reviewPanel } from "../review.js";
import { chime } from "../sound.js";
import { actionBar, onActionKey } from "./actions.js";
import { TableConnection } from "./connection.js";
import { lastHappened, logPanel, remember } from "./log.js";
import { joinButton, waitingPanel, withNames } from "./seats.js";
import { markSuggested, tutorialPanel } from "./tutorial.js";

const { t } = i18n;

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
      onHints: (m) => {
        if (this.hints && m.ref === this.hints.ref) {
          this.hints.list = m.hints;
          this.draw();
        }
      },
    });
    /** The last hint asked for: {ref, version, list (null while it is worked out)}. */
    this.hints = null;
    /** The "bot_unavailable" error of a table that cannot go on (players and spectators
     * alike), kept in the banner until the table moves on; a toast alone would fade. */
    this.stuck = null;
  }

  start() {
    main.replaceChildren(h("p", { class: "loading" }, t("conn.connecting")));
    this.conn.connect();
    this.keys = (e) => onActionKey(e, main);
    document.addEventListener("keydown", this.keys);
  }

  stop() {
    document.removeEventListener("keydown", this.keys);
    clearInterval(this.clockTimer);
    if (this.review) this.review.stop();
    this.conn.stop();
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
    document.title = mine ? t("title.yourTurn", { game: gameName }) : `${gameName} · ${m.code}`;

    const legal = m.status === "playing" ? m.legal.map((a) => a.action) : [];
    const board = h("div", { class: "board", id: "board" });
    if (m.view) {
      R.render(board, m.view, {
        t,
        seat: m.seat,
        seats: m.seats,
        acting: m.acting,
        events: m.events,
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
      h("h1", {}, gameName, h("span", { class: "code-chip", title: t("lobby.code") }, m.code)),
      h("span", { class: `status status-${m.status}` }, t(`status.${m.status}`)),
    );
    const side = h("aside", { class: "side" }, tutorialPanel(this, m, R), logPanel(m, R, this.log));
    const fresh = h(
      "div",
      { class: "table-page", id: "table-page", dataset: { code: m.code } },
      head,
      this.banner(m, R, mine),
      m.status === "waiting" ? null : lastHappened(m, R),
      actionBar(this, m, R, mine, joinButton(this, m)),
      board,
      side,
    );
    markSuggested(this, m, fresh);

    // Keep the page's elements (a pressed button, the focus, an open log): patch in place.
    const live = main.querySelector(":scope > #table-page");
    if (live && live.dataset.code === m.code) patch(live, fresh);
    else main.replaceChildren(fresh);
    if (m.status === "finished") this.showReview(m, R);
    if (mine && !this.conn.pending && !main.contains(document.activeElement)) {
      const first = main.querySelector(".actions button");
      if (first) first.focus({ preventScroll: true });
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
    const own = R.headline ? R.headline(m.view, { t, seat: m.seat, seats: m.seats, acting: m.acting, mine }) : null;
    const text =
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
    const clock = m.clock ? h("span", { class: "clock" }, t("table.clock", { n: Math.ceil(m.clock.remaining) })) : null;
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
      stuck,
    );
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
    return h(
      "section",
      { class: "panel finished", id: "finished", role: "status" },
      h("h2", {}, t("table.gameOver"), " – ", title),
      scores,
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
