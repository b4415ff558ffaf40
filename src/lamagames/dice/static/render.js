// LAMA Dice renderer: a view of the server's observation. No rules here: the cards to
// highlight come from the legal actions the server sends (view.turn_actions, see words.js).
import { h } from "/static/dom.js";
import { SYMBOLS, actionLabel, highlights, symbolName } from "./words.js";

export { actionLabel, eventLines, eventText, hint } from "./words.js";
export { summary } from "./summary.js";

export function llamaSvg(extra = "") {
  return h(
    "svg",
    { viewBox: "0 0 64 64", class: `llama ${extra}`, "aria-hidden": "true", focusable: "false" },
    h(
      "g",
      { fill: "currentColor" },
      h("ellipse", { cx: 27, cy: 38, rx: 15, ry: 8.5 }),
      h("rect", { x: 34, y: 13, width: 8, height: 27, rx: 4 }),
      h("ellipse", { cx: 42, cy: 15, rx: 8, ry: 5 }),
      h("path", { d: "M36 12l1-7 3.5 6zM40.5 11l2-7 2 7z" }),
      h("rect", { x: 15, y: 42, width: 4, height: 13, rx: 2 }),
      h("rect", { x: 22, y: 43, width: 4, height: 12, rx: 2 }),
      h("rect", { x: 30, y: 43, width: 4, height: 12, rx: 2 }),
      h("rect", { x: 36, y: 42, width: 4, height: 13, rx: 2 }),
      h("circle", { cx: 12.5, cy: 34, r: 3.5 }),
    ),
    h("circle", { cx: 43.5, cy: 14, r: 1.4, fill: "#fff" }),
  );
}

/** A card: big number (or llama) on a coloured face. */
export function card(symbol, t, { size = "", highlight = false, faded = false, back = false } = {}) {
  const cls = [
    "card",
    `card-${symbol === "L" ? "L" : symbol}`,
    size,
    highlight ? "card-hl" : "",
    faded ? "card-faded" : "",
    back ? "card-back" : "",
  ];
  const label = symbol === "L" ? t("dice.llama") : symbol;
  return h(
    "span",
    { class: cls.filter(Boolean).join(" "), role: "img", "aria-label": label, title: label },
    symbol === "L" ? llamaSvg() : h("span", { class: "card-num" }, symbol),
    symbol !== "L" ? h("span", { class: "card-corner", "aria-hidden": "true", "data-fixed-text": true }, symbol) : null,
  );
}

function die(symbol, index, t, rolling) {
  const label = symbol ? symbolName(symbol, t) : "?";
  const pips = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
  let face;
  if (!symbol) face = h("span", { class: "die-blank" });
  else if (symbol === "L") face = llamaSvg("die-llama");
  else
    face = h(
      "span",
      { class: "pips" },
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => h("i", { class: pips[symbol].includes(i) ? "pip" : "nopip" })),
    );
  return h(
    "span",
    {
      class: `die ${symbol ? "" : "die-empty"} ${rolling ? "rolling" : ""}`,
      style: `--i:${index}`,
      role: "img",
      "aria-label": `${t("dice.die", { x: "ABC"[index] })}: ${label}`,
    },
    face,
  );
}

function chips(black, white, t) {
  const out = [];
  for (let i = 0; i < black; i++) out.push(h("span", { class: "chip chip-black", title: t("dice.black") }, "10"));
  for (let i = 0; i < white; i++) out.push(h("span", { class: "chip chip-white", title: t("dice.white") }, "1"));
  return h("span", { class: "chips", role: "img", "aria-label": `${t("dice.chips")}: ${black}×10, ${white}×1` }, out);
}

/** Content of an action button: label plus the cards it names. */
export function actionContent(notation, t) {
  const [verb, ...rest] = notation.split(" ");
  const label = h("span", { class: "action-label" }, actionLabel(notation, t));
  if (verb === "discard" || verb === "take") {
    return [
      h(
        "span",
        { class: "action-cards", "aria-hidden": "true" },
        rest.map((s) => card(s, t, { size: "card-xs" })),
      ),
      label,
    ];
  }
  if (verb === "roll")
    return [h("span", { class: "action-icon", "aria-hidden": "true" }, die("5", 0, t, false)), label];
  return [label];
}

/** Render the whole table. ctx: {seat, seats, t, acting, events, animate, memory}; memory
 * is an object the page keeps while it shows this table (the last dice roll seen, so a new
 * roll animates once); without it nothing animates. */
