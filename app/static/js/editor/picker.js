// The template picker (issue 25 point 2): a <dialog> showing every template drawn with this resume, page 1
// of the PDF that template prints (GET /api/resumes/<id>/template-previews with the export options the
// preview follows; the server draws them on two render children at once and keeps them per version).
// One click on a picture switches: it sets the form's template select and sends the same "input" event a
// choice in the select does, so the switch is saved and is a step of the editor's undo (Ctrl+Z switches
// back), and the dialog closes, the focus back on the button that opened it (Escape closes it too).
// Pre-warming (unless TEMPLATE_PREWARM is off: data-prewarm): once the editor's first preview is on screen,
// when the browser is idle, the pictures of the version just loaded are asked for (and the images fetched:
// their addresses are kept for good), so that the picker opened before any edit shows them at once. Once
// the picker has been opened in this page, the person is choosing a look: each new version's pictures are
// asked for too, REWARM_MS after its preview is shown with no typing meanwhile. Before that, an edit's
// pictures are drawn when the picker opens (eight renders per pause in typing for everyone would cost
// nine times the rendering of the preview alone; docs/api-decisions.md), or when the pointer reaches
// the picker's button or the focus does (a head start of the moment before the click). This module and
// css/picker.css are loaded on demand (editor/on-demand.js), not with the page.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { readOptions, resumePath } from "./side-common.js";

const RETRY_MS = 5000; // the 503's Retry-After
const REWARM_MS = 1500; // a pause in editing after which a new version's pictures are drawn ahead
const dialog = document.getElementById("template-picker");
const opener = document.getElementById("template-picker-open");
const list = document.getElementById("template-picker-list");
const state = document.getElementById("template-picker-state");
const select = document.querySelector('#editor-form [data-field="templateId"]');
const live = document.getElementById("editor-live");
let controller = null;
let retry = null;
let opened = false; // the picker was opened in this page: new versions are pre-warmed too
let rewarm = null;
let warming = false;
const kept = []; // the pre-warmed images, held so that the browser keeps them decoded

function query() {
  const options = readOptions();
  return new URLSearchParams({ ...options, includePhoto: String(options.includePhoto) });
}

function say(message, kind = "muted") {
  state.textContent = message;
  state.className = kind;
}

// The templates as the select lists them: id, name (with "· Premium" where it is one).
function templates() {
  return [...select.options].map((option) => ({ id: option.value, name: option.textContent }));
}

function card(template) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "template-choice";
  button.dataset.templateId = template.id;
  const current = template.id === select.value;
  if (current) button.setAttribute("aria-current", "true");
  button.setAttribute("aria-label", current ? `${template.name} (${t("In use")})` : t("Use {name}", { name: template.name }));
  const frame = document.createElement("span");
  frame.className = "template-frame";
  const name = document.createElement("span");
  name.className = "template-choice-name";
  name.textContent = template.name;
  button.append(frame, name);
  if (current) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = t("In use");
    button.append(badge);
  }
  button.addEventListener("click", () => choose(template));
  item.append(button);
  return item;
}

function picture(entry, name) {
  const image = new Image(entry.width, entry.height);
  image.alt = t("Your resume in the {name} template", { name });
  image.decoding = "async";
  image.src = entry.url;
  return image.decode().then(() => image, () => {
    const note = document.createElement("span");
    note.className = "template-failed";
    note.textContent = t("Could not be drawn in this template.");
    return note;
  });
}

async function load() {
  controller?.abort();
  clearTimeout(retry);
  controller = new AbortController();
  const { signal } = controller;
  list.dataset.state = "loading";
  list.setAttribute("aria-busy", "true");
  say(t("Drawing your resume in every template…"));
  let entries;
  try {
    entries = await request("GET", `${resumePath}/template-previews?${query()}`, undefined, { signal });
  } catch (error) {
    if (signal.aborted) return;
    if (error.status === 503) {
      say(t("Previews are busy; this one will be drawn again in a moment."));
      retry = setTimeout(load, RETRY_MS);
    } else {
      say(`${t("The templates could not be drawn.")} ${error.message ?? ""}`.trim(), "error");
    }
    list.dataset.state = "failed";
    list.setAttribute("aria-busy", "false");
    return;
  }
  const names = Object.fromEntries(templates().map((template) => [template.id, template.name]));
  const drawn = await Promise.all(entries.map((entry) => picture(entry, names[entry.templateId] ?? "")
    .then((shown) => [entry.templateId, shown])));
  if (signal.aborted) return;
  for (const [id, shown] of drawn) {
    list.querySelector(`[data-template-id="${CSS.escape(id)}"] .template-frame`)?.replaceChildren(shown);
  }
  list.dataset.state = "ready";
  list.setAttribute("aria-busy", "false");
  say("");
  document.dispatchEvent(new CustomEvent("picker:shown", { detail: { count: drawn.length } }));
}

function open() {
  if (!select.options.length) return; // the editor is still loading the resume
  opened = true;
  clearTimeout(rewarm);
  list.replaceChildren(...templates().map(card));
  dialog.showModal();
  load();
}

function choose(template) {
  if (template.id !== select.value) {
    select.value = template.id;
    select.dispatchEvent(new Event("input", { bubbles: true })); // the editor's own path: saved, one undo step
    if (live) live.textContent = t("Template switched to {name}.", { name: template.name });
  }
  dialog.close();
}

// Ask for this version's pictures (and fetch them) now; `warm` waits for the browser to be idle first.
async function prefetch() {
  if (dialog.open || warming) return;
  warming = true;
  try {
    const entries = await request("GET", `${resumePath}/template-previews?${query()}`);
    kept.length = 0;
    for (const entry of entries.filter((drawn) => drawn.drawn)) { // an undrawn one's image would draw it alone
      const image = new Image();
      image.src = entry.url;
      kept.push(image);
    }
  } catch {
    // the picker draws them when it opens
  } finally {
    warming = false;
  }
}

function warm() {
  const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  idle(prefetch);
}

// Called once, when editor/on-demand.js has loaded this module (at the first hover, focus or click on the
// picker's button, or, pre-warming, once the first preview is shown): that loader opens the picker on a
// click, pre-warms after the first preview and at the pointer or the focus on the button; this keeps the rest.
export function setUpPicker() {
  dialog.addEventListener("close", () => {
    controller?.abort();
    clearTimeout(retry);
    opener.focus();
  });
  if (dialog.dataset.prewarm === "true") {
    document.addEventListener("preview:shown", () => {
      if (!opened) return;
      clearTimeout(rewarm);
      rewarm = setTimeout(warm, REWARM_MS);
    });
    select.form?.addEventListener("input", () => clearTimeout(rewarm)); // still typing: not yet
  }
  return { open, prefetch, warm };
}
