// The webhook form (create and edit share it): read it into an API body, fill it from a webhook, and
// show an API error at the field it names, in the page's language.
import { showError, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";

// The body of POST /api/webhooks (or of the PUT, where an empty secret means "keep the current one").
export function readForm(form) {
  const body = {
    url: form.elements.url.value.trim(),
    events: [...form.querySelectorAll('input[name="events"]:checked')].map((box) => box.value),
  };
  const secret = form.elements.secret.value.trim();
  if (secret) body.secret = secret;
  return body;
}

export function fillForm(form, webhook) {
  form.elements.url.value = webhook.url;
  form.elements.secret.value = "";
  for (const box of form.querySelectorAll('input[name="events"]')) box.checked = webhook.events.includes(box.value);
  clearErrors(form);
}

export function clearErrors(form) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const old of form.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
}

// The API says "url: Must be an http(s) URL." in English; the page says it in the reader's language.
// An address refused for where it points (a private network, a name that does not resolve) keeps the
// API's reason, which names it.
function fieldMessage(field, error) {
  const reason = error.message.replace(/^[\w.]+:\s*/, "");
  if (field === "events") return t("Choose at least one event.");
  if (field === "secret") return t("The secret needs at least 16 characters.");
  if (/required|null/i.test(reason)) return t("This field is required.");
  if (field === "url" && /http\(s\) URL|Longer than/i.test(reason)) {
    return t("Enter a web address that starts with http:// or https://.");
  }
  if (field === "url") return t("This address cannot receive webhooks: {reason}", { reason });
  return reason;
}

// Show an error from saving ``form``: at its field when the API names one ("events.0" is the events
// checklist), else as a toast. Moves the focus to the field at fault.
export function showFormError(error, form) {
  if (error.code === "WEBHOOK_LIMIT_EXCEEDED") {
    return toast(t("You already have the most webhooks an account can have ({max}).",
                   { max: error.details.limit ?? 10 }), "error");
  }
  if (error.field) {
    const field = error.field.split(".")[0];
    error.field = field;
    error.message = fieldMessage(field, error);
    const note = showError(error, form);
    const target = form.querySelector(`[data-field="${CSS.escape(field)}"]`);
    const focusable = target?.matches("input") ? target : target?.querySelector("input");
    focusable?.focus();
    return note;
  }
  return showError(error, form);
}
