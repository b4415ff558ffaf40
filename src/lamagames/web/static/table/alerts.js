// Never miss a chance (issue 19): while the seat must act (its turn, or a chance in a Lama
// Express window) the tab's title and icon change, a phone vibrates once, and the turn
// clock or alertness timer counts down in the banner. Each is a setting kept in
// localStorage (lama.alert.title / .vibrate / .countdown: "on" unless "off").
import { h, s } from "../dom.js";
import * as i18n from "../i18n.js";
import { store } from "../common.js";
import { BuzzGate } from "./buzz.js";

const { t } = i18n;

/** The settings, in the order the menu lists them. */
export const ALERTS = ["title", "vibrate", "countdown"];
const ICON = "/static/favicon.svg";
const ALERT_ICON = "/static/favicon-alert.svg";
/** The vibration pattern (ms on, off, on). */
export const BUZZ = [160, 80, 160];

/** Whether the alert `name` (one of ALERTS) is on. */
export function alertOn(name) {
  return store.get(`alert.${name}`) !== "off";
}

function setIcon(href) {
  const link = document.querySelector("link[rel~='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/**
 * Whether the page may vibrate: browsers refuse (and log an intervention) until the person
 * has tapped or clicked the page once, so the first turn after a fresh load stays silent.
 * Browsers without `navigator.userActivation` are asked anyway.
 */
function mayVibrate() {
  if (typeof navigator.vibrate !== "function") return false;
  const activation = navigator.userActivation;
  return activation === undefined || activation.hasBeenActive;
}

/** What the page tells the person whose move it is; one per table page. */
export class Alerts {
  constructor() {
    this.was = false;
    this.gate = new BuzzGate();
    // The person's own taps, clicks and keys: no buzz right after them (issue 19). The
    // same presses close the open alerts menu (Escape, or a press outside it).
    this.onPointer = () => this.gate.input(performance.now());
    // Closed on the click, not the press: the open list is in the page's flow, and closing
    // it on the press would move the page under the pointer before the click lands.
    this.onClick = (e) => closeMenuOutside(e.target);
    this.onKey = (e) => {
      this.gate.input(performance.now());
      if (e.key === "Escape") closeMenuByEscape();
    };
    document.addEventListener("pointerdown", this.onPointer, true);
    document.addEventListener("keydown", this.onKey, true);
    document.addEventListener("click", this.onClick, true);
  }

  /**
   * Called on every draw. `mine`: the seat must act now (false while its move is on the
   * way); `titles`: {mine, plain} tab titles. The title and icon stay changed until the seat
   * acts; the phone vibrates when a new turn or chance starts while the person was not
   * acting (not within seconds of their own last input, and at most once per few seconds:
   * see buzz.js).
   */
  update(mine, titles) {
    const fresh = mine && !this.was;
    this.was = mine;
    const show = mine && alertOn("title");
    document.title = show ? titles.mine : titles.plain;
    setIcon(show ? ALERT_ICON : ICON);
    if (fresh && alertOn("vibrate") && mayVibrate() && this.gate.start(performance.now())) {
      navigator.vibrate(BUZZ);
    }
  }

  /** Leaving the table: the usual icon again, the listeners gone. */
  stop() {
    setIcon(ICON);
    document.removeEventListener("pointerdown", this.onPointer, true);
    document.removeEventListener("keydown", this.onKey, true);
    document.removeEventListener("click", this.onClick, true);
  }
}

function openMenu() {
  const menu = document.getElementById("alerts");
  return menu && menu.open ? menu : null;
}

/**
 * A press outside the open alerts menu closes it (issue 19: it covered the game until its
 * own toggle was clicked). The press goes on to its target: closing is all.
 */
function closeMenuOutside(target) {
  const menu = openMenu();
  if (menu && !(target instanceof Node && menu.contains(target))) menu.open = false;
}

/** Escape closes the open alerts menu and puts the focus back on its toggle. */
function closeMenuByEscape() {
  const menu = openMenu();
  if (!menu) return;
  menu.open = false;
  const summary = menu.querySelector("summary");
  if (summary) summary.focus();
}

/** The settings menu: a folded list of switches; `changed` redraws the page. */
export function alertMenu(changed) {
  const rows = ALERTS.map((name) =>
    h(
      "label",
      { class: "check", dataset: { key: `alert-${name}` } },
      h("input", {
        type: "checkbox",
        id: `alert-${name}`,
        checked: alertOn(name),
        onchange: (e) => {
          store.set(`alert.${name}`, e.target.checked ? "on" : "off");
          changed();
        },
      }),
      " ",
      t(`alerts.${name}`),
    ),
  );
  return h(
    "details",
    { class: "alerts-menu", id: "alerts" },
    // the word is for screen readers only on a phone held sideways (style.css), its bell
    // beside the game's name and code on one line; the title names it on hover
    h("summary", { title: t("alerts.menu") }, bell(), " ", h("span", { class: "alerts-word" }, t("alerts.menu"))),
    h("div", { class: "alerts-list" }, rows),
  );
}

// A bell drawn in SVG (an emoji needs a font the device may not have).
function bell() {
  return s(
    "svg",
    { class: "alerts-bell", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M8 1.5a4 4 0 0 0-4 4V9L2.5 11.5h11L12 9V5.5a4 4 0 0 0-4-4z", fill: "currentColor" }),
    s("circle", { cx: 8, cy: 13.3, r: 1.7, fill: "currentColor" }),
  );
}

/**
 * The countdown in the banner: seconds left and a shrinking bar (role timer). `total` is
 * the clock's full length in seconds when known (the table's alertness or turn clock).
 * Null when the countdown setting is off.
 */
export function countdown(clock, total) {
  if (!alertOn("countdown")) return null;
  const left = Math.ceil(clock.remaining);
  return h(
    "span",
    {
      class: `countdown countdown-${clock.kind}`,
      id: "countdown",
      role: "timer",
      "aria-label": t(clock.kind === "alertness" ? "alerts.chanceClock" : "alerts.turnClock"),
      dataset: { total: String(total || clock.remaining) },
    },
    h("span", { class: "clock" }, t("table.clock", { n: left })),
    h("span", { class: "countdown-bar", "aria-hidden": "true" }, h("span", { class: "countdown-fill" })),
  );
}

/** Move the countdown on: `left` seconds remain. */
export function tick(el, left) {
  if (!el) return;
  const text = el.querySelector(".clock");
  if (text) text.textContent = t("table.clock", { n: Math.ceil(left) });
  const total = Number(el.dataset.total) || 1;
  const fill = el.querySelector(".countdown-fill");
  if (fill) fill.style.setProperty("--left", String(Math.max(0, Math.min(1, left / total))));
}
