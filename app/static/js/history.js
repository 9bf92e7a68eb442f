// The version history in the editor's side column: earlier states of the resume, newest first
// (GET /api/resumes/<id>/versions, a page at a time). Selecting one shows it (GET .../versions/<vid>:
// its title, template and a summary of its content: section headings and entry titles); "Restore"
// (POST .../versions/<vid>/restore) makes it the current state. What was typed is saved first;
// when that fails, the person is asked before it is replaced. The editor (editor.js) hands in
// settle(), busy() and restored(resume).
import { request } from "./api.js";
import { formatTime, resumePath, st } from "./side_common.js";

const $ = (id) => document.getElementById(id);
const LIMIT = 10;
const CAUSES = { edit: "Replaced by an edit", restore: "Replaced by a restore",
                 conflict: "Not saved: made from an older copy" };
// The fields that name an entry of each section, joined by " · " in the summary.
const NAMES = {
  workExperience: ["position", "company"], education: ["degree", "area", "school"], projects: ["name"],
  skillGroups: ["name", "level"], languages: ["language", "fluency"], certificates: ["name", "issuer"],
  awards: ["title", "awarder"], volunteer: ["position", "organization"], publications: ["name", "publisher"],
  interests: ["name"], references: ["name"], items: ["title", "subtitle"],
};

let editor = null;
let page = 0;
let pages = 1;
let selected = null; // the version shown
let timer = null;
let restoring = false;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function say(message, kind = "muted") {
  const note = $("history-state");
  note.textContent = message;
  note.className = `side-note ${kind}`;
}

function entryName(entry, fields) {
  return fields.map((name) => entry?.[name]).filter((value) => typeof value === "string" && value.trim())
    .join(" · ") || "—";
}

// [heading, [lines]] for each section of `content` with something in it, in its order.
function summary(content, visibility) {
  const defaults = editor.sections;
  const stored = Array.isArray(content.sectionOrder) ? content.sectionOrder.filter((k) => defaults.includes(k)) : [];
  const order = [...new Set(stored), ...defaults.filter((key) => !stored.includes(key))];
  const parts = [];
  const list = (value) => (Array.isArray(value) ? value : []);
  for (const key of order) {
    const heading = $(`h-${key}`)?.textContent || key;
    const hidden = visibility?.[key] === false ? ` (${st("hidden")})` : "";
    if (key === "customSections") {
      for (const section of list(content.customSections)) {
        const items = list(section?.items).map((item) => entryName(item, NAMES.items));
        parts.push([(section?.title || heading) + hidden, items]);
      }
      continue;
    }
    let lines = list(content[key]).map((entry) => entryName(entry, NAMES[key] || []));
    if (key === "skills") {
      const plain = list(content.skills).filter((skill) => typeof skill === "string");
      lines = [...list(content.skillGroups).map((group) => entryName(group, NAMES.skillGroups)),
               ...(plain.length ? [plain.join(", ")] : [])];
    }
    if (lines.length) parts.push([heading + hidden, lines]);
  }
  return parts;
}

function templateName(id) {
  const option = [...document.querySelectorAll('[data-field="templateId"] option')].find((o) => o.value === id);
  return option ? option.textContent : "";
}

function showVersion(version) {
  const box = $("history-preview");
  const person = version.contentJson?.personalInfo || {};
  $("history-title").textContent = version.title;
  $("history-meta").textContent = [formatTime(version.createdAt), st(CAUSES[version.cause] || version.cause),
                                   templateName(version.templateId)].filter(Boolean).join(" · ");
  const parts = summary(version.contentJson || {}, version.sectionsVisibility);
  const nodes = [];
  const who = [person.name, person.label].filter((value) => typeof value === "string" && value).join(" · ");
  if (who) nodes.push(element("p", who, "history-person"));
  for (const [heading, lines] of parts) {
    const items = element("ul");
    items.append(...lines.map((line) => element("li", line)));
    nodes.push(element("h4", heading), items);
  }
  if (!parts.length && !who) nodes.push(element("p", st("This version is empty."), "muted"));
  $("history-summary").replaceChildren(...nodes);
  box.hidden = false;
  $("history-restore").disabled = false;
}

