// The lesson's banner above the table: what to do now, how the last try went, and the
// way on to the next lesson once this one is done.

import { onRefused } from "./actions.js";
import { lessonsList, startLesson } from "./dialogs/lessons.js";
import { $ } from "./dom.js";
import { store } from "./store.js";

function show(game) {
  const panel = $("lesson-panel");
  const lesson = game.lesson;
  panel.hidden = !lesson;
  if (!lesson) {
    return;
  }
  const steps = lesson.steps > 1 ? ` (step ${lesson.step} of ${lesson.steps})` : "";
  $("lesson-title").textContent = `Lesson: ${lesson.title ?? ""}${steps}`;
  $("lesson-text").textContent = lesson.text;
  panel.classList.toggle("done", Boolean(lesson.done));
  $("lesson-next").hidden = true;
  if (lesson.done) {
    lessonsList().then((list) => {
      const index = list.findIndex((l) => l.id === lesson.id);
      const next = list[index + 1];
      $("lesson-next").hidden = !next;
      $("lesson-next").dataset.lesson = next?.id ?? "";
    }).catch(() => {});
    $("lesson-feedback").textContent = "Well done: lesson complete!";
    $("lesson-feedback").className = "feedback good";
  } else if ($("lesson-feedback").className.includes("good")) {
    $("lesson-feedback").textContent = "";
    $("lesson-feedback").className = "feedback";
  }
}

export function setupLesson() {
  store.subscribe((change) => {
    if (change.kind === "game" && change.how !== "refreshed") {
      show(store.game);
    }
  });
  // In a lesson a refused move is explained here, not in a toast.
  onRefused((message) => {
    if (store.game?.lesson) {
      $("lesson-feedback").textContent = message;
      $("lesson-feedback").className = "feedback bad";
    }
  });
  $("lesson-next").addEventListener("click", () => {
    if ($("lesson-next").dataset.lesson) {
      startLesson($("lesson-next").dataset.lesson);
    }
  });
  $("lesson-restart").addEventListener("click", () => {
    const lesson = store.game?.lesson;
    if (lesson) {
      startLesson(lesson.id);
    }
  });
}
