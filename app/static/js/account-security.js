// Password change, and two-factor sign-in: set up (PUT /api/account/security answers the otpauth URI
// and the backup codes once; the page shows the server-drawn QR code), confirm with a first code
// (POST /api/account/two-factor/confirm), then the backup codes, shown this once; and turning it off.
import { request, toast } from "./api.js";
import { t } from "./i18n.js";
import { busy, clear, fail, failAt } from "./account-form.js";

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
        await request("PUT", "/api/account/security", body);
        form.reset();
        toast(t("Your password has been changed."), "ok");
      } catch (error) {
        fail(form, error);
      }
    });
  });
}

const section = document.getElementById("two-factor");
let backupCodes = []; // held only until they are shown: the API gives them once
let unconfirmed = false; // set up in this page and not confirmed yet: leaving would lose the codes

function show(id, visible) {
  document.getElementById(id).hidden = !visible;
}

function setState(enabled) {
  const badge = document.getElementById("tf-state");
  badge.textContent = enabled ? badge.dataset.on : badge.dataset.off;
  section.dataset.enabled = String(enabled);
  show("tf-enable-form", !enabled);
  show("tf-disable-form", enabled);
}

function showCodes(codes) {
  document.getElementById("tf-codes-list").replaceChildren(...codes.map((code) => {
    const item = document.createElement("li");
    item.textContent = code;
    return item;
  }));
  const download = document.getElementById("tf-download");
  download.href = "data:text/plain;charset=utf-8," + encodeURIComponent(codes.join("\n") + "\n");
  show("tf-codes", true);
  document.getElementById("tf-copy").focus();
}

function hideCodes() {
  document.getElementById("tf-codes-list").replaceChildren();
  document.getElementById("tf-download").href = "#";
  show("tf-codes", false);
}

async function enable(form) {
  const data = await request("PUT", "/api/account/security",
                             { currentPassword: form.elements.currentPassword.value, twoFactorEnabled: true });
  form.reset();
  backupCodes = data.backupCodes || [];
  unconfirmed = true;
  document.getElementById("tf-secret").textContent = new URL(data.otpauthUri).searchParams.get("secret") || "";
  document.getElementById("tf-qr").src = `/account/two-factor/qr.svg?at=${Date.now()}`;
  show("tf-pending-note", false);
  show("tf-setup", true);
  setState(true);
  document.getElementById("tf-code").focus();
}

async function confirm(form) {
  await request("POST", "/api/account/two-factor/confirm", { code: form.elements.code.value });
  form.reset();
  unconfirmed = false;
  section.dataset.pending = "false";
  show("tf-setup", false);
  document.getElementById("tf-qr").removeAttribute("src");
  document.getElementById("tf-secret").textContent = "";
  toast(t("Two-factor sign-in is set up."), "ok");
  if (backupCodes.length) showCodes(backupCodes);
  backupCodes = [];
}

async function disable(form) {
  await request("PUT", "/api/account/security",
                { currentPassword: form.elements.currentPassword.value, twoFactorEnabled: false });
  form.reset();
  unconfirmed = false;
  backupCodes = [];
  section.dataset.pending = "false";
  show("tf-setup", false);
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
  document.getElementById("tf-copy").addEventListener("click", async () => {
    const codes = [...document.querySelectorAll("#tf-codes-list li")].map((item) => item.textContent);
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast(t("Copied."), "ok");
    } catch {
      toast(t("Copy failed: select the codes and copy them."), "error");
    }
  });
  document.getElementById("tf-done").addEventListener("click", () => {
    hideCodes();
    document.getElementById("tf-state").focus();
  });
  window.addEventListener("beforeunload", (event) => {
    if (!unconfirmed) return;
    event.preventDefault();
    event.returnValue = t("Two-factor sign-in is on but not confirmed yet. Leave anyway?");
  });
}
