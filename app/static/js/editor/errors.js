// A save the API refused, said where the person is looking and in the form's words (issue 25): the API names
// a value by its path and in English ("contentJson.workExperience.2.endDate: Use the YYYY-MM format ..."); the
// editor says, at the input, which field of which entry and what to do ("End of Experience 3 (Engineer ·
// Acme): use the form YYYY-MM, like 2024-03."), in the page's language. Every refused value of the answer
// (details.errors) is marked; the toolbar's save state says the save failed and, as a button, takes the
// focus to the first marked field. The text stays in the inputs: nothing typed is lost.
import { toast } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { entryName } from "./entries.js";
import { ownWords } from "./fields.js";

const form = () => document.getElementById("editor-form");

// The input that shows the value at `path`: its own, or the closest above ("contentJson.skills.3": the skills
// box); `exact` is false for a value inside the input's list (a line of it).
function inputFor(path) {
  let field = path;
  while (field) {
    const input = form().querySelector(`[data-field="${CSS.escape(field)}"]:not([data-list])`);
    if (input) return { input, exact: field === path };
    field = field.includes(".") ? field.slice(0, field.lastIndexOf(".")) : "";
  }
  return { input: null, exact: false };
}

// What to do, in words, from the API's message (the marshmallow messages of app/content/schema.py and
// app/resumes/schemas.py); one it has no words for is shown as the API says it, without the path.
// The API's message comes in the page's language (a msgid of the catalogue): known by its id or its translation.
const said = (text, message) => text === message || text === t(message);

function advice(message, input, exact) {
  const text = message.replace(/^[\w.]+: /, "");
  if (said(text, N_("Use the YYYY-MM format (e.g. 2024-03), or an empty string.")) || /YYYY-MM/.test(text)) {
    return t("use the form YYYY-MM, like 2024-03");
  }
  if (said(text, N_("Must not be before startDate."))) return t("it cannot be before the start");
  if (said(text, N_("Not a valid URL.")) || /valid URL/i.test(text)) {
    return t("enter a whole web address, starting with https://");
  }
  const max = text.match(/(?:maximum length|and) (\d+)\.?$/)?.[1];
  if (max && !exact) return t("each item may have at most {max} characters", { max });
  if (max && input.dataset.kind) return t("at most {max} items", { max });
  if ((max || /minimum length/.test(text)) && !input.value.trim()) return t("it cannot be empty");
  if (max) return t("use at most {max} characters (now {n})", { max, n: input.value.length });
  return text.replace(/[.。]$/, ""); // the sentence the form's words end
}

// A label that more than one place outside the entries has ("Heading on the resume"): named with its section.
function where(input) {
  const entry = input.closest("li.entry");
  if (entry) return entryName(entry);
  const words = ownWords(input.closest("label") || document.createElement("label"));
  const same = [...form().querySelectorAll("label")].filter((label) => !label.closest("li.entry")
    && ownWords(label) === words);
  return same.length > 1 ? input.closest("section.panel")?.querySelector("h2")?.textContent || "" : "";
}

export function sayRefused(path, message, input, exact) {
  const label = input.closest("label");
  const field = (label && ownWords(label)) || path.split(".").pop();
  const what = advice(message, input, exact);
  const entry = where(input);
  return entry ? t("{field} of {entry}: {what}.", { field, entry, what }) : t("{field}: {what}.", { field, what });
}

// Remove the marks: all of them, or those of the fields under these top-level keys (["title", "contentJson"]).
export function clearErrors(keys = null) {
  for (const input of form().querySelectorAll("[aria-invalid]")) {
    if (keys && !keys.includes(input.dataset.field?.split(".")[0])) continue;
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    input.parentElement.querySelector(":scope > .field-error")?.remove();
  }
}

// Mark every value the error refused; a refusal without a field of the form is said in the page's notice.
export function showRefused(error) {
  const refused = error.details?.errors && error.code === "VALIDATION_ERROR"
    ? Object.entries(error.details.errors) : [[error.field || "", error.message]];
  clearErrors(refused.map(([path]) => path.split(".")[0])); // what was refused before in them: this answer says
  let shown = 0;
  for (const [path, message] of refused) {
    const { input, exact } = path ? inputFor(path) : { input: null };
    if (!input) continue;
    const words = error.code === "VALIDATION_ERROR" ? sayRefused(path, message, input, exact)
      : message.replace(/^[\w.]+: /, "");
    let note = input.parentElement.querySelector(":scope > .field-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "field-error";
      note.id = `error-${input.dataset.field.replace(/\W/g, "-")}`;
      input.insertAdjacentElement("afterend", note);
    }
    note.textContent = words;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
    shown += 1;
  }
  if (!shown) toast(error.message, "error");
}

// The save state says the save failed; a button in it goes to the first refused field.
export function showFailed(status, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link save-failed";
  button.textContent = text;
  button.title = t("Go to the field");
  button.addEventListener("click", () => {
    const input = form().querySelector('[aria-invalid="true"]');
    if (!input) return;
    input.focus({ preventScroll: true });
    input.scrollIntoView({ block: "center" });
  });
  status.replaceChildren(button);
}
