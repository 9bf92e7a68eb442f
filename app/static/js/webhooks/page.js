// The webhooks page: the list (GET /api/webhooks), create, edit, enable / disable, delete with a
// confirmation, secret rotation (webhooks/rotate.js), and each webhook's test and delivery log
// (webhooks/log.js). Everything goes through the API; a generated secret is shown once, right after
// the webhook is created. A webhook the service disabled itself says why, and offers to re-enable it.
import { request, toast } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { copyText, headings, when } from "./format.js";
import { el } from "../shared/dom.js";
import { clearErrors, fillForm, readForm, showFormError } from "./form.js";
import { closeLog, openLog, openWebhookId, sendTest } from "./log.js";
import "./recover.js";
import { openRotate } from "./rotate.js";

const root = document.getElementById("webhooks");
const max = Number(root.dataset.max);
const table = document.getElementById("webhook-table");
const rows = document.getElementById("webhook-rows");
const labels = headings(table);
const createForm = document.getElementById("create-form");
const editDialog = document.getElementById("edit-dialog");
const editForm = document.getElementById("edit-form");
const deleteDialog = document.getElementById("delete-dialog");
const secretBox = document.getElementById("new-secret");

let webhooks = [];
let editing = null;
let deleting = null;

function button(label, action, webhook, kind = "secondary") {
  return el("button", { type: "button", class: kind, "data-action": action,
                        "aria-label": `${label}: ${webhook.url}` }, label);
}

// Why the service disabled a webhook (disabledReason); a webhook its owner disabled has none.
const REASONS = {
  gone: N_("Disabled: the endpoint answered 410 Gone"),
  failing: N_("Disabled: every delivery failed for 5 days"),
};

function status(webhook) {
  const reason = !webhook.active && REASONS[webhook.disabledReason];
  const parts = reason
    ? [el("span", { class: "wh-reason" }, t(reason)),
       el("span", { class: "wh-note" }, t("Since {time}.", { time: when(webhook.disabledAt) }))]
    : [el("span", { class: `badge wh-${webhook.active ? "ok" : "off"}` },
          webhook.active ? t("Active") : t("Disabled"))];
  const previous = webhook.previousSecretExpiresAt;
  if (previous && Date.parse(previous) > Date.now()) { // a rotated-out secret still signs
    parts.push(el("span", { class: "wh-note wh-previous" },
                  t("The previous secret also signs until {time}.", { time: when(previous) })));
  }
  return el("div", { class: "wh-status" }, ...parts);
}

function toggleLabel(webhook) {
  if (webhook.active) return t("Disable");
  return webhook.disabledReason ? t("Re-enable") : t("Enable");
}

function row(webhook) {
  const events = el("ul", { class: "wh-event-list", "aria-label": t("Events of {url}", { url: webhook.url }) },
                    ...webhook.events.map((name) => el("li", { class: "badge", translate: "no" }, name)));
  const actions = el("div", { class: "row wh-actions", role: "group",
                              "aria-label": t("Actions for {url}", { url: webhook.url }) },
                     button(t("Send test"), "test", webhook, ""),
                     button(t("Delivery log"), "log", webhook),
                     button(t("Edit"), "edit", webhook),
                     button(t("Rotate secret"), "rotate", webhook),
                     button(toggleLabel(webhook), "toggle", webhook),
                     button(t("Delete"), "delete", webhook, "danger"));
  const cells = [el("span", { class: "wh-url" }, webhook.url), events, status(webhook), when(webhook.createdAt),
                 actions];
  return el("tr", { "data-id": webhook.id, "data-active": String(webhook.active),
                    "data-disabled-reason": webhook.disabledReason },
            ...cells.map((cell, i) => el("td", { "data-label": labels[i] }, cell)));
}

function render() {
  rows.replaceChildren(...webhooks.map(row));
  document.getElementById("webhook-loading").hidden = true;
  document.getElementById("webhook-empty").hidden = webhooks.length > 0;
  table.hidden = webhooks.length === 0;
  document.getElementById("webhook-count").textContent = t("{n} of {max} webhooks", { n: webhooks.length, max });
}

async function load() {
  try {
    webhooks = await request("GET", "/api/webhooks");
    render();
  } catch (error) {
    toast(error.message, "error");
  }
}

function replace(updated) {
  webhooks = webhooks.map((webhook) => (webhook.id === updated.id ? updated : webhook));
  render();
}

// A webhook deleted elsewhere (another tab): say so and show the list as it is now.
async function handleMissing(error) {
  if (error.code !== "WEBHOOK_NOT_FOUND") return false;
  toast(t("This webhook no longer exists. The list was refreshed."), "error");
  if (openWebhookId() && !webhooks.some((w) => w.id === openWebhookId())) closeLog();
  await load();
  return true;
}

