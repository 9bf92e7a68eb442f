// Showing a version of the resume in the history panel (editor/versions.js): the list of what changed since it
// (editor/versions-diff.js finds them), each change one line, "Experience 2 · Position: “Engineer” → “Senior
// engineer”" (the version's text in red, the text now in green), and, on demand, the whole
// version: every filled field of it under the form's labels, section by section in its own order.
import { isObject, ownWords } from "./fields.js";
import { N_, t } from "../shared/i18n.js";
import { entryTitle, formFields, heading, join, label, sectionOrder, shown } from "./versions-diff.js";

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// value: {text, empty, lines, items} (editor/versions-diff.js's shown()). Given the other side's value, a list of
// lines (highlights, courses) marks the lines the other side lacks: one changed bullet of ten stands out.
function valueNode(value, tag, other) {
  const node = element(tag, value.text, "history-value");
  if (value.empty) node.classList.add("empty");
  if (value.lines) node.classList.add("lines");
  if (!value.lines || !value.items || !other?.items) return node;
  const last = value.items.length - 1;
  node.replaceChildren(...value.items.flatMap((item, index) => [
    element("span", `${index ? "" : "“"}${item}${index === last ? "”" : ""}`,
            other.items.includes(item) ? "same" : "changed"), ...(index < last ? [document.createTextNode("\n")] : [])]));
  return node;
}

// A translated message with nodes in its places: fill("{field}: {old} → {new}", {field: "Title", ...}).
function fill(message, values) {
  const nodes = [];
  for (const part of t(message).split(/(\{\w+\})/)) {
    const name = part.match(/^\{(\w+)\}$/)?.[1];
    const value = name ? values[name] : part;
    if (value instanceof Node) nodes.push(value);
    else if (value) nodes.push(document.createTextNode(value));
  }
  return nodes;
}

function changeItem(change) {
  const li = element("li", undefined, "history-change");
  li.dataset.kind = change.kind;
  const name = element("span", change.name, "history-field");
  if (change.kind === "field") {
    li.append(...fill(N_("{field}: {old} → {new}"), { field: name, old: valueNode(change.old, "del", change.new),
                                                   new: valueNode(change.new, "ins", change.old) }));
  } else if (change.kind === "added") {
    li.append(...fill(N_("{entry} added: {value}"), { entry: name, value: valueNode(change.value, "ins") }));
  } else if (change.kind === "removed") {
    li.append(...fill(N_("{entry} removed: {value}"), { entry: name, value: valueNode(change.value, "del") }));
  } else {
    li.append(...fill(N_("{entry} was {place} in this version: {value}"),
                      { entry: name, place: change.place, value: valueNode(change.value, "span") }));
  }
  return li;
}

export function changeList(found) {
  return found.map(changeItem);
}

// The whole version -------------------------------------------------------------------------------
function rows(pairs) { // [[label, value, how]] -> a <dl> of the filled ones, or null
  const list = element("dl", undefined, "history-fields");
  for (const [name, value, how] of pairs) {
    const text = shown(value, how, false);
    if (text.empty) continue;
    list.append(element("dt", name), valueNode(text, "dd"));
  }
  return list.childElementCount ? list : null;
}

function entryNodes(form, entries, prefix = "") {
  const nodes = [];
  (Array.isArray(entries) ? entries : []).forEach((entry, index) => {
    if (!isObject(entry)) return;
    const title = join(prefix, entryTitle(form, index + 1));
    const { fields, sublist } = formFields(form);
    const known = new Set(["id", sublist?.key, ...fields.map((field) => field.name)]);
    const box = element("div", undefined, "history-entry");
    box.append(element("p", title, "history-entry-title"));
    const filled = rows([...fields.map((field) => [field.label, entry[field.name], field.kind]),
                         ...Object.keys(entry).filter((key) => !known.has(key)).map((key) => [key, entry[key]])]);
    if (filled) box.append(filled);
    nodes.push(box);
    if (sublist) nodes.push(...entryNodes(sublist.form, entry[sublist.key], title));
  });
  return nodes;
}

// Every filled field of `version`, under its section's heading (or a word that it holds nothing).
export function wholeVersion(version, defaults) {
  const content = version.contentJson || {};
  const person = content.personalInfo || {};
  const visible = version.sectionsVisibility || {};
  const headingLabel = ownWords(document.querySelector("#editor-form label.heading-name"));
  const titles = content.sectionTitles || {};
  const nodes = [];
  const section = (key, parts) => {
    const kept = parts.filter(Boolean);
    if (!kept.length) return;
    nodes.push(element("h4", heading(key) + (visible[key] === false ? ` (${t("hidden")})` : "")), ...kept);
  };
  const top = rows([[label("title"), version.title], [label("templateId"), version.templateId, { select: "templateId" }],
                    [label("contentJson.language"), content.language]]);
  if (top) nodes.push(top);
  const personal = [...document.querySelectorAll('#editor-form [data-field^="contentJson.personalInfo."]:not([data-list])')]
    .filter((field) => !field.closest("li.entry")).map((field) => field.dataset.field);
  section("personalInfo", [
    rows([...personal.map((path) => [label(path), person[path.split(".").pop()]]),
          [join(label("contentJson.personalInfo.summary"), headingLabel), titles.summary],
          ...Object.keys(person).filter((key) => key !== "profiles" && !personal.includes(`contentJson.personalInfo.${key}`))
            .map((key) => [key, person[key]])]),
    ...entryNodes("profiles", person.profiles)]);
  for (const key of sectionOrder(content, defaults)) {
    const renamed = rows([[headingLabel, titles[key]]]);
    if (key === "skills") {
      section(key, [renamed, ...entryNodes("skillGroups", content.skillGroups),
                    rows([[label("contentJson.skills"), content.skills, "lines"]])]);
    } else {
      section(key, [renamed, ...entryNodes(key, content[key])]);
    }
  }
  if (nodes.length === (top ? 1 : 0)) nodes.push(element("p", t("This version is empty."), "muted"));
  return nodes;
}
