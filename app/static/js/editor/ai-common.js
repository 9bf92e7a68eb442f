// What the editor's AI parts share (editor/ai-write.js, editor/ai-panel.js): the job description typed under Target job (saved or not), and how an AI error is
// said: a FREE plan gets the way to upgrade, a server without a model and a failing model say so.
import { t } from "../shared/i18n.js";

export const resumePath = `/api/resumes/${encodeURIComponent(document.getElementById("editor")?.dataset.resumeId || "")}`;

// Resolves once editor/page.js has filled the form with the saved resume (it drops aria-busy then): a
// button pressed while the page still loads must read the saved job, not the empty field.
function formFilled() {
  const form = document.getElementById("editor-form");
  if (!form || form.getAttribute("aria-busy") !== "true") return Promise.resolve();
  return new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (form.getAttribute("aria-busy") === "true") return;
      watch.disconnect();
      resolve();
    });
    watch.observe(form, { attributes: true, attributeFilter: ["aria-busy"] });
  });
}

// The job under Target job as typed now (what is sent need not wait for the autosave).
export async function jobDescription() {
  await formFilled();
  return document.querySelector('[data-field="targetJobDescription"]')?.value.trim() || "";
}

// Resolves once the editor has saved what was typed (true) or tried to (false): a job's bullets are
// written from the saved resume's entry at the index the page shows, so a job added or moved a moment
// ago must be saved first. editor/page.js answers the "editor:settle" event; without an editor, at once.
export async function saved() {
  await formFilled();
  let answer = Promise.resolve(true);
  const event = new CustomEvent("editor:settle", { detail: (settling) => { answer = settling; } });
  document.dispatchEvent(event);
  return answer;
}

// Say `error` (an ApiError) in `note`, an element with role="status".
export function explain(note, error) {
  note.dataset.kind = "error";
  note.dataset.code = error.code;
  if (error.code === "PLAN_UPGRADE_REQUIRED") {
    const link = document.createElement("a");
    link.href = "/billing";
    link.textContent = t("Upgrade");
    note.replaceChildren(t("AI features come with the Premium plan."), " ", link);
  } else if (error.code === "AI_NOT_CONFIGURED") {
    note.textContent = t("AI writing is not set up on this server.");
  } else if (error.code === "AI_PROVIDER_FAILED") {
    note.textContent = t("The AI service did not answer. Try again later.");
  } else {
    note.textContent = error.message;
  }
}

export function say(note, message = "") {
  delete note.dataset.kind;
  delete note.dataset.code;
  note.textContent = message;
}