async function select(item, button) {
  selected = item.id;
  for (const other of $("history-list").querySelectorAll("button[aria-pressed]")) {
    other.setAttribute("aria-pressed", String(other === button));
  }
  say(st("Loading…"));
  try {
    const version = await request("GET", `${resumePath}/versions/${encodeURIComponent(item.id)}`);
    if (selected !== item.id) return; // another one was chosen meanwhile
    showVersion(version);
    say("");
  } catch (error) {
    say(error.message, "error");
  }
}

function row(item) {
  const li = element("li");
  const button = element("button", undefined, "version");
  button.type = "button";
  button.setAttribute("aria-pressed", String(item.id === selected));
  const time = element("time", formatTime(item.createdAt));
  time.dateTime = item.createdAt;
  button.append(time, element("span", st(CAUSES[item.cause] || item.cause), "muted"), element("span", item.title, "version-title"));
  button.addEventListener("click", () => select(item, button));
  li.append(button);
  return li;
}

async function load(more = false) {
  const next = more ? page + 1 : 1;
  say(st("Loading…"));
  try {
    const answer = await request("GET", `${resumePath}/versions?page=${next}&limit=${LIMIT}`, undefined,
                                 { envelope: true });
    page = next;
    pages = Math.max(answer.meta?.totalPages || 1, 1);
    const rows = answer.data.map(row);
    if (more) $("history-list").append(...rows); else $("history-list").replaceChildren(...rows);
    $("history-more").hidden = page >= pages;
    say(answer.data.length || more ? "" : st("No earlier versions yet: they are kept as you edit."));
  } catch (error) {
    say(error.message, "error");
  }
}

async function restore() {
  const button = $("history-restore");
  const id = selected;
  button.disabled = true;
  restoring = true;
  say(st("Saving your changes first…"));
  editor.busy(true);
  try {
    const saved = await editor.settle();
    if (!saved && !window.confirm(st("Your latest changes could not be saved. Restore this version anyway and lose them?"))) {
      say("");
      return;
    }
    say(st("Restoring…"));
    const answer = await request("POST", `${resumePath}/versions/${encodeURIComponent(id)}/restore`, undefined,
                                 { withHeaders: true });
    editor.restored(answer.data, answer.headers.get("ETag"));
    $("history-preview").hidden = true;
    selected = null;
    await load();
    say(st("Version restored: the editor shows it now."), "notice");
  } catch (error) {
    say(error.message, "error");
  } finally {
    editor.busy(false);
    button.disabled = false;
    restoring = false;
  }
}

function toggle() {
  const open = $("history-toggle").getAttribute("aria-expanded") !== "true";
  $("history-toggle").setAttribute("aria-expanded", String(open));
  $("history-toggle").textContent = st(open ? "Hide" : "Show");
  $("history-body").hidden = !open;
  if (open) load();
}

// hooks: {settle() -> Promise<boolean>, busy(on), restored(resume, etag), sections: body section keys in default order}
export function setUpHistory(hooks) {
  editor = hooks;
  if (!$("history-toggle")) return;
  $("history-toggle").addEventListener("click", toggle);
  $("history-more").addEventListener("click", () => load(true));
  $("history-restore").addEventListener("click", restore);
  $("history-close").addEventListener("click", () => {
    $("history-preview").hidden = true;
    selected = null;
    for (const button of $("history-list").querySelectorAll("button[aria-pressed]")) {
      button.setAttribute("aria-pressed", "false");
    }
  });
  document.addEventListener("resume:saved", () => { // a save may have kept a version: show it
    if ($("history-body").hidden || restoring) return;
    clearTimeout(timer);
    timer = setTimeout(() => { if (page === 1) load(); }, 1000);
  });
}