export function render(root, view, ctx) {
  const { t, seat, seats } = ctx;
  const memory = ctx.memory || {};
  const lastDiceEvent = memory.lastDiceEvent ?? -1;
  const diceEvent = [...(ctx.events || [])].reverse().find((e) => e.action.startsWith("dice "));
  const rolling =
    ctx.memory !== undefined &&
    diceEvent !== undefined &&
    diceEvent.index > lastDiceEvent &&
    view.dice !== null &&
    ctx.animate !== false;
  if (diceEvent) memory.lastDiceEvent = diceEvent.index;
  const current = view.current_player;
  const dice = view.dice || [];
  const myTurn = seat !== null && ctx.acting.includes(seat);
  const lit = highlights(view.turn_actions);

  const llamaRow = h(
    "div",
    { class: "llama-row", role: "group", "aria-label": t("dice.llamaRow") },
    SYMBOLS.map((s) => {
      const present = view.llama_row.includes(s);
      return present
        ? card(s, t, { highlight: lit.take.has(s) })
        : h("span", { class: "card card-gone", "aria-hidden": "true" });
    }),
  );

  const diceBox = h(
    "div",
    { class: "dice", role: "group", "aria-label": t("dice.dice") },
    [0, 1, 2].map((i) => die(dice[i], i, t, rolling)),
  );

  const centre = h(
    "section",
    { class: "centre" },
    h("h2", { class: "label" }, t("dice.llamaRow")),
    llamaRow,
    h(
      "div",
      { class: "centre-bottom" },
      diceBox,
      h(
        "div",
        { class: "round-info" },
        h("strong", {}, t("dice.round", { n: view.round })),
        h("span", {}, t("dice.deck", { n: view.setaside_count })),
      ),
    ),
  );

  const order = seats.map((_, i) => i);
  const players = h(
    "section",
    { class: "players" },
    order.map((i) => {
      const s = seats[i];
      const isCurrent = i === current && ctx.status === "playing";
      const [black, white] = view.chips[i];
      const winner = view.winners.includes(i);
      const matching = i === current ? lit.discard : {};
      const used = {};
      const rowCards = view.rows[i].map((sym) => {
        used[sym] = (used[sym] || 0) + 1;
        const hl = (matching[sym] || 0) >= used[sym];
        return card(sym, t, { size: i === seat ? "" : "card-sm", highlight: hl });
      });
      const badges = [];
      if (i === seat) badges.push(h("span", { class: "badge badge-you" }, t("table.you")));
      if (s.kind === "bot") badges.push(h("span", { class: "badge" }, `${t("table.bot")} · ${t(`bot.${s.bot_kind}`)}`));
      else if (s.replaced) badges.push(h("span", { class: "badge badge-warn" }, t("table.away")));
      else if (!s.connected) badges.push(h("span", { class: "badge badge-muted" }, t("table.offline")));
      if (view.quit[i]) badges.push(h("span", { class: "badge badge-muted" }, t("dice.quit")));
      return h(
        "article",
        {
          class: [
            "player",
            isCurrent ? "current" : "",
            i === seat ? "me" : "",
            view.quit[i] ? "quit" : "",
            winner ? "winner" : "",
          ]
            .filter(Boolean)
            .join(" "),
          "aria-current": isCurrent ? "true" : null,
          dataset: { seat: String(i) },
        },
        h(
          "header",
          { class: "player-head" },
          h(
            "span",
            { class: "avatar", "aria-hidden": "true", style: `--hue:${(i * 67 + 20) % 360}` },
            s.name.slice(0, 1).toUpperCase(),
          ),
          h("span", { class: "player-name" }, s.name),
          winner ? h("span", { class: "badge badge-win" }, "★") : null,
          badges,
        ),
        h(
          "div",
          { class: "player-stats" },
          chips(black, white, t),
          h("span", { class: "score", title: t("dice.score") }, t("dice.points", { n: view.scores[i] })),
          h("span", { class: "row-score" }, t("dice.rowPoints", { n: view.row_scores[i] })),
        ),
        h(
          "div",
          { class: "row", role: "group", "aria-label": `${t("dice.row")} ${s.name}` },
          rowCards.length ? rowCards : h("span", { class: "row-empty" }, t("dice.empty")),
        ),
      );
    }),
  );

  root.replaceChildren(h("div", { class: `dice-table ${myTurn ? "my-turn" : ""}` }, centre, players));
}
