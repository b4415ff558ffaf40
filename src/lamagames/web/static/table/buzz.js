// When the phone may vibrate for a new turn or chance (issue 19): a fresh-user trial had 30
// buzzes in 55 s for 14 moves, some 0.4-1.2 s after the person's own tap, when a chance
// directly followed their move. A buzz is to call someone back who is not acting; whoever
// touched the page a moment ago is at the screen. Pure (no DOM): unit-tested in
// tests/js/buzz.test.mjs.

/** No buzz within this many ms after the person's own last input (tap, click, key). */
export const QUIET_MS = 3000;
/** At most one buzz per this many ms. */
export const GAP_MS = 5000;

/** Decides, turn by turn, whether a new turn or chance buzzes. Times in ms. */
export class BuzzGate {
  constructor(quiet = QUIET_MS, gap = GAP_MS) {
    this.quiet = quiet;
    this.gap = gap;
    this.lastInput = -Infinity;
    this.lastBuzz = -Infinity;
  }

  /** The person touched or typed on the page at `now`. */
  input(now) {
    this.lastInput = now;
  }

  /**
   * A turn or chance starts for the person at `now`: whether to buzz (recorded as done when
   * true). Not within `quiet` of their last input, nor within `gap` of the last buzz.
   */
  start(now) {
    if (now - this.lastInput < this.quiet || now - this.lastBuzz < this.gap) return false;
    this.lastBuzz = now;
    return true;
  }
}
