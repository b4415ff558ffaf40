// LAMA Dice renderer: pure view of the engine's observation (no rules here).
import { h } from "/static/dom.js";

const SYMBOLS = ["1", "2", "3", "4", "5", "6", "L"];

export function llamaSvg(extra = "") {
  return h("svg", { viewBox: "0 0 64 64", class: `llama ${extra}`, "aria-hidden": "true", focusable: "false" },
    h("g", { fill: "currentColor" },
      h("ellipse", { cx: 27, cy: 38, rx: 15, ry: 8.5 }),
      h("rect", { x: 34, y: 13, width: 8, height: 27, rx: 4 }),
      h("ellipse", { cx: 42, cy: 15, rx: 8, ry: 5 }),
      h("path", { d: "M36 12l1-7 3.5 6zM40.5 11l2-7 2 7z" }),
      h("rect", { x: 15, y: 42, width: 4, height: 13, rx: 2 }),
      h("rect", { x: 22, y: 43, width: 4, height: 12, rx: 2 }),
      h("rect", { x: 30, y: 43, width: 4, height: 12, rx: 2 }),
      h("rect", { x: 36, y: 42, width: 4, height: 13, rx: 2 }),
      h("circle", { cx: 12.5, cy: 34, r: 3.5 })),
    h("circle", { cx: 43.5, cy: 14, r: 1.4, fill: "#fff" }));
}

function symbolName(s, t) { return s === "L" ? t("dice.llama") : s; }
function symbolsText(list, t) { return list.map((s) => symbolName(s, t)).join(" "); }

/** A card: big number (or llama) on a coloured face. */
export function card(symbol, t, { size = "", highlight = false, faded = false, back = false } = {}) {
  const cls = ["card", `card-${symbol === "L" ? "L" : symbol}`, size, highlight ? "card-hl" : "", faded ? "card-faded" : "", back ? "card-back" : ""];
  const label = symbol === "L" ? t("dice.llama") : symbol;
  return h("span", { class: cls.filter(Boolean).join(" "), role: "img", "aria-label": label, title: label },
    symbol === "L" ? llamaSvg() : h("span", { class: "card-num" }, symbol),
    symbol !== "L" ? h("span", { class: "card-corner", "aria-hidden": "true" }, symbol) : null);
}

function die(symbol, index, t, rolling) {
  const label = symbol ? symbolName(symbol, t) : "?";
  const pips = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };
  let face;
  if (!symbol) face = h("span", { class: "die-blank" });
  else if (symbol === "L") face = llamaSvg("die-llama");
  else face = h("span", { class: "pips" }, [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => h("i", { class: pips[symbol].includes(i) ? "pip" : "nopip" })));
  return h("span", {
    class: `die ${symbol ? "" : "die-empty"} ${rolling ? "rolling" : ""}`,
    style: `--i:${index}`, role: "img", "aria-label": `${t("dice.die", { x: "ABC"[index] })}: ${label}`,
  }, face);
}

function chips(black, white, t) {
  const out = [];
  for (let i = 0; i < black; i++) out.push(h("span", { class: "chip chip-black", title: t("dice.black") }, "10"));
  for (let i = 0; i < white; i++) out.push(h("span", { class: "chip chip-white", title: t("dice.white") }, "1"));
  return h("span", { class: "chips", "aria-label": `${t("dice.chips")}: ${black}×10, ${white}×1` }, out);
}

/** Localised label of an action notation. */
export function actionLabel(notation, t) {
  const [verb, ...rest] = notation.split(" ");
  if (verb === "take") return t("dice.act.take", { card: symbolName(rest[0], t) });
  if (verb === "discard") return t("dice.act.discard", { cards: symbolsText(rest, t) });
  const key = `dice.act.${notation}`;
  const text = t(key);
  return text === key ? notation : text;
}

/** Localised log line of an event {player, action, by}. */
export function eventText(event, seats, t) {
  const name = event.player >= 0 ? (seats[event.player]?.name ?? `#${event.player + 1}`) : "";
  const [verb, ...rest] = event.action.split(" ");
  if (verb === "dice") return t("dice.ev.dice", { dice: symbolsText(rest, t) });
  if (verb === "deal") return t("dice.ev.deal");
  if (verb === "take") return t("dice.ev.take", { name, card: symbolName(rest[0], t) });
  if (verb === "discard") return t("dice.ev.discard", { name, cards: symbolsText(rest, t) });
  if (verb === "roll" || verb === "quit") return t(`dice.ev.${verb}`, { name });
  const key = `dice.ev.${event.action}`;
  const text = t(key, { name });
  return text === key ? `${name} ${event.action}` : text;
}

function seatName(seats, i) { return seats[i]?.name ?? `#${i + 1}`; }
function perSeat(values, seats) { return values.map((v, i) => `${seatName(seats, i)} ${v}`).join(", "); }

/** Log lines of a log entry, from the game's events (event.events: {kind, ...} as sent by
 * the server, see lamagames.dice.events): who rolled what, discards, takes, chips, busts,
 * round ends with each seat's points, the end. The deals of a round are one line ("Round
 * N: cards dealt; X starts"). Entries without events fall back to their notation. */
export function eventLines(event, seats, t) {
  const happened = event.events;
  if (!happened) return [eventText(event, seats, t)];
  return happened.flatMap((e) => lineOf(e, seats, t));
}

