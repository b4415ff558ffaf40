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
  const why = event.by === "stand-in" ? t("log.standIn", { name: who }) : event.by === "clock" ? t("log.clock") : event.by === "timer" ? t("log.timer") : "";
  if (why && lines.length) lines[0] = `${lines[0]} (${why})`;
  return lines;
}

/** The log panel: newest first, up to 40 lines; open on wide screens. */
export function logPanel(m, R) {
  const lines = m.events.flatMap((e) => eventLines(R, e, m.seats).map((text, i) => ({ text, cls: i ? "ev ev-note" : `ev ev-${e.by}`, key: `${e.index}.${i}` })));
  const items = lines.reverse().slice(0, 40).map((line) => h("li", { class: line.cls, dataset: { key: line.key } }, line.text));
  return h("details", { class: "log", id: "log", open: window.innerWidth > 900 ? true : null },
    h("summary", {}, t("table.log")), h("ol", { reversed: true }, items));
}

/**
 * What just happened, in one line: the latest decision of a seat and everything after it
 * (chance outcomes, what the rules did by themselves), e.g. "Robin rolled. · Train A moved".
 * Empty before the first event.
 */
export function lastHappened(m, R) {
  const events = m.events;
  let start = events.length - 1;
  while (start > 0 && events[start].player < 0) start--;
  const text = events.slice(Math.max(0, start)).flatMap((e) => eventLines(R, e, m.seats)).join(" · ");
  return h("p", { class: "last-event", id: "last-event" }, text || "\u00a0");
}
