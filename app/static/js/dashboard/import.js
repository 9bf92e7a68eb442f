// "Import": a <dialog> that takes a file (.json, .pdf or .docx, dropped on it or chosen) or pasted
// JSON Resume text, and calls POST /api/resumes/import (multipart with `file`, or
// {"jsonResume": {...}}). The answer, 201 {resume, dropped, report}, is shown: a link to the new resume
// in the editor, what could not be kept (JSON paths) and how many things the editor asks to check. Errors are said in words, in the dialog.
import { request } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { editorUrl, say, sayError } from "./note.js";
import { $ } from "../shared/dom.js";

const TYPES = [".json", ".pdf", ".docx"];
const dialog = $("import");
const input = $("import-file");
const text = $("import-text");
const zone = $("import-drop");
const note = $("import-state");
let file = null;
let imported = () => {};


// The API's refusal in the person's words.
function words(error) {
  const { code, details } = error;
  if (code === "CONTENT_TOO_LARGE" && String(details.field || "").startsWith("jsonResume")) {
    return t("This JSON Resume document is far larger than a resume.");
  }
  if (code === "CONTENT_TOO_LARGE") {
    return t("This file is too large to import (at most {size} MB).", { size: (details.limit || 1048576) / 1048576 });
  }
  if (code === "UNSUPPORTED_MEDIA_TYPE") return t("Choose a .json, .pdf or .docx file.");
  if (code === "VALIDATION_ERROR" && details.field === "jsonResume") {
    return t("This text is not a JSON Resume document (https://jsonresume.org).");
  }
  if (code === "VALIDATION_ERROR" && details.field === "file") return t("The file is empty.");
  return error.message;
}

function choose(chosen) {
  file = chosen || null;
  $("import-file-name").textContent = file ? file.name : "";
  zone.classList.toggle("chosen", Boolean(file));
  if (file) text.value = ""; // one source at a time: the file
  say(note, "");
}

function reset() {
  $("import-form").reset();
  choose(null);
  $("import-form").hidden = false;
  $("import-result").hidden = true;
  $("import-submit").disabled = false;
}

function showResult(answer) {
  const { resume, dropped = [], report = { cut: [], unsure: [] } } = answer;
  const toCheck = report.cut.length + report.unsure.length;
  $("import-done").textContent = t("“{title}” was imported as a new draft.", { title: resume.title });
  const said = [];
  if (dropped.length) {
    said.push(t("Not imported ({n}): these parts of the document had no place in a resume here, or were not valid.",
                { n: dropped.length }));
  }
  if (toCheck) {
    said.push(t("To check ({n}): the editor lists them beside the preview, with any text cut to fit a field.",
                { n: toCheck }));
  }
  $("import-dropped-intro").textContent = said.length ? said.join(" ") : t("Everything was imported.");
  $("import-dropped").replaceChildren(...dropped.map((path) => {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = typeof path === "string" ? path : JSON.stringify(path);
    item.append(code);
    return item;
  }));
  $("import-open").href = editorUrl(resume);
  $("import-form").hidden = true;
  $("import-result").hidden = false;
  $("import-open").focus();
}

// The request's body: FormData with the file, or the pasted document; null (and said why) when neither works.
function body() {
  if (file) {
    if (!TYPES.some((type) => file.name.toLowerCase().endsWith(type))) {
      say(note, t("Choose a .json, .pdf or .docx file."), { kind: "error" });
      return null;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    return form;
  }
  const pasted = text.value.trim();
  if (!pasted) {
    say(note, t("Choose a file, or paste JSON Resume text."), { kind: "error" });
    return null;
  }
  try {
    return { jsonResume: JSON.parse(pasted) };
  } catch {
    say(note, t("This text is not valid JSON: check that it is complete, from its first { to its last }."),
        { kind: "error" });
    text.focus();
    return null;
  }
}

async function submit(event) {
  event.preventDefault();
  const payload = body();
  if (!payload) return;
  const button = $("import-submit");
  button.disabled = true;
  say(note, t("Importing…"), { kind: "muted" });
  try {
    const answer = await request("POST", "/api/resumes/import", payload);
    say(note, "");
    showResult(answer);
    imported();
  } catch (error) {
    error.message = words(error);
    sayError(note, error, N_("Your plan allows {limit} resumes, so nothing more can be imported. Delete one, or upgrade for more."));
    button.disabled = false;
  }
}

export function setUpImport(opener, onImported) {
  imported = onImported;
  opener.addEventListener("click", () => {
    reset();
    dialog.showModal();
  });
  for (const id of ["import-close", "import-cancel"]) $(id).addEventListener("click", () => dialog.close());
  $("import-again").addEventListener("click", () => { reset(); input.focus(); });
  $("import-form").addEventListener("submit", submit);
  input.addEventListener("change", () => choose(input.files[0]));
  text.addEventListener("input", () => { if (file && text.value) { input.value = ""; choose(null); } });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer.files.length) choose(event.dataTransfer.files[0]);
  });
}
