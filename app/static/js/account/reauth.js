// Sudo mode on the account page: security changes (password, two-factor, backup codes, passkeys, API tokens,
// linking an account) need a session that signed in or re-authenticated in the last minutes. A change the
// API refuses with 403 REAUTHENTICATION_REQUIRED opens "Confirm it is you" (pages/_account_reauth.html) with
// the ways the refusal names (details.methods: password, totp, passkey, email); once POST
// /api/auth/reauthenticate accepts one, the change is made again. Cancelling leaves everything as it was.
import { request, showError, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { busy, clear } from "./form.js";
import { getCredential, supported } from "../shared/webauthn.js";
import { show } from "../shared/dom.js";

const dialog = document.getElementById("reauth-dialog");
const problem = document.getElementById("reauth-error");
let settle = null; // resolves the dialog open now: true once re-authenticated, false when given up

function cancelled() {
  const error = new Error(t("Not changed: confirm it is you to make this change."));
  Object.assign(error, { code: "REAUTHENTICATION_CANCELLED", details: {}, field: null });
  return error;
}

function finish(confirmed) {
  const done = settle;
  settle = null;
  if (dialog.open) dialog.close();
  if (done) done(confirmed);
}

// Open the dialog with the ways ``methods`` names; resolves true once this session re-authenticated.
function open(methods) {
  show(problem, "");
  for (const form of dialog.querySelectorAll("form")) {
    form.reset();
    clear(form);
  }
  const offered = new Set(methods.filter((method) => method !== "passkey" || supported()));
  for (const block of dialog.querySelectorAll("[data-method]")) block.hidden = !offered.has(block.dataset.method);
  if (!offered.size) show(problem, t("This browser cannot use passkeys."));
  dialog.showModal();
  const first = dialog.querySelector("[data-method]:not([hidden]) input, [data-method]:not([hidden]) button");
  (first || document.getElementById("reauth-cancel")).focus();
  return new Promise((resolve) => { settle = resolve; });
}

async function confirmWith(body, form) {
  show(problem, "");
  try {
    await request("POST", "/api/auth/reauthenticate", body);
    toast(t("You can change your security settings now."), "ok");
    finish(true);
  } catch (error) {
    const field = form && error.field && form.querySelector(`[data-field="${CSS.escape(error.field)}"]`);
    if (!field) return show(problem, error.message);
    showError(error, form);
    field.focus();
  }
}

function onSubmit(id, body) {
  const form = document.getElementById(id);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    const input = form.querySelector("input[required]");
    if (!input.value.trim()) return;
    await busy(form, () => confirmWith(body(input.value), form));
  });
}

async function withPasskey(button) {
  show(problem, "");
  button.disabled = true;
  try {
    const options = await request("POST", "/api/auth/reauthenticate/passkey/options");
    const credential = await getCredential(options.publicKey);
    await confirmWith({ credential }, null);
  } catch (error) {
    const refusedByBrowser = error.name === "NotAllowedError" || error.name === "AbortError";
    show(problem, refusedByBrowser ? t("The passkey request was cancelled or timed out.") : error.message);
  } finally {
    button.disabled = false;
  }
}

async function mailCode(button) {
  show(problem, "");
  button.disabled = true;
  try {
    await request("POST", "/api/auth/reauthenticate/code");
    toast(t("We mailed you a code. Enter it below."), "ok");
    document.getElementById("reauth-email-input").focus();
  } catch (error) {
    show(problem, error.message);
  } finally {
    button.disabled = false;
  }
}

// Run ``action`` (an async function making one security change); when the API answers
// REAUTHENTICATION_REQUIRED, ask who this is and run it again. Throws what the action throws, or an error
// with code REAUTHENTICATION_CANCELLED when the person closes the dialog.
export async function withSudo(action) {
  try {
    return await action();
  } catch (error) {
    if (error.code !== "REAUTHENTICATION_REQUIRED") throw error;
    if (!await open(error.details.methods || [])) throw cancelled();
    return action();
  }
}

// Before leaving the page for a security change (linking an account goes through the provider): true when
// this session may make it now, else the dialog's answer.
export async function ensureSudo() {
  const status = await request("GET", "/api/auth/reauthenticate");
  return status.recent || open(status.methods);
}

if (dialog) {
  onSubmit("reauth-password", (password) => ({ password }));
  onSubmit("reauth-code", (code) => ({ code }));
  onSubmit("reauth-email", (emailCode) => ({ emailCode }));
  const passkeyButton = document.getElementById("reauth-passkey-button");
  passkeyButton.addEventListener("click", () => withPasskey(passkeyButton));
  document.getElementById("reauth-send").addEventListener("click", (event) => mailCode(event.currentTarget));
  document.getElementById("reauth-cancel").addEventListener("click", () => finish(false));
  dialog.addEventListener("close", () => finish(false)); // Escape, or closed after a success (settled already)
}
