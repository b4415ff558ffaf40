// What every page of the browser client shares: the API, toasts, saved data, seat names,
// game modules, links and the page hooks (rerender on a language change, cleanup on leave).
import { h } from "./dom.js";
import * as i18n from "./i18n.js";
import { NAME_MAX, nameProblem, stripName } from "./names.js";

const { t } = i18n;
export const main = document.getElementById("main");

/** Shared page state: the games list, how to redraw the page and how to leave it. */
export const page = { games: [], rerender: () => {}, cleanup: () => {}, route: async () => {} };

// ------------------------------------------------------------------ API and messages
export async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error(t("err.network"));
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(errorText(data.error, data.message)), { code: data.error });
  return data;
}

// A server error in the reader's language, by its code; the server's (English) message only
// for codes the catalog does not know, or as the detail of "invalid", "bot_unavailable" and
// "hints_unavailable" (which bot, and the package the server lacks).
const DETAILED = new Set(["invalid", "bot_unavailable", "hints_unavailable"]);
export function errorText(code, message) {
  const key = `err.${code}`;
  if (t(key) === key) return message || t("err.generic");
  return DETAILED.has(code) && message ? `${t(key)} (${message})` : t(key);
}

/** Each toast shown: its timers (fade, removal). */
const toastTimers = new WeakMap();

/**
 * Show `text` for a few seconds in the alert area. The same text still shown is not shown
 * again: its time starts anew instead (issue 19: reactions sent too fast printed "Too many
 * reactions and messages" once per refused click, and a screen reader read it each time).
 */
export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  const same = [...box.children].find(
    (el) => el.textContent === text && el.classList.contains(`toast-${kind}`) && toastTimers.has(el),
  );
  const el = same || h("div", { class: `toast toast-${kind}` }, text);
  if (same) {
    toastTimers.get(same).forEach(clearTimeout);
    same.classList.remove("toast-out");
  } else box.append(el);
  clearOfChat(box);
  toastTimers.set(el, [
    setTimeout(() => el.classList.add("toast-out"), 4200),
    setTimeout(() => {
      toastTimers.delete(el);
      el.remove();
    }, 4800),
  ]);
}

/**
 * The alerts never cover the chat field (issue 19, a new-user trial: "Too many reactions and
 * messages" lay over the field on a phone, where the chat form is at the bottom of the
 * screen): where the alert area would overlap the chat form it rises above it, else it
 * stays at its place at the foot of the window (style.css .toasts).
 */
function clearOfChat(box) {
  box.style.removeProperty("bottom");
  const form = document.getElementById("talk-form");
  if (!form) return;
  const f = form.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const covers = b.left < f.right && f.left < b.right && b.top < f.bottom && f.top < b.bottom;
  if (covers) box.style.setProperty("bottom", `${Math.ceil(window.innerHeight - f.top) + 8}px`);
}

export const store = {
  get: (k) => localStorage.getItem(`lama.${k}`),
  set: (k, v) => localStorage.setItem(`lama.${k}`, v),
  remove: (k) => localStorage.removeItem(`lama.${k}`),
  json: (k) => {
    try {
      return JSON.parse(localStorage.getItem(`lama.${k}`) || "null");
    } catch {
      return null;
    }
  },
};

// ------------------------------------------------------------------ games and seats
const renderers = {};
/** The game's browser module (static/games/<id>/render.js), loaded once. */
export async function renderer(path) {
  if (!renderers[path]) renderers[path] = await import(`/static/${path}`);
  return renderers[path];
}

export function gameIdsFor(...ids) {
  return [...new Set(ids.filter(Boolean))];
}

// A seat's display name: the chosen one, else "Seat N" or the bot kind, in the reader's
// language (the server stores no default names; records use the same words, see
// seat_infos on the server).
export function seatName(seat) {
  if (!seat) return "";
  if (seat.name) return seat.name;
  return seat.kind === "bot" ? `${t(`bot.${seat.bot_kind}`)} ${seat.seat + 1}` : t("lobby.seat", { n: seat.seat + 1 });
}

