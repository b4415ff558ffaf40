// Toy Race's browser module: served from the game's package (GameSpec.web_static) at
// /static/games/toy/render.js, like the built-in games' modules. A pure view of the
// observation; the actions are the server's legal actions (ctx.legal).
import { h } from "/static/dom.js";

/** Localised label of an action notation: "step", "roll" or a chance outcome "+N". */
export function actionLabel(notation, t) {
  const key = `toy.act.${notation}`;
  const text = t(key);
  return text === key ? notation : text;
}

/** Log line of an event {player, action}. */
export function eventText(event, seats, t) {
  const name = event.player >= 0 ? (seats[event.player]?.name ?? `#${event.player + 1}`) : t("toy.chance");
  return `${name}: ${actionLabel(event.action, t)}`;
}

/** The two scores against the target; the seat to act is marked. */
export function render(root, view, ctx) {
  const { t, seats } = ctx;
  const rows = view.scores.map((score, i) =>
    h(
      "li",
      { class: i === view.current ? "current" : "", dataset: { seat: String(i) } },
      `${seats[i]?.name ?? `#${i + 1}`}: ${t("toy.score", { n: score, target: view.target })}`,
    ),
  );
  root.replaceChildren(
    h(
      "section",
      { class: "toy-table", "aria-label": t("toy.name") },
      h("ol", { class: "toy-scores" }, rows),
      view.rolling ? h("p", { class: "toy-rolling" }, t("toy.rolling")) : null,
    ),
  );
}
