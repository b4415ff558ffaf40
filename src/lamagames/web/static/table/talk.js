// Talk at the table (issue 19): quick reactions (a fixed set of emoji and short phrases:
// the ids of lamagames.web.talk.REACTIONS, phrases in the reader's language) and, where the
// host turned chat on, short chat lines. The server relays them to every seat and
// spectator ({type: "reaction", seat, reaction} / {type: "chat", seat, text}); a reaction
// shows beside its seat's name for a few seconds. Nothing of it is stored.
import { api, toast } from "../common.js";
import { h } from "../dom.js";
import * as i18n from "../i18n.js";

const { t } = i18n;

/** Reaction ids in button order: an emoji, or null for a phrase (catalog key react.<id>). */
export const REACTIONS = {
  thumbs_up: "👍",
  laugh: "😂",
  wow: "😮",
  sad: "😢",
  clap: "👏",
  llama: "🦙",
  good_game: null,
  well_played: null,
  nice_try: null,
  oops: null,
  thanks: null,
  your_turn: null,
};
/** How long a reaction stays beside its seat, ms. */
export const SHOW_MS = 4000;
/** Longest chat line the server accepts, characters (lamagames.web.talk.MAX_CHAT_CHARS). */
export const MAX_CHAT = 120;
/** Chat lines kept on the page. */
const KEEP_LINES = 8;

/** What a reaction shows: its emoji, or its phrase in the reader's language. */
export function reactionText(id) {
  return REACTIONS[id] || t(`react.${id}`);
}

export class Talk {
  /** `redraw`: draws the table page again (a reaction came or faded). */
  constructor(redraw) {
    this.redraw = redraw;
    /** seat -> {reaction, n}: the reaction shown beside the seat now. */
    this.shown = new Map();
    this.lines = [];
    this.count = 0;
    this.timers = new Set();
  }

  onMessage(m) {
    if (m.type === "reaction") {
      const n = ++this.count;
      this.shown.set(m.seat, { reaction: m.reaction, n });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const now = this.shown.get(m.seat);
        if (now && now.n === n) {
          this.shown.delete(m.seat);
          this.redraw();
        }
      }, SHOW_MS);
      this.timers.add(timer);
    } else if (m.type === "chat") {
      this.lines.push(m);
      if (this.lines.length > KEEP_LINES) this.lines.shift();
    }
    this.redraw();
  }

  stop() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** The talk panel: each seat with its current reaction, the reaction buttons (seated
   * players), the chat lines and the chat form (tables with chat on). */
  panel(view, m) {
    const seats = h(
      "ul",
      { class: "talk-seats", id: "talk-seats" },
      m.seats.map((s, i) => {
        const shown = this.shown.get(i);
        return h(
          "li",
          { class: "talk-seat", dataset: { seat: String(i) } },
          h("span", { class: "talk-name", title: s.name }, s.name),
          shown
            ? h(
                "span",
                { class: "talk-bubble", dataset: { reaction: shown.reaction }, title: t(`react.${shown.reaction}`) },
                reactionText(shown.reaction),
              )
            : null,
        );
      }),
    );
    const seated = m.seat !== null;
    const buttons = seated
      ? h(
          "div",
          { class: "talk-reactions", role: "group", "aria-label": t("talk.react") },
          Object.keys(REACTIONS).map((id) =>
            h(
              "button",
              {
                type: "button",
                class: `btn btn-small talk-react${REACTIONS[id] ? " talk-emoji" : ""}`,
                dataset: { reaction: id },
                title: t(`react.${id}`),
                "aria-label": t(`react.${id}`),
                disabled: !view.conn.online(),
                onclick: () => view.send({ type: "react", reaction: id }),
              },
              reactionText(id),
            ),
          ),
        )
      : null;
    const lines = m.chat
      ? h(
          "ol",
          { class: "talk-lines", id: "talk-lines", "aria-live": "polite" },
          this.lines.map((line) =>
            h("li", {}, h("strong", {}, `${m.seats[line.seat]?.name || "?"}: `), h("span", {}, line.text)),
          ),
        )
      : null;
    const form =
      m.chat && seated
        ? h(
            "form",
            {
              class: "talk-form",
              id: "talk-form",
              onsubmit: (e) => {
                e.preventDefault();
                const input = e.currentTarget.querySelector("input");
                const text = input.value.trim();
                if (text && view.send({ type: "say", text })) input.value = "";
              },
            },
            h("input", {
              type: "text",
              id: "talk-input",
              maxlength: String(MAX_CHAT),
              placeholder: t("talk.placeholder", { n: MAX_CHAT }),
              "aria-label": t("talk.placeholder", { n: MAX_CHAT }),
              autocomplete: "off",
            }),
            h("button", { type: "submit", class: "btn btn-small" }, t("talk.send")),
          )
        : null;
    // The host (this browser created the table) turns the chat on or off.
    const hostSwitch =
      view.host && m.status !== "finished"
        ? h(
            "button",
            {
              type: "button",
              class: "btn btn-small btn-quiet",
              id: "chat-switch",
              onclick: () =>
                api(`/api/tables/${m.code}/chat`, { host_token: view.host, chat: !m.chat }).catch((e) =>
                  toast(e.message),
                ),
            },
            m.chat ? t("talk.chatOff") : t("talk.chatOn"),
          )
        : null;
    return h(
      "section",
      { class: "panel talk-panel", id: "talk" },
      h("h2", {}, m.chat ? t("talk.titleChat") : t("talk.title")),
      seats,
      buttons,
      lines,
      form,
      hostSwitch,
    );
  }
}
