// The page's few helpers for the DOM, defined once: an element by its id, text made safe
// for markup, and a count in words.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** `text` with the characters that mean something in HTML written as references. */
export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "1 move", "3 moves"; `many` for a word whose plural is not the word and an "s". */
export function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}
