// The phone's menu: on a narrow or low screen the panels and the less used actions
// (Restart, Solution, the move calculator, Share) sit behind one button, so the table
// gets the room. Each menu entry for an action presses the toolbar's own button.

import { $ } from "./dom.js";
import { store } from "./store.js";

export function setupMenu() {
  const bar = document.querySelector(".bar");
  const button = $("menu-button");

  const setOpen = (open) => {
    bar.classList.toggle("open", open);
    button.setAttribute("aria-expanded", String(open));
  };

  button.addEventListener("click", (event) => {
    event.stopPropagation();
    setOpen(!bar.classList.contains("open"));
    if (bar.classList.contains("open")) {
      $("menu").querySelector("button:not([hidden])")?.focus();
    }
  });
  for (const entry of document.querySelectorAll("#menu [data-proxy]")) {
    entry.addEventListener("click", () => $(entry.dataset.proxy).click());
  }
  // Any choice, a click elsewhere or Escape closes the menu.
  $("menu").addEventListener("click", () => setOpen(false));
  document.addEventListener("click", (event) => {
    if (!bar.contains(event.target)) {
      setOpen(false);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("open")) {
      setOpen(false);
      button.focus();
    }
  });

  // The toolbar is drawn before the menu hears of a change.
  store.subscribe((change) => {
    if (store.game && (change.kind === "game" || change.kind === "options")) {
      update();
    }
  });
}

/** Show in the menu only the actions the toolbar offers now. */
function update() {
  for (const entry of document.querySelectorAll("#menu [data-proxy]")) {
    const original = $(entry.dataset.proxy);
    entry.hidden = original.hidden;
    entry.disabled = original.disabled;
    const pressed = original.getAttribute("aria-pressed");
    if (pressed === null) {
      entry.removeAttribute("aria-pressed");
    } else {
      entry.setAttribute("aria-pressed", pressed);
    }
  }
}
