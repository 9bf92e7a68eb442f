// "From your file": after an import, what the reading cut, left out or guessed, shown above the preview until
// the owner dismisses it, beside the imported PDF's own pages. Read from GET /api/resumes/<id>/import-report
// (404: the resume was not imported, or the report was dismissed: nothing is shown). The notes are grouped by
// the entry they are about ("Experience 2: Engineer · Acme"), in the form's order; the first few groups are
// open, the rest behind "N more", and the panel is never taller than the window (the notes scroll inside it).
// Each note is a short chip and a sentence, with a button to the field; a note from a page of the PDF shows
// that page with its text (editor/import-page.js); two fields mixed up offer Swap and a bullet that was two
// offers Split (editor/import-fixes.js), one undo step each. Text cut off a field, or a header line that fitted
// none, is shown whole with a Copy button, so nothing of the file is lost. "Done" is DELETE on the same URL.
// Loaded only when there is a report (editor/on-demand.js asks for it, then hands it to showImportReport).
import { request } from "../shared/api.js";
import { crumb, t } from "../shared/i18n.js";
import { contentPath, fixOf } from "./import-fixes.js";
import { anchorOf, chipText, fieldName, groupKey, groupTitle, inputOf, mixedUp, reasonText } from "./import-words.js";
import { pageViewer } from "./import-page.js";

const OPEN_GROUPS = 3; // groups open at first; the others are behind "N more"
const panel = document.getElementById("import-report");
const form = document.getElementById("editor-form");

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function copyBox(text, label) {
  const box = element("textarea", { readOnly: true, value: text, rows: Math.min(3, Math.max(1, Math.ceil(text.length / 50))) });
  box.setAttribute("aria-label", label);
  const said = element("span", { className: "muted" });
  said.setAttribute("role", "status");
  const copy = element("button", { type: "button", className: "secondary", textContent: t("Copy") });
  copy.addEventListener("click", async () => {
    box.select();
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = t("Copied.");
    } catch {
      said.textContent = t("The text is selected: press Ctrl+C (or ⌘C) to copy it.");
    }
  });
  return [box, copy, said];
}

class Report {
  constructor(resumeId, report, { state, edit, announce }) {
    Object.assign(this, { state, edit, announce });
    this.viewer = pageViewer(resumeId, report);
    this.fixes = [];   // {fix, item, button, said} of each note with a one-click fix
    this.groups = [];  // {key, title, count, toggle, list, items}
    this.paged = new Map(); // the notes from a page of the PDF, by their item
    const notes = [...report.cut.map((item) => ({ ...item, reason: "cut" })),
                   ...report.unsure.map((item) => ({ ...item, path: contentPath(item.path) }))];
    const byKey = new Map();
    for (const note of notes) {
      const key = groupKey(note.path);
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(note);
    }
    const keys = [...byKey.keys()].sort((a, b) => { // in the form's order; what it does not show, last
      const [x, y] = [anchorOf(a), anchorOf(b)];
      if (!x || !y) return !x - !y;
      return x === y ? 0 : x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    });
    this.sections = keys.map((key) => this.group(key, byKey.get(key).map((note) => this.note(note))));
    if (report.dropped.length) {
      const items = report.dropped.map((path) => element("li", { className: "report-note" },
        element("span", { className: "report-chip" }, t("Not kept")), element("p", {}, element("code", {}, path))));
      this.sections.push(this.group(null, items, t("Not kept")));
    }
    this.count = notes.length + report.dropped.length;
  }

  // A note: its chip and the field it is about, what to check in words, its fix, the field, its page.
  note(note) {
    const item = element("li", { className: "report-note" });
    const said = ["cut", "unplaced", "custom_section", "by_content", "not_found", "place", "guessed"];
    const whole = said.includes(note.reason); // the sentence names the field itself
    const name = whole || mixedUp(note) ? "" : fieldName(note.path);
    const head = element("p", { className: "report-note-head" },
                         element("span", { className: "report-chip" }, chipText(note)), name ? element("strong", {}, name) : "");
    const words = element("p", {}, reasonText(note));
    const actions = element("div", { className: "report-actions" });
    item.append(head, words);
    const fix = fixOf(note);
    if (fix) {
      const button = element("button", { type: "button" });
      const said = element("span", { className: "report-done" });
      button.addEventListener("click", () => this.apply(fix));
      actions.append(button);
      head.append(said);
      this.fixes.push({ fix, item, button, said });
    }
    if (note.reason === "cut" || note.reason === "unplaced") {
      const [box, ...copy] = copyBox(note.text, note.reason === "cut" ? t("The rest of the text")
        : t("A line of the header"));
      item.append(box);
      actions.append(...copy);
    } else if (note.reason === "merged" && fix) {
      words.append(" ", ...fix.pieces.flatMap((piece, at) => [at ? " + " : "", element("q", { dir: "auto" }, piece)]));
    }
    if (note.reason !== "unplaced" && inputOf(note.path)) {
      const go = element("button", { type: "button", className: "secondary", textContent: t("Go to the field") });
      const place = [groupTitle(groupKey(note.path)), name].filter(Boolean).join(crumb);
      go.setAttribute("aria-label", `${t("Go to the field")}: ${place}`);
      go.addEventListener("click", () => {
        const input = inputOf(note.path);
        input.scrollIntoView({ block: "center" });
        input.focus({ preventScroll: true });
      });
      actions.append(go);
    }
    if (note.page && this.viewer) {
      const page = element("button", { type: "button", className: "link", textContent: t("Page {n}", { n: note.page }) });
      page.setAttribute("aria-label", t("Show page {n} beside the notes", { n: note.page }));
      actions.append(page);
      this.paged.set(item, note);
      const show = () => this.showPage(item);
      page.addEventListener("click", show);
      item.addEventListener("focusin", show);
    }
    if (actions.childElementCount) item.append(actions);
    return item;
  }

