// What the editor's modules share about a resume's fields, kept apart from the merge dialog (editor/merge.js,
// loaded only when a save is refused as made from an older copy): the fields a save sends, a copy of them,
// when two values are the same, and a form label's own words.

// The fields a save sends, as the editor's state holds them.
export const FIELDS = ["title", "status", "templateId", "contentJson", "sectionsVisibility", "targetJobDescription"];

// A copy of those fields of `resume` (an API answer, or the editor's state).
export function snapshot(resume) {
  const copy = {};
  for (const key of FIELDS) copy[key] = structuredClone(resume[key] ?? null);
  copy.targetJobDescription ??= "";
  return copy;
}

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// A value with its empty parts left out ("", null, [], {} and missing are all "nothing"), keys sorted.
export function canon(value) {
  if (Array.isArray(value)) return value.length ? value.map(canon) : null;
  if (isObject(value)) {
    const kept = {};
    for (const key of Object.keys(value).sort()) {
      const inner = canon(value[key]);
      if (inner !== null) kept[key] = inner;
    }
    return Object.keys(kept).length ? kept : null;
  }
  return value === undefined || value === "" ? null : value;
}

export function same(a, b) {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

export function ownWords(label) { // a label's own text, without its hint or its input
  return [...label.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
    .map((node) => node.textContent.trim()).join(" ").trim();
}
