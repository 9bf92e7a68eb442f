// The editor's entry lists (jobs, schools, projects, languages, custom sections and their items, ...):
// add, remove and reorder, by keyboard (the Move up / Move down buttons keep focus on the moved
// entry) and by pointer (the drag handle, HTML5 drag and drop). A list is named by its path in
// contentJson (data-list="languages", "customSections.0.items") and draws its entries from the
// page's <template id="tpl-<data-template>"> (drawn from the section registry, app/content/sections.py), so every
// kind of entry works alike. Inputs are named by their path in the resume
// (data-field="contentJson.education.1.school"), so an API error lands on them; a list is drawn
// again after each change so the paths follow the order. New entries start empty ({}): a field
// is stored once it is typed into. Each change is a step of the editor's undo history (onStep, with
// where it is, and for a removal the words the "Removed … — Undo" notice shows: editor/undo.js).
import { N_, crumb, t } from "../shared/i18n.js";

export function getPath(object, path) {
  return path.split(".").reduce((value, key) => (value == null ? undefined : value[key]), object);
}

export function setPath(object, path, value) {
  const keys = path.split(".");
  const last = keys.pop();
  keys.reduce((value, key) => (value[key] ??= {}), object)[last] = value;
}

// What separates the items of a "csv" input: a comma or a semicolon as any script writes it (Arabic ، ؛,
// full-width ，；, the ideographic 、).
const ITEM_SEPARATOR = /[,;،؛，；、]/;

// Values of an input as the API holds them: "lines" (one per line) and "csv" are lists of strings.
export function readInput(input) {
  if (input.type === "checkbox") return input.checked;
  const kind = input.dataset.kind;
  if (kind === "lines" || kind === "csv") {
    return input.value.split(kind === "lines" ? "\n" : ITEM_SEPARATOR).map((s) => s.trim()).filter(Boolean);
  }
  return input.value;
}

export function writeInput(input, value) {
  if (input.type === "checkbox") input.checked = value !== false;
  else if (Array.isArray(value)) input.value = value.join(input.dataset.kind === "csv" ? ", " : "\n");
  else input.value = value ?? "";
}

const LABELS = { up: N_("Move up"), down: N_("Move down"), remove: N_("Remove") };

