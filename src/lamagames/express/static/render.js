// Lama Express renderer: an SVG board drawn from the board geometry in the observation.
// Pure view: which actions exist is the engine's answer (ctx.legal); nothing here decides
// legality. Clicking a glowing car (or pressing Enter/Space on it) takes its action.
import { h, s } from "/static/dom.js";
import { actionLabel, carOf, colourName, dieLetter, dieName, parse, seatName } from "./words.js";

export {
  actionClass,
  actionLabel,
  chance,
  eventLines,
  eventText,
  headline,
  hint,
  result,
  sortActions,
} from "./words.js";

// ------------------------------------------------------------------ look
const CELL = 44; // one track space
const MARGIN = 26; // outer band with the colour letters
const DIE_FILL = { R: "#e0503f", O: "#f29232", Y: "#f6d23e", G: "#55b160", B: "#4282d8", P: "#9261cc" };
const DIE_INK = { R: "#fff", O: "#3b2a1a", Y: "#3b2a1a", G: "#fff", B: "#fff", P: "#fff" };
const PLAYER_FILL = { yellow: "#f7c823", pink: "#f07bb5", green: "#3cae62", blue: "#4a86e0" };
const PLAYER_INK = { yellow: "#6b4e00", pink: "#8c1f58", green: "#16532c", blue: "#163f80" };
// A shape per player colour, so colour-blind players can tell llamas apart.
const MARKS = {
  yellow: (r) => s("circle", { r: r * 0.75 }),
  pink: (r) => s("path", { d: `M0 ${-r}L${r} 0L0 ${r}L${-r} 0Z` }),
  green: (r) => s("path", { d: `M0 ${-r}L${r * 0.95} ${r * 0.75}L${-r * 0.95} ${r * 0.75}Z` }),
  blue: (r) => s("rect", { x: -r * 0.72, y: -r * 0.72, width: r * 1.44, height: r * 1.44 }),
};
const TRAIN_FILL = { A: "#b8472d", B: "#2d5f8f" };
// The llama of the app icon (64 x 64 box), as simple shapes.
function llamaShapes() {
  return [
    s("ellipse", { cx: 27, cy: 38, rx: 15, ry: 8.5 }),
    s("rect", { x: 34, y: 13, width: 8, height: 27, rx: 4 }),
    s("ellipse", { cx: 42, cy: 15, rx: 8, ry: 5 }),
    s("path", { d: "M36 12l1-7 3.5 6zM40.5 11l2-7 2 7z" }),
    s("rect", { x: 15, y: 42, width: 4, height: 13, rx: 2 }),
    s("rect", { x: 22, y: 43, width: 4, height: 12, rx: 2 }),
    s("rect", { x: 30, y: 43, width: 4, height: 12, rx: 2 }),
    s("rect", { x: 36, y: 42, width: 4, height: 13, rx: 2 }),
    s("circle", { cx: 12.5, cy: 34, r: 3.5 }),
  ];
}

/** Add the game's style sheet to the document once (the document remembers it). */
function ensureStyle() {
  if (document.querySelector("link[data-game-style='express']")) return;
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/static/games/express/express.css";
  style.dataset.gameStyle = "express";
  document.head.append(style);
}

/** Content of an action button: a small picture and the label. */
export function actionContent(notation, t, view) {
  const { verb, target } = parse(notation);
  const label = h("span", { class: "action-label" }, actionLabel(notation, t, view));
  let icon = null;
  if (verb === "pass") icon = h("span", { class: "xp-icon", "aria-hidden": "true" }, "✓");
  else if (verb === "move") icon = miniSvg(locoShape(target, 0.42));
  else if (view) {
    const colour = verb === "detour" ? carOf(view, target)?.llama?.colour : view.colours[view.player];
    if (colour) icon = miniSvg(llamaToken(colour, 11));
  }
  return [icon, label];
}

function miniSvg(child) {
  return h(
    "span",
    { class: "xp-icon", "aria-hidden": "true" },
    s("svg", { viewBox: "-14 -14 28 28", width: 24, height: 24, focusable: "false" }, child),
  );
}

