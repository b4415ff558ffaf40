// The game review of a finished table (issue 18): GET/POST /api/tables/{code}/review. Shows
// a button to start it, its progress while the server works it out, then the chart of each
// seat's value across the game (SVG drawn here; click a point to see that position), every
// marked decision with the better move in plain words, and "Learn from your mistakes": the
// marked positions of a seat one by one, asking for a better move, then showing the answer.
import { h, s } from "./dom.js";
import * as i18n from "./i18n.js";
import { api, toast } from "./common.js";

const { t } = i18n;
const POLL_MS = 800;
const W = 640;
const H = 240;
const PAD = { l: 48, r: 14, t: 14, b: 26 };

/** x with `digits` decimals in the page's language (never -0). */
export function number(x, digits) {
  if (x === null || x === undefined) return "–";
  const rounded = Number(x.toFixed(digits));
  return (rounded === 0 ? 0 : rounded).toLocaleString(i18n.lang(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A value (or loss) in the review's unit, as words: "6.2 points", "12.5 %". */
export function amount(x, unit) {
  if (unit === "win chance") return t("review.chance", { n: number(100 * x, 1) });
  return t("review.points", { n: number(x, 1) });
}

/** The chart's scales: x over the record's actions, y over the plotted levels. Pure. */
export function scales(result) {
  const levels = result.decisions.map((d) => d.level).filter((v) => v !== null && v !== undefined);
  let lo = Math.min(...levels);
  let hi = Math.max(...levels);
  if (result.unit === "win chance") [lo, hi] = [0, 1];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi - lo < 1e-9) [lo, hi] = [lo - 1, hi + 1];
  const span = Math.max(1, result.actions);
  return {
    lo,
    hi,
    x: (index) => PAD.l + (index / span) * (W - PAD.l - PAD.r),
    y: (level) => PAD.t + ((hi - level) / (hi - lo)) * (H - PAD.t - PAD.b),
  };
}

function label(R, notation, view) {
  return (R && R.actionLabel && R.actionLabel(notation, t, view)) || notation;
}

/** The SVG chart: one line per seat through its decisions, marked decisions larger. */
export function chart(result, names, onJump) {
  const sc = scales(result);
  const fmt = (v) => (result.unit === "win chance" ? `${number(100 * v, 0)} %` : number(v, 1));
  const parts = [
    s("line", { x1: PAD.l, y1: PAD.t, x2: PAD.l, y2: H - PAD.b, class: "review-axis" }),
    s("line", { x1: PAD.l, y1: H - PAD.b, x2: W - PAD.r, y2: H - PAD.b, class: "review-axis" }),
    s("text", { x: PAD.l - 6, y: PAD.t + 4, class: "review-tick review-tick-y" }, fmt(sc.hi)),
    s("text", { x: PAD.l - 6, y: H - PAD.b, class: "review-tick review-tick-y" }, fmt(sc.lo)),
    s("text", { x: PAD.l, y: H - 6, class: "review-tick" }, "0"),
    s("text", { x: W - PAD.r, y: H - 6, class: "review-tick review-tick-end" }, String(result.actions)),
  ];
  for (let seat = 0; seat < names.length; seat++) {
    const mine = result.decisions.filter((d) => d.seat === seat && d.level !== null && d.level !== undefined);
    if (!mine.length) continue;
    const points = mine.map((d) => `${sc.x(d.index).toFixed(1)},${sc.y(d.level).toFixed(1)}`).join(" ");
    parts.push(s("polyline", { points, class: `review-line review-seat-${seat % 6}` }));
    for (const d of mine) {
      const words = t("review.point", { name: names[seat], i: d.index, value: fmt(d.level) });
      parts.push(
        s(
          "circle",
          {
            cx: sc.x(d.index).toFixed(1),
            cy: sc.y(d.level).toFixed(1),
            r: d.mark ? 6 : 3.5,
            tabindex: 0,
            role: "button",
            "aria-label": words,
            class: `review-point review-seat-${seat % 6}${d.mark ? ` review-mark-${d.mark}` : ""}`,
            dataset: { index: d.index, seat },
            onclick: () => onJump(d.index),
            onkeydown: (e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                onJump(d.index);
              }
            },
          },
          s("title", {}, words),
        ),
      );
    }
  }
  const level = t(result.unit === "win chance" ? "review.levelChance" : "review.levelPoints");
  return h(
    "figure",
    { class: "review-figure" },
    s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart", role: "group", "aria-label": level },
      parts,
    ),
    h(
      "figcaption",
      {},
      h(
        "ul",
        { class: "review-legend" },
        names.map((name, seat) =>
          h("li", {}, h("span", { class: `review-swatch review-seat-${seat % 6}`, "aria-hidden": "true" }), name),
        ),
      ),
      h("span", { class: "review-note" }, `${level} · ${t("review.clickPoint")}`),
    ),
  );
}

