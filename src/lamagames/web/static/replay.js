// The replay viewer of a finished game: step through the spectator view after each action.
import { h } from "./dom.js";
import * as i18n from "./i18n.js";
import { api, gameIdsFor, link, main, page, renderer, seatName } from "./common.js";
import { reviewPanel } from "./review.js";
import { eventLines } from "./table/log.js";

const { t } = i18n;

export async function replayPage(code) {
  let data;
  try {
    data = await api(`/api/tables/${code}/replay`);
  } catch (e) {
    // an unknown code has no table to go back to: offer the lobby instead
    const back = e.code === "not_found" ? ["/", t("table.lobby")] : [`/t/${code}`, t("replay.toTable")];
    main.replaceChildren(
      h(
        "section",
        { class: "panel" },
        h("p", {}, e.message),
        h("a", { class: "btn", href: back[0], onclick: link }, `← ${back[1]}`),
      ),
    );
    return;
  }
  await i18n.load(i18n.lang(), gameIdsFor(data.game));
  const R = await renderer(data.renderer);
  data.seats = data.seats.map((s) => ({ ...s, name: seatName(s), connected: true, replaced: false })); // no presence in replays
  const n = data.frames.length - 1;
  // From the start (the last step would give the result away), or the step in the link
  // (#step=N: a point of the game review).
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  let step = Number.isInteger(asked) && asked > 0 ? Math.min(asked, n) : 0;
  let timer = null;
  const board = h("div", { class: "board" });
  const slider = h("input", {
    type: "range",
    min: 0,
    max: n,
    value: step,
    id: "replay-slider",
    "aria-label": t("replay.step", { i: step, n }),
  });
  const label = h("span", { class: "replay-step", "aria-live": "polite" });
  const eventLine = h("p", { class: "replay-event" });
  const playBtn = h("button", { type: "button", class: "btn", id: "replay-play" });
  function show(i) {
    step = Math.max(0, Math.min(n, i));
    slider.value = String(step);
    label.textContent = t("replay.step", { i: step, n });
    const ev = step > 0 ? data.events[step - 1] : null;
    eventLine.textContent = ev ? eventLines(R, ev, data.seats).join(" · ") || R.eventText(ev, data.seats, t) : "—";
    R.render(board, data.frames[step], {
      t,
      seat: null,
      seats: data.seats,
      acting: [],
      events: data.events.slice(0, step),
      status: step === n ? "finished" : "playing",
      animate: false,
      legal: [],
      act: () => {},
    });
    playBtn.textContent = timer ? `⏸ ${t("replay.pause")}` : `▶ ${t("replay.play")}`;
  }
  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
    } else {
      if (step >= n) step = 0;
      timer = setInterval(() => {
        if (step >= n) {
          clearInterval(timer);
          timer = null;
          show(step);
        } else show(step + 1);
      }, 700);
    }
    show(step);
  }
  playBtn.addEventListener("click", toggle);
  slider.addEventListener("input", () => show(Number(slider.value)));
  const btn = (key, id, fn) => h("button", { type: "button", class: "btn", id, onclick: fn }, t(key));
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    if (e.key === "ArrowLeft") {
      e.preventDefault();
      show(step - 1);
    }
    if (e.key === "ArrowRight") {
      e.preventDefault();
      show(step + 1);
    }
    if (e.key === "Home") show(0);
    if (e.key === "End") show(n);
  };
  document.addEventListener("keydown", keys);
  const review = reviewPanel({
    code,
    seat: null,
    seats: data.seats,
    R,
    onJump: (index) => {
      show(index);
      board.scrollIntoView({ block: "nearest" });
    },
  });
  page.cleanup = () => {
    document.removeEventListener("keydown", keys);
    clearInterval(timer);
    review.stop();
  };
  main.replaceChildren(
    h(
      "div",
      { class: "table-page" },
      h(
        "div",
        { class: "table-head" },
        h("h1", {}, t("replay.title", { code })),
        h("a", { class: "btn btn-small", href: `/api/tables/${code}/record`, download: "" }, t("table.download")),
      ),
      h(
        "div",
        { class: "panel replay-bar" },
        btn("replay.first", "replay-first", () => show(0)),
        btn("replay.prev", "replay-prev", () => show(step - 1)),
        playBtn,
        btn("replay.next", "replay-next", () => show(step + 1)),
        btn("replay.last", "replay-last", () => show(n)),
        slider,
        label,
      ),
      eventLine,
      board,
      review.el,
    ),
  );
  show(step);
  page.rerender = () => {
    review.stop();
    replayPage(code);
  };
}
