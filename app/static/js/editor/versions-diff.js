// What changed between a version of the resume (editor/versions.js shows it) and the resume as the editor holds it
// now, named in the form's own words: "Experience 2 · Position", "Languages" (its visibility). Each change
// is {kind, name, old, new} for a field (old: in the version, new: now), or {kind: "added" | "removed" |
// "moved", name, value, place} for a whole entry. Entries of a list are matched by their id where both
// have one, else by content: the longest run of equal entries in order; between two of those, as many
// entries on each side are paired place by place, else each with the one sharing most fields with it; an
// entry removed in one place and added in another, the same or sharing a field, is "moved". Empty values
// ("", [], missing) are alike. The names come from the page: the form's labels and entry templates.
import { N_, listSeparator, t } from "../shared/i18n.js";
import { isObject, ownWords, same } from "./fields.js";
import { $ } from "../shared/dom.js";

const blank = (value) => same(value, null);
const list = (value) => (Array.isArray(value) ? value : []);

// Naming ------------------------------------------------------------------------------------------
export const join = (...parts) => parts.flat(Infinity).filter((part, index, all) => part && part !== all[index - 1])
  .join(" · ");

export function heading(key) {
  return $(key === "personalInfo" ? "h-personal" : `h-${key}`)?.textContent || key;
}

function input(path) {
  return $("editor-form").querySelector(`[data-field="${CSS.escape(path)}"]:not([data-list])`);
}

export function label(path) { // "contentJson.personalInfo.name" -> "Name"
  const field = input(path)?.closest("label");
  return field ? ownWords(field) : path.split(".").pop();
}

export function entryTitle(form, n) { // ("workExperience", 2) -> "Experience 2"
  return $(`tpl-${form}`)?.dataset.title.replace("{n}", n) || `${form} ${n}`;
}

// [{name, label, kind}] of an entry form, in the form's order; and its list inside each entry, if any.
export function formFields(form) {
  const content = $(`tpl-${form}`)?.content;
  const fields = [...(content?.querySelectorAll(".fields [data-name]") || [])].map((field) => ({
    name: field.dataset.name, label: ownWords(field.closest("label")), kind: field.dataset.kind || "text",
  }));
  const sub = content?.querySelector("[data-sublist]");
  return { fields, sublist: sub ? { key: sub.dataset.sublist, form: sub.dataset.template } : null };
}

// The body sections in the order `content` has them (the ones it leaves out follow in the default order).
export function sectionOrder(content, defaults) {
  const stored = list(content?.sectionOrder).filter((key) => defaults.includes(key));
  return [...new Set(stored), ...defaults.filter((key) => !stored.includes(key))];
}

// Values as the person reads them: {text, empty, lines, items (a list's, one a line)} --------------
// What names an entry of a form: the fields its template's data-heading lists (the section registry's
// `heading`: "position company"; "degree|studyType|area": the first of them that is filled), else its
// first two texts.
export function entryWords(form, entry) {
  const value = (name) => {
    const found = entry?.[name];
    const parts = Array.isArray(found) ? found : [found];
    return parts.filter((part) => typeof part === "string" && part.trim()).join(", ");
  };
  const specs = ($(`tpl-${form}`)?.dataset.heading || "").split(" ").filter(Boolean);
  const words = specs.map((spec) => spec.split("|").map(value).find(Boolean)).filter(Boolean);
  if (!words.length) {
    words.push(...Object.entries(entry || {}).filter(([key, v]) => key !== "id" && typeof v === "string" && v.trim())
      .slice(0, 2).map(([, v]) => v));
  }
  return words.join(" · ");
}

// `how`: "text", "lines", "csv" (an input's kind), "month", "visible", "order", or {select: path}.
export function shown(value, how = "text", quote = true) {
  const q = (text) => (quote ? `“${text}”` : text);
  if (isObject(how)) {
    const option = [...(input(how.select)?.options || [])].find((choice) => choice.value === (value ?? ""));
    if (option) return { text: option.textContent };
  }
  if (how === "visible") return { text: (value === false ? t("Hidden from the resume") : t("Shown on the resume")) };
  if (blank(value)) return { text: t("(empty)"), empty: true };
  if (how === "order") return { text: value.join(listSeparator) };
  if (Array.isArray(value)) {
    const items = value.map((item) => (isObject(item) ? entryWords("", item) : String(item)));
    return how === "csv" ? { text: q(items.join(", ")) } : { text: q(items.join("\n")), lines: items.length > 1, items };
  }
  if (isObject(value)) {
    return { text: q(Object.values(value).filter((v) => typeof v === "string" && v).join(", ")) };
  }
  const text = String(value);
  return { text: q(text), lines: text.includes("\n") };
}