function focusRowAction(id, action) {
  rows.querySelector(`tr[data-id="${CSS.escape(id)}"] [data-action="${action}"]`)?.focus();
}

createForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const submit = createForm.querySelector('button[type="submit"]');
  const body = readForm(createForm);
  submit.disabled = true;
  try {
    const webhook = await request("POST", "/api/webhooks", body);
    clearErrors(createForm);
    createForm.reset();
    webhooks.push(webhook);
    render();
    toast(t("Webhook added."));
    if (!body.secret) { // one the person did not choose: they need to see it to verify signatures
      document.getElementById("new-secret-value").textContent = webhook.secret;
      secretBox.hidden = false;
      document.getElementById("copy-secret").focus();
    }
  } catch (error) {
    showFormError(error, createForm);
  } finally {
    submit.disabled = false;
  }
});

document.getElementById("copy-secret").addEventListener("click", () => {
  copyText(document.getElementById("new-secret-value").textContent);
});
document.getElementById("hide-secret").addEventListener("click", () => {
  secretBox.hidden = true;
  document.getElementById("new-secret-value").textContent = "";
});

async function toggle(webhook, control) {
  control.disabled = true;
  try {
    const updated = await request("PUT", `/api/webhooks/${encodeURIComponent(webhook.id)}`, { active: !webhook.active });
    replace(updated);
    const reenabled = N_("Webhook re-enabled: new events are delivered again. To re-send what failed meanwhile, "
      + "use Recover failed deliveries in its delivery log."); // what it missed while disabled stays missed
    if (!updated.active) toast(t("Webhook disabled."));
    else toast(webhook.disabledReason ? t(reenabled) : t("Webhook enabled."));
    focusRowAction(updated.id, "toggle");
  } catch (error) {
    if (!(await handleMissing(error))) toast(error.message, "error");
    control.disabled = false;
  }
}

function openEdit(webhook) {
  editing = webhook;
  fillForm(editForm, webhook);
  editDialog.showModal();
  editForm.elements.url.focus();
}

editForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const submit = editForm.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const updated = await request("PUT", `/api/webhooks/${encodeURIComponent(editing.id)}`, readForm(editForm));
    editDialog.close();
    replace(updated);
    if (openWebhookId() === updated.id) openLog(updated, { focus: false });
    toast(t("Webhook updated."));
    focusRowAction(updated.id, "edit");
  } catch (error) {
    if (await handleMissing(error)) editDialog.close();
    else showFormError(error, editForm);
  } finally {
    submit.disabled = false;
  }
});

function openDelete(webhook) {
  deleting = webhook;
  document.getElementById("delete-text").textContent =
    t("Delete the webhook to {url}? Its delivery log is deleted with it.", { url: webhook.url });
  deleteDialog.showModal();
  deleteDialog.querySelector("[data-close]").focus(); // the safe choice first
}

document.getElementById("delete-confirm").addEventListener("click", async (event) => {
  const control = event.currentTarget;
  control.disabled = true;
  try {
    await request("DELETE", `/api/webhooks/${encodeURIComponent(deleting.id)}`);
    webhooks = webhooks.filter((webhook) => webhook.id !== deleting.id);
    if (openWebhookId() === deleting.id) closeLog();
    deleteDialog.close();
    render();
    toast(t("Webhook deleted."));
    createForm.elements.url.focus();
  } catch (error) {
    deleteDialog.close();
    if (!(await handleMissing(error))) toast(error.message, "error");
  } finally {
    control.disabled = false;
  }
});

for (const dialog of [editDialog, deleteDialog]) {
  for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    const webhook = dialog === editDialog ? editing : deleting;
    if (webhook && webhooks.some((w) => w.id === webhook.id)) {
      focusRowAction(webhook.id, dialog === editDialog ? "edit" : "delete");
    }
  });
}

rows.addEventListener("click", (event) => {
  const control = event.target.closest("button[data-action]");
  if (!control) return;
  const webhook = webhooks.find((w) => w.id === control.closest("tr").dataset.id);
  if (!webhook) return;
  const action = control.dataset.action;
  if (action === "test") sendTest(webhook, control);
  else if (action === "log") openLog(webhook);
  else if (action === "edit") openEdit(webhook);
  else if (action === "rotate") {
    openRotate(webhook, { rotated: replace, missing: handleMissing,
                          returnFocus: (id) => focusRowAction(id, "rotate") });
  }
  else if (action === "toggle") toggle(webhook, control);
  else if (action === "delete") openDelete(webhook);
});

// The log and rotation modules meet a webhook deleted elsewhere, or disabled meanwhile, too.
document.addEventListener("webhooks:missing", (event) => handleMissing(event.detail));
document.addEventListener("webhooks:stale", load);

load();
