// The first-game walkthrough (issue 18): a "Learn to play" button per game in the lobby
// starts a private table against a bot (POST /api/tutorial/{game}); on that table a panel
// beside the board explains each kind of decision with links to its rulings
// (/rules/{game}?lang=fr#D-8.2, in the page's language) and names the suggested move, which
// is highlighted in the action bar. The advice is the library's tutor's, asked for once per
// table version (POST /api/tables/{code}/tutorial); the texts are the catalogs'
// (<game>.tut.<kind>).
import { h } from "../dom.js";
import * as i18n from "../i18n.js";
import { api, navigate, store, toast } from "../common.js";
import { number } from "./hints.js";

const { t } = i18n;

/** Whether the table `code` was opened as a walkthrough on this browser. */
export function isTutorial(code) {
  return store.get(`tutorial.${code}`) !== null;
}

/** Start the walkthrough of a game and open its table. */
export async function startTutorial(gameId) {
  try {
    const res = await api(`/api/tutorial/${gameId}`, {});
    store.set(`seat.${res.code}`, res.token);
    store.set(`tutorial.${res.code}`, gameId);
    navigate(`/t/${res.code}`);
  } catch (err) {
    toast(err.message);
  }
}

/** The lobby's "Learn to play" panel: one button per game. */
export function learnPanel(gameList) {
  return h(
    "section",
    { class: "panel learn", id: "learn" },
    h("h2", {}, t("tut.learnTitle")),
    h("p", {}, t("tut.learnText")),
    h(
      "div",
      { class: "item-actions" },
      gameList.map((g) =>
        h(
          "button",
          {
            type: "button",
            class: "btn",
            id: `learn-${g.id}`,
            onclick: () => startTutorial(g.id),
          },
          t("tut.learn", { game: t(`${g.id}.name`) }),
        ),
      ),
    ),
  );
}

/** Ask for the advice of the current version once (view.tutor: {version, advice}). */
function askAdvice(view, m) {
  if (view.tutor && view.tutor.version === m.version) return;
  const tutor = { version: m.version, advice: null };
  view.tutor = tutor;
  api(`/api/tables/${m.code}/tutorial`, { token: view.token })
    .then((advice) => {
      if (view.tutor !== tutor) return;
      tutor.advice = advice;
      view.draw();
    })
    .catch((err) => {
      if (view.tutor === tutor) tutor.failed = err.message;
      view.draw();
    });
}

function rulingLinks(game, rulings) {
  if (!rulings.length) return null;
  return h(
    "span",
    { class: "tut-rulings" },
    `${t("tut.rules")} `,
    rulings.map((id, i) => [
      i ? ", " : "",
      h(
        "a",
        // The rules page in the language this page shows (the reader's choice).
        { href: `/rules/${game}?lang=${i18n.lang()}#${id}`, target: "_blank", rel: "noopener", class: "ruling" },
        id,
      ),
    ]),
  );
}

function valueText(game, value, R, m) {
  const label = R.actionLabel(value.action, t, m.view) || value.action;
  if (value.expected_points === null) return label;
  const key = value.action === "quit" ? "tut.valueQuit" : "tut.value";
  return t(key, { move: label, points: number(value.expected_points, 1) });
}

/**
 * The walkthrough panel of a table opened as one (null otherwise): at the seat's
 * decision the lessons of this kind of decision with their rulings, the suggested move and
 * why; after the end, what next.
 */
export function tutorialPanel(view, m, R) {
  if (!isTutorial(m.code) || m.seat === null) return null;
  const game = m.game;
  const title = h("h2", {}, t("tut.title"));
  if (m.status === "finished") {
    return h(
      "section",
      { class: "panel tutorial", id: "tutorial", dataset: { done: "true" } },
      title,
      h("p", {}, t("tut.done")),
    );
  }
  if (m.status !== "playing") return null;
  const mine = m.acting.includes(m.seat) && m.legal.length > 0;
  if (!mine) {
    return h(
      "section",
      { class: "panel tutorial", id: "tutorial", "aria-live": "polite" },
      title,
      h("p", { class: "muted" }, t("tut.wait")),
    );
  }
  askAdvice(view, m);
  const advice = view.tutor && view.tutor.advice;
  if (!advice || advice.version !== m.version || !advice.mine) {
    return h(
      "section",
      { class: "panel tutorial", id: "tutorial", "aria-live": "polite" },
      title,
      h("p", { class: "muted" }, view.tutor && view.tutor.failed ? view.tutor.failed : t("tut.thinking")),
    );
  }
  // The overview ("start") only at the first decision; the rest at every decision of its kind.
  view.tutorFirst ??= m.version;
  const lessons = advice.lessons.filter((l) => l.kind !== "start" || m.version === view.tutorFirst);
  const suggested = advice.suggested;
  const label = suggested ? R.actionLabel(suggested, t, m.view) || suggested : null;
  return h(
    "section",
    { class: "panel tutorial", id: "tutorial", "aria-live": "polite", dataset: { version: String(m.version) } },
    title,
    lessons.map((l) =>
      h(
        "div",
        { class: "tut-lesson", dataset: { kind: l.kind } },
        h("p", {}, t(`${game}.tut.${l.kind}`)),
        // How to take the suggestion (the lesson itself is the terminal's too).
        l.kind === "start" ? h("p", {}, t("tut.how")) : null,
        rulingLinks(game, l.rulings),
      ),
    ),
    suggested
      ? h(
          "div",
          { class: "tut-advice", id: "tut-advice", dataset: { suggested } },
          h("p", {}, h("strong", {}, t("tut.suggested", { move: label }))),
          advice.move_kind ? h("p", {}, t(`${game}.tut.why.${advice.move_kind}`)) : null,
          advice.values
            ? h(
                "ul",
                { class: "tut-values" },
                advice.values.map((v) => h("li", { class: v.best ? "hint-best" : "" }, valueText(game, v, R, m))),
              )
            : null,
          // Why the best is best: fewest points, or with two players solved exactly the lead.
          advice.values
            ? h(
                "p",
                { class: "hints-note", id: "tut-legend" },
                t(advice.values.some((v) => v.margin !== null) ? "hints.best_margin" : "hints.best_points"),
              )
            : null,
        )
      : null,
  );
}

/** Mark the suggested move's button in the action bar (class "suggested"). */
export function markSuggested(view, m, root) {
  if (!isTutorial(m.code)) return;
  const advice = view.tutor && view.tutor.advice;
  if (!advice || advice.version !== m.version || !advice.suggested) return;
  for (const button of root.querySelectorAll(".actions button")) {
    button.classList.toggle("suggested", button.dataset.action === advice.suggested);
  }
}