// Matching the entries of two lists ---------------------------------------------------------------
const hasId = (entry) => typeof entry?.id === "string" && entry.id !== "";
const distinct = (a, b) => hasId(a) && hasId(b) && a.id !== b.id;
const match = (a, b) => (hasId(a) && hasId(b) ? a.id === b.id : same(a, b));

function likeness(a, b) { // the fields two entries hold alike
  if (!isObject(a) || !isObject(b)) return 0;
  return Object.keys(a).filter((key) => key !== "id" && !blank(a[key]) && same(a[key], b[key])).length;
}

// Pairs of the entries between two matched ones: as many on each side, place by place; else by likeness.
function pairGap(olds, news, pairs) {
  const taken = new Set();
  for (const i of olds) {
    let best = null;
    if (olds.length === news.length) {
      best = news[olds.indexOf(i)];
    } else {
      let score = 0;
      for (const j of news) {
        const s = likeness(pairs.old[i], pairs.new[j]);
        if (!taken.has(j) && s > score && [...taken].every((k) => k < j)) [best, score] = [j, s];
      }
    }
    if (best !== null && !distinct(pairs.old[i], pairs.new[best])) {
      taken.add(best);
      pairs.out.push([i, best]);
    } else {
      pairs.out.push([i, null]);
    }
  }
  for (const j of news) if (!taken.has(j)) pairs.out.push([null, j]);
}

// [[i, j, moved]]: each entry of `olds` (at i) with its entry in `news` (at j), or null where it has none.
export function align(olds, news) {
  const n = olds.length;
  const m = news.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i][j] = match(olds[i], news[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const pairs = { old: olds, new: news, out: [] };
  let [i, j, gapOld, gapNew] = [0, 0, [], []];
  while (i < n || j < m) {
    if (i < n && j < m && match(olds[i], news[j]) && lcs[i][j] === lcs[i + 1][j + 1] + 1) {
      pairGap(gapOld, gapNew, pairs);
      [gapOld, gapNew] = [[], []];
      pairs.out.push([i, j]);
      i += 1;
      j += 1;
    } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      gapOld.push(i);
      i += 1;
    } else {
      gapNew.push(j);
      j += 1;
    }
  }
  pairGap(gapOld, gapNew, pairs);
  // an entry removed in one place and added in another, the same or the most like it: moved
  const out = pairs.out;
  for (const added of out.filter(([a]) => a === null)) {
    const now = news[added[1]];
    const removed = out.filter(([a, b]) => b === null && a !== null && !distinct(olds[a], now));
    const score = (pair) => (match(olds[pair[0]], now) ? Infinity : likeness(olds[pair[0]], now));
    const best = removed.reduce((top, pair) => (score(pair) > (top ? score(top) : 0) ? pair : top), null);
    if (!best) continue;
    added.splice(0, 3, best[0], added[1], true);
    out.splice(out.indexOf(best), 1);
  }
  let last = -1; // in the order of the list now, each removed entry after the one it followed
  const place = new Map(out.map((pair) => [pair, pair[1] === null ? last + 0.5 : (last = pair[1])]));
  return out.sort((x, y) => place.get(x) - place.get(y));
}

// The changes -------------------------------------------------------------------------------------
class Changes {
  constructor() { this.found = []; }

  field(name, old, now, how = "text") {
    const equal = how === "visible" ? (old !== false) === (now !== false) : same(old, now);
    if (!equal) this.found.push({ kind: "field", name: join(name), old: shown(old, how), new: shown(now, how) });
  }

  entry(kind, name, form, entry, place) {
    this.found.push({ kind, name: join(name), value: shown(entryWords(form, entry) || null), place });
  }

