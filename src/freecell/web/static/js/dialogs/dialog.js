// What every dialog of the page shares: a panel opens on its button (`data-open` names the
// dialog), filled first by its module's opener; a click on the backdrop closes it; and a
// question can wait for the dialog's answer. Each dialog has a module of its own beside
// this one.

import { $ } from "../dom.js";
import { toast } from "../toast.js";

const openers = new Map();

/** Show the dialog `id` as a modal, unless it is open already. */
export function showDialog(id) {
  const dialog = $(id);
  if (!dialog.open) {
    dialog.showModal();
  }
  return dialog;
}

/** `fill()` prepares the dialog `id` each time one of its `data-open` buttons opens it. */
export function opensWith(id, fill) {
  openers.set(id, fill);
}

/**
 * Resolves with the dialog's `returnValue` once it closes. The "close" event comes a task
 * later: when the dialog is shown again at once, the earlier closing's event arrives while
 * it is open again, and must not answer for it.
 */
export function closing(dialog) {
  return new Promise((resolve) => {
    const closed = () => {
      if (dialog.open) {
        return;
      }
      dialog.removeEventListener("close", closed);
      resolve(dialog.returnValue);
    };
    dialog.addEventListener("close", closed);
  });
}

/** Wire the `data-open` buttons and the backdrops of every dialog in the page. */
export function setupDialogs() {
  for (const button of document.querySelectorAll("[data-open]")) {
    button.addEventListener("click", async () => {
      const id = button.dataset.open;
      try {
        await openers.get(id)?.();
        showDialog(id);
      } catch (error) {
        toast(error.message);
      }
    });
  }
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) {
        dialog.close("cancel");
      }
    });
  }
}
