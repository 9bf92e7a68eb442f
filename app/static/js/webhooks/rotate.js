// Secret rotation: POST /rotate-secret after a confirmation (the person may give the new secret), then
// the new secret shown once, with the time until which the previous one still signs: for 24 hours
// every delivery carries both signatures, so the receiver can switch over without missing one.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { copyText, when } from "./format.js";
import { clearErrors, showFormError } from "./form.js";

const dialog = document.getElementById("rotate-dialog");
const form = document.getElementById("rotate-form");
const box = document.getElementById("rotated-secret");
const value = document.getElementById("rotated-secret-value");

let rotating = null; // the webhook in the dialog
let hooks = null; // {rotated(webhook), missing(error), returnFocus(id)} from the page
let shown = false; // the dialog closed on a rotation: the focus goes to the new secret, not back

// Ask before rotating the secret of ``webhook``.
export function openRotate(webhook, callbacks) {
  rotating = webhook;
  hooks = callbacks;
  shown = false;
  form.reset();
  clearErrors(form);
  document.getElementById("rotate-text").textContent = t(
    "Rotate the signing secret of {url}? For 24 hours each delivery is signed with both the new and the current "
    + "secret, so your server can switch over without missing one.", { url: webhook.url });
  dialog.showModal();
  form.elements.secret.focus();
}

function show(webhook, answer) {
  document.getElementById("rotated-secret-text").textContent = t(
    "The new signing secret of {url}. Copy it now and put it on your server: it is shown here only once.",
    { url: webhook.url });
  value.textContent = answer.secret;
  document.getElementById("rotated-secret-expiry").textContent = t(
    "The previous secret stops signing deliveries at {time}.", { time: when(answer.previousSecretExpiresAt) });
  box.hidden = false;
  document.getElementById("copy-rotated-secret").focus();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const submit = form.querySelector('button[type="submit"]');
  const secret = form.elements.secret.value.trim();
  const webhook = rotating;
  submit.disabled = true;
  try {
    const answer = await request("POST", `/api/webhooks/${encodeURIComponent(webhook.id)}/rotate-secret`,
                                 secret ? { secret } : {});
    shown = true;
    dialog.close();
    hooks.rotated({ ...webhook, secret: answer.secret, previousSecretExpiresAt: answer.previousSecretExpiresAt });
    show(webhook, answer);
  } catch (error) {
    if (error.code === "WEBHOOK_NOT_FOUND") {
      dialog.close();
      await hooks.missing(error);
    } else {
      showFormError(error, form);
    }
  } finally {
    submit.disabled = false;
  }
});

for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => {
  if (!shown && rotating) hooks.returnFocus(rotating.id);
});

document.getElementById("copy-rotated-secret").addEventListener("click", () => copyText(value.textContent));
document.getElementById("hide-rotated-secret").addEventListener("click", () => {
  box.hidden = true;
  value.textContent = "";
  if (rotating) hooks.returnFocus(rotating.id);
});