/**
 * The review panel of a finished table. opts: {code, seat (the reader's seat or null),
 * seats (with names), R (the game's browser module), onJump(index): show the position before
 * the record's action index}. Returns {el, stop(), redraw()}.
 */
export function reviewPanel(opts) {
  const el = h("section", { class: "panel review", id: "review", "aria-live": "polite" });
  const state = { answer: null, timer: null, stopped: false, learn: null };
  const names = () => opts.seats.map((x) => x.name);

  async function poll(start = false) {
    clearTimeout(state.timer);
    try {
      state.answer = await api(`/api/tables/${opts.code}/review`, start ? {} : undefined);
    } catch (e) {
      state.answer = { status: "error", message: e.message };
    }
    if (state.stopped) return;
    if (state.answer.status === "running") state.timer = setTimeout(() => poll(), POLL_MS);
    draw();
  }

  function draw() {
    const a = state.answer;
    const title = h("h2", {}, t("review.title"));
    if (!a) return el.replaceChildren(title, h("p", { class: "loading" }, "…"));
    if (a.status === "error") return el.replaceChildren(title, h("p", {}, a.message));
    if (a.status === "none" || a.status === "failed") {
      // replaceChildren writes a null child as the text "null": only real nodes go in.
      const failed =
        a.status === "failed" ? [h("p", { class: "review-failed" }, t("review.failed", { message: a.message }))] : [];
      return el.replaceChildren(
        title,
        ...failed,
        h("p", {}, t("review.about")),
        h(
          "button",
          { type: "button", class: "btn btn-primary", id: "review-start", onclick: () => poll(true) },
          t("review.start"),
        ),
      );
    }
    if (a.status === "running") {
      const pct = Math.round(100 * a.progress);
      return el.replaceChildren(
        title,
        h("progress", { id: "review-progress", max: 100, value: pct }),
        h("p", { class: "review-running" }, t("review.running", { n: pct })),
      );
    }
    if (state.learn) return el.replaceChildren(title, learnView(a.result));
    return el.replaceChildren(title, ...resultView(a.result));
  }

  function resultView(result) {
    const seatNames = names();
    const totals = h(
      "ul",
      { class: "review-totals", id: "review-totals" },
      result.seats.map((x) =>
        h(
          "li",
          {},
          x.accuracy === null
            ? t("review.noDecisions", { name: seatNames[x.seat] })
            : t("review.accuracy", { name: seatNames[x.seat], acc: number(x.accuracy, 0), n: x.decisions }),
        ),
      ),
    );
    const marked = result.decisions.filter((d) => d.mark);
    const list = marked.length
      ? h(
          "ol",
          { class: "review-marks", id: "review-marks" },
          marked.map((d) =>
            h(
              "li",
              { class: `review-item review-mark-${d.mark}`, dataset: { key: d.index } },
              h("strong", { class: "review-mark" }, t(`review.mark.${d.mark}`)),
              " ",
              t("review.line", {
                name: seatNames[d.seat],
                played: label(opts.R, d.action, d.view),
                best: label(opts.R, d.best, d.view),
                lost: amount(d.loss, result.unit),
              }),
              " ",
              h(
                "span",
                { class: "review-values" },
                t("review.values", {
                  played: amount(d.value, result.unit),
                  best: amount(d.best_value, result.unit),
                }),
                d.exact ? "" : ` (${t("review.estimated")})`,
              ),
              " ",
              h(
                "button",
                { type: "button", class: "btn btn-small review-jump", onclick: () => opts.onJump(d.index) },
                t("review.jump"),
              ),
            ),
          ),
        )
      : h("p", { id: "review-marks" }, t("review.noMarks"));
    const withMarks = [...new Set(marked.map((d) => d.seat))];
    const first = opts.seat !== null && opts.seat !== undefined ? opts.seat : withMarks.length ? withMarks[0] : 0;
    const picker = h(
      "select",
      { id: "learn-seat", "aria-label": t("review.learnSeat") },
      seatNames.map((name, i) => h("option", { value: i, selected: i === first }, name)),
    );
    const learn = h(
      "div",
      { class: "item-actions" },
      picker,
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          id: "learn-start",
          onclick: () => {
            state.learn = { seat: Number(picker.value), i: 0, chosen: null };
            draw();
          },
        },
        t("review.learn"),
      ),
    );
    return [totals, chart(result, seatNames, opts.onJump), list, learn];
  }

  function learnView(result) {
    const L = state.learn;
    const items = result.decisions.filter((d) => d.mark && d.seat === L.seat && d.view && d.legal);
    const stop = h(
      "button",
      {
        type: "button",
        class: "btn btn-quiet",
        id: "learn-stop",
        onclick: () => {
          state.learn = null;
          draw();
        },
      },
      t("review.learnStop"),
    );
    if (!items.length) return h("div", { class: "learn", id: "learn" }, h("p", {}, t("review.learnNone")), stop);
    if (L.i >= items.length)
      return h("div", { class: "learn", id: "learn" }, h("p", { id: "learn-done" }, t("review.learnDone")), stop);
    const d = items[L.i];
    const board = h("div", { class: "board learn-board" });
    if (opts.R && d.view) {
      opts.R.render(board, d.view, {
        t,
        seat: d.seat,
        seats: opts.seats,
        acting: [d.seat],
        events: [],
        status: "playing",
        animate: false,
        legal: [],
        act: () => {},
        memory: {},
      });
    }
    const best = label(opts.R, d.best, d.view);
    const choices = h(
      "div",
      { class: "learn-choices", id: "learn-choices" },
      d.legal.map((notation) =>
        h(
          "button",
          {
            type: "button",
            class: `btn learn-choice${L.chosen !== null && notation === d.best ? " learn-best" : ""}`,
            dataset: { choice: notation },
            disabled: L.chosen !== null,
            onclick: () => {
              L.chosen = notation;
              draw();
            },
          },
          label(opts.R, notation, d.view),
        ),
      ),
    );
    let answer = null;
    if (L.chosen !== null) {
      const verdict =
        L.chosen === d.best
          ? t("review.learnRight", { best })
          : L.chosen === d.action
            ? t("review.learnSame", { best })
            : t("review.learnOther", { best });
      answer = h(
        "div",
        { class: "learn-answer", id: "learn-answer", role: "status" },
        h("p", {}, h("strong", {}, verdict)),
        h(
          "p",
          {},
          t("review.learnAnswer", {
            played: label(opts.R, d.action, d.view),
            best,
            lost: amount(d.loss, result.unit),
          }),
        ),
        h(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            id: "learn-next",
            onclick: () => {
              L.i += 1;
              L.chosen = null;
              draw();
            },
          },
          t("review.learnNext"),
        ),
      );
    }
    return h(
      "div",
      { class: "learn", id: "learn" },
      h("p", { id: "learn-ask" }, t("review.learnAsk", { i: L.i + 1, n: items.length })),
      board,
      choices,
      answer,
      stop,
    );
  }

  poll().catch((e) => toast(e.message));
  return {
    el,
    stop() {
      state.stopped = true;
      clearTimeout(state.timer);
    },
    redraw: draw,
  };
}