function lineOf(e, seats, t) {
  const name = e.seat !== undefined ? seatName(seats, e.seat) : "";
  switch (e.kind) {
    case "deal": return [];
    case "round_start": return [t("dice.ev.roundStart", { n: e.round, name: seatName(seats, e.starter) })];
    case "roll": return [t(`dice.ev.rolled.${e.result}`, { name, dice: symbolsText(e.dice, t) })];
    case "quit": return [t("dice.ev.quit", { name })];
    case "discard": return [t("dice.ev.discard", { name, cards: symbolsText(e.cards, t) })];
    case "take": return [t("dice.ev.take", { name, card: symbolName(e.card, t) })];
    case "chip": return [t(`dice.ev.give ${e.chip}`, { name }), t("dice.ev.giveScore", { name, n: e.scores[e.seat] })];
    case "bust": return [t("dice.ev.bust", { name })];
    case "round_end": return [
      t(`dice.ev.roundEnd.${e.reason}`, { n: e.round, name }),
      t("dice.ev.roundPoints", { list: perSeat(e.points.map((p) => `+${p}`), seats) }),
      t("dice.ev.scores", { list: perSeat(e.scores, seats) }),
    ];
    case "game_end": return [t("dice.ev.gameEnd", { names: e.winners.map((i) => seatName(seats, i)).join(" & ") })];
    default: return [];
  }
}

/** Short hint for the acting seat. */
export function hint(view, t) {
  const key = `dice.hint.${view.phase}`;
  const text = t(key);
  return text === key ? "" : text;
}

/** Content of an action button: label plus the cards it names. */
export function actionContent(notation, t) {
  const [verb, ...rest] = notation.split(" ");
  const label = h("span", { class: "action-label" }, actionLabel(notation, t));
  if (verb === "discard" || verb === "take") {
    return [h("span", { class: "action-cards", "aria-hidden": "true" }, rest.map((s) => card(s, t, { size: "card-xs" }))), label];
  }
  if (verb === "roll") return [h("span", { class: "action-icon", "aria-hidden": "true" }, die("5", 0, t, false)), label];
  return [label];
}

let lastDiceEvent = -1;

/** Render the whole table. ctx: {seat, seats, t, acting, events, mine} */
export function render(root, view, ctx) {
  const { t, seat, seats } = ctx;
  const diceEvent = [...(ctx.events || [])].reverse().find((e) => e.action.startsWith("dice "));
  const rolling = diceEvent !== undefined && diceEvent.index > lastDiceEvent && view.dice !== null && ctx.animate !== false;
  if (diceEvent) lastDiceEvent = diceEvent.index;
  const current = view.current_player;
  const dice = view.dice || [];
  const myTurn = seat !== null && ctx.acting.includes(seat);

  const llamaRow = h("div", { class: "llama-row", role: "group", "aria-label": t("dice.llamaRow") },
    SYMBOLS.map((s) => {
      const present = view.llama_row.includes(s);
      const hl = present && view.phase === "take" && dice.includes(s);
      return present ? card(s, t, { highlight: hl }) : h("span", { class: "card card-gone", "aria-hidden": "true" });
    }));

  const diceBox = h("div", { class: "dice", role: "group", "aria-label": t("dice.dice") },
    [0, 1, 2].map((i) => die(dice[i], i, t, rolling)));

  const centre = h("section", { class: "centre" },
    h("h2", { class: "label" }, t("dice.llamaRow")),
    llamaRow,
    h("div", { class: "centre-bottom" },
      diceBox,
      h("div", { class: "round-info" },
        h("strong", {}, t("dice.round", { n: view.round })),
        h("span", {}, t("dice.deck", { n: view.setaside_count })))));

  const order = seats.map((_, i) => i);
  const players = h("section", { class: "players" }, order.map((i) => {
    const s = seats[i];
    const isCurrent = i === current && ctx.status === "playing";
    const [black, white] = view.chips[i];
    const winner = view.winners.includes(i);
    const matchDice = i === current && view.phase === "discard" ? dice : [];
    const used = {};
    const rowCards = view.rows[i].map((sym) => {
      used[sym] = (used[sym] || 0) + 1;
      const hl = matchDice.filter((d) => d === sym).length >= used[sym];
      return card(sym, t, { size: i === seat ? "" : "card-sm", highlight: hl });
    });
    const badges = [];
    if (i === seat) badges.push(h("span", { class: "badge badge-you" }, t("table.you")));
    if (s.kind === "bot") badges.push(h("span", { class: "badge" }, `${t("table.bot")} · ${t(`bot.${s.bot_kind}`)}`));
    else if (s.replaced) badges.push(h("span", { class: "badge badge-warn" }, t("table.away")));
    else if (!s.connected) badges.push(h("span", { class: "badge badge-muted" }, t("table.offline")));
    if (view.quit[i]) badges.push(h("span", { class: "badge badge-muted" }, t("dice.quit")));
    return h("article", {
      class: ["player", isCurrent ? "current" : "", i === seat ? "me" : "", view.quit[i] ? "quit" : "", winner ? "winner" : ""].filter(Boolean).join(" "),
      "aria-current": isCurrent ? "true" : null,
      dataset: { seat: String(i) },
    },
      h("header", { class: "player-head" },
        h("span", { class: "avatar", "aria-hidden": "true", style: `--hue:${(i * 67 + 20) % 360}` }, s.name.slice(0, 1).toUpperCase()),
        h("span", { class: "player-name" }, s.name), winner ? h("span", { class: "badge badge-win" }, "★") : null,
        badges),
      h("div", { class: "player-stats" },
        chips(black, white, t),
        h("span", { class: "score", title: t("dice.score") }, t("dice.points", { n: view.scores[i] })),
        h("span", { class: "row-score" }, t("dice.rowPoints", { n: view.row_scores[i] }))),
      h("div", { class: "row", role: "group", "aria-label": `${t("dice.row")} ${s.name}` },
        rowCards.length ? rowCards : h("span", { class: "row-empty" }, t("dice.empty"))));
  }));

  root.replaceChildren(h("div", { class: `dice-table ${myTurn ? "my-turn" : ""}` }, centre, players));
}