// ------------------------------------------------------------------ lobby options
/** Extra fields of the "new table" form: short game and a colour per seat. */
export function createOptions(game, t) {
  ensureStyle();
  const choices = game.extras.colour_choices || {};
  let colours = [];
  const short = h("input", { type: "checkbox", id: "xp-short" });
  const fields = h(
    "div",
    { class: "field xp-options" },
    h("small", { class: "muted" }, t("express.lobby.coloursHelp")),
    h("label", { class: "check" }, short, " ", t("express.lobby.short")),
  );

  // A new number of seats: keep the first seat's colour if possible, else the usual colours
  // for that many players (opposite corners for two).
  function fit(count) {
    const list = choices[String(count)] || [];
    if (!list.length) return;
    const usual = (game.extras.default_colours || {})[String(count)] || [];
    const score = (c) =>
      (c[0] === colours[0] ? 100 : 0) +
      10 * c.filter((x) => usual.includes(x)).length +
      c.filter((x, i) => x === usual[i]).length;
    colours = [...list].sort((a, b) => score(b) - score(a))[0].slice();
  }

  function seatControl(i, count, redraw) {
    if (colours.length !== count) fit(count);
    const list = choices[String(count)] || [];
    // Colours this seat can take while the seats before it keep theirs.
    const possible = [...new Set(list.filter((c) => c.slice(0, i).every((x, j) => x === colours[j])).map((c) => c[i]))];
    const select = h(
      "select",
      {
        class: "xp-colour",
        "aria-label": t("express.lobby.colourOf", { n: i + 1 }),
        dataset: { seat: String(i) },
        onchange: (e) => {
          const wanted = e.target.value;
          const keep = list.filter((c) => c.slice(0, i).every((x, j) => x === colours[j]) && c[i] === wanted);
          const score = (c) => c.reduce((n, colour, j) => n + (j > i && colours[j] === colour ? 1 : 0), 0);
          colours = [...keep].sort((a, b) => score(b) - score(a))[0].slice();
          redraw();
        },
      },
      possible.map((c) => h("option", { value: c, selected: c === colours[i] }, colourName(c, t))),
    );
    const swatch = h(
      "span",
      { class: "xp-swatch", "aria-hidden": "true" },
      s("svg", { viewBox: "-14 -14 28 28", width: 28, height: 28 }, llamaToken(colours[i], 12)),
    );
    return h("span", { class: "xp-seat-colour" }, swatch, select);
  }

  return {
    fields,
    seatControl,
    params(count) {
      if (colours.length !== count) fit(count);
      return { colours, llamas_to_win: short.checked ? 3 : 4 };
    },
  };
}

// ------------------------------------------------------------------ geometry
/** Places of the spaces: a ring around a rectangle, clockwise from the top-left corner
 *  (as the terminal board), plus the outward side of each space and its travel angle. */
function geometry(length) {
  const width = Math.ceil(length / 4) + 1;
  const rest = length - 2 * width;
  const right = Math.ceil(rest / 2);
  const left = rest - right;
  const height = right + 2;
  const cells = [];
  for (let c = 0; c < width; c++) cells.push([0, c]);
  for (let r = 1; r <= right; r++) cells.push([r, width - 1]);
  for (let c = width - 1; c >= 0; c--) cells.push([height - 1, c]);
  for (let r = height - 2; r > height - 2 - left; r--) cells.push([r, 0]);
  const pos = cells.slice(0, length).map(([r, c]) => ({
    x: MARGIN + c * CELL + CELL / 2,
    y: MARGIN + r * CELL + CELL / 2,
    out: [c === 0 ? -1 : c === width - 1 ? 1 : 0, r === 0 ? -1 : r === height - 1 ? 1 : 0],
  }));
  pos.forEach((p, i) => {
    const next = pos[(i + 1) % length];
    const prev = pos[(i - 1 + length) % length];
    p.angle = (Math.atan2(next.y - prev.y, next.x - prev.x) * 180) / Math.PI;
  });
  return { length, pos, width: width * CELL + 2 * MARGIN, height: height * CELL + 2 * MARGIN };
}

function unit([x, y]) {
  const n = Math.hypot(x, y) || 1;
  return [x / n, y / n];
}
function at(p, [dx, dy], d) {
  return { x: p.x + dx * d, y: p.y + dy * d };
}
/** The spaces a train's pieces stand on, as the server sends them: locomotive, coal car,
 * then cars 1..5 (the order of the pieces' ``data-offset``). */
function pieceSpaces(tr) {
  return [tr.locomotive, tr.coal, ...tr.cars.map((c) => c.space)];
}

