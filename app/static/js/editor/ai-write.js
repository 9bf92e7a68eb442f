// "Write with AI" in the editor (issue 16): "Suggest a summary" under the summary and "Suggest bullets"
// on each job ask POST /api/resumes/<id>/generate; the text comes back in a review box the person can
// edit, then Apply puts it into the field (bullets are added to the job's highlights) and fires the
// field's input event, so the autosave saves it as if it were typed. Nothing changes by itself.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { explain, jobDescription, resumePath, saved, say } from "./ai-common.js";

const form = document.getElementById("editor-form");
const template = document.getElementById("tpl-ai-review");

// The field a kind of text goes into: the summary, or the highlights of the job the button is in.
function targetOf(button) {
  if (button.dataset.ai === "summary") {
    return { field: form.querySelector('[data-field="contentJson.personalInfo.summary"]'), body: {} };
  }
  const entry = button.closest('[data-list="workExperience"] > li.entry');
  return entry && { field: entry.querySelector('[data-name="highlights"]'),
                    body: { entryIndex: Number(entry.dataset.index) } };
}

function noteOf(row) {
  let note = row.querySelector(".ai-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "ai-note";
    note.setAttribute("role", "status");
    row.append(note);
  }
  return note;
}

function review(row, kind, text, field) {
  row.querySelector(".ai-review")?.remove();
  const box = template.content.firstElementChild.cloneNode(true);
  const area = box.querySelector('[data-review="text"]');
  area.id = `ai-review-${kind}-${Math.random().toString(36).slice(2)}`;
  box.querySelector("[data-review-label]").htmlFor = area.id;
  area.value = text;
  area.rows = Math.min(10, Math.max(3, text.split("\n").length + 1));
  box.dataset.kind = kind;
  box.addEventListener("click", (event) => {
    const action = event.target.closest("button[data-review]")?.dataset.review;
    if (!action) return;
    const trigger = row.querySelector("button[data-ai]");
    if (action === "apply") {
      const value = area.value.trim();
      if (kind === "bullets") field.value = [field.value.trim(), value].filter(Boolean).join("\n");
      else field.value = value;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      say(noteOf(row), t("Applied: it is saved like your typing."));
    }
    box.remove();
    (action === "apply" ? field : trigger).focus();
  });
  row.append(box);
  area.focus();
}

async function write(button) {
  const row = button.closest(".ai-row");
  const note = noteOf(row);
  const job = await jobDescription();
  button.disabled = true;
  say(note, t("Writing…"));
  try {
    await saved(); // the entry the button is in, saved at the index it shows (see saved())
    const target = targetOf(button);
    if (!target?.field) { say(note); return; }
    const data = await request("POST", `${resumePath}/generate`,
                               { kind: button.dataset.ai, ...target.body, ...(job ? { jobDescription: job } : {}) });
    say(note);
    review(row, data.kind, data.kind === "bullets" ? (data.bullets || []).join("\n") : data.text, target.field);
  } catch (error) {
    explain(note, error);
  } finally {
    button.disabled = false;
  }
}

if (form && template) {
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ai]");
    if (button) write(button);
  });
}
