// Which cards the page lets the player pick up together: an ordered run, built as the
// server's `rules.building` says. The server still checks every move.

import { isRed, rankValue, suitOf } from "./cards.js";

/** Whether `cards` (deepest first) form a run that may be picked up together under `rules`. */
export function ordered(cards, rules) {
  const sameSuit = rules.building === "same-suit";
  for (let i = 1; i < cards.length; i += 1) {
    const upper = cards[i - 1];
    const lower = cards[i];
    const fits = rankValue(upper) === rankValue(lower) + 1
      && (sameSuit ? suitOf(upper) === suitOf(lower) : isRed(upper) !== isRed(lower));
    if (!fits) {
      return false;
    }
  }
  return true;
}
