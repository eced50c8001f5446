// What the page reads from the rules to choose cards: which runs may be picked up
// together, whether a tap goes home first, and whether the end is trivially won. The
// server still checks every move.

import { isRed, rankValue, suitOf } from "./cards.js";

function building(rules) {
  if (rules.building) {
    return rules.building;
  }
  return ["bakers-game", "eight-off"].includes(rules.name) ? "same-suit" : "alternate-colours";
}

/** Whether a single tap first tries the foundation (the app preset, 001). */
export function tapsToFoundation(rules) {
  return rules.tap_to_foundation ?? rules.name === "app";
}

/** Whether `cards` (deepest first) form a run that may be picked up together. */
export function ordered(cards, rules) {
  const sameSuit = building(rules) === "same-suit";
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

/** Whether the server would play the finish (its `can_finish`, or every column in order). */
export function triviallyWon(state) {
  if (state.can_finish !== undefined) {
    return state.can_finish;
  }
  if (state.outcome !== "playing") {
    return false;
  }
  return state.columns.every((column) => column.every((card, i) => i === 0 || rankValue(column[i - 1]) >= rankValue(card)));
}