  entries(form, olds, news, prefix = []) {
    [olds, news] = [list(olds), list(news)];
    for (const [i, j, moved] of align(olds, news)) {
      if (j === null) {
        this.entry("removed", [prefix, entryTitle(form, i + 1)], form, olds[i]);
        continue;
      }
      const name = [prefix, entryTitle(form, j + 1)];
      if (i === null) {
        this.entry("added", name, form, news[j]);
        continue;
      }
      if (moved) this.entry("moved", name, form, news[j], join(prefix, entryTitle(form, i + 1)));
      this.inside(form, olds[i], news[j], name);
    }
  }

  inside(form, old, now, name) { // the fields of one entry, then its own list, then what the form lacks
    [old, now] = [isObject(old) ? old : {}, isObject(now) ? now : {}];
    const { fields, sublist } = formFields(form);
    for (const field of fields) this.field([name, field.label], old[field.name], now[field.name], field.kind);
    if (sublist) this.entries(sublist.form, old[sublist.key], now[sublist.key], name);
    const known = new Set(["id", sublist?.key, ...fields.map((field) => field.name)]);
    for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
      if (!known.has(key)) this.field([name, key], old[key], now[key]);
    }
  }
}

const HEADING = N_("Heading on the resume");

// Two orders of the sections, as far as they differ: [Work experience, Education] and the other way round,
// with "…" for the sections before and after that are in the same places.
function moved(before, after) {
  let [start, end] = [0, before.length];
  while (start < end && before[start] === after[start]) start += 1;
  while (end > start && before[end - 1] === after[end - 1]) end -= 1;
  const part = (order) => [...(start ? ["…"] : []), ...order.slice(start, end).map(heading),
                           ...(end < order.length ? ["…"] : [])];
  return [part(before), part(after)];
}

// Each change from `version` to `now` (both {title, templateId, contentJson, sectionsVisibility}), in the
// order the form shows them; `defaults`: the body sections in their default order.
export function differences(version, now, defaults) {
  const changes = new Changes();
  const [old, cur] = [version.contentJson || {}, now.contentJson || {}];
  const [oldShown, nowShown] = [version.sectionsVisibility || {}, now.sectionsVisibility || {}];
  const headingLabel = ownWords(document.querySelector("#editor-form label.heading-name")) || t(HEADING);
  const visibility = (key) => changes.field(heading(key), oldShown[key], nowShown[key], "visible");
  const titles = (key, name) => changes.field([name, headingLabel], old.sectionTitles?.[key],
                                              cur.sectionTitles?.[key]);
  changes.field(label("title"), version.title, now.title);
  changes.field(label("templateId"), version.templateId, now.templateId, { select: "templateId" });
  changes.field(label("contentJson.language"), old.language, cur.language, { select: "contentJson.language" });

  visibility("personalInfo");
  const [oldPerson, nowPerson] = [old.personalInfo || {}, cur.personalInfo || {}];
  const personal = [...$("editor-form").querySelectorAll('[data-field^="contentJson.personalInfo."]:not([data-list])')]
    .filter((field) => !field.closest("li.entry")).map((field) => field.dataset.field.split(".").pop());
  for (const key of personal) {
    changes.field(label(`contentJson.personalInfo.${key}`), oldPerson[key], nowPerson[key]);
    if (key === "summary") titles("summary", label("contentJson.personalInfo.summary"));
  }
  for (const key of new Set([...Object.keys(oldPerson), ...Object.keys(nowPerson)])) {
    if (!personal.includes(key) && key !== "profiles") {
      changes.field([heading("personalInfo"), key], oldPerson[key], nowPerson[key]);
    }
  }
  changes.entries("profiles", oldPerson.profiles, nowPerson.profiles);

  const [before, after] = [sectionOrder(old, defaults), sectionOrder(cur, defaults)];
  if (!same(before, after)) changes.field(t("Order of the sections"), ...moved(before, after), "order");
  for (const key of after) {
    visibility(key);
    if (key !== "customSections") titles(key, heading(key));
    if (key === "skills") {
      changes.entries("skillGroups", old.skillGroups, cur.skillGroups);
      changes.field([heading(key), label("contentJson.skills")], old.skills, cur.skills, "lines");
    } else {
      changes.entries(key, old[key], cur[key]);
    }
  }
  const known = new Set(["personalInfo", "skillGroups", "sectionOrder", "language", "sectionTitles", ...defaults]);
  for (const key of new Set([...Object.keys(old), ...Object.keys(cur)])) {
    if (!known.has(key)) changes.field(key, old[key], cur[key]);
  }
  return changes.found;
}
