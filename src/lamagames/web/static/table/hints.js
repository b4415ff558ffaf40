// The hint button and panel (games whose spec has a hints extra: /api/tables/{code} says
// hints: true): asks the server ({type: "hint", ref}) and lists each legal action with its
// expected points, the bust chance of a roll, exact or estimate, the best one marked and a
// legend saying why it is best (fewest points, or the best margin with two players).
import { h } from "../dom.js";
import * as i18n from "../i18n.js";
import { newRef } from "./connection.js";

const { t } = i18n;

/** The hint button for the seat to act (null when the game has no hints). */
export function hintButton(view, m) {
  if (!view.info || !view.info.hints) return null;
  const asking = Boolean(view.hints && view.hints.version === m.version && !view.hints.list);
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-small",
      id: "hint-button",
      disabled: asking || !view.conn.online(),
      onclick: () => askHint(view, m),
    },
    asking ? t("hints.asking") : t("hints.button"),
  );
}

function askHint(view, m) {
  const ref = newRef();
  if (view.send({ type: "hint", ref })) {
    view.hints = { ref, version: m.version, list: null };
    view.draw();
  }
}

/** x with `digits` decimals in the page's language; a value that rounds to zero is 0, never -0. */
export function number(x, digits) {
  if (x === null || x === undefined) return "–";
  const rounded = Number(x.toFixed(digits));
  return (rounded === 0 ? 0 : rounded).toLocaleString(i18n.lang(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/**
 * The text of `key` in full and its short form (`key_short`, an abbreviation with the full
 * text as its title): the style sheet shows one of them, the short one on an upright phone,
 * where the full table was 612 pixels wide in a 374-pixel panel and scrolled sideways with
 * no cue (issue 19, a new-user trial). The hidden one is display: none, so a screen reader
 * reads one text.
 */
function short(key) {
  const full = t(key);
  return [h("span", { class: "hint-long" }, full), h("abbr", { class: "hint-short", title: full }, t(`${key}_short`))];
}

/** The answered hints for the current version, as a table; else null. */
export function hintPanel(view, m, R) {
  const hints = view.hints;
  if (!hints || !hints.list || hints.version !== m.version || m.seat === null) return null;
  const margin = hints.list.some((x) => x.margin !== null);
  const rows = hints.list.map((x) =>
    h(
      "tr",
      { class: x.best ? "hint-best" : "", dataset: { action: x.action } },
      h(
        "td",
        {},
        R.actionLabel(x.action, t, m.view) || x.action,
        x.best
          ? h("strong", { class: "hint-best-mark" }, " ★", h("span", { class: "hint-long" }, ` ${t("hints.best")}`))
          : null,
      ),
      h("td", { class: "num" }, number(x.expected_points, 2)),
      margin ? h("td", { class: "num" }, number(x.margin, 2)) : null,
      h("td", { class: "num" }, x.bust_chance === null ? "–" : `${number(100 * x.bust_chance, 1)} %`),
      h("td", { title: x.basis }, x.exact ? t("hints.exact") : short("hints.estimate")),
    ),
  );
  return h(
    "section",
    { class: "panel hints-panel", id: "hint-panel", "aria-live": "polite" },
    h("h2", {}, t("hints.title")),
    h(
      "table",
      { class: "hints-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("hints.action")),
          h("th", {}, short("hints.points")),
          margin ? h("th", {}, short("hints.margin")) : null,
          h("th", {}, short("hints.bust")),
          h("th", {}, t("hints.basis")),
        ),
      ),
      h("tbody", {}, rows),
    ),
    // The best move: the fewest points, or with exact two-player margins the best margin.
    h("p", { class: "hints-legend", id: "hint-legend" }, t(margin ? "hints.best_margin" : "hints.best_points")),
    h("p", { class: "hints-note" }, t("hints.note")),
  );
}
