// Seats before and around the game: names for display, the waiting room (invite links for
// the host, "join as" for an invited player) and the spectator's Join button.
import { h } from "../dom.js";
import * as i18n from "../i18n.js";
import { api, checkedName, claim, myName, nameCounter, seatName, store, toast } from "../common.js";

const { t } = i18n;

/** The state message with every seat's display name filled in (the reader's language). */
export function withNames(msg) {
  return { ...msg, seats: msg.seats.map((s) => ({ ...s, name: seatName(s) })) };
}

// A spectator of a public table with a free human seat may take it (as in the lobby).
export function joinButton(view, m) {
  const free = m.seats.some((s) => s.kind === "human" && !s.joined);
  if (m.seat !== null || !free || m.status === "finished" || !(view.info && view.info.public)) return null;
  return h(
    "button",
    { type: "button", class: "btn btn-primary", id: "join-table", onclick: () => claim(m.code) },
    t("lobby.join"),
  );
}

/**
 * Before the start: the host's invite links, the name form of an invited player (pre-filled
 * with the name they chose before, never with a placeholder such as "Seat 2") and Start.
 * `raw` is the state message as received (names as chosen, possibly empty).
 */
export function waitingPanel(view, m, raw) {
  const invites = store.json(`invites.${m.code}`) || [];
  const isHost = Boolean(view.host);
  const rows = invites.map((inv) => {
    const url = `${location.origin}${inv.invite}`;
    const seat = m.seats[inv.seat];
    if (seat && seat.joined) {
      // Taken (by the invitee, or claimed from the lobby with its own new token).
      return h(
        "li",
        { class: "invite", dataset: { key: `invite-${inv.seat}` } },
        h("span", { class: "dot dot-on" }),
        h("span", { class: "invite-name" }, t("table.taken", { name: seatName(seat) })),
      );
    }
    return h(
      "li",
      { class: "invite", dataset: { key: `invite-${inv.seat}` } },
      h("span", { class: "dot" }),
      h("span", { class: "invite-name" }, seat ? seat.name : inv.name),
      h("input", {
        class: "invite-url",
        readonly: true,
        value: url,
        "aria-label": seat ? seat.name : inv.name,
        onfocus: (e) => e.target.select(),
      }),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-small",
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(url);
              e.target.textContent = t("table.copied");
            } catch {
              e.target.previousSibling.select();
            }
          },
        },
        t("table.copy"),
      ),
    );
  });
  let nameForm = null;
  if (view.askName && m.seat !== null) {
    const chosen = raw.seats[m.seat] ? raw.seats[m.seat].name : "";
    const input = h("input", {
      id: "join-name",
      value: myName() || chosen,
      placeholder: t("table.name"),
      required: true,
      autocomplete: "nickname",
    });
    nameForm = h(
      "form",
      {
        class: "go-form",
        id: "join-form",
        onsubmit: async (e) => {
          e.preventDefault();
          const name = checkedName(input);
          if (!name) return;
          store.set("name", name);
          try {
            await api(`/api/tables/${m.code}/join`, { token: view.token, name });
            view.askName = false;
            view.draw();
          } catch (err) {
            toast(err.message);
          }
        },
      },
      h("label", { for: "join-name" }, t("table.joinAs")),
      input,
      nameCounter(input),
      h("button", { class: "btn btn-primary", type: "submit" }, "OK"),
    );
  }
  return h(
    "section",
    { class: "panel waiting", id: "waiting" },
    nameForm,
    isHost && rows.length ? [h("h2", {}, t("table.invites")), h("ul", { class: "invites" }, rows)] : null,
    isHost
      ? h(
          "button",
          {
            type: "button",
            class: "btn btn-primary btn-big",
            id: "start",
            onclick: async () => {
              try {
                await api(`/api/tables/${m.code}/start`, { host_token: view.host });
              } catch (err) {
                toast(err.message);
              }
            },
          },
          t("table.start"),
        )
      : // A watcher learns the table waits for its host (a table of bots made through the
        // HTTP API looked stuck, issue 19): the head's status is hidden on a phone.
        h(
          "p",
          { id: "waiting-note", role: "status" },
          m.seat === null ? t("table.spectatingWaiting") : t("table.waitHost"),
        ),
    isHost ? null : joinButton(view, m),
  );
}
