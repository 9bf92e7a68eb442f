// Shared by the account page's forms: API errors at their field (the API words them in the page's language).
import { showError } from "../shared/api.js";

// Show ``error`` in ``form`` (at details.field, else as a toast) and move the focus to that field.
export function fail(form, error) {
  const note = showError(error, form);
  const field = error.field && form.querySelector(`[data-field="${CSS.escape(error.field)}"]`);
  if (field && typeof field.focus === "function") field.focus();
  return note;
}

// A field's own error, found before asking the API (e.g. new passwords that differ).
export function failAt(form, field, message) {
  return fail(form, { field, message, code: "" });
}

export function clear(form) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const old of form.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
}

// Run ``action`` with the form's submit button disabled (no double submit).
export async function busy(form, action) {
  const button = form.querySelector("[type=submit]");
  if (button) button.disabled = true;
  try {
    return await action();
  } finally {
    if (button) button.disabled = false;
  }
}
