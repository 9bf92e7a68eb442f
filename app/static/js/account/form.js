// Shared by the account page's forms: API errors in the page's language, at their field.
import { showError } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";

// The API's messages are English; those a person meets here are shown translated, by code.
const MESSAGES = {
  INVALID_PASSWORD: N_("The current password is incorrect."),
  WEAK_PASSWORD: N_("At least 8 characters, with a letter and a digit."),
  INVALID_TWO_FACTOR_CODE: N_("That code is not valid. Try again."),
  LAST_SIGN_IN_METHOD: N_("This is the only way to sign in to your account. Set a password (forgot password) or link another account first."),
  PASSKEY_INVALID: N_("The passkey could not be added. Try again."),
};

// A right code spent already (details.reason "used"): the one that confirmed the set-up, seconds ago.
const CODE_USED = N_("That code has just been used. Wait for the next one from your app, or use an unused backup code.");

export function explain(error) {
  if (error.code === "INVALID_TWO_FACTOR_CODE" && error.details?.reason === "used") error.message = t(CODE_USED);
  else if (MESSAGES[error.code]) error.message = t(MESSAGES[error.code]);
  return error;
}

// Show ``error`` in ``form`` (at details.field, else as a toast) and move the focus to that field.
export function fail(form, error) {
  const note = showError(explain(error), form);
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