export function myName() {
  return store.get("name") || "";
}

// Take a free seat of a public table (lobby, or a spectator's Join button).
export async function claim(code) {
  // The name typed in the lobby's "Your name" field wins over the one remembered.
  // A blank field falls back to the remembered name; a name the server would refuse is
  // said next to the field, not sent.
  const field = document.getElementById("your-name");
  const typed = field ? stripName(field.value) : "";
  if (typed && !checkedName(field)) return;
  if (typed) store.set("name", typed);
  const name = typed || myName() || t("lobby.guest");
  try {
    const res = await api(`/api/tables/${code}/claim`, { name });
    store.set(`seat.${code}`, res.token);
    navigate(`/t/${code}`);
  } catch (e) {
    toast(e.message);
  }
}

// ------------------------------------------------------------------ links
// Room codes are letters and digits (the server's alphabet is a subset).
export const CODE_RE = /^[A-Z0-9]{4,16}$/;

export function link(e) {
  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(e.currentTarget.getAttribute("href"));
}

export function navigate(path) {
  history.pushState(null, "", path);
  page.route();
}

export function notFoundPage() {
  main.replaceChildren(
    h(
      "section",
      { class: "panel", id: "table-error" },
      h("p", {}, t("err.not_found")),
      h("a", { class: "btn", href: "/", onclick: link }, t("table.lobby")),
    ),
  );
  page.rerender = notFoundPage;
}

// ------------------------------------------------------------------ name fields
export { NAME_MAX };

/**
 * The "12 of 32 characters" line under a name field (issue 19: the limit is shown, not a
 * silent cut): tied to the input by aria-describedby, updated as the person types. Counts
 * code points as the server does (a 🦙 is one character, not two UTF-16 units), so the
 * limit is kept here rather than by `maxlength`: a longer paste is cut at NAME_MAX.
 */
export function nameCounter(input) {
  const id = `${input.id}-count`;
  const counter = h("small", { class: "name-count muted", id });
  const update = () => {
    const chars = [...input.value];
    if (chars.length > NAME_MAX && !input.composing) input.value = chars.slice(0, NAME_MAX).join("");
    const n = Math.min(chars.length, NAME_MAX);
    counter.textContent = t("form.nameCount", { n, max: NAME_MAX });
    counter.classList.toggle("name-count-full", n >= NAME_MAX);
  };
  input.removeAttribute("maxlength");
  input.setAttribute("aria-describedby", id);
  input.addEventListener("compositionstart", () => (input.composing = true));
  input.addEventListener("compositionend", () => {
    input.composing = false;
    update();
  });
  input.addEventListener("input", () => {
    update();
    nameError(input, null);
  });
  update();
  return counter;
}

/**
 * Show (`key` a catalog key) or clear (`key` null) the message next to a name field: the
 * input is marked aria-invalid and described by the message as well as its counter.
 */
function nameError(input, key) {
  const id = `${input.id}-error`;
  let note = document.getElementById(id);
  const counterId = `${input.id}-count`;
  if (!key) {
    if (note) note.remove();
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", counterId);
    return;
  }
  if (!note) {
    note = h("small", { class: "name-error", id });
    const counter = document.getElementById(counterId);
    (counter || input).after(note);
  }
  note.textContent = t(key, { max: NAME_MAX });
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", `${id} ${counterId}`);
}

/**
 * The name typed in a name field, stripped as the server strips it, if the server would
 * take it (names.js nameProblem); else null, with a message in the page's language next to
 * the field, which gets the focus.
 */
export function checkedName(input) {
  const problem = nameProblem(input.value);
  nameError(input, problem);
  if (problem) {
    input.focus();
    return null;
  }
  return stripName(input.value);
}
