// LAMA Dice words and highlights: pure functions of notation, events and the server's view
// (no DOM, no module state), shared by render.js and unit-tested under node (tests/js).

/** The symbols in the order the llama row shows them. */
export const SYMBOLS = ["1", "2", "3", "4", "5", "6", "L"];

/** A symbol for people: the number, or the word for llama. */
export function symbolName(s, t) {
  return s === "L" ? t("dice.llama") : s;
}

function symbolsText(list, t) {
  return list.map((s) => symbolName(s, t)).join(" ");
}

/** Which cards to highlight, read from the legal actions of the seat to act (the view's
 * `turn_actions`, sent by the server): `take` is the set of llama-row symbols that may be
 * taken (D-8.3); `discard` maps each symbol to the most copies of it one discard may put
 * down (D-8.2). Nothing here knows the rules: an action the server does not send lights
 * nothing. */
export function highlights(actions) {
  const take = new Set();
  const discard = {};
  for (const action of actions || []) {
    const [verb, ...cards] = action.split(" ");
    if (verb === "take") take.add(cards[0]);
    if (verb === "discard") {
      const counts = {};
      for (const c of cards) counts[c] = (counts[c] || 0) + 1;
      for (const [c, n] of Object.entries(counts)) discard[c] = Math.max(discard[c] || 0, n);
    }
  }
  return { take, discard };
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

function seatName(seats, i) {
  return seats[i]?.name ?? `#${i + 1}`;
}
function perSeat(values, seats) {
  return values.map((v, i) => `${seatName(seats, i)} ${v}`).join(", ");
}

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
    case "deal":
      return [];
    case "round_start":
      return [t("dice.ev.roundStart", { n: e.round, name: seatName(seats, e.starter) })];
    case "roll":
      return [t(`dice.ev.rolled.${e.result}`, { name, dice: symbolsText(e.dice, t) })];
    case "quit":
      return [t("dice.ev.quit", { name })];
    case "discard":
      return [t("dice.ev.discard", { name, cards: symbolsText(e.cards, t) })];
    case "take":
      return [t("dice.ev.take", { name, card: symbolName(e.card, t) })];
    case "chip":
      return [t(`dice.ev.give ${e.chip}`, { name }), t("dice.ev.giveScore", { name, n: e.scores[e.seat] })];
    case "bust":
      return [t("dice.ev.bust", { name })];
    case "round_end":
      return [
        t(`dice.ev.roundEnd.${e.reason}`, { n: e.round, name }),
        t("dice.ev.roundPoints", {
          list: perSeat(
            e.points.map((p) => `+${p}`),
            seats,
          ),
        }),
        t("dice.ev.scores", { list: perSeat(e.scores, seats) }),
      ];
    case "game_end":
      return [t("dice.ev.gameEnd", { names: e.winners.map((i) => seatName(seats, i)).join(" & ") })];
    default:
      return [];
  }
}

/** Short hint for the acting seat. */
export function hint(view, t) {
  const key = `dice.hint.${view.phase}`;
  const text = t(key);
  return text === key ? "" : text;
}
