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

/** A reaction's short name in the reader's language (catalog key react.<id>): the phrase
 * itself, an emoji's accessible name and the words shown where the emoji is not drawn. */
export function reactionName(id) {
  return t(`react.${id}`);
}

// Is the emoji drawn, or an empty box (issue 19: without an emoji font 👍 👏 🦙 were boxes)?
// The emoji is painted twice on a small canvas in the page's emoji fonts (style.css
// --emoji-font), once in black and once in white. A colour emoji keeps its own colours
// whatever the text colour (even the pale 🦙), so both copies match; an ordinary glyph (a
// black-and-white fallback, the missing-glyph box) takes the text colour and nothing
// missing paints nothing. Where the copies differ or stay empty (also where the canvas
// gives no pixels back: a fingerprinting guard), the reaction shows its name instead:
// legible on every system. Checked once per emoji (some systems lack newer ones like 🦙).
const drawn = new Map();
/** Canvas square per copy, px (the emoji is painted at 24 px). */
const CELL = 32;
let canvas = null;

/** Whether `emoji` shows in colour here (measured once, then remembered). */
export function emojiDrawn(emoji) {
  if (!drawn.has(emoji)) drawn.set(emoji, keepsItsColours(emoji));
  return drawn.get(emoji);
}

function keepsItsColours(emoji) {
  try {
    canvas = canvas || document.createElement("canvas");
    canvas.width = 2 * CELL;
    canvas.height = CELL;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return false;
    const fonts = getComputedStyle(document.documentElement).getPropertyValue("--emoji-font").trim();
    ctx.font = `24px ${fonts || "sans-serif"}`;
    ctx.textBaseline = "top";
    ctx.fillStyle = "#000";
    ctx.fillText(emoji, 2, 2);
    ctx.fillStyle = "#fff";
    ctx.fillText(emoji, CELL + 2, 2);
    const px = ctx.getImageData(0, 0, 2 * CELL, CELL).data;
    let inked = 0;
    let same = 0;
    for (let y = 0; y < CELL; y++) {
      for (let x = 0; x < CELL; x++) {
        const a = (y * 2 * CELL + x) * 4; // the black copy's pixel
        const b = a + CELL * 4; // the white copy's
        if (px[a + 3] < 64) continue;
        inked++;
        const gap = Math.abs(px[a] - px[b]) + Math.abs(px[a + 1] - px[b + 1]) + Math.abs(px[a + 2] - px[b + 2]);
        if (gap < 48) same++;
      }
    }
    return inked >= 20 && same >= 0.9 * inked;
  } catch {
    return false;
  }
}

/** What a reaction shows: its emoji where it is drawn (hidden from screen readers: the
 * element carries the name), else its name in the reader's language. */
function reactionFace(id) {
  const emoji = REACTIONS[id];
  return emoji && emojiDrawn(emoji)
    ? h("span", { class: "talk-glyph", "aria-hidden": "true" }, emoji)
    : reactionName(id);
}

/** Whether a reaction shows as an emoji (not as words). */
function showsEmoji(id) {
  return Boolean(REACTIONS[id]) && emojiDrawn(REACTIONS[id]);
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
    /** The chat line being typed: kept while the chat is off, back in the field when it is
     * on again (issue 19: turning the chat off lost it). */
    this.draft = "";
    /** The chat line sent and not yet relayed back: it stays in the field until the server
     * relays it (then the field empties), so a line the server refuses (talk_rate...) is
     * not lost (issue 19, a new-user trial). */
    this.sent = null;
    /** This page's seat (null: watching), from the last state drawn. */
    this.seat = null;
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
      if (this.sent !== null && m.seat === this.seat && m.text === this.sent) this.relayed();
    }
    this.redraw();
    // The newest line in view: the list scrolls inside (two lines high on a phone held
    // upright, issue 19), the older lines above it.
    const list = m.type === "chat" && document.getElementById("talk-lines");
    if (list) list.scrollTop = list.scrollHeight;
    // On a fitted page the side column may scroll too (a phone on its side: the chat form
    // stays at its bottom, the lines above it scroll): the newest line in view there, above
    // the form (style.css scroll-padding-bottom).
    const newest = list && document.body.classList.contains("fit") && list.lastElementChild;
    if (newest) newest.scrollIntoView({ block: "nearest" });
  }

  /** Our line came back from the server: the field empties, unless a new line is being
   * typed there already. */
  relayed() {
    const input = document.getElementById("talk-input");
    if (input && input.value.trim() === this.sent) {
      input.value = "";
      this.draft = "";
    }
    this.sent = null;
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
                {
                  class: "talk-bubble",
                  dataset: { reaction: shown.reaction },
                  title: reactionName(shown.reaction),
                  // an emoji is a picture named in the reader's language
                  ...(showsEmoji(shown.reaction) ? { role: "img", "aria-label": reactionName(shown.reaction) } : {}),
                },
                reactionFace(shown.reaction),
              )
            : null,
        );
      }),
    );
    const seated = m.seat !== null;
    this.seat = m.seat;
    const buttons = seated
      ? h(
          "div",
          { class: "talk-reactions", role: "group", "aria-label": t("talk.react") },
          Object.keys(REACTIONS).map((id) =>
            h(
              "button",
              {
                type: "button",
                class: `btn btn-small talk-react${showsEmoji(id) ? " talk-emoji" : ""}`,
                dataset: { reaction: id },
                title: reactionName(id),
                "aria-label": reactionName(id),
                disabled: !view.conn.online(),
                onclick: () => view.send({ type: "react", reaction: id }),
              },
              reactionFace(id),
            ),
          ),
        )
      : null;
    const lines = m.chat
      ? h(
          "ol",
          { class: "talk-lines", id: "talk-lines", "aria-live": "polite" },
          this.lines.map((line) => {
            const name = m.seats[line.seat]?.name || "?";
            // the name may be shortened (a phone on its side), in full on hover
            return h("li", {}, h("strong", { class: "talk-who", title: name }, name), ": ", h("span", {}, line.text));
          }),
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
                // the field empties when the server relays the line (onMessage), not now
                if (text && view.send({ type: "say", text })) this.sent = text;
              },
            },
            h("input", {
              type: "text",
              id: "talk-input",
              maxlength: String(MAX_CHAT),
              // a short placeholder, whole in the narrow field beside the board (issue 19:
              // "Say something (up to 120 characters)" was cut); the name says the limit
              placeholder: t("talk.placeholder"),
              "aria-label": t("talk.label", { n: MAX_CHAT }),
              autocomplete: "off",
              value: this.draft || null,
              oninput: (e) => {
                this.draft = e.currentTarget.value;
              },
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
