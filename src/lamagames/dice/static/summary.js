// After a LAMA Dice game (issue 19): points per round and chips given back per seat, as a
// small bar chart and a table, from the game's events (round_end D-10, chip D-4).
import { h, s } from "/static/dom.js";

/** The hue of a seat (as its avatar on the board). */
const hue = (seat) => (seat * 67 + 20) % 360;

/**
 * Rounds and give-backs of a finished game. `events`: every logged action in order, each
 * with its game events (`{events: [{kind, ...}]}`). Returns {rounds: [{n, points}], chips:
 * [{black, white, points}] per seat}.
 */
export function tally(events, seatCount) {
  const rounds = [];
  const chips = Array.from({ length: seatCount }, () => ({ black: 0, white: 0, points: 0 }));
  for (const action of events)
    for (const e of action.events || []) {
      if (e.kind === "round_end") rounds.push({ n: e.round, points: e.points });
      else if (e.kind === "chip" && e.chip !== "none" && chips[e.seat]) {
        chips[e.seat][e.chip] += 1;
        chips[e.seat].points += e.points;
      }
    }
  return { rounds, chips };
}

/** The summary panel's content (null before the first round ended). */
export function summary(events, ctx) {
  const { t, seats, view } = ctx;
  const { rounds, chips } = tally(events, seats.length);
  if (!rounds.length) return null;
  const most = Math.max(1, ...rounds.flatMap((r) => r.points));
  const bar = 9;
  const group = seats.length * bar + 14;
  const width = 34 + rounds.length * group;
  const top = 8;
  const base = 96;
  const bars = rounds.flatMap((r, k) =>
    r.points.map((p, i) => {
      const tall = (p / most) * (base - top);
      return s(
        "rect",
        {
          x: 30 + k * group + i * bar,
          y: base - tall,
          width: bar - 2,
          height: Math.max(tall, 0.5),
          fill: `hsl(${hue(i)} 60% 45%)`,
        },
        s("title", {}, t("dice.summary.barTitle", { name: seats[i].name, n: r.n, points: p })),
      );
    }),
  );
  const labels = rounds.map((r, k) =>
    s("text", { x: 30 + k * group + (seats.length * bar) / 2, y: base + 14, class: "summary-axis" }, String(r.n)),
  );
  const chart = s(
    "svg",
    {
      class: "summary-chart",
      viewBox: `0 0 ${width} ${base + 20}`,
      width,
      height: base + 20,
      role: "img",
      "aria-label": t("dice.summary.chart"),
    },
    s("line", { x1: 26, x2: width, y1: base, y2: base, class: "summary-base" }),
    s("text", { x: 24, y: top + 8, class: "summary-axis summary-max" }, String(most)),
    bars,
    labels,
  );
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, t("dice.summary.seat")),
    rounds.map((r) => h("th", { scope: "col", class: "num" }, t("dice.summary.round", { n: r.n }))),
    h("th", { scope: "col" }, t("dice.summary.chips")),
    h("th", { scope: "col", class: "num" }, t("dice.summary.total")),
  );
  const rows = seats.map((seat, i) =>
    h(
      "tr",
      { dataset: { seat: String(i) } },
      h(
        "th",
        { scope: "row" },
        h("span", { class: "summary-swatch", "aria-hidden": "true" }, s("svg", { width: 10, height: 10 }, swatch(i))),
        seat.name,
      ),
      rounds.map((r) => h("td", { class: "num" }, String(r.points[i]))),
      h(
        "td",
        { class: "summary-chips" },
        chips[i].black || chips[i].white
          ? t("dice.summary.chipsGiven", { black: chips[i].black, white: chips[i].white, points: chips[i].points })
          : "–",
      ),
      h("td", { class: "num" }, h("strong", {}, String(view && view.scores ? view.scores[i] : ""))),
    ),
  );
  return h(
    "div",
    { class: "summary-body" },
    h("figure", { class: "summary-figure" }, chart, h("figcaption", {}, t("dice.summary.chart"))),
    chipChart(chips, seats, t),
    // A long game's table scrolls sideways inside this box on a phone (issue 19: the page
    // never does): a region named by the caption, reachable with Tab to scroll with the
    // arrow keys.
    h(
      "div",
      { class: "summary-table-wrap", role: "region", tabindex: "0", "aria-labelledby": "summary-table-caption" },
      h(
        "table",
        { class: "summary-table" },
        h("caption", { id: "summary-table-caption" }, t("dice.summary.caption")),
        h("thead", {}, head),
        h("tbody", {}, rows),
      ),
    ),
  );
}

/** A seat's name cut to `n` characters (an ellipsis for the rest): a label in a chart. */
function shortName(name, n) {
  const chars = [...name];
  return chars.length > n ? `${chars.slice(0, n - 1).join("")}…` : name;
}

/**
 * The chips each seat gave back (issue 19: a small chart, not only a table column): a pile
 * of chips per seat, black ones (10 points) under white ones (1 point), the seat's colour
 * and shortened name under it and the points given back. A picture for screen readers
 * named with every seat's figures (the table under it says the same). When nobody gave a
 * chip back, a sentence saying so instead of the chart.
 */
export function chipChart(chips, seats, t) {
  // Nobody gave a chip back: a sentence, not an empty frame with "–" under each name.
  if (!chips.some((c) => c.black || c.white))
    return h("p", { class: "summary-nochips muted" }, t("dice.summary.nobodyGave"));
  const most = Math.max(1, ...chips.map((c) => c.black + c.white));
  const step = Math.min(9, 60 / most);
  const col = 60;
  const width = seats.length * col + 8;
  const base = 72;
  const said = seats.map((seat, i) => {
    const c = chips[i];
    const chipsText =
      c.black || c.white
        ? t("dice.summary.chipsGiven", { black: c.black, white: c.white, points: c.points })
        : t("dice.summary.noChips");
    return t("dice.summary.pileTitle", { name: seat.name, chips: chipsText });
  });
  const piles = seats.map((seat, i) => {
    const c = chips[i];
    const x = i * col + col / 2;
    const discs = Array.from({ length: c.black + c.white }, (_, k) =>
      s("ellipse", {
        cx: x,
        cy: base - 6 - k * step,
        rx: 13,
        ry: 5,
        class: k < c.black ? "summary-chip summary-chip-black" : "summary-chip summary-chip-white",
      }),
    );
    return s(
      "g",
      { class: "summary-pile", dataset: { seat: String(i), black: String(c.black), white: String(c.white) } },
      s("title", {}, said[i]),
      discs,
      s("rect", { x: x - 17, y: base + 5, width: 8, height: 8, rx: 2, fill: `hsl(${hue(i)} 60% 45%)` }),
      s("text", { x: x - 6, y: base + 13, class: "summary-axis summary-pile-name" }, shortName(seat.name, 7)),
      s(
        "text",
        { x, y: base + 27, class: "summary-axis summary-pile-points" },
        c.black || c.white ? String(c.points) : "–",
      ),
    );
  });
  const chart = s(
    "svg",
    {
      class: "summary-chipchart",
      viewBox: `0 0 ${width} ${base + 32}`,
      width,
      height: base + 32,
      role: "img",
      "aria-label": `${t("dice.summary.chipChart")}: ${said.join("; ")}`,
    },
    s("line", { x1: 0, x2: width, y1: base, y2: base, class: "summary-base" }),
    piles,
  );
  return h("figure", { class: "summary-figure" }, chart, h("figcaption", {}, t("dice.summary.chipChart")));
}

function swatch(seat) {
  return s("rect", { width: 10, height: 10, rx: 2, fill: `hsl(${hue(seat)} 60% 45%)` });
}
