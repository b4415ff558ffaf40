// Lama Games browser client: routing, the top bar and start-up. The pages are modules:
// lobby.js, table/page.js (with table/connection.js, seats.js, actions.js, log.js) and
// replay.js. Plain ES modules, no build step, no external resources.
import * as i18n from "./i18n.js";
import { api, link, main, notFoundPage, page, store, toast } from "./common.js";
import { h } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { replayPage } from "./replay.js";
import { chime, soundOn, speakerIcon } from "./sound.js";
import { refreshPill } from "./table/connection.js";
import { tablePage } from "./table/page.js";

const { t } = i18n;

function updateChrome() {
  document.getElementById("brand-name").textContent = t("app.title");
  const sound = document.getElementById("sound");
  sound.replaceChildren(speakerIcon(soundOn()));
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.title = soundOn() ? t("sound.on") : t("sound.off");
  sound.setAttribute("aria-label", sound.title);
  document.getElementById("lang").value = i18n.lang();
  document.getElementById("lang-label").textContent = t("chrome.language");
  document.getElementById("skip").textContent = t("chrome.skip");
  refreshPill(); // re-translate the connection pill
}

async function route() {
  page.cleanup();
  page.cleanup = () => {};
  const path = location.pathname;
  try {
    let m;
    if ((m = path.match(/^\/t\/([A-Za-z0-9]+)$/))) {
      if (!page.games.length) page.games = await api("/api/games");
      tablePage(m[1].toUpperCase());
    } else if ((m = path.match(/^\/replay\/([A-Za-z0-9]+)$/))) await replayPage(m[1].toUpperCase());
    else if (path.startsWith("/t/") || path.startsWith("/replay/")) notFoundPage();
    else await lobbyPage();
  } catch (e) {
    toast(e.message);
  }
  main.focus({ preventScroll: true });
}
page.route = route;

async function boot() {
  // The language picker lists every language by its own name; the choice is remembered.
  document
    .getElementById("lang")
    .replaceChildren(...i18n.LANGS.map((code) => h("option", { value: code, lang: code }, i18n.LANG_NAMES[code])));
  await i18n.load(i18n.preferred(), ["dice"]);
  updateChrome();
  document.getElementById("brand").addEventListener("click", link);
  document.getElementById("lang").addEventListener("change", async (e) => {
    store.set("lang", e.target.value);
    await i18n.load(
      e.target.value,
      page.games.map((g) => g.id),
    );
    updateChrome();
    page.rerender();
  });
  document.getElementById("sound").addEventListener("click", () => {
    store.set("sound", soundOn() ? "off" : "on");
    updateChrome();
    if (soundOn()) chime();
  });
  window.addEventListener("popstate", route);
  await route();
}

boot();
