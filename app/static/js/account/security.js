// Password change, and two-factor sign-in: set up (POST /api/account/two-factor/setup answers a key
// that waits for its first code, two-factor still off; the page shows the server-drawn QR code),
// confirm with a first code (POST /api/account/two-factor/confirm turns it on and answers the backup
// codes), new backup codes (POST /api/account/two-factor/backup-codes), and turning it off (PUT
// /api/account/security). Leaving or reloading the page mid-set-up locks nobody out: the set-up waits
// (this session's page shows it again) and then expires. Backup codes made in this session are shown on
// every load until "I have saved them" (POST .../backup-codes/dismiss). Each change goes through
// withSudo: a session that has not signed in lately is asked who it is first (account/reauth.js).
import { request, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { busy, clear, fail, failAt } from "./form.js";
import { withSudo } from "./reauth.js";

export function initPassword() {
  const form = document.getElementById("password-form");
  if (!form) return; // an account without a password sets one by e-mail
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    const body = { currentPassword: form.elements.currentPassword.value,
                   newPassword: form.elements.newPassword.value,
                   confirmPassword: form.elements.confirmPassword.value };
    if (!body.currentPassword) return failAt(form, "currentPassword", t("Enter your current password."));
    if (body.newPassword !== body.confirmPassword) {
      return failAt(form, "confirmPassword", t("The new passwords do not match."));
    }
    await busy(form, async () => {
      try {
        await withSudo(() => request("PUT", "/api/account/security", body));
        form.reset();
        toast(t("Your password has been changed."), "ok");
      } catch (error) {
        fail(form, error);
      }
    });
  });
}

const section = document.getElementById("two-factor");

function show(id, visible) {
  document.getElementById(id).hidden = !visible;
}

function setState(enabled) {
  const badge = document.getElementById("tf-state");
  badge.textContent = enabled ? badge.dataset.on : badge.dataset.off;
  section.dataset.enabled = String(enabled);
  show("tf-enable-form", !enabled);
  show("tf-disable-form", enabled);
  show("tf-regenerate-row", enabled);
}

// The set-up's steps (QR code, key, code) shown or put away; two-factor's state is not touched.
function showSetUp(secret) {
  document.getElementById("tf-secret").textContent = secret;
  document.getElementById("tf-qr").src = `/account/two-factor/qr.svg?at=${Date.now()}`;
  section.dataset.setUp = "true";
  show("tf-enable-form", false);
  show("tf-pending-note", false);
  show("tf-setup-note", true);
  show("tf-setup", true);
}

function hideSetUp() {
  section.dataset.setUp = "false";
  section.dataset.pending = "false";
  show("tf-setup", false);
  document.getElementById("tf-qr").removeAttribute("src");
  document.getElementById("tf-secret").textContent = "";
}

function offerDownload(codes) {
  const download = document.getElementById("tf-download");
  download.href = "data:text/plain;charset=utf-8," + encodeURIComponent(codes.join("\n") + "\n");
}

function showCodes(codes) {
  document.getElementById("tf-codes-list").replaceChildren(...codes.map((code) => {
    const item = document.createElement("li");
    item.textContent = code;
    return item;
  }));
  offerDownload(codes);
  show("tf-codes", true);
  document.getElementById("tf-copy").focus();
}

function hideCodes() {
  document.getElementById("tf-codes-list").replaceChildren();
  document.getElementById("tf-download").href = "#";
  show("tf-codes", false);
}

function shownCodes() {
  return [...document.querySelectorAll("#tf-codes-list li")].map((item) => item.textContent);
}

async function enable(form) {
  const data = await withSudo(() => request("POST", "/api/account/two-factor/setup",
                                            { currentPassword: form.elements.currentPassword.value }));
  form.reset();
  document.getElementById("tf-elsewhere")?.remove();
  showSetUp(data.secret);
  document.getElementById("tf-code").focus();
}

async function confirm(form) {
  let data;
  try {
    data = await withSudo(() => request("POST", "/api/account/two-factor/confirm", { code: form.elements.code.value }));
  } catch (error) {
    // The code was six digits (checked here): a validation error means no set-up waits any more
    // (it expired, or was given up elsewhere); another session may have started one since. Start again
    // from the password.
    const elsewhere = error.code === "TWO_FACTOR_SETUP_IN_ANOTHER_SESSION";
    if (!elsewhere && (error.code !== "VALIDATION_ERROR" || section.dataset.enabled === "true")) throw error;
    form.reset();
    hideSetUp();
    setState(section.dataset.enabled === "true");
    toast(elsewhere ? error.message : t("This set-up has expired. Set it up again."), "error");
    document.getElementById("tf-enable-password").focus();
    return;
  }
  form.reset();
  hideSetUp();
  setState(true);
  toast(t("Two-factor sign-in is set up."), "ok");
  if (data.backupCodes && data.backupCodes.length) showCodes(data.backupCodes);
  else document.getElementById("tf-state").focus();
}

async function disable(form) {
  await withSudo(() => request("PUT", "/api/account/security",
                               { currentPassword: form.elements.currentPassword.value, twoFactorEnabled: false }));
  form.reset();
  hideSetUp();
  hideCodes();
  setState(false);
  toast(t("Two-factor sign-in is off."), "ok");
  document.getElementById("tf-enable-password").focus();
}

function onSubmit(id, action) {
  const form = document.getElementById(id);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    if (form.elements.currentPassword && !form.elements.currentPassword.value) {
      return failAt(form, "currentPassword", t("Enter your current password."));
    }
    if (form.elements.code && !/^\d{6}$/.test(form.elements.code.value.replace(/\s+/g, ""))) {
      return failAt(form, "code", t("Enter the 6-digit code from your authenticator app."));
    }
    await busy(form, async () => {
      try {
        await action(form);
      } catch (error) {
        fail(form, error);
      }
    });
  });
}

export function initTwoFactor() {
  if (!document.getElementById("tf-enable-form")) return; // no password: nothing to protect yet
  onSubmit("tf-enable-form", enable);
  onSubmit("tf-confirm-form", confirm);
  onSubmit("tf-disable-form", disable);
  if (shownCodes().length) offerDownload(shownCodes()); // made in this session, not dismissed yet
  document.getElementById("tf-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shownCodes().join("\n"));
      toast(t("Copied."), "ok");
    } catch {
      toast(t("Copy failed: select the codes and copy them."), "error");
    }
  });
  document.getElementById("tf-done").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await request("POST", "/api/account/two-factor/backup-codes/dismiss");
      hideCodes();
      document.getElementById("tf-state").focus();
    } catch (error) {
      toast(error.message, "error");
    } finally {
      button.disabled = false;
    }
  });
  document.getElementById("tf-regenerate").addEventListener("click", async (event) => {
    if (!window.confirm(t("Make new backup codes? The old ones stop working."))) return;
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const data = await withSudo(() => request("POST", "/api/account/two-factor/backup-codes"));
      showCodes(data.backupCodes);
      toast(t("New backup codes: the old ones no longer work."), "ok");
    } catch (error) {
      toast(error.message, "error");
    } finally {
      button.disabled = false;
    }
  });
}
