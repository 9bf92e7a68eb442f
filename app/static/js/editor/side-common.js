// What the editor's side column (preview, export, share) shares: the resume's id,
// the export options (which the preview follows, so that it shows what the export will produce),
// and how sizes and times are written.
import { locale, t } from "../shared/i18n.js";

const OPTIONS_KEY = "resume-export-options:";

export const side = document.getElementById("side");
export const resumeId = side?.dataset.resumeId || "";
export const resumePath = `/api/resumes/${encodeURIComponent(resumeId)}`;

// The export options as POST /export takes them, from the export form.
export function readOptions() {
  const form = document.getElementById("export-form");
  return {
    pageSize: form.elements.pageSize.value,
    margin: form.elements.margin.value,
    colorScheme: form.elements.colorScheme.value,
    includePhoto: form.elements.includePhoto.checked,
  };
}

// The options last chosen for this resume, kept in this browser.
export function storedOptions() {
  try {
    return JSON.parse(localStorage.getItem(OPTIONS_KEY + resumeId) || "null");
  } catch {
    return null;
  }
}

export function storeOptions(options) {
  try {
    localStorage.setItem(OPTIONS_KEY + resumeId, JSON.stringify(options));
  } catch {
    // private mode: the options still apply to this page
  }
}


export function formatTime(iso) {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

export function formatBytes(bytes) {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit ? 1 : 0 }).format(value)} ${units[unit]}`;
}

// Put back the options last chosen for this resume before anything reads them.
const saved = storedOptions();
const exportForm = document.getElementById("export-form");
if (saved && exportForm) {
  for (const name of ["pageSize", "margin", "colorScheme"]) {
    const select = exportForm.elements[name];
    if ([...select.options].some((option) => option.value === saved[name])) select.value = saved[name];
  }
  exportForm.elements.includePhoto.checked = saved.includePhoto === true;
}

// The characters no font of the service draws (a private-use code, one of a script it has no face for):
// the PDF prints each as a box, and the preview and the export say which (undrawnCharacters), so that
// nobody finds out from a printed page.
export function undrawnText(characters) {
  const named = characters.map((c) => (c.name ? `${c.character} ${c.codePoint} (${c.name})` : c.codePoint));
  return t("Some characters print as a box: no font here draws them. {characters}",
    { characters: named.join(", ") });
}
