// The provider accounts that sign this person in (GET /api/account/identities): unlink one (DELETE;
// the API refuses the last way into the account), or link another through /api/auth/link/<provider>,
// which comes back here with ?linked=<provider> or ?link_error=<CODE>. Linking is a security change: a
// session that has not signed in lately is asked who it is before it leaves for the provider.
import { request, toast } from "../shared/api.js";
import { N_, mediumDate, t } from "../shared/i18n.js";
import { ensureSudo } from "./reauth.js";
import { el, show } from "../shared/dom.js";

const list = document.getElementById("identity-list");
const links = document.getElementById("identity-links");
const problem = document.getElementById("identity-error");
const labels = JSON.parse(list.dataset.labels || "{}");

function render(data) {
  document.getElementById("identity-loading").hidden = true;
  const items = data.identities.map((identity) => el("li", { "data-provider": identity.provider },
    el("div", {},
       el("strong", {}, identity.label),
       el("div", { class: "muted" }, identity.email || ""),
       el("div", { class: "hint" }, t("Linked {date}", { date: mediumDate.format(new Date(identity.linkedAt)) }))),
    el("button", { type: "button", class: "secondary", "data-unlink": identity.provider },
       t("Unlink {provider}", { provider: identity.label }))));
  if (!items.length) items.push(el("li", { class: "muted" }, t("No account is linked.")));
  list.replaceChildren(...items);
  const linked = new Set(data.identities.map((identity) => identity.provider));
  const back = encodeURIComponent("/account#identities");
  links.replaceChildren(...data.providers.filter((name) => !linked.has(name)).map((name) =>
    el("a", { class: "button secondary", href: `/api/auth/link/${name}?callbackUrl=${back}`, "data-link": name },
       t("Link {provider}", { provider: labels[name] || name }))));
}

async function unlink(button) {
  const provider = button.dataset.unlink;
  const label = button.closest("li").querySelector("strong").textContent;
  show(problem, "");
  button.disabled = true;
  try {
    render(await request("DELETE", `/api/account/identities/${encodeURIComponent(provider)}`));
    toast(t("{provider} is no longer linked.", { provider: label }), "ok");
    links.querySelector("a")?.focus();
  } catch (error) {
    button.disabled = false;
    show(problem, error.message);
    button.setAttribute("aria-describedby", problem.id);
    button.focus();
  }
}

// What a link that came back refused means (the codes of GET /api/auth/callback/<provider>).
const LINK_ERRORS = {
  IDENTITY_IN_USE: N_("That account is already linked to another account: sign in to that one and unlink it first."),
  PROVIDER_ALREADY_LINKED: N_("An account of that provider is already linked: unlink it first to link another."),
  FORBIDDEN: N_("The link was not finished: you signed in to another account, or out, meanwhile. Try again."),
  UNAUTHENTICATED: N_("The link was not finished: you signed in to another account, or out, meanwhile. Try again."),
};

// Say how the link the provider sent us back from went, once: the parameters leave the address.
function reportLink() {
  const url = new URL(window.location.href);
  const linked = url.searchParams.get("linked");
  const failed = url.searchParams.get("link_error");
  if (linked === null && failed === null) return;
  if (failed !== null) show(problem, t(LINK_ERRORS[failed] || "Linking with that provider did not work. Try again."));
  else toast(t("Linked {provider}.", { provider: labels[linked] || linked }), "ok");
  url.searchParams.delete("linked");
  url.searchParams.delete("link_error");
  window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
}

export async function initIdentities() {
  reportLink();
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-unlink]");
    if (button) unlink(button);
  });
  links.addEventListener("click", async (event) => {
    const link = event.target.closest("[data-link]");
    if (!link) return;
    event.preventDefault();
    show(problem, "");
    try {
      if (await ensureSudo()) window.location.assign(link.href);
    } catch (error) {
      show(problem, error.message);
    }
  });
  try {
    render(await request("GET", "/api/account/identities"));
  } catch (error) {
    show(problem, error.message);
  }
}
