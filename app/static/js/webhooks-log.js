// The delivery log of one webhook, and its test event: POST /test answers the log entry of the test
// after its first attempt, which the panel reports and then shows at the top of the refreshed log.
// The API pages the log by ``limit`` only (newest first, at most 100), so "Show more" asks for more.
import { request, showError } from "./api.js";
import { t } from "./i18n.js";
import { el, headings, when } from "./webhooks-format.js";

const PAGE = 20;
const MAX = 100;

const panel = document.getElementById("log-panel");
const title = document.getElementById("log-title");
const table = document.getElementById("log-table");
const rows = document.getElementById("log-rows");
const empty = document.getElementById("log-empty");
const more = document.getElementById("log-more");
const result = document.getElementById("test-result");
const labels = headings(table);

let current = null; // the webhook whose log is open
let limit = PAGE;

function outcome(entry) {
  if (entry.delivered_at) return ["ok", t("Delivered")];
  if (entry.attempts === 0) return ["pending", t("Pending")];
  if (entry.next_retry_at) return ["retrying", t("Retrying")];
  return ["failed", t("Failed")];
}

function row(entry) {
  const [kind, word] = outcome(entry);
  const cells = [
    el("code", {}, entry.event_type),
    el("span", {}, el("span", { class: `badge wh-${kind}` }, word),
       entry.error ? el("span", { class: "wh-error" }, entry.error) : null),
    entry.status_code ?? "—",
    String(entry.attempts),
    entry.response_time === null || entry.response_time === undefined ? "—" : t("{n} ms", { n: entry.response_time }),
    when(entry.delivered_at || entry.last_attempt_at),
    when(entry.next_retry_at),
  ];
  return el("tr", { "data-event": entry.event_type, "data-outcome": kind },
            ...cells.map((cell, i) => el("td", { "data-label": labels[i] }, cell)));
}

export async function loadLog() {
  if (!current) return;
  const webhook = current;
  more.disabled = true;
  try {
    const entries = await request("GET", `/api/webhooks/${encodeURIComponent(webhook.id)}/logs?limit=${limit}`);
    if (current !== webhook) return; // another log was opened meanwhile
    rows.replaceChildren(...entries.map(row));
    table.hidden = entries.length === 0;
    empty.hidden = entries.length > 0;
    more.hidden = entries.length < limit || limit >= MAX;
  } catch (error) {
    showError(error, panel);
  } finally {
    more.disabled = false;
  }
}

export async function openLog(webhook, { focus = true } = {}) {
  if (current?.id !== webhook.id) {
    limit = PAGE;
    result.hidden = true;
    rows.replaceChildren();
  }
  current = webhook;
  title.textContent = t("Delivery log of {url}", { url: webhook.url });
  panel.hidden = false;
  await loadLog();
  if (focus) title.focus();
}

export function closeLog() {
  current = null;
  panel.hidden = true;
}

export function openWebhookId() {
  return current?.id ?? null;
}

// Send a test event and show what the receiver answered; the button is busy meanwhile (the API waits
// for the first attempt, up to the delivery time-out).
export async function sendTest(webhook, button) {
  await openLog(webhook, { focus: false });
  button.disabled = true;
  result.hidden = false;
  result.className = "muted";
  result.textContent = t("Sending a test event…");
  try {
    const entry = await request("POST", `/api/webhooks/${encodeURIComponent(webhook.id)}/test`);
    if (entry.delivered_at) {
      result.className = "notice";
      result.textContent = t("Test delivered: HTTP {status} in {ms} ms.",
                             { status: entry.status_code, ms: entry.response_time ?? "—" });
    } else {
      result.className = "error";
      result.textContent = t("Test not delivered: {error}", { error: entry.error || t("Pending") })
        + (entry.next_retry_at ? " " + t("The next attempt is at {time}.", { time: when(entry.next_retry_at) }) : "");
    }
    await loadLog();
  } catch (error) {
    result.hidden = true;
    showError(error, panel);
  } finally {
    button.disabled = false;
  }
}

more.addEventListener("click", () => {
  limit = Math.min(MAX, limit + PAGE);
  loadLog();
});
document.getElementById("log-refresh").addEventListener("click", loadLog);
document.getElementById("log-close").addEventListener("click", () => {
  const id = current?.id;
  closeLog();
  document.querySelector(`#webhook-rows tr[data-id="${CSS.escape(id || "")}"] [data-action="log"]`)?.focus();
});