// An entry's heading: what it holds, as its form's data-heading names it ("position company": "Engineer ·
// Acme"; "name|keywords": the name, else the keywords), or "" while those fields are empty.
export function entryContent(entry) {
  const value = (name) => {
    const input = entry.querySelector(`:scope > .fields [data-name="${name}"]`);
    return (input?.value || "").split(input?.dataset.kind === "lines" ? "\n" : "\0").map((s) => s.trim())
      .filter(Boolean).join(", ").replace(/\s+/g, " ");
  };
  const parts = (entry.dataset.heading || "").split(" ").filter(Boolean)
    .map((spec) => spec.split("|").map(value).find(Boolean)).filter(Boolean);
  const text = parts.join(" · ");
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

// An entry as the person knows it, wherever it is: its place and what it holds ("Talks › Item 2 (On engines)";
// the place is the numbered title, which typing does not change).
export function entryName(entry) {
  const context = entry.parentElement.dataset.context;
  const content = entryContent(entry);
  return (context ? `${context}${crumb}` : "") + entry.dataset.title + (content ? ` (${content})` : "");
}

// Show what the entry holds in its heading, and name its buttons after it (issue 25: "Engineer · Acme", not
// "Experience 3", which stays for an empty entry).
export function retitle(entry) {
  const content = entryContent(entry);
  const heading = entry.querySelector(":scope > .entry-bar .entry-title");
  heading.textContent = content || entry.dataset.title;
  heading.title = content ? entry.dataset.title : "";
  const name = entryName(entry);
  for (const button of entry.querySelectorAll(":scope > .entry-bar [data-action]")) {
    button.setAttribute("aria-label", `${t(LABELS[button.dataset.action])}: ${name}`);
  }
}

export class EntryLists {
  constructor(form, content, saver, announce, onStep = () => {}) {
    this.form = form;
    this.content = content;
    this.saver = saver;
    this.announce = announce;
    this.onStep = onStep;
    this.dragging = null;
    form.addEventListener("click", (event) => this.click(event));
    form.addEventListener("dragstart", (event) => this.dragStart(event));
    form.addEventListener("dragover", (event) => this.dragOver(event));
    form.addEventListener("drop", (event) => this.drop(event));
    form.addEventListener("dragend", () => this.dragEnd());
    form.addEventListener("input", (event) => { // the heading follows what is typed
      const entry = event.target.dataset?.name && event.target.closest("li.entry");
      if (entry) retitle(entry);
    });
  }

  renderAll() {
    for (const list of this.form.querySelectorAll("[data-list]")) {
      if (!list.closest("li.entry")) this.render(list.dataset.list, list); // nested ones come with their entry
    }
  }

  list(path) { return this.form.querySelector(`[data-list="${CSS.escape(path)}"]`); }

  items(path, create = false) {
    let items = getPath(this.content, path);
    if (!Array.isArray(items) && create) setPath(this.content, path, items = []);
    return Array.isArray(items) ? items : [];
  }

  render(path, list = this.list(path)) {
    const template = document.getElementById(`tpl-${list.dataset.template}`);
    const items = this.items(path);
    const context = list.dataset.context ? `${list.dataset.context}${crumb}` : "";
    list.replaceChildren(...items.map((item, index) => {
      const entry = template.content.firstElementChild.cloneNode(true);
      const title = template.dataset.title.replace("{n}", index + 1);
      Object.assign(entry.dataset, { index, title, heading: template.dataset.heading || "" });
      for (const input of entry.querySelectorAll("[data-name]")) {
        input.dataset.field = `contentJson.${path}.${index}.${input.dataset.name}`;
        writeInput(input, item[input.dataset.name]);
      }
      for (const button of entry.querySelectorAll(".entry-bar [data-action]")) {
        button.title = t(LABELS[button.dataset.action]);
      }
      entry.querySelector('[data-action="up"]').disabled = index === 0;
      entry.querySelector('[data-action="down"]').disabled = index === items.length - 1;
      for (const sublist of entry.querySelectorAll("[data-sublist]")) {
        const subPath = `${path}.${index}.${sublist.dataset.sublist}`;
        Object.assign(sublist.dataset, { list: subPath, field: `contentJson.${subPath}`, context: context + title });
        entry.querySelector(`[data-add-sub="${sublist.dataset.sublist}"]`).dataset.add = subPath;
        this.render(subPath, sublist);
      }
      return entry;
    }));
    for (const entry of list.children) retitle(entry); // in its list: its place's name is known
  }

  entryOf(element, path = null) {
    let entry = element.closest("li.entry");
    while (entry && path !== null && entry.parentElement.dataset.list !== path) {
      entry = entry.parentElement.closest("li.entry");
    }
    return entry && { entry, path: entry.parentElement.dataset.list, index: Number(entry.dataset.index) };
  }

  click(event) {
    const button = event.target.closest("button[data-action], button[data-add]");
    if (!button) return;
    if (button.dataset.add) { this.add(button.dataset.add); return; }
    const { path, index } = this.entryOf(button);
    const action = button.dataset.action;
    if (action === "remove") this.remove(path, index);
    else this.move(path, index, index + (action === "up" ? -1 : 1), action);
  }

  add(path) {
    const item = {};
    this.items(path, true).push(item);
    this.render(path);
    if (path === "projects") this.saver.addProject(item);
    else this.saver.changed(`contentJson.${path}`);
    this.onStep({ where: `contentJson.${path}.${this.items(path).length - 1}`, back: `contentJson.${path}` });
    this.list(path).lastElementChild.querySelector("input, textarea").focus();
    this.announce(t("Entry added."));
  }

  remove(path, index) {
    const words = entryName(this.list(path).children[index]); // before it is drawn again
    const [item] = this.items(path).splice(index, 1);
    this.render(path);
    if (path === "projects") this.saver.removeProject(item);
    else this.saver.changed(`contentJson.${path}`);
    this.onStep({ where: `contentJson.${path}.${index}`, removed: words });
    const list = this.list(path);
    const next = list.children[Math.min(index, list.children.length - 1)];
    (next?.querySelector("input, textarea") || this.form.querySelector(`[data-add="${CSS.escape(path)}"]`)).focus();
    // said by the "Removed … — Undo" notice, a live region of its own (editor/undo.js)
  }

  // Move the entry at `from` to position `to`; the focus stays on the moved entry's button.
  move(path, from, to, focusAction = null) {
    const items = this.items(path);
    if (to < 0 || to >= items.length || to === from) return;
    items.splice(to, 0, items.splice(from, 1)[0]);
    this.render(path);
    this.saver.changed(`contentJson.${path}`);
    this.onStep({ where: `contentJson.${path}.${to}`, back: `contentJson.${path}.${from}` });
    const bar = this.list(path).children[to].querySelector(".entry-bar");
    if (focusAction) {
      const button = bar.querySelector(`[data-action="${focusAction}"]`);
      const other = bar.querySelector(`[data-action="${focusAction === "up" ? "down" : "up"}"]`);
      (button.disabled ? other : button).focus(); // at an end its own button is off
    }
    this.announce(t("Entry moved to position {n}.", { n: to + 1 }));
  }

  dragStart(event) {
    if (!event.target.classList?.contains("drag-handle")) return;
    const { entry, path, index } = this.entryOf(event.target);
    this.dragging = { path, index };
    entry.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", String(index));
    event.dataTransfer.setDragImage(entry, 16, 16);
  }

  // The entry of the dragged one's list under the pointer (an item inside it counts as the entry).
  target(event) {
    return this.dragging && event.target.closest ? this.entryOf(event.target, this.dragging.path) : null;
  }

  dragOver(event) {
    const found = this.target(event);
    if (!found) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    for (const old of this.form.querySelectorAll(".drop-target")) old.classList.remove("drop-target");
    found.entry.classList.add("drop-target");
  }

  drop(event) {
    const found = this.target(event);
    if (!found) return;
    event.preventDefault();
    const { path, index } = this.dragging;
    this.dragEnd();
    this.move(path, index, found.index);
  }

  dragEnd() {
    this.dragging = null;
    for (const old of this.form.querySelectorAll(".dragging, .drop-target")) {
      old.classList.remove("dragging", "drop-target");
    }
  }
}
