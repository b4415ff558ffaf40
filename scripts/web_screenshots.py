"""Screenshots of a Lama Express table in the browser, for looking at the UI.

Builds a mid-game position (four seats, bots play every seat with the engine until seat 0
has a chance in a window), stores it as a table, serves the app with uvicorn on 127.0.0.1
and photographs the table with Debian's chromium through Playwright: desktop and phone
width, English and German. Bots wait a minute before acting and the alertness timer runs
45 seconds, so the position holds still.

Usage (from the repository root)::

    PYTHONPATH=src python scripts/web_screenshots.py [--out DIR] [--seed N]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import uvicorn

from lamagames.bots import make_bot
from lamagames.core import make, make_rng
from lamagames.core.game import State
from lamagames.express import ExpressState
from lamagames.web import create_app
from lamagames.web.live import Settings
from lamagames.web.store import ActionData, Store

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SEATS = [
    ("human", "Ada", None),
    ("bot", "Bruno", "heuristic"),
    ("bot", "Carla", "benchmark"),
    ("bot", "Dido", "heuristic"),
]


def interesting(state: State, seat: int) -> bool:
    """A window where ``seat`` has a free action, with llamas about the board."""
    if state.is_chance_node() or state.is_terminal() or seat not in state.acting_players():
        return False
    view = state.observation(seat)
    riding = sum(1 for tr in view["trains"] for car in tr["cars"] if car["llama"])
    walking = sum(len(f["llamas"]) for f in view["footpaths"])
    free = [a for a in view["legal_actions"] if a not in ("pass", "move A", "move B")]
    return bool(free) and riding >= 4 and walking >= 1 and sum(view["houses"]) >= 1


def build_table(db: Path, seed: int) -> tuple[str, str]:
    """Store a table at an interesting position; return its code and seat 0's token."""
    store = Store(f"sqlite:///{db}")
    game = make("express", num_players=len(SEATS))
    data = store.create_table(
        game="express",
        params={k: v for k, v in game.params.items() if k != "num_players"},
        seed=seed,
        seats=SEATS,
        public=True,
        turn_clock=None,
        away_timeout=600,
        alertness=45,
    )
    bots = [make_bot("heuristic", game, i, seed + i) for i in range(len(SEATS))]
    state = game.new_initial_state()
    assert isinstance(state, ExpressState)
    index = 0
    while not interesting(state, 0) or state.rolls() < 20:
        if state.is_terminal():
            raise SystemExit("the game ended before an interesting position; try another seed")
        if state.is_chance_node():
            player, action = None, state.sample_chance_outcome(make_rng(seed, "chance", index))
        else:
            player = state.acting_players()[0]
            action = bots[player].step(state)
        notation = state.action_to_string(action, player)
        state.apply_action(action, player)
        by = "chance" if player is None else ("human" if player == 0 else "bot")
        store.append_action(
            data.id, ActionData(index, -1 if player is None else player, notation, by)
        )
        index += 1
    store.set_status(data.id, "playing")
    store.join_seat(data.id, 0, None)
    store.close()
    token = data.seats[0].token
    assert token is not None
    return data.code, token


def main() -> None:
    """Parse arguments, build the table, serve it and take the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lama-shots")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp()) / "shots.sqlite3"
    code, token = build_table(db, args.seed)
    app = create_app(f"sqlite:///{db}", settings=Settings(bot_delay=60))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{args.port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            sizes = (("en", 1280, 1000), ("de", 1280, 1000), ("de", 390, 844), ("en", 390, 844))
            for lang, width, height in sizes:
                locale = "de-DE" if lang == "de" else "en-GB"
                page = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
                page.add_init_script(
                    f"localStorage.setItem('lama.name', 'Ada'); "
                    f"localStorage.setItem('lama.lang', '{lang}');"
                )
                page.goto(f"{url}/t/{code}#seat={token}")
                page.wait_for_selector(".xp-board")
                page.wait_for_timeout(800)
                name = f"express-{lang}-{width}"
                page.screenshot(path=str(args.out / f"{name}.png"))
                page.screenshot(path=str(args.out / f"{name}-full.png"), full_page=True)
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 1000}, locale="en-GB")
            page.goto(url)
            page.select_option("#game", "express")
            page.wait_for_selector(".xp-options")
            page.screenshot(path=str(args.out / "express-lobby.png"), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    print(f"screenshots in {args.out} (table {code})")


if __name__ == "__main__":
    main()
