// The lobby: create a table (game, seats, options), open tables, join by room code.
import { h } from "./dom.js";
import * as i18n from "./i18n.js";
import {
  CODE_RE,
  api,
  checkedName,
  claim,
  link,
  main,
  myName,
  nameCounter,
  navigate,
  page,
  renderer,
  seatName,
  store,
  toast,
} from "./common.js";
import { learnPanel } from "./table/tutorial.js";

const { t } = i18n;

export async function lobbyPage() {
  document.title = t("app.title");
  const [gameList, tables] = await Promise.all([api("/api/games"), api("/api/tables")]);
  page.games = gameList;
  await i18n.load(
    i18n.lang(),
    gameList.map((g) => g.id),
  );
  const form = createForm(gameList);
  const list = h("ul", { class: "table-list" });
  for (const info of tables) list.append(tableItem(info));
  if (!tables.length) list.append(h("li", { class: "muted" }, t("lobby.none")));
  const codeInput = h("input", {
    id: "room-code",
    name: "code",
    maxlength: 8,
    autocomplete: "off",
    placeholder: "K7QF2M",
    class: "code-input",
  });
  const goForm = h(
    "form",
    {
      class: "go-form",
      onsubmit: (e) => {
        e.preventDefault();
        const c = codeInput.value.trim().toUpperCase();
        if (!c) return;
        if (CODE_RE.test(c)) navigate(`/t/${c}`);
        else {
          toast(t("err.not_found"));
          codeInput.setAttribute("aria-invalid", "true");
          codeInput.focus();
        }
      },
    },
    h("label", { for: "room-code" }, t("lobby.code")),
    codeInput,
    h("button", { type: "submit", class: "btn" }, t("lobby.go")),
  );
  main.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      h(
        "section",
        { class: "panel hero" },
        h("img", { src: "/static/favicon.svg", alt: "", width: 72, height: 72 }),
        h("div", {}, h("h1", {}, t("app.title")), h("p", {}, t("app.tagline"))),
      ),
      learnPanel(gameList),
      h("section", { class: "panel" }, h("h2", {}, t("lobby.create")), form),
      h("section", { class: "panel" }, h("h2", {}, t("lobby.open")), list, goForm),
    ),
  );
  page.rerender = lobbyPage;
}

function tableItem(info) {
  const names = info.seats.map(seatName).join(", ");
  const actions = [h("a", { class: "btn btn-small", href: `/t/${info.code}`, onclick: link }, t("lobby.watch"))];
  if (info.free_seats > 0 && info.status !== "finished") {
    actions.unshift(
      h(
        "button",
        { class: "btn btn-small btn-primary", type: "button", onclick: () => claim(info.code) },
        t("lobby.join"),
      ),
    );
  }
  return h(
    "li",
    { class: "table-item" },
    h(
      "div",
      {},
      h("strong", {}, `${info.game_name} · ${info.code}`),
      h(
        "div",
        { class: "muted" },
        `${t(`status.${info.status}`)} · ${names}`,
        info.free_seats ? ` · ${t("lobby.free", { n: info.free_seats })}` : "",
      ),
    ),
    h("div", { class: "item-actions" }, actions),
  );
}

// A seat's display name: the chosen one, else "Seat N" or the bot kind, in the reader's

