// "From your file": after an import, the imported PDF's own pages and what the reading cut, left out or
// guessed, shown above the preview until the owner dismisses it. Read from GET /api/resumes/<id>/import-report (404: the
// resume was not imported, or the report was dismissed: nothing is shown). Each item says what to check
// in words and offers to go to the field; text cut off a field, or a header line that fitted none, is
// shown whole with a Copy button, so nothing of the file is lost. "Done" is DELETE on the same URL.
// Loaded only when there is a report (editor_on_demand.js asks for it, then hands it to showImportReport).
import { request } from "./api.js";
import { t } from "./i18n.js";
import { ownWords } from "./editor_fields.js";

const panel = document.getElementById("import-report");

function reasonText(item) {
  const entry = item.path.split(".")[0];
  switch (item.reason) {
    case "order":
      return entry === "education"
        ? t("Degree and school were told apart by their order alone: check which is which.")
        : t("Job title and employer were told apart by their order alone: check which is which.");
    case "no_dates": return t("No dates were found for this entry.");
    case "year_only": return t("Only years were printed: each month was set to January. Set the real ones.");
    case "custom_section":
      return t("“{title}” is not a section we know: it was kept as a section of its own.", { title: item.text });
    case "unplaced": return t("This line of the header fitted no field:");
    case "not_found":
      return item.path.endsWith(".email") ? t("No email address was found.") : t("No name was found.");
    default: return item.reason;
  }
}

// The input a report path points at: a field ("workExperience.0.position"), else the entry's first input
// ("customSections.0"), else the first input of the personal information ("personalInfo").
function inputOf(path) {
  const form = document.getElementById("editor-form");
  const field = form.querySelector(`[data-field="contentJson.${CSS.escape(path)}"]`);
  if (field && !field.dataset.list) return field;
  const keys = path.split(".");
  const index = keys.findLastIndex((key) => /^\d+$/.test(key));
  if (index >= 0) {
    const list = form.querySelector(`[data-list="${CSS.escape(keys.slice(0, index).join("."))}"]`);
    const entry = list?.children[Number(keys[index])];
    if (entry) return entry.querySelector("input, textarea");
  }
  return form.querySelector(`[data-field^="contentJson.${CSS.escape(keys[0])}."]`);
}

// Where the input is, in the form's words: "Experience 1 › Job title".
function placeOf(input) {
  if (!input) return "";
  const label = input.closest("label");
  const name = label ? ownWords(label) : "";
  const entry = input.closest("li.entry")?.dataset.title; // its numbered place ("Experience 1")
  return [entry, name].filter(Boolean).join(" › ");
}

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function goTo(path) {
  const input = inputOf(path);
  if (!input) return;
  input.scrollIntoView({ block: "center" });
  input.focus({ preventScroll: true });
}

function copyBox(text, label, more = []) {
  const box = element("textarea", { readOnly: true, value: text, rows: Math.min(6, Math.max(1, Math.ceil(text.length / 60))) });
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
  return [box, element("div", { className: "report-actions" }, copy, ...more, said)];
}

function goButton(path) {
  const input = inputOf(path);
  if (!input) return [];
  const button = element("button", { type: "button", className: "secondary", textContent: t("Go to the field") });
  button.setAttribute("aria-label", `${t("Go to the field")}: ${placeOf(input)}`);
  button.addEventListener("click", () => goTo(path));
  return [button];
}

function items(report) {
  const list = [];
  for (const item of report.cut) {
    const place = placeOf(inputOf(item.path));
    list.push(element("li", {},
      element("p", {}, t("Too long for its field ({field}): it was cut at a sentence. The rest is here:",
                         { field: place || item.path })),
      ...copyBox(item.text, t("The rest of the text"), goButton(item.path))));
  }
  for (const item of report.unsure) {
    const place = item.reason === "unplaced" ? "" : placeOf(inputOf(item.path));
    const children = [element("p", {}, place ? element("strong", {}, `${place}: `) : "", reasonText(item))];
    if (item.reason === "unplaced") children.push(...copyBox(item.text, t("A line of the header")));
    else children.push(...goButton(item.path));
    list.push(element("li", {}, ...children));
  }
  for (const path of report.dropped) {
    list.push(element("li", {}, element("p", {}, t("Not kept:"), " ", element("code", {}, path))));
  }
  return list;
}

// The imported PDF's own pages, to compare with the form: each opens full size in a tab of its own.
function pictures(resumeId, report) {
  return Array.from({ length: report.pages || 0 }, (_, index) => {
    const url = `/api/resumes/${encodeURIComponent(resumeId)}/import-report/pages/${index + 1}`;
    const label = t("Page {n} of {file}", { n: index + 1, file: report.fileName || t("the document") });
    const image = element("img", { src: url, alt: label, loading: "lazy", width: 160 });
    const link = element("a", { href: url, target: "_blank", rel: "noopener" }, image);
    link.setAttribute("aria-label", `${label} (${t("opens in a new tab")})`);
    return link;
  });
}

// `report`: GET /api/resumes/<id>/import-report's answer.
export function showImportReport(resumeId, report) {
  const found = items(report);
  if (!found.length && !report.pages) return;
  const file = report.fileName || t("the document");
  const intro = found.length
    ? t("{file} was read into the form. Check these before your first export:", { file })
    : t("{file} was read into the form, and nothing in it was left out or guessed. Compare it with the form "
        + "before your first export.", { file });
  panel.querySelector("#import-report-intro").textContent = intro;
  panel.querySelector("#import-report-pages").replaceChildren(...pictures(resumeId, report));
  panel.querySelector("#import-report-items").replaceChildren(...found);
  panel.querySelector("#import-report-done").addEventListener("click", async (event) => {
    event.target.disabled = true;
    try {
      await request("DELETE", `/api/resumes/${encodeURIComponent(resumeId)}/import-report`);
      panel.hidden = true;
      document.getElementById("editor-form").querySelector("input, textarea")?.focus();
    } catch {
      event.target.disabled = false;
    }
  });
  panel.hidden = false;
}