  // The page `item`'s note came from, with its text, beside the notes.
  showPage(item) {
    const note = this.paged.get(item);
    this.viewer.show(note.page, note.text);
    for (const other of panel.querySelectorAll(".report-note.is-shown")) other.classList.remove("is-shown");
    item.classList.add("is-shown");
  }

  group(key, items, fixedTitle = "") {
    const index = this.groups.length;
    const id = `import-report-group-${index}`;
    const title = element("span", { className: "report-group-title", textContent: fixedTitle });
    const count = element("span", { className: "badge" });
    count.setAttribute("aria-hidden", "true");
    const toggle = element("button", { type: "button", className: "report-group-toggle" }, title, count);
    toggle.setAttribute("aria-controls", id);
    const list = element("ul", { id, className: "report-items" }, ...items);
    toggle.addEventListener("click", () => this.open(index, list.hidden));
    this.groups.push({ key, title, count, toggle, list, items });
    return element("div", { className: "report-group" }, element("h3", {}, toggle), list);
  }

  // Open or close group `index`; opened, it shows the page of its first note that has one.
  open(index, open, follow = true) {
    const { toggle, list, items } = this.groups[index];
    list.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    const paged = items.find((item) => this.paged.has(item));
    if (open && follow && paged) this.showPage(paged);
  }

  apply(fix) {
    const done = fix.done(this.state);
    this.edit(fix.changes(this.state), fix.where());
    this.refresh();
    const [a, b] = fix.kind === "swap" ? fix.paths.map(fieldName) : [];
    this.announce(fix.kind === "swap"
      ? (done ? t("Swapped back.") : t("Swapped {a} and {b}.", { a, b }))
      : (done ? t("Joined again.") : t("Split into two bullets.")));
  }

  // The fixes' buttons and the groups' titles as the form is now (after a fix, an undo, typing).
  refresh() {
    for (const { fix, item, button, said } of this.fixes) {
      const done = fix.done(this.state);
      item.classList.toggle("is-done", done);
      button.hidden = !fix.usable(this.state);
      said.textContent = done ? (fix.kind === "swap" ? t("Swapped.") : t("Split.")) : "";
      if (fix.kind === "swap") {
        const [a, b] = fix.paths.map(fieldName);
        button.textContent = done ? t("Swap back") : t("Swap");
        button.setAttribute("aria-label", done ? t("Swap back {a} and {b}", { a, b }) : t("Swap {a} and {b}", { a, b }));
      } else {
        button.textContent = done ? t("Join again") : t("Split in two");
      }
      button.className = done ? "secondary" : "";
    }
    for (const group of this.groups) {
      if (group.key !== null) group.title.textContent = groupTitle(group.key);
      const left = group.items.filter((item) => !item.classList.contains("is-done")).length;
      group.count.textContent = left ? String(left) : "✓";
    }
  }

  // The groups in the panel: the first few open, the others behind "N more" (closed when shown).
  render(notes) {
    const [first, rest] = [this.sections.slice(0, OPEN_GROUPS), this.sections.slice(OPEN_GROUPS)];
    const hidden = this.groups.slice(OPEN_GROUPS).reduce((sum, group) => sum + group.items.length, 0);
    this.groups.forEach((group, index) => this.open(index, index < OPEN_GROUPS, false));
    const children = [...first];
    if (rest.length) {
      const more = element("div", { id: "import-report-more", hidden: true }, ...rest);
      const button = element("button", { type: "button", className: "link report-more",
                                         textContent: t("{n} more", { n: hidden }) });
      button.setAttribute("aria-controls", more.id);
      button.setAttribute("aria-expanded", "false");
      button.addEventListener("click", () => {
        more.hidden = !more.hidden;
        button.setAttribute("aria-expanded", String(!more.hidden));
        button.textContent = more.hidden ? t("{n} more", { n: hidden }) : t("Show fewer");
      });
      children.push(button, more);
    }
    notes.replaceChildren(...children);
    this.refresh();
    const paged = this.paged.keys().next().value; // the first note from a page: its page is shown first
    if (paged) this.showPage(paged);
  }
}

// `report`: GET /api/resumes/<id>/import-report's answer; hooks: the editor's {state, edit, announce}.
export function showImportReport(resumeId, report, hooks) {
  const shown = new Report(resumeId, report, hooks);
  if (!shown.count && !shown.viewer) return;
  const file = report.fileName || t("the document");
  panel.querySelector("#import-report-intro").textContent = shown.count
    ? t("{file} was read into the form. Check these before your first export:", { file })
    : t("{file} was read into the form, and nothing in it was left out or guessed. Compare it with the form "
        + "before your first export.", { file });
  const notes = panel.querySelector("#import-report-notes");
  if (shown.viewer) notes.before(shown.viewer.element);
  panel.querySelector(".report-body").classList.toggle("with-page", Boolean(shown.viewer));
  shown.render(notes);
  document.addEventListener("editor:filled", () => shown.refresh());
  form.addEventListener("input", () => shown.refresh());
  panel.querySelector("#import-report-done").addEventListener("click", async (event) => {
    event.target.disabled = true;
    try {
      await request("DELETE", `/api/resumes/${encodeURIComponent(resumeId)}/import-report`);
      panel.hidden = true;
      form.querySelector("input, textarea")?.focus();
    } catch {
      event.target.disabled = false;
    }
  });
  panel.hidden = false;
}
