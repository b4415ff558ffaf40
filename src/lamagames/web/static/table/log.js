// The move log and the one-line "what just happened" under the banner. The words come from
// the game's browser module (eventLines / eventText) and the catalogs.
import { h } from "../dom.js";
import * as i18n from "../i18n.js";

const { t } = i18n;

// Log lines of one event: the game's own (eventLines: the action and what it led to) or its
// eventText. Moves a bot made for a person say so: "(bot for Robin)", "(time ran out)".
export function eventLines(R, event, seats) {
  const lines = R.eventLines ? R.eventLines(event, seats, t) : [R.eventText(event, seats, t)];
  const who = event.player >= 0 && seats[event.player] ? seats[event.player].name : "";
  const why =
    event.by === "stand-in"
      ? t("log.standIn", { name: who })
      : event.by === "clock"
        ? t("log.clock")
        : event.by === "timer"
          ? t("log.timer")
          : "";
  if (why && lines.length) lines[0] = `${lines[0]} (${why})`;
  return lines;
}

/** Most events the page keeps for its log (a whole game is far fewer). */
export const LOG_KEEP = 5000;

/**
 * Add the events of a state message to the page's log (a Map from event index to event):
 * a state message carries only the latest events, so the log grows across messages and
 * keeps the whole game seen since the page was opened.
 */
export function remember(log, events) {
  for (const e of events) log.set(e.index, e);
  if (log.size > LOG_KEEP) {
    const old = [...log.keys()].sort((a, b) => a - b).slice(0, log.size - LOG_KEEP);
    for (const index of old) log.delete(index);
  }
}

/**
 * The latest `count` remembered events, oldest first. State messages after a connection's
 * first carry only the entries since the previous one, so what just happened (the latest
 * decision and the chance after it, the last dice roll) is read from the page's log.
 */
export function recent(log, count = 60) {
  const events = [...log.values()].sort((a, b) => a.index - b.index);
  return events.slice(Math.max(0, events.length - count));
}

/**
 * The log panel: every remembered event, newest first (the list scrolls); open on wide
 * screens. When the page joined mid-game, a last line says that earlier moves are in the
 * replay.
 */
export function logPanel(m, R, log) {
  const events = [...log.values()].sort((a, b) => a.index - b.index);
  const lines = events.flatMap((e) =>
    eventLines(R, e, m.seats).map((text, i) => ({
      text,
      cls: i ? "ev ev-note" : `ev ev-${e.by}`,
      key: `${e.index}.${i}`,
    })),
  );
  const items = lines.reverse().map((line) => h("li", { class: line.cls, dataset: { key: line.key } }, line.text));
  if (events.length && events[0].index > 0)
    items.push(h("li", { class: "ev ev-note muted", dataset: { key: "earlier" } }, t("log.earlier")));
  return h(
    "details",
    { class: "log", id: "log", open: window.innerWidth > 900 ? true : null },
    h("summary", {}, t("table.log")),
    // A live region (issue 19): a screen reader reads each move as it is added; focusable,
    // so the list scrolls with the keyboard.
    h(
      "ol",
      {
        reversed: true,
        id: "log-list",
        "aria-live": "polite",
        "aria-relevant": "additions",
        "aria-label": t("table.log"),
        tabindex: "0",
      },
      items,
    ),
  );
}

/**
 * What just happened, in one line: the latest decision of a seat and everything after it
 * (chance outcomes, what the rules did by themselves), e.g. "Robin rolled. · Train A moved".
 * Empty before the first event. `events`: the latest remembered events (`recent`).
 */
export function lastHappened(m, R, events) {
  let start = events.length - 1;
  while (start > 0 && events[start].player < 0) start--;
  const text = events
    .slice(Math.max(0, start))
    .flatMap((e) => eventLines(R, e, m.seats))
    .join(" · ");
  return h("p", { class: "last-event", id: "last-event" }, text || "\u00a0");
}