function createForm(gameList) {
  let seats = [
    { kind: "human", you: true },
    { kind: "bot", bot_kind: "heuristic" },
    { kind: "bot", bot_kind: "benchmark" },
  ];
  let options = null; // the game's own fields (its renderer's createOptions), if any
  const seatBox = h("ul", { class: "seat-list" });
  const optionBox = h("div", { class: "game-options" });
  const nameInput = h("input", {
    id: "your-name",
    name: "name",
    required: true,
    value: myName(),
    autocomplete: "nickname",
  });
  const gameSelect = h(
    "select",
    { id: "game", name: "game" },
    gameList.map((g) =>
      h("option", { value: g.id }, t(`${g.id}.name`) === `${g.id}.name` ? g.name : t(`${g.id}.name`)),
    ),
  );
  const pace = h(
    "select",
    { id: "bot-pace" },
    ["slow", "normal", "fast"].map((v) =>
      h("option", { value: v, selected: v === (store.get("pace") || "normal") }, t(`lobby.pace.${v}`)),
    ),
  );
  const clock = h(
    "select",
    { id: "clock" },
    [
      ["", t("lobby.off")],
      ["30", t("lobby.seconds", { n: 30 })],
      ["60", t("lobby.seconds", { n: 60 })],
      ["120", t("lobby.seconds", { n: 120 })],
    ].map(([v, l]) => h("option", { value: v }, l)),
  );
  const away = h(
    "select",
    { id: "away" },
    [30, 60, 180, 600].map((n) => h("option", { value: n, selected: n === 60 }, t("lobby.seconds", { n }))),
  );
  const alertness = h(
    "select",
    { id: "alertness" },
    [["", t("lobby.off")], ...[10, 20, 30, 60].map((n) => [String(n), t("lobby.seconds", { n })])].map(([v, l]) =>
      h("option", { value: v }, l),
    ),
  );
  const alertnessField = h(
    "div",
    { class: "field", hidden: true },
    h("label", { for: "alertness" }, t("lobby.alertness")),
    alertness,
    h("small", { class: "muted" }, t("lobby.alertnessHelp")),
  );
  const pub = h("input", { type: "checkbox", id: "public", checked: true });
  const hints = h("input", { type: "checkbox", id: "hints", checked: store.get("hints") !== "off" });
  const hintsField = h("label", { class: "check", hidden: true }, hints, " ", t("lobby.hints"));
  // The host's chat switch (issue 19): off unless the creator turns it on (remembered).
  const chat = h("input", { type: "checkbox", id: "chat", checked: store.get("chat") === "on" });
  const chatField = h("label", { class: "check" }, chat, " ", t("lobby.chat"));
  const current = () => gameList.find((g) => g.id === gameSelect.value) || gameList[0];

  function drawSeats() {
    const game = current();
    const count = seats.length;
    seatBox.replaceChildren(
      ...seats.map((seat, i) => {
        const num = h("span", { class: "seat-num", "aria-hidden": "true" }, String(i + 1));
        const extra = options && options.seatControl ? options.seatControl(i, count, drawSeats) : null;
        if (seat.you)
          return h("li", { class: "seat-row" }, num, h("span", { class: "seat-you" }, t("lobby.you")), extra);
        const kind = h(
          "select",
          {
            "aria-label": t("lobby.seat", { n: i + 1 }),
            onchange: (e) => {
              const v = e.target.value;
              seats[i] = v === "human" ? { kind: "human" } : { kind: "bot", bot_kind: v };
            },
          },
          h("option", { value: "human", selected: seat.kind === "human" }, t("lobby.human")),
          game.bot_kinds.map((k) =>
            h("option", { value: k, selected: seat.bot_kind === k }, `${t("lobby.bot")}: ${t(`bot.${k}`)}`),
          ),
        );
        const remove =
          seats.length > game.min_players
            ? h(
                "button",
                {
                  type: "button",
                  class: "icon-button",
                  "aria-label": t("lobby.removeSeat"),
                  title: t("lobby.removeSeat"),
                  onclick: () => {
                    seats.splice(i, 1);
                    drawSeats();
                  },
                },
                "✕",
              )
            : null;
        return h("li", { class: "seat-row" }, num, kind, extra, remove);
      }),
      seats.length < game.max_players
        ? h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                class: "btn btn-small",
                id: "add-seat",
                onclick: () => {
                  seats.push({
                    kind: "bot",
                    bot_kind: game.bot_kinds.includes("heuristic") ? "heuristic" : game.bot_kinds[0],
                  });
                  drawSeats();
                },
              },
              `+ ${t("lobby.addSeat")}`,
            ),
          )
        : null,
    );
  }

  async function gameChanged() {
    const game = current();
    seats = seats.slice(0, game.max_players);
    while (seats.length < game.min_players) seats.push({ kind: "bot", bot_kind: game.bot_kinds[0] });
    alertnessField.hidden = !game.windows;
    hintsField.hidden = !game.hints;
    options = null;
    optionBox.replaceChildren();
    try {
      const R = await renderer(game.renderer);
      if (gameSelect.value !== game.id) return; // changed again meanwhile
      options = R.createOptions ? R.createOptions(game, t) : null;
      if (options && options.fields) optionBox.replaceChildren(options.fields);
    } catch (err) {
      toast(err.message);
    }
    drawSeats();
  }
  drawSeats();
  gameChanged();
  gameSelect.addEventListener("change", gameChanged);

  return h(
    "form",
    {
      class: "create-form",
      onsubmit: async (e) => {
        e.preventDefault();
        const name = checkedName(nameInput);
        if (!name) return;
        store.set("name", name);
        const body = {
          game: gameSelect.value,
          // Only chosen names are stored: others are shown as "Seat N" / the bot kind in each
          // reader's language.
          seats: seats.map((s) =>
            s.you
              ? { kind: "human", name }
              : s.kind === "human"
                ? { kind: "human" }
                : { kind: "bot", bot_kind: s.bot_kind },
          ),
          away_timeout: Number(away.value),
          public: pub.checked,
        };
        if (options && options.params) body.params = options.params(seats.length);
        if (clock.value) body.turn_clock = Number(clock.value);
        if (current().windows && alertness.value) body.alertness = Number(alertness.value);
        body.bot_pace = pace.value;
        store.set("pace", pace.value);
        body.chat = chat.checked;
        store.set("chat", chat.checked ? "on" : "off");
        if (current().hints) {
          body.hints = hints.checked;
          store.set("hints", hints.checked ? "on" : "off");
        }
        try {
          const res = await api("/api/tables", body);
          store.set(`host.${res.code}`, res.host_token);
          store.set(`seat.${res.code}`, res.seats[0].token);
          store.set(`invites.${res.code}`, JSON.stringify(res.seats.filter((s) => s.invite && s.seat !== 0)));
          await api(`/api/tables/${res.code}/join`, { token: res.seats[0].token, name });
          if (!res.seats.slice(1).some((s) => s.kind === "human"))
            await api(`/api/tables/${res.code}/start`, { host_token: res.host_token });
          navigate(`/t/${res.code}`);
        } catch (err) {
          toast(err.message);
        }
      },
    },
    h(
      "div",
      { class: "field" },
      h("label", { for: "your-name" }, t("lobby.yourName")),
      nameInput,
      nameCounter(nameInput),
    ),
    h("div", { class: "field" }, h("label", { for: "game" }, t("lobby.game")), gameSelect),
    h("fieldset", { class: "field" }, h("legend", {}, t("lobby.seats")), seatBox),
    optionBox,
    h(
      "div",
      { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "clock" }, t("lobby.turnClock")), clock),
      h("div", { class: "field" }, h("label", { for: "away" }, t("lobby.away")), away),
    ),
    h("div", { class: "field" }, h("label", { for: "bot-pace" }, t("lobby.pace")), pace),
    alertnessField,
    h("label", { class: "check" }, pub, " ", t("lobby.public")),
    hintsField,
    chatField,
    h("button", { type: "submit", class: "btn btn-primary btn-big", id: "create" }, t("lobby.createButton")),
  );
}
