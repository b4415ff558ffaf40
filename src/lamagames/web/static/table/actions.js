// The action bar: one button per legal action (keys 1-9), the break / back toggle, and what
// happens to the move in flight ("sending…", "waiting for the connection…").
import { h } from "../dom.js";
import * as i18n from "../i18n.js";
import { hintButton, hintPanel } from "./hints.js";

const { t } = i18n;

/**
 * The controls under the banner. `view` is the TableView (act, send, pending, online);
 * `extra` is shown when the seat cannot act (a spectator's Join button).
 */
export function actionBar(view, m, R, mine, extra) {
  if (m.status !== "playing" || m.seat === null)
    return h("div", { class: "controls", id: "controls" }, m.status === "playing" ? extra : null);
  const me = m.seats[m.seat];
  const legal = R.sortActions ? R.sortActions(m.legal, m.view) : m.legal;
  const busy = Boolean(view.conn.pending);
  const buttons = legal.map((a, i) =>
    h(
      "button",
      {
        type: "button",
        class: `btn action ${i === 0 ? "btn-primary" : ""} ${R.actionClass ? R.actionClass(a.action) : ""}`,
        dataset: { action: a.action, shortcut: String(i + 1), focus: `action:${a.action}` },
        disabled: busy || !view.conn.online(),
        title: R.actionLabel(a.action, t, m.view) || a.label,
        onclick: () => view.act(a.action),
      },
      R.actionContent ? R.actionContent(a.action, t, m.view) : R.actionLabel(a.action, t, m.view),
      i < 9 ? h("kbd", { "aria-hidden": "true" }, String(i + 1)) : null,
    ),
  );
  const away = me.replaced
    ? h(
        "button",
        { type: "button", class: "btn btn-small", id: "back-button", onclick: () => view.send({ type: "back" }) },
        t("table.back"),
      )
    : h(
        "button",
        {
          type: "button",
          class: "btn btn-small btn-quiet",
          id: "leave-button",
          onclick: () => view.send({ type: "leave" }),
        },
        t("table.leave"),
      );
  return h(
    "div",
    { class: "controls", id: "controls" },
    mine ? h("div", { class: "actions", role: "group" }, buttons) : null,
    mine ? hintButton(view, m) : null,
    pendingNotice(view, m, R),
    mine ? hintPanel(view, m, R) : null,
    h("div", { class: "away-toggle" }, away),
  );
}

// The move in flight, said in words while it waits for a connection or an answer.
function pendingNotice(view, m, R) {
  const p = view.conn.pending;
  if (!p) return null;
  const label = R.actionLabel(p.action, t, m.view) || p.action;
  const status = view.conn.pendingStatus;
  const key =
    status === "waiting" ? "table.pendingOffline" : status === "retry" ? "table.pendingRetry" : "table.pendingSent";
  return h(
    "p",
    { class: `pending pending-${view.conn.pendingStatus}`, id: "pending", role: "status" },
    t(key, { action: label }),
  );
}

/** Keys 1-9 press the action buttons. */
export function onActionKey(e, root) {
  if (
    e.target instanceof HTMLInputElement ||
    e.target instanceof HTMLSelectElement ||
    e.altKey ||
    e.ctrlKey ||
    e.metaKey
  )
    return;
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    const button = root.querySelector(`.actions button[data-shortcut="${n}"]`);
    if (button && !button.disabled) {
      e.preventDefault();
      button.click();
    }
  }
}
