// Two tabs, one resume (issue 24 point 6). When a save is refused because the resume was saved elsewhere
// since this tab loaded it (409 RESUME_CONFLICT), the merge dialog lists each field that differs between
// this tab's version ("yours") and the saved one ("the other version"), named as the form names it
// ("Experience 2 › Company"), with a choice for each. It is a three-way merge against the base, the
// version this tab last loaded or saved: a field changed on one side only is preset to that side's
// change, a field changed on both is for the person to choose. Lists whose entries were added, removed
// or reordered on one side are one field (the whole list). Nothing is lost: the refused save is kept in
// the version history, and so is the other version once the merged one replaces it.
// Loaded with the merge dialog (editor/conflict.js) when a save is first refused so; the fields, and when two
// values are the same, are editor/fields.js's.
import { crumb, onward, t } from "../shared/i18n.js";
import { canon, isObject, ownWords, same } from "./fields.js";

// Three lists of entries that can be merged entry by entry: as long as each other, and the entries at
// each place the same one (by their id, where they have one).
function parallel(...lists) {
  if (!lists.every(Array.isArray) || new Set(lists.map((list) => list.length)).size !== 1 || !lists[0].length) {
    return false;
  }
  return lists[0].every((_, index) => lists.every((list) => isObject(list[index]))
    && new Set(lists.map((list) => list[index].id)).size === 1);
}

function walk(base, mine, theirs, path, found) {
  if (/^sectionsVisibility\.[^.]+$/.test(path)) [base, mine, theirs] = [base, mine, theirs].map((v) => v !== false);
  if (same(mine, theirs)) return;
  if ([base, mine, theirs].every((value) => value == null || isObject(value))) {
    const keys = new Set([mine, theirs, base].flatMap((value) => (value ? Object.keys(value) : [])));
    for (const key of keys) walk(base?.[key], mine?.[key], theirs?.[key], path ? `${path}.${key}` : key, found);
    return;
  }
  if (parallel(base, mine, theirs)) {
    mine.forEach((_, index) => walk(base[index], mine[index], theirs[index], `${path}.${index}`, found));
    return;
  }
  const side = same(mine, base) ? "theirs" : same(theirs, base) ? "mine" : "both";
  found.push({ path, base, mine, theirs, side });
}

// [{path, base, mine, theirs, side}] for each value where `mine` and `theirs` (snapshots) differ; side is
// who changed it since `base`: "theirs" (the other version only), "mine" (this tab only) or "both".
export function differences(base, mine, theirs) {
  const found = [];
  walk(base, mine, theirs, "", found);
  return found;
}

// The merged fields: the other version, with this tab's value wherever `choices[i]` is "mine".
export function merge(theirs, found, choices) {
  const merged = structuredClone(theirs);
  found.forEach((difference, index) => {
    if (choices[index] !== "mine") return;
    const keys = difference.path.split(".");
    const last = keys.pop();
    const parent = keys.reduce((value, key) => (value[key] ??= {}), merged);
    if (difference.mine === undefined) delete parent[last];
    else parent[last] = structuredClone(difference.mine);
  });
  return merged;
}

// Naming a value as the form does ------------------------------------------------------------------
const form = () => document.getElementById("editor-form");

function entryTitles(element) { // ["Custom section 1", "Item 2"]: the entries `element` is in, outermost first
  const titles = [];
  for (let entry = element.closest("li.entry"); entry; entry = entry.parentElement.closest("li.entry")) {
    titles.unshift(entry.dataset.title); // its numbered place: the heading shows what it holds, which may differ
  }
  return titles;
}

const heading = (element) => element.closest("section.panel")?.querySelector("h2")?.textContent || "";

function ambiguous(words) { // a label that more than one place of the form outside the entries has
  const labels = [...form().querySelectorAll("label")].filter((label) => !label.closest("li.entry"));
  return labels.filter((label) => ownWords(label) === words).length > 1;
}

function listName(list) {
  const titles = entryTitles(list);
  if (titles.length) return [...titles, t("Items")].join(crumb);
  const before = list.previousElementSibling;
  if (before?.matches(".list-title")) return before.textContent;
  const name = heading(list);
  if (!ambiguous(name)) return name;
  const entry = document.getElementById(`tpl-${list.dataset.template}`)?.dataset.title.replace("{n}", "").trim();
  return `${name}${crumb}${entry}`;
}

// {text, element}: the words for the value at `path` and the element that shows it (if any).
export function place(path) {
  const root = form();
  const input = root.querySelector(`[data-field="${CSS.escape(path)}"]:not([data-list])`);
  if (input) {
    const words = input.closest("label") ? ownWords(input.closest("label")) : path;
    const titles = entryTitles(input);
    if (!titles.length && ambiguous(words)) titles.push(heading(input));
    return { text: [...titles, words].join(crumb), element: input };
  }
  const list = path.startsWith("contentJson.")
    && root.querySelector(`[data-list="${CSS.escape(path.slice("contentJson.".length))}"]`);
  if (list) return { text: listName(list), element: list };
  if (path === "contentJson.sectionOrder") {
    return { text: t("Order of the sections"), element: document.getElementById("body-sections") };
  }
  const keys = path.split(".");
  const key = keys.pop();
  if (!keys.length) return { text: key, element: null };
  const entries = root.querySelector(`[data-list="${CSS.escape(keys.slice(1).join("."))}"]`);
  const entry = /^\d+$/.test(key) && entries?.children[Number(key)];
  if (entry) return { text: entryTitles(entry.querySelector(".entry-title")).join(crumb), element: entry };
  const parent = place(keys.join("."));
  return { text: `${parent.text}${crumb}${key}`, element: parent.element };
}

// A value as the person reads it: a DOM node.
function entryLine(entry) {
  const words = Object.entries(entry || {}).filter(([key, value]) => key !== "id" && typeof value === "string"
    && value.trim()).slice(0, 2).map(([, value]) => value);
  return words.join(" · ") || t("(empty)");
}

export function showValue(value, path, element) {
  const box = document.createElement("div");
  box.className = "merge-value";
  let text;
  if (path === "contentJson.sectionOrder" && !value?.length) value = element.dataset.defaults.split(" ");
  const option = element?.tagName === "SELECT"
    && [...element.options].find((choice) => choice.value === (value ?? ""));
  if (option) {
    text = option.textContent; // "The one it is written in" for no language
  } else if (canon(value) === null && typeof value !== "boolean") {
    box.classList.add("muted");
    text = t("(empty)");
  } else if (typeof value === "boolean") {
    text = (value ? t("Shown on the resume") : t("Hidden from the resume"));
  } else if (path === "contentJson.sectionOrder" && Array.isArray(value)) {
    text = value.map((key) => document.getElementById(`h-${key}`)?.textContent || key).join(` ${onward} `);
  } else if (Array.isArray(value) && value.every((item) => !isObject(item))) {
    text = value.join(element?.dataset.kind === "csv" ? ", " : "\n");
  } else if (Array.isArray(value)) {
    const list = document.createElement("ol");
    list.append(...value.map((item) => Object.assign(document.createElement("li"), { textContent: entryLine(item) })));
    box.append(list);
    return box;
  } else {
    text = isObject(value) ? entryLine(value) : String(value);
  }
  box.textContent = text;
  return box;
}
