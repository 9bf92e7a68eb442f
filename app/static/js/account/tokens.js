// The account page's API tokens (GET/POST /api/account/tokens, DELETE /api/account/tokens/<id>): the live
// tokens with their dates, a form to create one with a name (its value shown once, with Copy; a security
// change, made with withSudo: a session that has not signed in lately is asked who it is), and Revoke.
import { request, toast } from "../shared/api.js";
import { mediumDate, t } from "../shared/i18n.js";
import { clear, fail } from "./form.js";
import { withSudo } from "./reauth.js";
import { el, show } from "../shared/dom.js";

const list = document.getElementById("token-list");
const form = document.getElementById("token-create-form");
const created = document.getElementById("token-created");
const value = document.getElementById("token-value");
const problem = document.getElementById("token-error");


const day = (iso) => mediumDate.format(new Date(iso));

function render(tokens) {
  document.getElementById("token-loading").hidden = true;
  const items = tokens.map((token) => {
    const name = token.name || t("From a password sign-in");
    const used = token.lastUsedAt ? t("Last used {date}", { date: day(token.lastUsedAt) }) : t("Never used");
    return el("li", { "data-token": token.id },
      el("div", {},
         el("strong", {}, name),
         el("div", { class: "hint" }, [t("Created {date}", { date: day(token.createdAt) }), used,
                                       t("Expires {date}", { date: day(token.expiresAt) })].join(" · "))),
      el("button", { type: "button", class: "secondary", "data-revoke": token.id, "data-name": name,
                     "aria-label": t("Revoke {name}", { name }) }, t("Revoke")));
  });
  if (!items.length) items.push(el("li", { class: "muted" }, t("No API tokens.")));
  list.replaceChildren(...items);
}

async function load() {
  try {
    render((await request("GET", "/api/account/tokens")).tokens);
  } catch (error) {
    show(problem, error.message);
  }
}

async function create(event) {
  event.preventDefault();
  clear(form);
  show(problem, "");
  const name = form.elements.name.value.trim();
  if (!name) {
    fail(form, { field: "name", message: t("Give the token a name."), code: "" });
    return;
  }
  const button = form.querySelector("[type=submit]");
  button.disabled = true;
  try {
    const token = await withSudo(() => request("POST", "/api/account/tokens", { name }));
    form.reset();
    value.value = token.token;
    created.hidden = false;
    toast(t("Token created. Copy it now: it is not shown again."), "ok");
    value.focus();
    value.select();
    await load();
  } catch (error) {
    fail(form, error);
  } finally {
    button.disabled = false;
  }
}

async function copy() {
  try {
    await navigator.clipboard.writeText(value.value);
    toast(t("Copied."), "ok");
  } catch {
    value.focus();
    value.select(); // the person copies it themselves
    toast(t("The token is selected: press Ctrl+C (or ⌘C) to copy it."));
  }
}

function done() {
  value.value = ""; // the value leaves the page
  created.hidden = true;
  form.elements.name.focus();
}

async function revoke(button) {
  const name = button.dataset.name;
  if (!window.confirm(t("Revoke “{name}”? The programs that use it stop working.", { name }))) return;
  show(problem, "");
  button.disabled = true;
  try {
    render((await request("DELETE", `/api/account/tokens/${encodeURIComponent(button.dataset.revoke)}`)).tokens);
    toast(t("Token revoked: {name}.", { name }), "ok");
    form.elements.name.focus();
  } catch (error) {
    button.disabled = false;
    show(problem, error.message);
    button.focus();
  }
}

if (list) {
  form.addEventListener("submit", create);
  document.getElementById("token-copy").addEventListener("click", copy);
  document.getElementById("token-done").addEventListener("click", done);
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-revoke]");
    if (button) revoke(button);
  });
  load();
}
