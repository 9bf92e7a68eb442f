// The resume editor: fills the form from GET /api/resumes/<id>, keeps the resume object in step
// with every input (data-field is the path of the value in the resume) and hands changes to the
// autosave (editor/save.js). After each save the scores are shown again and "resume:saved" is
// dispatched (by the saver) for the preview, export and share panel. Restoring an earlier version
// (editor/versions.js) saves what was typed first, then fills the form again from the restored resume. A save
// refused because the resume was saved elsewhere meanwhile opens the merge dialog (editor/conflict.js).
// That dialog, the template picker and the import report are loaded when needed (editor/on-demand.js); the
// report's one-click fixes change the form through edit().
// Every change is a step of the undo history (editor/undo.js), which shows a step again through fill().
// The toolbar (save state, undo, redo, "Jump to preview") stays in view: editor/bar.js. Whether the resume
// was saved elsewhere since is asked when the tab gets the focus back and every few seconds: editor/freshness.js.
import { request, showError } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { EntryLists, getPath, readInput, retitle, setPath, writeInput } from "./entries.js";
import { SectionOrder } from "./order.js";
import { Saver } from "./save.js";
import { setUpVersions } from "./versions.js";
import { setUpAssistant } from "./assistant.js";
import { setUpConflictsOnDemand, setUpPickerOnDemand, showImportReportOnDemand } from "./on-demand.js";
import { UndoHistory, editStep } from "./undo.js";
import { setUpBar } from "./bar.js";
import { setUpFreshness } from "./freshness.js";

const root = document.getElementById("editor");
const form = document.getElementById("editor-form");
const live = document.getElementById("editor-live");
const plainSkills = document.getElementById("plain-skills");

function showScores(resume) {
  for (const [id, score] of [["ats-score", resume.atsScore], ["keyword-score", resume.keywordMatchScore]]) {
    document.getElementById(id).textContent = score == null ? t("Not scored yet") : `${score} / 100`;
  }
}

function fillTemplates(select, templates) {
  select.replaceChildren(...templates.map((template) => new Option(
    template.tier === "premium" ? `${template.name} · ${t("Premium")}` : template.name, template.id)));
}

async function start() {
  const id = root.dataset.resumeId;
  let loaded, templates;
  try {
    [loaded, templates] = await Promise.all([
      request("GET", `/api/resumes/${encodeURIComponent(id)}`, undefined, { withHeaders: true }),
      request("GET", "/api/templates")]);
  } catch (error) {
    showError(error);
    return;
  }
  const resume = loaded.data;
  const state = {};
  const select = form.querySelector('[data-field="templateId"]');
  const heading = document.title; // "Edit resume: <title> · <service>"
  const titlePrefix = heading.slice(0, heading.indexOf(": ") + 2);
  const titleSuffix = heading.slice(heading.lastIndexOf(" · "));
  let savedTemplate = resume.templateId;
  let history = null;
  const saver = new Saver(id, state, {
    status: document.getElementById("save-state"),
    onSaved(saved) {
      showScores(saved);
      savedTemplate = saved.templateId;
      document.title = titlePrefix + saved.title + titleSuffix;
    },
    revertTemplate() { // a template the plan does not include: show the one the resume uses
      state.templateId = savedTemplate;
      select.value = savedTemplate;
      history.amend();
    },
  });
  saver.loaded(resume, loaded.headers.get("ETag"));
  const announce = (message) => { live.textContent = message; };
  const step = (where) => history.record(where);
  const lists = new EntryLists(form, null, saver, announce, step);
  const order = new SectionOrder(document.getElementById("body-sections"), saver, announce, step);

  // Show `saved` (the resume as the API answered it) in every input, list and section place.
  const fill = (saved) => {
    Object.assign(state, {
      title: saved.title, status: saved.status, templateId: saved.templateId,
      contentJson: saved.contentJson, sectionsVisibility: saved.sectionsVisibility,
      targetJobDescription: saved.targetJobDescription ?? "",
    });
    lists.content = state.contentJson;
    for (const input of form.querySelectorAll("[data-field]:not([data-list])")) {
      if (!input.closest("li.entry")) writeInput(input, getPath(state, input.dataset.field));
    }
    lists.renderAll();
    order.apply(state.contentJson);
    // skills without a group (an import's, or typed before groups were the one way): shown while there are some
    if (!plainSkills.contains(document.activeElement)) plainSkills.hidden = !state.contentJson.skills?.length;
    document.dispatchEvent(new CustomEvent("editor:filled")); // the import report looks at its fixes again
  };

  // Fields a script changes together, as one step of the undo history, saved like typing (the import
  // report's Swap and Split, editor/import-fixes.js). changes: [[path, value]], paths as data-field has them.
  const edit = (changes, where) => {
    for (const [path, value] of changes) {
      setPath(state, path, value);
      const input = form.querySelector(`[data-field="${CSS.escape(path)}"]:not([data-list])`);
      if (input) writeInput(input, value);
      const entry = input?.closest("li.entry");
      if (entry) retitle(entry);
      saver.changed(path);
    }
    history.record({ where });
  };

  // editor/ai-common.js's saved(): the AI writing reads the saved resume.
  document.addEventListener("editor:settle", (event) => event.detail(saver.settle()));

  const merged = (mergedResume) => { fill(mergedResume); history.record(); };
  const conflicts = setUpConflictsOnDemand({ saver, state, fill: merged, announce, busy: () => form.inert });

  fillTemplates(select, templates);
  fill(resume);
  history = new UndoHistory({ state, fill, saver, announce, busy: () => form.inert });
  history.start();
  setUpFreshness({ saver, state, fill, history, announce, busy: () => form.inert,
                   seconds: Number(root.dataset.freshnessSeconds) });
  showScores(resume);
  form.removeAttribute("aria-busy");
  showImportReportOnDemand(id, { state, edit, announce });

  const onEdit = (event) => {
    const input = event.target;
    const path = input.dataset?.field;
    if (!path || input.dataset.list) return;
    setPath(state, path, readInput(input));
    saver.changed(path);
    history.record(editStep(event));
  };
  form.addEventListener("input", onEdit);
  form.addEventListener("change", (event) => { // tidy a list when its input is left: "a,,b " -> "a, b"
    const input = event.target;
    if (input.dataset?.field && input.dataset.kind) writeInput(input, getPath(state, input.dataset.field));
  });
  form.addEventListener("submit", (event) => event.preventDefault());

  const sideHooks = { // restoring a version, accepting the assistant's proposal
    sections: order.defaults,
    current: () => state,
    settle: () => saver.settle(),
    busy(on) {
      form.inert = on;
      form.setAttribute("aria-busy", String(on));
      history.refresh();
    },
    restored(restoredResume, etag) {
      saver.reset();
      conflicts.reset();
      saver.loaded(restoredResume, etag);
      fill(restoredResume);
      history.record();
      saver.announceSaved(restoredResume);
    },
  };
  setUpVersions(sideHooks);
  setUpAssistant(sideHooks); // present when AI writing is set up on the server
}

setUpBar();
setUpPickerOnDemand();
start();
