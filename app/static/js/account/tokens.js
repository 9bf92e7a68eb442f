// The account page's API tokens (GET/POST /api/account/tokens, DELETE /api/account/tokens/<id>): the live
// tokens with their dates, a form to create one with a name (its value shown once, with Copy; a security
// change, made with withSudo: a session that has not signed in lately is asked who it is), and Revoke.
import { request, toast } from "../shared/api.js";
import { mediumDate, t } from "../shared/i18n.js";
import { clear, fail } from "./form.js";
import { withSudo } from "./reauth.js";
import { el, show } from "../shared/dom.js";
import { setUpShownOnce } from "./shown-once.js";

const list = document.getElementById("token-list");
const form = document.getElementById("token-create-form");
const created = document.getElementById("token-created");
const value = document.getElementById("token-value");
const problem = document.getElementById("token-error");
let reveal = null; // shows a new token's value (account/shown-once.js)


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
    reveal(token.token);
    toast(t("Token created. Copy it now: it is not shown again."), "ok");
    await load();
  } catch (error) {
    fail(form, error);
  } finally {
    button.disabled = false;
  }
}

if (list) {
  reveal = setUpShownOnce(
    { list, form, created, value, problem, copy: document.getElementById("token-copy"),
      done: document.getElementById("token-done") },
    "/api/account/tokens", (body) => render(body.tokens),
    { selected: t("The token is selected: press Ctrl+C (or ⌘C) to copy it."),
      confirm: (name) => t("Revoke “{name}”? The programs that use it stop working.", { name }),
      revoked: (name) => t("Token revoked: {name}.", { name }) });
  form.addEventListener("submit", create);
  load();
}
