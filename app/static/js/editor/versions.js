// The version history in the editor's side column: earlier states of the resume, newest first
// (GET /api/resumes/<id>/versions, a page at a time). Selecting one shows it (GET .../versions/<vid>,
// its whole content): its title, time and template, what changed since it, field by field, against the
// resume as the editor holds it now (editor/versions-diff.js, editor/versions-show.js; shown again after each save), and
// on demand the whole version. "Restore" (POST .../versions/<vid>/restore) makes it the current state.
// What was typed is saved first; when that fails, the person is asked before it is replaced. The editor
// (editor/page.js) hands in current(), settle(), busy() and restored(resume); a restore is a step of its undo.
// editor/versions-diff.js and editor/versions-show.js are loaded when a version is first opened (the editor's weight budget).
import { request } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { formatTime, resumePath } from "./side-common.js";
import { $ } from "../shared/dom.js";

const LIMIT = 10;
const CAUSES = { edit: N_("Replaced by an edit"), restore: N_("Replaced by a restore"),
                 conflict: N_("Not saved: made from an older copy"), agent: N_("Edited by {author}") };

// What replaced a version, in the page's words: an agent's edit names the client and the tool.
const cause = (version) => t(CAUSES[version.cause] || version.cause, { author: version.author || "" });
let editor = null;
let page = 0;
let pages = 1;
let selected = null; // the id of the version chosen
let shownVersion = null; // that version, as GET .../versions/<vid> answered it
let timer = null;
let restoring = false;
let views = null; // {differences, changeList, wholeVersion}, once a version has been opened
let loadingViews = null;

// The modules that show a version, loaded once, the first time one is opened.
function loadViews() {
  loadingViews ??= Promise.all([import("./versions-diff.js"), import("./versions-show.js")])
    .then(([diff, show]) => { views = { differences: diff.differences, ...show }; })
    .catch((error) => { loadingViews = null; throw error; }); // failed: asked for again at the next one
  return loadingViews;
}

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

function showChanges() {
  const found = views.differences(shownVersion, editor.current(), editor.sections);
  $("history-changes-title").textContent = found.length
    ? t("Changed since this version ({n})", { n: found.length })
    : t("Nothing has changed since this version: restoring it would change nothing.");
  $("history-legend").hidden = !found.length;
  $("history-changes").replaceChildren(...views.changeList(found));
}

function showWhole(open) {
  $("history-whole-toggle").setAttribute("aria-expanded", String(open));
  $("history-whole-toggle").textContent = (open ? t("Hide the whole version") : t("Show the whole version"));
  $("history-whole").hidden = !open;
  if (open) $("history-whole").replaceChildren(...views.wholeVersion(shownVersion, editor.sections));
}

function showVersion(version) {
  const option = [...document.querySelectorAll('[data-field="templateId"] option')]
    .find((choice) => choice.value === version.templateId);
  shownVersion = version;
  $("history-title").textContent = version.title;
  $("history-meta").textContent = [formatTime(version.createdAt), cause(version),
                                   option?.textContent].filter(Boolean).join(" · ");
  showChanges();
  showWhole($("history-whole-toggle").getAttribute("aria-expanded") === "true");
  $("history-preview").hidden = false;
  $("history-restore").disabled = false;
}

async function select(item, button) {
  selected = item.id;
  for (const other of $("history-list").querySelectorAll("button[aria-pressed]")) {
    other.setAttribute("aria-pressed", String(other === button));
  }
  say(t("Loading…"));
  try {
    const [version] = await Promise.all([request("GET", `${resumePath}/versions/${encodeURIComponent(item.id)}`),
                                         loadViews()]);
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
  button.append(time, element("span", cause(item), "muted"), element("span", item.title, "version-title"));
  button.addEventListener("click", () => select(item, button));
  li.append(button);
  return li;
}

async function load(more = false) {
  const next = more ? page + 1 : 1;
  say(t("Loading…"));
  try {
    const answer = await request("GET", `${resumePath}/versions?page=${next}&limit=${LIMIT}`, undefined,
                                 { envelope: true });
    page = next;
    pages = Math.max(answer.meta?.totalPages || 1, 1);
    const rows = answer.data.map(row);
    if (more) $("history-list").append(...rows); else $("history-list").replaceChildren(...rows);
    $("history-more").hidden = page >= pages;
    say(answer.data.length || more ? "" : t("No earlier versions yet: they are kept as you edit."));
  } catch (error) {
    say(error.message, "error");
  }
}

async function restore() {
  const button = $("history-restore");
  const id = selected;
  button.disabled = true;
  restoring = true;
  clearTimeout(timer); // a list reload due from a save would wipe what the restore says
  say(t("Saving your changes first…"));
  editor.busy(true);
  try {
    const saved = await editor.settle();
    if (!saved && !window.confirm(t("Your latest changes could not be saved. Restore this version anyway and lose them?"))) {
      say("");
      return;
    }
    say(t("Restoring…"));
    const answer = await request("POST", `${resumePath}/versions/${encodeURIComponent(id)}/restore`, undefined,
                                 { withHeaders: true });
    editor.restored(answer.data, answer.headers.get("ETag"));
    $("history-preview").hidden = true;
    selected = null;
    shownVersion = null;
    await load();
    say(t("Version restored: the editor shows it now."), "notice");
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
  $("history-toggle").textContent = (open ? t("Hide") : t("Show"));
  $("history-body").hidden = !open;
  if (open) load();
}

// hooks: {current() -> the resume as the editor holds it, settle() -> Promise<boolean>, busy(on),
//         restored(resume, etag), sections: body section keys in default order}
export function setUpVersions(hooks) {
  editor = hooks;
  if (!$("history-toggle")) return;
  $("history-toggle").addEventListener("click", toggle);
  $("history-more").addEventListener("click", () => load(true));
  $("history-restore").addEventListener("click", restore);
  $("history-close").addEventListener("click", () => {
    $("history-preview").hidden = true;
    selected = null;
    shownVersion = null;
    for (const button of $("history-list").querySelectorAll("button[aria-pressed]")) {
      button.setAttribute("aria-pressed", "false");
    }
  });
  $("history-whole-toggle").addEventListener("click", () => {
    showWhole($("history-whole-toggle").getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("resume:saved", () => { // a save may have kept a version: show it
    if ($("history-body").hidden || restoring) return;
    if (shownVersion && !$("history-preview").hidden) showChanges(); // against what was just saved
    clearTimeout(timer);
    timer = setTimeout(() => { if (page === 1 && !restoring) load(); }, 1000);
  });
}
