// Passkeys (GET /api/account/passkeys): add one (POST .../options, navigator.credentials.create, POST
// /api/account/passkeys; a security change, made with withSudo), rename one (PUT) and remove one (DELETE;
// the API refuses the last way into the account with 409 LAST_SIGN_IN_METHOD). Each sign-in with one
// happens on /login (account/login.js).
import { request, toast } from "../shared/api.js";
import { t, mediumDate } from "../shared/i18n.js";
import { busy, clear, fail } from "./form.js";
import { createCredential, supported } from "../shared/webauthn.js";
import { withSudo } from "./reauth.js";
import { el, show } from "../shared/dom.js";

const problem = document.getElementById("passkey-error");

function item(passkey) {
  const used = passkey.lastUsedAt ? t("Last used {date}", { date: mediumDate.format(new Date(passkey.lastUsedAt)) })
    : t("Not used yet");
  return el("li", { "data-passkey": passkey.id },
    el("div", {},
       el("strong", { class: "passkey-name" }, passkey.name),
       el("div", { class: "hint" }, [t("Added {date}", { date: mediumDate.format(new Date(passkey.createdAt)) }), used].join(" · "))),
    el("div", { class: "row" },
       el("button", { type: "button", class: "secondary", "data-rename": passkey.id,
                      "aria-label": t("Rename {name}", { name: passkey.name }) }, t("Rename")),
       el("button", { type: "button", class: "secondary", "data-remove": passkey.id,
                      "aria-label": t("Remove {name}", { name: passkey.name }) }, t("Remove"))));
}

function render(data) {
  document.getElementById("passkey-loading").hidden = true;
  const items = data.passkeys.map(item);
  if (!items.length) items.push(el("li", { class: "muted" }, t("No passkey yet.")));
  document.getElementById("passkey-list").replaceChildren(...items);
}

function errorMessage(error) {
  if (error.name === "NotAllowedError" || error.name === "AbortError") return t("The passkey request was cancelled or timed out.");
  if (error.name === "InvalidStateError") return t("This device already keeps a passkey for your account.");
  if (error instanceof DOMException) return t("This browser could not make a passkey.");
  return error.message;
}

async function add(form) {
  show(problem, "");
  try {
    await withSudo(async () => { // adding a way in is a security change: a recent sign-in first
      const options = await request("POST", "/api/account/passkey/options");
      const credential = await createCredential(options.publicKey);
      await request("POST", "/api/account/passkeys", { credential, name: form.elements.name.value });
    });
    form.reset();
    render(await request("GET", "/api/account/passkeys"));
    toast(t("Passkey added."), "ok");
  } catch (error) {
    if (error.field === "name") return fail(form, error);
    show(problem, errorMessage(error));
  }
}

function startRename(li) {
  const name = li.querySelector(".passkey-name").textContent;
  const input = el("input", { name: "name", maxlength: "64", required: "", "data-field": "name", value: name,
                              "aria-label": t("New name of {name}", { name }) });
  const form = el("form", { class: "row passkey-rename", novalidate: "" }, input,
                  el("button", { type: "submit" }, t("Save")),
                  el("button", { type: "button", class: "secondary", "data-cancel": "" }, t("Cancel")));
  li.replaceChildren(form);
  input.focus();
  input.select();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    await busy(form, async () => {
      try {
        await request("PUT", `/api/account/passkeys/${encodeURIComponent(li.dataset.passkey)}`,
                      { name: input.value });
        render(await request("GET", "/api/account/passkeys"));
        toast(t("Passkey renamed."), "ok");
      } catch (error) {
        fail(form, error);
      }
    });
  });
  form.querySelector("[data-cancel]").addEventListener("click", async () => {
    render(await request("GET", "/api/account/passkeys"));
  });
}

async function remove(button) {
  show(problem, "");
  button.disabled = true;
  try {
    render(await request("DELETE", `/api/account/passkeys/${encodeURIComponent(button.dataset.remove)}`));
    toast(t("Passkey removed."), "ok");
    document.getElementById("passkey-name").focus();
  } catch (error) {
    button.disabled = false;
    show(problem, error.message);
    button.setAttribute("aria-describedby", "passkey-error");
    button.focus();
  }
}

export async function initPasskeys() {
  const form = document.getElementById("passkey-add-form");
  if (!form) return;
  if (!supported()) {
    document.getElementById("passkey-unsupported").hidden = false;
    form.hidden = true;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    await busy(form, () => add(form));
  });
  document.getElementById("passkey-list").addEventListener("click", (event) => {
    const rename = event.target.closest("[data-rename]");
    if (rename) startRename(rename.closest("li"));
    const removing = event.target.closest("[data-remove]");
    if (removing) remove(removing);
  });
  try {
    render(await request("GET", "/api/account/passkeys"));
  } catch (error) {
    show(problem, error.message);
  }
}
