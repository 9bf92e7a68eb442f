// What the editor loads only when it is needed, not with the page (the editor's own scripts and styles stay
// within their budget: docs/architecture.md). The template picker (editor/picker.js, css/picker.css) loads
// when its button is first hovered, focused or clicked, or, pre-warming (TEMPLATE_PREWARM), once the first
// preview is shown; the merge dialog (editor/conflict.js, editor/merge.js) when a save is first refused as
// made from an older copy (409); the import report's panel (editor/import.js) when the resume has a report.
// The version history loads what shows a version when one is first opened (editor/versions.js).
import { request, toast } from "../shared/api.js";

// A module that could not be loaded (the network): said in the page's notice; the form's marks stay.
const failed = (error) => toast(error.message, "error");

let pickerStyle = null;
let picker = null;

// css/picker.css, added to the page once; resolves once it has loaded (or failed: the picker works unstyled).
function pickerStylesheet() {
  pickerStyle ??= new Promise((resolve) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet" });
    link.href = new URL("../../css/picker.css", import.meta.url).href;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
  return pickerStyle;
}

// editor/picker.js, set up once: {open(), prefetch(), warm()}.
function loadPicker() {
  picker ??= import("./picker.js").then((module) => module.setUpPicker())
    .catch((error) => { picker = null; throw error; }); // failed: asked for again the next time
  return picker;
}

// The picker's button opens it (once its script and style are in); the pointer on its way to the button, or
// the focus on it, loads them ahead and, pre-warming, asks for the pictures of a version not drawn yet.
export function setUpPickerOnDemand() {
  const dialog = document.getElementById("template-picker");
  const opener = document.getElementById("template-picker-open");
  if (!dialog || !opener) return;
  const prewarm = dialog.dataset.prewarm === "true";
  opener.addEventListener("click", () => {
    Promise.all([loadPicker(), pickerStylesheet()]).then(([loaded]) => loaded.open(), failed);
  });
  for (const intent of ["pointerenter", "focus"]) {
    opener.addEventListener(intent, () => {
      pickerStylesheet();
      loadPicker().then((loaded) => { if (prewarm) loaded.prefetch(); }, () => {}); // the click says so
    });
  }
  if (prewarm) {
    document.addEventListener("preview:shown", () => loadPicker().then((loaded) => loaded.warm(), () => {}),
                              { once: true });
  }
}

// hooks: setUpConflicts()'s (editor/conflict.js). The first refused save loads the merge dialog, whose
// setUpConflicts() takes saver.onConflict over; it is then called for this refusal. Returns {reset()}.
export function setUpConflictsOnDemand(hooks) {
  const { saver } = hooks;
  const reopen = document.getElementById("merge-open");
  let conflicts = null;
  saver.onConflict = () => {
    conflicts ??= import("./conflict.js").then((module) => module.setUpConflicts(hooks));
    conflicts.then(() => saver.onConflict(), (error) => {
      conflicts = null;
      reopen.hidden = false; // "Compare and merge" tries again
      failed(error);
    });
  };
  const first = saver.onConflict;
  reopen.addEventListener("click", () => { if (saver.onConflict === first) first(); }); // else the dialog's own
  return { reset() { reopen.hidden = true; } };
}

// "From your file" (editor/import.js), shown when the resume has an import report (a 404: it has none).
// hooks: {state, edit(changes, where), announce(message)}, the editor's, for the report's fixes.
export async function showImportReportOnDemand(resumeId, hooks) {
  if (!document.getElementById("import-report")) return;
  let report;
  try {
    report = await request("GET", `/api/resumes/${encodeURIComponent(resumeId)}/import-report`);
  } catch {
    return; // not imported, or dismissed (404): nothing to show
  }
  const { showImportReport } = await import("./import.js");
  showImportReport(resumeId, report, hooks);
}
