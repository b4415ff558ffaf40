// Lama Express words: pure functions of notation, events and the server's view (no DOM, no
// module state), shared by render.js and unit-tested under node (tests/js). Which actions
// exist is always the server's answer; nothing here decides legality.

const DIE_NAMES = { R: "red", O: "orange", Y: "yellow", G: "green", B: "blue", P: "purple" };

/** The car a notation target names ("A3": train A, car 3) in the view, else null. */
export function carOf(view, name) {
  const train = view.trains.find((tr) => tr.name === name[0]);
  return train ? train.cars[Number(name[1]) - 1] : null;
}

export function colourName(colour, t) {
  return t(`express.colour.${colour}`);
}
export function dieName(letter, t) {
  return t(`express.die.${DIE_NAMES[letter] || letter}`);
}
export function dieLetter(letter, t) {
  return t(`express.letter.${letter}`);
}
export function seatName(seats, i) {
  return seats[i]?.name ?? `#${i + 1}`;
}

export function parse(notation) {
  const [verb, target] = notation.split(" ");
  return { verb, target: target || "" };
}

/** Localised label of an action notation (view: the observation, for details). */
export function actionLabel(notation, t, view) {
  const { verb, target } = parse(notation);
  if (verb === "pass") return t("express.act.pass");
  if (verb === "move") {
    const move = view?.moves?.find((m) => m.train === target);
    if (!move) return t("express.act.move", { train: target });
    return t("express.act.moveBy", { train: target, n: move.distance });
  }
  if (verb === "detour" && view) {
    const llama = carOf(view, target)?.llama;
    if (llama) return t("express.act.detourOf", { car: target, colour: colourName(llama.colour, t) });
  }
  const key = `express.act.${verb}`;
  const text = t(key, { car: target });
  return text === key ? notation : text;
}

/** Free actions first, "pass" (Done) last, so the first button is a chance. */
export function sortActions(legal) {
  return [...legal.filter((a) => a.action !== "pass"), ...legal.filter((a) => a.action === "pass")];
}

export function actionClass(notation) {
  return notation === "pass" ? "xp-done" : "";
}

/** Localised log line of an event {player, action, by}. */
export function eventText(event, seats, t) {
  const name = event.player >= 0 ? seatName(seats, event.player) : "";
  const { verb, target } = parse(event.action);
  if (verb === "roll") return t("express.ev.roll", { colour: dieName(target, t), letter: dieLetter(target, t) });
  if (verb === "pass") return t(event.by === "timer" ? "express.ev.timer" : "express.ev.pass", { name });
  const key = `express.ev.${verb}`;
  const text = t(key, { name, car: target, train: target });
  return text === key ? `${name} ${event.action}` : text;
}

/** Log lines of a log entry, from the game's events (event.events: {kind, ...} as sent by
 * the server, see lamagames.express.events): whose roll and the colour, every train move
 * (chosen, or by itself when only one train could move), stand-stills, chances taken or
 * passed, the end. Entries without events fall back to their notation. */
export function eventLines(event, seats, t) {
  const happened = event.events;
  if (!happened) return [eventText(event, seats, t)];
  return happened.flatMap((e) => lineOf(e, event, seats, t));
}

function lineOf(e, event, seats, t) {
  const name = e.seat !== undefined ? seatName(seats, e.seat) : "";
  const car = e.train !== undefined ? `${e.train}${e.car ?? ""}` : "";
  switch (e.kind) {
    case "roll":
      return [t("express.ev.rolled", { name, colour: dieName(e.colour, t), letter: dieLetter(e.colour, t) })];
    case "move": {
      const key = e.chosen ? "express.ev.moved" : "express.ev.movedAlone";
      return [t(key, { name, train: e.train, n: e.distance })];
    }
    case "no_move":
      return [t("express.ev.noMove", { name })];
    case "pass":
      return [t(event.by === "timer" ? "express.ev.timer" : "express.ev.pass", { name })];
    case "board":
    case "exit":
    case "reboard":
      return [t(`express.ev.${e.kind}`, { name, car })];
    case "detour": {
      const owner = e.owner >= 0 ? seatName(seats, e.owner) : "";
      return [t(owner ? "express.ev.detourOf" : "express.ev.detour", { name, car, owner })];
    }
    case "game_end": {
      const names = e.winners.map((i) => seatName(seats, i)).join(" & ");
      return [names ? t("express.ev.gameEnd", { names }) : t("express.ev.gameEndNoWinner")];
    }
    default:
      return []; // "window": the banner and the board show the chances
  }
}

/**
 * Whether the seat's move now is a chance (a window: E-9), not its turn: the tab's title
 * then says so (issue 19: it read "Your turn" for a chance).
 */
export function chance(view) {
  return view.phase === "window";
}

/** Headline of the banner: whose turn, or who has a chance. */
export function headline(view, ctx) {
  const { t, seats, acting, mine } = ctx;
  if (view.phase === "window") {
    if (mine) return t("express.head.yourChance");
    return t("express.head.chances", { names: acting.map((i) => seatName(seats, i)).join(", ") });
  }
  if (view.phase === "choose") {
    if (mine) return t("express.head.yourChoice");
    return t("express.head.choice", { name: seatName(seats, view.active_player) });
  }
  if (view.phase === "roll") return t("express.head.rolling", { name: seatName(seats, view.active_player) });
  return null;
}

/** Hint under the headline for the seat that may act. */
export function hint(view, t) {
  if (view.phase === "window") return t("express.hint.window");
  if (view.phase === "choose") {
    const moves = (view.moves || []).map((m) => t("express.hint.goes", { train: m.train, n: m.distance })).join(" · ");
    return `${t("express.hint.choose")} ${moves}`;
  }
  return "";
}

/** Result for the game-over panel: the winner, then everybody by llamas at home. */
export function result(view, t) {
  const rows = view.houses
    .map((home, seat) => ({ seat, home }))
    .sort((a, b) => b.home - a.home)
    .map((r) => ({ seat: r.seat, text: t("express.homeOf", { n: r.home, total: view.llamas_to_win }) }));
  return { winners: view.winner === null ? [] : [view.winner], rows };
}
