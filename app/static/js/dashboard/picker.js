// "New resume": a <dialog> that shows every template (its thumbnail, name, category and tier) from
// GET /api/templates. Choosing one POSTs /api/resumes and opens the editor. Premium templates on
// the FREE plan offer the upgrade (/billing) instead: the API would refuse them (INVALID_TEMPLATE).
import { request, showError } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";

const CATEGORIES = { MODERN: N_("Modern"), CLASSIC: N_("Classic"), PROFESSIONAL: N_("Professional"), CREATIVE: N_("Creative") };
const dialog = document.getElementById("picker");
const list = document.getElementById("template-list");
const state = document.getElementById("picker-state");
const titleInput = document.getElementById("new-title");
let templates = null;
let getAccount = () => null;

function say(message, kind = "") {
  state.textContent = message;
  state.className = kind === "error" ? "error" : "muted";
}

// The thumbnail's address is absolute (the service's BASE_URL); the image is ours, so ask this
// page's origin for it: the Content-Security-Policy allows images from 'self' only.
function sameOrigin(url) {
  const parsed = new URL(url, location.href);
  return parsed.pathname + parsed.search;
}

function card(template, locked) {
  const item = document.createElement("li");
  item.className = "template-card";
  item.dataset.templateId = template.id;
  const image = document.createElement("img");
  image.src = sameOrigin(template.thumbnailUrl);
  image.alt = t("Preview of the {name} template", { name: template.name });
  image.width = 300;
  image.height = 424;
  image.loading = "lazy";
  const name = document.createElement("h3");
  name.textContent = template.name;
  const badges = document.createElement("p");
  badges.className = "badges";
  const category = document.createElement("span");
  category.className = "badge";
  category.textContent = t(CATEGORIES[template.category] || template.category);
  const tier = document.createElement("span");
  tier.className = `badge tier-${template.tier}`;
  tier.textContent = template.tier === "premium" ? t("Premium") : t("Basic");
  badges.append(category, " ", tier);
  let action;
  if (locked) {
    action = document.createElement("a");
    action.className = "button secondary upgrade";
    action.href = "/billing";
    action.textContent = t("Upgrade");
    action.setAttribute("aria-label", t("Upgrade to use {name}", { name: template.name }));
  } else {
    action = document.createElement("button");
    action.type = "button";
    action.className = "use";
    action.textContent = t("Use this template");
    action.setAttribute("aria-label", t("Use {name}", { name: template.name }));
    action.addEventListener("click", () => create(template));
  }
  item.append(image, name, badges, action);
  return item;
}

function render() {
  const account = getAccount();
  const free = !account || account.subscriptionType === "FREE";
  list.replaceChildren(...templates.map((template) => card(template, free && template.tier === "premium")));
}

async function create(template) {
  const title = titleInput.value.trim();
  if (!title) {
    titleInput.focus();
    titleInput.reportValidity();
    return;
  }
  const buttons = list.querySelectorAll("button");
  buttons.forEach((button) => { button.disabled = true; });
  say(t("Creating…"));
  const account = getAccount();
  const body = { title, templateId: template.id };
  if (account) body.contentJson = { personalInfo: { name: account.name, email: account.email } };
  try {
    const resume = await request("POST", "/api/resumes", body);
    location.assign(`/resumes/${encodeURIComponent(resume.id)}/edit`);
  } catch (error) {
    if (error.code === "SUBSCRIPTION_LIMIT_EXCEEDED") {
      error.message = t("Your plan allows {limit} resumes. Delete one, or upgrade for more.",
        { limit: error.details.limit ?? "" });
    } else if (error.code === "INVALID_TEMPLATE") {
      error.message = t("This template needs a Premium plan.");
    }
    // An error about the title shows at the title; anything else in the dialog's own words.
    if (error.field && dialog.querySelector(`[data-field="${CSS.escape(error.field)}"]`)) {
      say("");
      showError(error, dialog);
    } else {
      say(error.message, "error");
    }
    buttons.forEach((button) => { button.disabled = false; });
  }
}

async function load() {
  say(t("Loading…"));
  try {
    templates = await request("GET", "/api/templates");
    say("");
    render();
  } catch (error) {
    say(`${t("The templates could not be loaded.")} ${error.message}`, "error");
  }
}

export function setUpPicker(opener, accountGetter) {
  getAccount = accountGetter;
  const open = () => {
    say("");
    titleInput.value = titleInput.value.trim() || t("Untitled resume");
    dialog.showModal();
    if (templates) render(); else load();
  };
  opener.addEventListener("click", open);
  return open;
}
