"""Every wait of a scripted person and the "Preparing" notice's starts, on a cold install
(issue 19).

Usage: python benchmarks/cold_waits.py SEATS SEED ANSWER ROUNDS

Runs ``lama play dice --seats SEATS --seed SEED --delay 0`` on a pty (pexpect) with a new,
empty ``NUMBA_CACHE_DIR``; the person answers every prompt with ``ANSWER`` (``1``: roll, the
first choice elsewhere; ``2`` at a turn: quit) and ``q`` once round ``ROUNDS + 1`` starts.
Prints, for each answer, the wall seconds to the next prompt (the bots' moves between), then
how many times the notice started (Rich's status hides the cursor when it starts and shows
it when it stops), how long it stayed on each time, and the longest gaps between its
frames (a frozen spinner: over 0.1 s). ``PYTHONPATH=/other/src`` runs other code.

Measured 2026-12-03 16:05-16:27 (shared two-core machine, load 1-4), before -> after the
fallback's background compile and the held notice:

* ``human,exact``, answer 2 (quit), seeds 1, 2, 3: the quit of round 1 to the next prompt
  (round 2's first bot move: the ``search`` fallback) 13.7, 13.1, 13.0 s -> 3.8, 2.3, 2.1 s.
* ``human,search,search,search,search,search``, seed 1, answer 1: the notice started 15
  times in the first 10 s (on 0.0-0.7 s each) -> 3 times (on 5.6, 2.3 and 0.7 s: the three
  waits of more than a second).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time

import pexpect

PROMPT = r"q leave\) "


def main() -> None:
    """Run one game as described in the module docstring and print its figures."""
    seats, seed, answer, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    cache = tempfile.mkdtemp(prefix="numba-cold-")
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    env.update(TERM="xterm-256color", NUMBA_CACHE_DIR=cache)
    chunks: list[tuple[float, str]] = []

    class Log:
        def write(self, text: str) -> None:
            chunks.append((time.perf_counter(), text))

        def flush(self) -> None:
            """Nothing buffered."""

    folder = tempfile.mkdtemp()
    t0 = time.perf_counter()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "lamagames.cli", "play", "dice", "--seats", seats, "--seed", seed,
         "--delay", "0", "--record", folder + "/game.lamarec.json"],
        dimensions=(40, 100), env=env, encoding="utf-8", timeout=600,
    )  # fmt: skip
    child.logfile_read = Log()
    answers: list[tuple[float, str, int, float]] = []
    asked: tuple[float, str, int] | None = None
    try:
        while child.expect([PROMPT, pexpect.EOF]) == 0:
            now = time.perf_counter()
            if asked is not None:
                answers.append((*asked, now))
            found = re.findall(r"Round (\d+)", "".join(text for _, text in chunks))
            number = int(found[-1]) if found else 0
            key = "q" if number > rounds else answer
            child.send(key + "\r")
            asked = (time.perf_counter(), key, number)
            if key == "q":
                child.expect(pexpect.EOF)
                break
    finally:
        child.close(force=True)
    if asked is not None:
        answers.append((*asked, time.perf_counter()))
    for at, key, number, then in answers:
        wait = then - at
        print(f"answer {key} at {at - t0:6.2f} s (round {number}): next prompt after {wait:6.2f} s")
    starts: list[float] = []
    stops: list[float] = []
    gaps: list[tuple[float, float]] = []
    last: float | None = None
    for t, text in chunks:
        if "\x1b[?25l" in text:
            starts.append(t - t0)
            last = t
        elif last is not None and ("Preparing" in text or "\x1b[?25h" in text):
            gaps.append((t - last, last - t0))
            last = t
        if "\x1b[?25h" in text and last is not None:
            stops.append(t - t0)
            last = None
    print(f"notice starts: {len(starts)}, stops: {len(stops)}")
    print("on for (s):", [round(b - a, 1) for a, b in zip(starts, stops, strict=False)])
    gaps.sort(reverse=True)
    longest = [(round(g, 2), round(a, 1)) for g, a in gaps[:4]]
    print("longest gaps between frames (s, at s):", longest)


if __name__ == "__main__":
    main()
