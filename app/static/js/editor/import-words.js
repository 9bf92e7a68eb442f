// What the import report's notes say and where they are in the form (editor/import.js shows them): the input a
// note's path points at, its field's name, the entry a note belongs to (its group) and that entry's title as
// the form shows it now ("Experience 2: Engineer · Acme"), a note's short chip and its sentence.
import { t } from "../shared/i18n.js";
import { entryContent } from "./entries.js";
import { ownWords } from "./fields.js";
import { contentPath } from "./import-fixes.js";

const form = document.getElementById("editor-form");

// The input a path points at: a field ("workExperience.0.position"), else the field or entry holding it
// ("workExperience.0.highlights.2": the highlights; "customSections.0": the entry's first input), else the
// first input of its section ("personalInfo").
export function inputOf(path) {
  const keys = path.split(".");
  for (let end = keys.length; end > 0; end -= 1) {
    const field = form.querySelector(`[data-field="contentJson.${CSS.escape(keys.slice(0, end).join("."))}"]`);
    if (field && !field.dataset.list) return field;
    if (end > 1 && /^\d+$/.test(keys[end - 1])) {
      const list = form.querySelector(`[data-list="${CSS.escape(keys.slice(0, end - 1).join("."))}"]`);
      const entry = list?.children[Number(keys[end - 1])];
      if (entry) return entry.querySelector("input, textarea");
    }
  }
  return form.querySelector(`[data-field^="contentJson.${CSS.escape(keys[0])}."]`);
}

// A field's name as its label says it ("Position"); the path's last word for one the form does not show.
export function fieldName(path) {
  const input = inputOf(path);
  const shown = input && `${path}.`.startsWith(`${input.dataset.field.slice("contentJson.".length)}.`);
  const label = shown && input.closest("label");
  return (label && ownWords(label)) || path.split(".").findLast((key) => !/^\d+$/.test(key));
}

// The two fields' last words, sorted ("company location").
const pairOf = (note) => [note.path, contentPath(note.swap)].map((path) => path.split(".").at(-1)).sort().join(" ");

const KNOWN = new Set(["cut", "order", "place", "guessed", "no_dates", "year_only", "custom_section", "by_content",
                       "unplaced", "not_found", "merged", "ai"]);

// A note whose sentence is "{field} and {other} may be the wrong way round" (it names both fields).
export const mixedUp = (note) => Boolean(note.swap) && (note.reason === "order"
  ? !["company position", "degree school"].includes(pairOf(note)) : !KNOWN.has(note.reason));

const mixedUpText = (note) => t("{field} and {other} may be the wrong way round: check which is which.",
                            { field: fieldName(note.path), other: fieldName(contentPath(note.swap)) });

export function reasonText(note) {
  const entry = note.path.split(".")[0];
  switch (note.reason) {
    case "cut": return t("Too long for its field ({field}): it was cut at a sentence. The rest is here:",
                         { field: fieldName(note.path) });
    case "order":
      if (mixedUp(note)) return mixedUpText(note);
      return entry === "education"
        ? t("Degree and school were told apart by their order alone: check which is which.")
        : t("Job title and employer were told apart by their order alone: check which is which.");
    case "place": return t("Employer and location were split at a comma: check which is which.");
    case "guessed": return t("Headline and address were told apart by their words alone: check which is which.");
    case "no_dates": return t("No dates were found for this entry.");
    case "year_only": return t("Only years were printed: each month was set to January. Set the real ones.");
    case "custom_section":
      return t("“{title}” is not a section we know: it was kept as a section of its own.", { title: note.text });
    case "by_content":
      return t("“{title}” is not a section we know: it was read as this section from its dated entries. Check it.",
               { title: note.text });
    case "unplaced": return t("This line of the header fitted no field:");
    case "not_found":
      return note.path.endsWith(".email") ? t("No email address was found.") : t("No name was found.");
    case "merged": return t("This bullet may be several run together:");
    case "ai": return t("Filled in by the AI model, not read as printed: check it against your file.");
    default: return mixedUp(note) ? mixedUpText(note) : t("Check this field.");
  }
}

export function chipText(note) {
  const chips = {
    cut: t("Cut to fit"), order: t("Which is which?"), place: t("Which is which?"), guessed: t("Which is which?"),
    no_dates: t("No dates"), year_only: t("Years only"),
    custom_section: t("New section"), by_content: t("Section guessed"), unplaced: t("Fitted no field"),
    not_found: t("Not found"),
    merged: t("Two in one?"), ai: t("From the AI"),
  };
  return chips[note.reason] ?? (note.swap ? t("Mixed up?") : t("To check"));
}

// The entry (li.entry) or the section a group of notes is about: its title, its place in the form.
export function groupKey(path) {
  const keys = path.split(".");
  const index = keys.findIndex((key) => /^\d+$/.test(key));
  return index > 0 ? keys.slice(0, index + 1).join(".") : keys[0];
}

export function anchorOf(key) {
  const keys = key.split(".");
  if (/^\d+$/.test(keys.at(-1))) {
    return form.querySelector(`[data-list="${CSS.escape(keys.slice(0, -1).join("."))}"]`)
      ?.children[Number(keys.at(-1))] ?? null;
  }
  return inputOf(key)?.closest("section") ?? null;
}

export function groupTitle(key) {
  const anchor = anchorOf(key);
  if (anchor?.matches("li.entry")) {
    const content = entryContent(anchor);
    return content ? t("{entry}: {what}", { entry: anchor.dataset.title, what: content }) : anchor.dataset.title;
  }
  return anchor?.querySelector("h2")?.textContent.trim() || key;
}
