// The Lessons panel: the guided lessons, each started on its prepared position.

import { accept } from "../actions.js";
import { api } from "../api.js";
import { $, escapeHtml } from "../dom.js";
import { toast } from "../toast.js";
import { opensWith } from "./dialog.js";

let lessons = null;

/** The lessons as GET /api/lessons lists them, asked for once. */
export async function lessonsList() {
  lessons ??= await api.lessons();
  return lessons;
}

/** Start the lesson `id` (from the panel, the banner's "Next lesson" or "Try again"). */
export async function startLesson(id) {
  try {
    const game = await api.startLesson(id);
    $("lessons-dialog").close();
    $("lesson-feedback").textContent = "";
    accept(game);
  } catch (error) {
    toast(error.message);
  }
}

async function fill() {
  const list = await lessonsList();
  $("lessons-list").innerHTML = list.map((lesson) =>
    `<li><button type="button" class="lesson-start" data-lesson="${escapeHtml(lesson.id)}">`
    + `<strong>${escapeHtml(lesson.title)}</strong><span>${escapeHtml(lesson.summary)}</span></button></li>`).join("");
}

export function setupLessons() {
  opensWith("lessons-dialog", fill);
  $("lessons-list").addEventListener("click", (event) => {
    const button = event.target.closest("[data-lesson]");
    if (button) {
      startLesson(button.dataset.lesson);
    }
  });
}