function move(x, y) {
  return `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
}

// ------------------------------------------------------------------ pieces
/** A llama in a player colour with that colour's mark on its body; ``done``: a star (its
 *  lap is complete, it may get off at home). ``r``: half the size. */
function llamaToken(colour, r, { done = false } = {}) {
  const k = (r * 2) / 50;
  const place = `scale(${k}) translate(-30 -30)`;
  return s(
    "g",
    { class: `xp-llama xp-llama-${colour}` },
    s(
      "g",
      {
        transform: place,
        fill: PLAYER_INK[colour],
        stroke: PLAYER_INK[colour],
        "stroke-width": 5,
        "stroke-linejoin": "round",
      },
      llamaShapes(),
    ),
    s("g", { transform: place, fill: PLAYER_FILL[colour] }, llamaShapes()),
    s(
      "g",
      {
        transform: `translate(${-r * 0.12} ${r * 0.3})`,
        fill: "#fff",
        stroke: PLAYER_INK[colour],
        "stroke-width": Math.max(1, r * 0.09),
      },
      MARKS[colour](r * 0.32),
    ),
    done
      ? s("path", { class: "xp-star", d: starPath(r * 0.42), transform: `translate(${r * 0.62} ${-r * 0.72})` })
      : null,
  );
}

function starPath(r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    pts.push(`${(Math.cos(a) * d).toFixed(1)} ${(Math.sin(a) * d).toFixed(1)}`);
  }
  return `M${pts.join("L")}Z`;
}

function locoShape(name, k = 1) {
  return s(
    "g",
    { transform: `scale(${k})` },
    s("path", {
      d: "M-18 -14h22l12 6c3 2 3 14 0 16l-12 6h-22z",
      fill: TRAIN_FILL[name],
      stroke: "#2a1c12",
      "stroke-width": 1.5,
    }),
    s("rect", { x: -16, y: -11, width: 10, height: 22, rx: 2, fill: "#fff3", stroke: "#0003" }),
    s("circle", { cx: 9, cy: 0, r: 4, fill: "#2a1c12" }),
  );
}

function footprint(x, y, angle) {
  return s(
    "g",
    { class: "xp-footprint", transform: `translate(${x} ${y}) rotate(${angle})` },
    s("ellipse", { cx: -4, cy: -4, rx: 5, ry: 3 }),
    s("ellipse", { cx: 5, cy: 4, rx: 5, ry: 3 }),
  );
}

// ------------------------------------------------------------------ board
/** Render the table. ctx: {t, seat, seats, acting, events, status, legal, act, pending,
 *  animate, memory}; memory is an object the page keeps while it shows this table (where
 *  the trains and the die were last drawn, so a move slides once); without it nothing
 *  moves. */
export function render(root, view, ctx) {
  ensureStyle();
  const last = (ctx.memory && ctx.memory.drawn) || { key: null, spaces: {}, die: null };
  const { t, seat, seats } = ctx;
  const geo = geometry(view.board.length);
  const track = view.board.track;
  const legal = ctx.legal || [];
  const targets = {};
  for (const a of legal) {
    const { verb, target } = parse(a);
    if (verb !== "pass") targets[target] = a;
  }

  // Roles of the spaces, for marks on the tiles.
  const roles = {};
  for (const st of view.stations) {
    roles[st.boarding] = { kind: "boarding", colour: st.colour, seat: st.seat };
    for (const e of st.exits) roles[e] = { kind: "exit", colour: st.colour, seat: st.seat };
  }
  view.footpaths.forEach((f, i) => {
    roles[f.arrow] = { kind: "arrow", index: i };
    roles[f.reboard] = { kind: "reboard", index: i };
  });

  const tiles = [];
  const letters = [];
  geo.pos.forEach((p, i) => {
    const letter = track[i];
    const role = roles[i];
    const o = unit(p.out);
    const cls = ["xp-tile", role ? `xp-${role.kind}` : ""].join(" ");
    tiles.push(
      s(
        "g",
        { class: cls, dataset: { space: String(i) } },
        s("rect", {
          x: p.x - CELL / 2 + 1.5,
          y: p.y - CELL / 2 + 1.5,
          width: CELL - 3,
          height: CELL - 3,
          rx: 7,
          fill: DIE_FILL[letter],
          stroke: role && role.colour ? PLAYER_INK[role.colour] : "#fff",
          "stroke-width": role && role.colour ? 4 : 1.5,
          "stroke-dasharray": role && role.kind === "exit" ? "6 3" : null,
        }),
        s("text", { x: p.x, y: p.y + 5, class: "xp-tile-letter", fill: DIE_INK[letter] }, dieLetter(letter, t)),
      ),
    );
    const tag = at(p, o, CELL / 2 + MARGIN / 2 - 1 + (p.out[0] && p.out[1] ? 3 : 0));
    letters.push(
      s(
        "g",
        { class: "xp-letter" },
        s("circle", { cx: tag.x, cy: tag.y, r: 10.5, fill: DIE_FILL[letter], stroke: "#fff", "stroke-width": 1.5 }),
        s("text", { x: tag.x, y: tag.y + 4.2, fill: DIE_INK[letter] }, dieLetter(letter, t)),
      ),
    );
  });

  // Marks inside the ring: boarding spaces (Einstiegsfeld), exits (Ausstiegsfelder), white
  // arrows with their footpaths (Fußspuren) and the re-boarding spaces.
  const marks = [];
  for (const [space, role] of Object.entries(roles)) {
    const p = geo.pos[Number(space)];
    const inward = unit(p.out).map((v) => -v);
    const m = at(p, inward, CELL / 2 + 9);
    if (role.kind === "boarding" && role.colour) {
      marks.push(
        s(
          "g",
          { class: "xp-mark", transform: `translate(${m.x} ${m.y})` },
          s("circle", { r: 8.5, fill: PLAYER_FILL[role.colour], stroke: PLAYER_INK[role.colour], "stroke-width": 1.5 }),
          s("path", {
            d: "M0 4V-4M-3.5 -0.5L0 -4L3.5 -0.5",
            stroke: PLAYER_INK[role.colour],
            "stroke-width": 2,
            fill: "none",
            transform: `rotate(${(Math.atan2(-inward[1], -inward[0]) * 180) / Math.PI + 90})`,
          }),
        ),
      );
    } else if (role.kind === "exit" && role.colour) {
      marks.push(
        s(
          "g",
          { class: "xp-mark", transform: `translate(${m.x} ${m.y})` },
          s("path", {
            d: "M-6 6V-1L0 -7L6 -1V6Z",
            fill: PLAYER_FILL[role.colour],
            stroke: PLAYER_INK[role.colour],
            "stroke-width": 1.5,
          }),
        ),
      );
    }
  }
  const paths = view.footpaths.map((f) => {
    const a = geo.pos[f.arrow];
    const r = geo.pos[f.reboard];
    const inward = unit(a.out[0] && a.out[1] ? r.out : a.out).map((v) => -v);
    const start = at(a, inward, CELL / 2 + 4);
    const ends = [at(r, inward, CELL * 0.98), at(a, inward, CELL * 0.98)];
    const spots = [];
    for (let j = 0; j < f.length; j++) {
      const k = (j + 1) / (f.length + 1);
      spots.push({ x: ends[0].x + (ends[1].x - ends[0].x) * k, y: ends[0].y + (ends[1].y - ends[0].y) * k });
    }
    const along = (Math.atan2(ends[0].y - ends[1].y, ends[0].x - ends[1].x) * 180) / Math.PI;
    const back = at(r, inward, CELL / 2 + 4);
    const arrowAngle = (Math.atan2(inward[1], inward[0]) * 180) / Math.PI;
    return s(
      "g",
      { class: "xp-footpath" },
      s("path", {
        class: "xp-trail",
        d: `M${start.x} ${start.y}L${ends[1].x} ${ends[1].y}L${ends[0].x} ${ends[0].y}L${back.x} ${back.y}`,
      }),
      s("path", {
        class: "xp-arrow",
        d: "M-2 -5h8v-5l10 10-10 10v-5h-8z",
        transform: `translate(${start.x} ${start.y}) rotate(${arrowAngle}) translate(-2 0)`,
      }),
      spots.map((p) => footprint(p.x, p.y, along + 90)),
      f.llamas.map((llama, j) =>
        s(
          "g",
          { transform: `translate(${spots[j].x} ${spots[j].y})` },
          llamaToken(llama.colour, 14, { done: llama.to_go === 0 }),
        ),
      ),
      s(
        "g",
        { class: "xp-mark xp-reboard-mark", transform: `translate(${back.x} ${back.y})` },
        s("circle", { r: 8.5 }),
        s("g", { transform: "scale(.62)" }, footprint(0, 0, along + 90)),
      ),
    );
  });

  // Stations (Bahnhof) with the waiting llamas, and the houses with the llamas at home.
  const stations = view.stations.map((st) => {
    const p = geo.pos[st.boarding];
    const [ox, oy] = p.out;
    const size = 100;
    const cx = p.x - ox * (CELL / 2 + 24 + size / 2);
    const cy = p.y - oy * (CELL / 2 + 24 + size / 2);
    const x = cx - size / 2;
    const y = cy - size / 2;
    const inert = st.seat === null;
    const active = !inert && view.active_player === st.seat && ctx.status === "playing";
    const name = inert ? "" : seatName(seats, st.seat);
    const home = inert ? 0 : view.houses[st.seat];
    const slots = (count, filled, row) =>
      Array.from({ length: count }, (_, k) => {
        const sx = x + 16 + k * 23;
        const sy = y + row;
        return k < filled
          ? s("g", { transform: `translate(${sx} ${sy})` }, llamaToken(st.colour, 10.5))
          : s("circle", { class: "xp-slot", cx: sx, cy: sy, r: 9 });
      });
    return s(
      "g",
      {
        class: `xp-station ${inert ? "xp-inert" : ""} ${active ? "xp-active" : ""} ${!inert && st.seat === seat ? "xp-mine" : ""}`,
        dataset: { colour: st.colour },
      },
      s("rect", {
        class: "xp-station-box",
        x,
        y,
        width: size,
        height: size,
        rx: 12,
        fill: "#fffaf1",
        stroke: PLAYER_FILL[st.colour],
        "stroke-width": active ? 5 : 3,
      }),
      s("rect", { x, y, width: size, height: 24, rx: 12, fill: PLAYER_FILL[st.colour] }),
      s("rect", { x, y: y + 12, width: size, height: 12, fill: PLAYER_FILL[st.colour] }),
      s(
        "g",
        {
          transform: `translate(${x + 13} ${y + 12})`,
          fill: "#fff",
          stroke: PLAYER_INK[st.colour],
          "stroke-width": 1.3,
        },
        MARKS[st.colour](6),
      ),
      s(
        "text",
        { class: "xp-station-name", x: x + 24, y: y + 17, fill: PLAYER_INK[st.colour], "data-fixed-text": true },
        name.length > 9 ? `${name.slice(0, 8)}…` : name,
        name.length > 9 ? s("title", {}, name) : null,
      ),
      inert
        ? null
        : [
            slots(4, st.waiting, 42),
            s("path", {
              class: "xp-house",
              d: `M${x + 4} ${y + 96}V${y + 70}L${x + size / 2} ${y + 56}L${x + size - 4} ${y + 70}V${y + 96}Z`,
            }),
            slots(view.llamas_to_win, home, 82),
          ],
      s(
        "title",
        {},
        inert
          ? t("express.station.free", { colour: colourName(st.colour, t) })
          : t("express.station.title", {
              name,
              colour: colourName(st.colour, t),
              waiting: st.waiting,
              home,
              total: view.llamas_to_win,
            }),
      ),
    );
  });

  // Trains: locomotive (Lok), coal car and cars 1..5 (Waggons) with their llamas.
  const key = `${view.board.name}:${view.board.track}:${view.num_players}`;
  const animate =
    ctx.animate !== false && last.key === key && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const trains = view.trains.map((tr) => {
    const pieces = [];
    const spaces = pieceSpaces(tr);
    spaces.forEach((space, k) => {
      const p = geo.pos[space];
      const body = [];
      let target = null;
      let label = "";
      if (k === 0) {
        body.push(s("g", { transform: `rotate(${p.angle})` }, locoShape(tr.name)));
        body.push(s("text", { class: "xp-train-letter", y: 6 }, tr.name));
        target = targets[tr.name] ? targets[tr.name] : null;
        label = t("express.loco", { train: tr.name });
      } else if (k === 1) {
        body.push(
          s(
            "g",
            { transform: `rotate(${p.angle})` },
            s("rect", {
              x: -16,
              y: -14,
              width: 32,
              height: 28,
              rx: 4,
              fill: "#3d3a36",
              stroke: "#1d1b19",
              "stroke-width": 1.5,
            }),
            s("circle", { cx: -7, cy: -3, r: 5, fill: "#15130f" }),
            s("circle", { cx: 3, cy: 2, r: 6, fill: "#15130f" }),
            s("circle", { cx: 8, cy: -6, r: 4, fill: "#15130f" }),
          ),
        );
        label = t("express.coal", { train: tr.name });
      } else {
        const car = tr.cars[k - 2];
        const name = `${tr.name}${car.car}`;
        body.push(
          s("rect", { class: "xp-car", x: -17, y: -17, width: 34, height: 34, rx: 6, stroke: TRAIN_FILL[tr.name] }),
        );
        body.push(s("text", { class: "xp-car-num", x: -14, y: -7, "data-fixed-text": true }, name));
        if (car.llama)
          body.push(
            s(
              "g",
              { transform: "translate(3 4)" },
              llamaToken(car.llama.colour, 11.5, { done: car.llama.to_go === 0 }),
            ),
          );
        target = targets[name] || null;
        label = car.llama
          ? t("express.carWith", { car: name, colour: colourName(car.llama.colour, t) })
          : t("express.carEmpty", { car: name });
      }
      const attrs = {
        class: `xp-piece ${target ? "xp-target" : ""}`,
        style: `transform: ${move(p.x, p.y)}`,
        dataset: { train: tr.name, offset: String(k) },
      };
      if (target) {
        const text = actionLabel(target, t, view);
        Object.assign(attrs, {
          tabindex: 0,
          role: "button",
          "aria-label": `${label}: ${text}`,
          "data-action-target": target,
          onclick: () => {
            if (!ctx.pending) ctx.act(target);
          },
          onkeydown: (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              if (!ctx.pending) ctx.act(target);
            }
          },
        });
        attrs.dataset.focus = `board:${target}`;
        body.unshift(s("rect", { class: "xp-halo", x: -21, y: -21, width: 42, height: 42, rx: 9 }));
      }
      pieces.push(s("g", attrs, body, s("title", {}, target ? `${label}: ${actionLabel(target, t, view)}` : label)));
    });
    return s("g", { class: `xp-train xp-train-${tr.name}`, dataset: { train: tr.name, tip: String(tr.tip) } }, pieces);
  });

  // Where each train would go (only while a train must be chosen).
  const previews = (view.moves || []).map((m) => {
    const p = geo.pos[m.locomotive];
    return s(
      "g",
      { class: "xp-preview", transform: `translate(${p.x} ${p.y})` },
      s("rect", { x: -20, y: -20, width: 40, height: 40, rx: 8, stroke: TRAIN_FILL[m.train] }),
      s("text", { y: 6, fill: TRAIN_FILL[m.train] }, `${m.train}`),
    );
  });

  // The die, in the middle.
  const cx = geo.width / 2;
  const cy = geo.height / 2;
  const die = view.die;
  const rolled = die !== null && last.key === key && last.die !== view.rolls && ctx.animate !== false;
  const centre = s(
    "g",
    { class: "xp-centre" },
    s("text", { class: "xp-centre-label", x: cx, y: cy - 62 }, t("express.die.title")),
    s(
      "g",
      { transform: `translate(${cx} ${cy})` },
      s(
        "g",
        { class: `xp-die ${rolled ? "xp-rolled" : ""}` },
        s("rect", {
          x: -40,
          y: -40,
          width: 80,
          height: 80,
          rx: 16,
          fill: die ? DIE_FILL[die] : "#fff",
          stroke: "#3b2a1a",
          "stroke-width": 3,
        }),
        s(
          "text",
          { class: "xp-die-letter", y: 14, fill: die ? DIE_INK[die] : "#b9a68a" },
          die ? dieLetter(die, t) : "?",
        ),
      ),
    ),
    s("text", { class: "xp-centre-label", x: cx, y: cy + 64 }, die ? dieName(die, t) : t("express.die.none")),
    s("text", { class: "xp-centre-small", x: cx, y: cy + 84 }, t("express.rolls", { n: view.rolls })),
    s("title", {}, die ? `${t("express.die.title")}: ${dieName(die, t)}` : t("express.die.none")),
  );

  const board = s(
    "svg",
    {
      class: "xp-board",
      viewBox: `0 0 ${geo.width} ${geo.height}`,
      // the table page keeps its labels readable when it is small (page.js scaleBoardText)
      "data-scale-text": true,
      role: "group",
      "aria-label": boardSummary(view, ctx),
    },
    s("rect", {
      class: "xp-ground",
      x: MARGIN + CELL - 4,
      y: MARGIN + CELL - 4,
      width: geo.width - 2 * (MARGIN + CELL) + 8,
      height: geo.height - 2 * (MARGIN + CELL) + 8,
      rx: 14,
    }),
    tiles,
    letters,
    marks,
    paths,
    stations,
    centre,
    previews,
    trains,
  );

  root.replaceChildren(
    h("div", { class: "express" }, h("div", { class: "xp-board-wrap" }, board), players(view, ctx), legend(view, t)),
  );

  // Train moves: slide each piece along the track from the space it stood on (as the server
  // sent it last time) to the one it stands on now; no car geometry here.
  if (animate) {
    for (const tr of view.trains) {
      const before = last.spaces[tr.name];
      const now = pieceSpaces(tr);
      if (!before || before.length !== now.length || before[0] === now[0]) continue;
      const distance = (now[0] - before[0] + geo.length) % geo.length;
      if (distance > 16) continue;
      root.querySelectorAll(`.xp-train-${tr.name} .xp-piece`).forEach((el) => {
        const start = before[Number(el.dataset.offset)];
        const frames = [];
        for (let d = 0; d <= distance; d++) {
          const p = geo.pos[(start + d) % geo.length];
          frames.push({ transform: move(p.x, p.y) });
        }
        el.animate(frames, { duration: Math.min(1400, 110 * distance), easing: "ease-in-out" });
      });
    }
  }
  if (ctx.memory)
    ctx.memory.drawn = {
      key,
      spaces: Object.fromEntries(view.trains.map((tr) => [tr.name, pieceSpaces(tr)])),
      die: view.rolls,
    };
}

function boardSummary(view, ctx) {
  const { t, seats } = ctx;
  const parts = [t("express.board")];
  if (view.die) parts.push(`${t("express.die.title")}: ${dieName(view.die, t)}`);
  for (const tr of view.trains) {
    const riders = tr.cars.filter((c) => c.llama).map((c) => `${tr.name}${c.car} ${colourName(c.llama.colour, t)}`);
    parts.push(t("express.trainSummary", { train: tr.name, riders: riders.join(", ") || "–" }));
  }
  view.colours.forEach((colour, i) =>
    parts.push(
      t("express.playerSummary", {
        name: seatName(seats, i),
        colour: colourName(colour, t),
        waiting: view.waiting[i],
        home: view.houses[i],
        total: view.llamas_to_win,
      }),
    ),
  );
  return parts.join(". ");
}

// ------------------------------------------------------------------ players and legend
function players(view, ctx) {
  const { t, seat, seats } = ctx;
  const win = view.window;
  return h(
    "ul",
    { class: "xp-players", "aria-label": t("express.players") },
    view.colours.map((colour, i) => {
      const sx = seats[i] || {};
      const badges = [];
      if (i === seat) badges.push(h("span", { class: "badge badge-you" }, t("table.you")));
      if (sx.kind === "bot")
        badges.push(h("span", { class: "badge xp-bot-badge" }, `${t("table.bot")} · ${t(`bot.${sx.bot_kind}`)}`));
      else if (sx.replaced) badges.push(h("span", { class: "badge badge-warn" }, t("table.away")));
      else if (sx.connected === false) badges.push(h("span", { class: "badge badge-muted" }, t("table.offline")));
      // Only a running game has a player whose turn it is (a finished one highlights nobody).
      const current = ctx.status === "playing" && view.phase !== "over" && view.active_player === i;
      let state = null;
      if (ctx.status === "playing" && win && win.acting.includes(i))
        state = h("span", { class: "xp-state xp-state-chance" }, t("express.state.chance"));
      else if (ctx.status === "playing" && win && win.passed.includes(i))
        state = h("span", { class: "xp-state xp-state-done" }, t("express.state.passed"));
      // the person's own seat: "your turn", not "their turn" (issue 19)
      else if (current)
        state = h(
          "span",
          { class: "xp-state xp-state-turn" },
          t(i === seat ? "express.state.yourTurn" : "express.state.turn"),
        );
      if (view.winner === i) state = h("span", { class: "xp-state xp-state-win" }, `★ ${t("express.state.winner")}`);
      return h(
        "li",
        {
          class: `xp-player ${current ? "xp-player-active" : ""} ${i === seat ? "xp-player-me" : ""}`,
          style: `--pc:${PLAYER_FILL[colour]}; --pi:${PLAYER_INK[colour]}`,
        },
        h(
          "span",
          { class: "xp-player-token", "aria-hidden": "true" },
          s("svg", { viewBox: "-15 -15 30 30", width: 34, height: 34 }, llamaToken(colour, 14)),
        ),
        h(
          "span",
          { class: "xp-player-main" },
          h(
            "span",
            { class: "xp-player-name", title: seatName(seats, i) },
            // the name is shortened where room is short, the colour never (issue 19)
            h("span", { class: "xp-player-who" }, seatName(seats, i)),
            " ",
            h("span", { class: "xp-player-colour" }, `(${colourName(colour, t)})`),
          ),
          h(
            "span",
            { class: "xp-player-counts" },
            h(
              "span",
              { class: "xp-count", title: t("express.waitingLong") },
              icon("station"),
              t("express.waiting", { n: view.waiting[i] }),
            ),
            h(
              "span",
              { class: "xp-count", title: t("express.homeLong") },
              icon("house"),
              t("express.home", { n: view.houses[i], total: view.llamas_to_win }),
            ),
          ),
          h("span", { class: "xp-player-badges" }, state, badges),
        ),
      );
    }),
  );
}

const ICONS = {
  station: "M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zm-.9 3h1.8v3.2l2.4 1.5-.9 1.5-3.3-2z",
  house: "M2 14V7.5L8 2l6 5.5V14h-4.5v-4h-3v4z",
};

function icon(name) {
  return h(
    "svg",
    { class: "xp-count-icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    h("path", { d: ICONS[name], fill: "currentColor" }),
  );
}

function legend(view, t) {
  const chip = (letter) =>
    h(
      "span",
      { class: "xp-chip", style: `background:${DIE_FILL[letter]};color:${DIE_INK[letter]}` },
      dieLetter(letter, t),
    );
  const token = (colour) =>
    h(
      "span",
      { class: "xp-legend-token" },
      s("svg", { viewBox: "-14 -14 28 28", width: 26, height: 26 }, llamaToken(colour, 12)),
      colourName(colour, t),
    );
  return h(
    "details",
    { class: "xp-legend panel" },
    h("summary", {}, t("express.legend.title")),
    h(
      "ul",
      {},
      h(
        "li",
        {},
        ["R", "O", "Y", "G", "B", "P"].map((l) => [chip(l), " ", dieName(l, t), " "]),
      ),
      h("li", {}, view.colours.map(token)),
      h("li", {}, t("express.legend.boarding")),
      h("li", {}, t("express.legend.exits")),
      h("li", {}, t("express.legend.arrows")),
      h("li", {}, t("express.legend.star")),
      h("li", {}, t("express.legend.trains")),
      h("li", {}, t("express.legend.keys")),
    ),
  );
}

// ------------------------------------------------------------------ after the game
/**
 * Who brought which llama home when (issue 19), from the game's events: each `exit`
 * (E-10) at the number of the roll it followed (`roll` events count them, E-11). Returns
 * [{seat, roll, home, of}] in game order.
 */
export function homecomings(events) {
  let roll = 0;
  const found = [];
  for (const action of events)
    for (const e of action.events || []) {
      if (e.kind === "roll") roll = e.roll;
      else if (e.kind === "exit") found.push({ seat: e.seat, roll, home: e.home, of: e.llamas_to_win });
    }
  return found;
}

/** The summary panel's content: a timeline (a row per seat, a llama per homecoming) and
 * the same as a list. */
export function summary(events, ctx) {
  const { t, seats, view } = ctx;
  const found = homecomings(events);
  const last = Math.max(1, view && view.rolls ? view.rolls : 0, ...found.map((f) => f.roll));
  const left = 84; // room for the names
  const width = 400;
  const row = 26;
  const x = (roll) => left + 12 + ((width - left - 28) * roll) / last;
  const colours = (view && view.colours) || [];
  const lines = seats.map((_, i) => {
    const name = seatName(seats, i);
    return [
      s("text", { class: "summary-name", x: 0, y: 18 + i * row }, name.length > 12 ? `${name.slice(0, 11)}…` : name),
      s("line", { class: "summary-base", x1: left, x2: width - 8, y1: 14 + i * row, y2: 14 + i * row }),
    ];
  });
  const marks = found.map((f) =>
    s(
      "g",
      { transform: `translate(${x(f.roll)} ${14 + f.seat * row})` },
      llamaToken(colours[f.seat] || "yellow", 10),
      s(
        "title",
        {},
        t("express.summary.home", { roll: f.roll, name: seatName(seats, f.seat), home: f.home, of: f.of }),
      ),
    ),
  );
  const chart = s(
    "svg",
    {
      class: "summary-chart",
      viewBox: `0 0 ${width} ${seats.length * row + 16}`,
      width,
      height: seats.length * row + 16,
      role: "img",
      "aria-label": t("express.summary.chart", { n: last }),
    },
    lines,
    marks,
    s(
      "text",
      { class: "summary-axis", x: width - left, y: seats.length * row + 12 },
      t("express.summary.rolls", { n: last }),
    ),
  );
  const list = found.length
    ? h(
        "ol",
        { class: "summary-list" },
        found.map((f) =>
          h(
            "li",
            { dataset: { seat: String(f.seat) } },
            t("express.summary.home", { roll: f.roll, name: seatName(seats, f.seat), home: f.home, of: f.of }),
          ),
        ),
      )
    : h("p", {}, t("express.summary.none"));
  return h("div", { class: "summary-body" }, chart, list);
}
