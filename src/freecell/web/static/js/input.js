// Input: taps and clicks, drag and drop with Pointer Events (mouse, pen and touch alike),
// and the keyboard (standard notation, and keys for undo, redo, hint and new game).

const DRAG_THRESHOLD = 6;

/**
 * Which place a dragged card, with this rect, is dropped on (its letter as a target): the
 * one under the pointer, else the one it overlaps most.
 */
function dropPlace(root, rect, pointer) {
  const under = document.elementFromPoint(pointer.x, pointer.y)?.closest("[data-place]");
  if (under && root.contains(under)) {
    return under.dataset.place;
  }
  let best = null;
  let bestArea = 0;
  for (const el of root.querySelectorAll(".slot, .column, .heading")) {
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, rect.right) - Math.max(r.left, rect.left);
    const h = Math.min(r.bottom, rect.bottom) - Math.max(r.top, rect.top);
    if (w > 0 && h > 0 && w * h > bestArea) {
      bestArea = w * h;
      best = el.dataset.place;
    }
  }
  return best;
}

/**
 * Wire pointer input on `root`. The controller answers:
 * tap(element), pickUp(cardElement) -> {els} | null, drop(place, ghostRects) -> Promise<bool>,
 * cancelDrag().
 */
export function wirePointer(root, controller) {
  let press = null;
  let drag = null;

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || press !== null) {
      return;
    }
    const card = event.target.closest(".card[data-source]");
    press = { x: event.clientX, y: event.clientY, id: event.pointerId, card, target: event.target };
    if (card) {
      // Keep the browser from scrolling or selecting text while a card is held.
      event.preventDefault();
    }
  });

  root.addEventListener("pointermove", (event) => {
    if (press === null || event.pointerId !== press.id) {
      return;
    }
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (drag === null) {
      if (!press.card || Math.hypot(dx, dy) < DRAG_THRESHOLD) {
        return;
      }
      const lifted = controller.pickUp(press.card);
      if (!lifted) {
        press = null;
        return;
      }
      drag = startGhost(lifted.els);
      try {
        root.setPointerCapture(event.pointerId);
      } catch {
        // A pointer the browser no longer tracks: the drag still follows pointermove.
      }
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  });

  const release = async (event, cancelled) => {
    if (press === null || event.pointerId !== press.id) {
      return;
    }
    const started = press;
    press = null;
    if (drag === null) {
      if (!cancelled) {
        controller.tap(started.target);
      }
      return;
    }
    const current = drag;
    drag = null;
    const first = current.ghost.firstElementChild.getBoundingClientRect();
    const place = cancelled ? null : dropPlace(root, first, { x: event.clientX, y: event.clientY });
    const rects = new Map();
    for (const clone of current.ghost.children) {
      rects.set(clone.dataset.key, { rect: clone.getBoundingClientRect(), source: "drag" });
    }
    const moved = place !== null && (await controller.drop(place, rects));
    if (!moved) {
      await flyBack(current);
      controller.cancelDrag();
    }
    current.ghost.remove();
    current.els.forEach((el) => el.classList.remove("lifted"));
  };
  root.addEventListener("pointerup", (event) => release(event, false));
  root.addEventListener("pointercancel", (event) => release(event, true));
}

function startGhost(els) {
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  const origin = els[0].getBoundingClientRect();
  ghost.style.left = `${origin.left}px`;
  ghost.style.top = `${origin.top}px`;
  for (const el of els) {
    const r = el.getBoundingClientRect();
    const clone = el.cloneNode(true);
    clone.removeAttribute("role");
    clone.removeAttribute("aria-label");
    clone.classList.remove("selected");
    clone.style.left = `${r.left - origin.left}px`;
    clone.style.top = `${r.top - origin.top}px`;
    clone.style.width = `${r.width}px`;
    clone.style.height = `${r.height}px`;
    ghost.append(clone);
    el.classList.add("lifted");
  }
  document.body.append(ghost);
  return { ghost, els };
}

function flyBack(drag) {
  const animation = drag.ghost.animate(
    [{ transform: drag.ghost.style.transform || "none" }, { transform: "translate(0, 0)" }],
    { duration: 200, easing: "ease-out", fill: "forwards" },
  );
  return animation.finished.catch(() => {});
}

/**
 * Wire the keyboard. `keys` answers: typed(buffer) -> "sent" | "wait" | "bad",
 * submit(buffer), undo(), redo(), hint(), newGame(), stepForward(), stepBack() (the solution
 * viewer's "." and ","), escape(), activate(element), show(buffer), and widen(step) -> bool
 * (the arrow keys take one card more or fewer of a run into the selection).
 */
export function wireKeyboard(keys) {
  let buffer = "";
  let timer = null;
  let waiting = false;

  const reset = () => {
    buffer = "";
    waiting = false;
    clearTimeout(timer);
    keys.show(buffer);
  };
  const submit = () => {
    const text = buffer;
    reset();
    keys.submit(text);
  };

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target.closest?.("input, select, textarea, dialog") || document.querySelector("dialog[open]")) {
      return;
    }
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key;
    if (ctrl && key.toLowerCase() === "z") {
      event.preventDefault();
      (event.shiftKey ? keys.redo : keys.undo)();
      return;
    }
    if (ctrl && key.toLowerCase() === "y") {
      event.preventDefault();
      keys.redo();
      return;
    }
    if (ctrl || event.altKey) {
      return;
    }
    if (key === "Escape") {
      reset();
      keys.escape();
      return;
    }
    if (key === "Backspace" && buffer) {
      event.preventDefault();
      buffer = buffer.slice(0, -1);
      keys.show(buffer);
      return;
    }
    if ((key === "ArrowUp" || key === "ArrowDown") && !buffer && keys.widen(key === "ArrowUp" ? 1 : -1)) {
      event.preventDefault();
      return;
    }
    if (key === "Enter" || key === " ") {
      if (buffer) {
        event.preventDefault();
        submit();
      } else if (target.closest?.(".card, .slot, .heading")) {
        event.preventDefault();
        keys.activate(target.closest(".card, .slot, .heading"));
      }
      return;
    }
    if (key.length !== 1) {
      return;
    }
    const lower = key.toLowerCase();
    const command = {
      u: keys.undo, r: keys.redo, "?": keys.hint, n: keys.newGame, ".": keys.stepForward, ",": keys.stepBack,
    }[lower];
    if (command && (buffer === "" || waiting)) {
      event.preventDefault();
      if (waiting) {
        clearTimeout(timer);
        submit();
      }
      command();
      return;
    }
    // "s" only names a suit, after the "h" of a take-back ("hs1").
    if (!/^[0-9a-pv]$/.test(lower) && !(lower === "s" && buffer === "h")) {
      return;
    }
    event.preventDefault();
    clearTimeout(timer);
    // A move waiting only for an optional "v" count is finished by any other key.
    const continues = lower === "v" || (buffer.includes("v") && /^[0-9a-f]$/.test(lower));
    if (waiting && !continues) {
      submit();
    }
    waiting = false;
    buffer += lower;
    const answer = keys.typed(buffer);
    if (answer === "sent" || answer === "bad") {
      reset();
    } else {
      keys.show(buffer);
      if (answer === "wait") {
        waiting = true;
        timer = setTimeout(submit, 900);
      }
    }
  });
}
