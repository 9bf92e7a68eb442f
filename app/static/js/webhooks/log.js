// The delivery log of one webhook, and its test event: POST /test answers the log entry of the test
// after its first attempt, which the panel reports and then shows at the top of the refreshed log.
// The API pages the log by ``limit`` only (newest first, at most 100), so "Show more" asks for more.
// Each entry can be sent again (POST .../resend): a new entry, marked as a re-send of the original,
// whose outcome the panel shows once its first attempt is made (settleLog).
import { request, showError } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { headings, when } from "./format.js";
import { el, whileBusy } from "../shared/dom.js";

const PAGE = 20;
const MAX = 100;

const panel = document.getElementById("log-panel");
const title = document.getElementById("log-title");
const table = document.getElementById("log-table");
const rows = document.getElementById("log-rows");
const empty = document.getElementById("log-empty");
const more = document.getElementById("log-more");
const result = document.getElementById("test-result"); // the panel's status line
const labels = headings(table);

let current = null; // the webhook whose log is open
let limit = PAGE;
let entries = []; // the entries shown, newest first
const opened = []; // what runs when the log of another webhook opens

export function whenOpened(callback) {
  opened.push(callback);
}

function outcome(entry) {
  if (entry.delivered_at) return ["ok", t("Delivered")];
  if (entry.attempts === 0) return ["pending", t("Pending")];
  if (entry.next_retry_at) return ["retrying", t("Retrying")];
  return ["failed", t("Failed")];
}

function resendNote(entry) {
  if (!entry.resend_of) return null;
  const original = entries.find((other) => other.id === entry.resend_of);
  const at = original && (original.delivered_at || original.last_attempt_at);
  return el("span", { class: "wh-note wh-resent" },
            at ? t("Re-send of the delivery of {time}", { time: when(at) }) : t("Re-send of an earlier delivery"));
}

function row(entry) {
  const [kind, word] = outcome(entry);
  const resend = el("button", { type: "button", class: "secondary", "data-action": "resend",
                                "aria-label": `${t("Resend")}: ${entry.event_type}, ${when(entry.delivered_at
                                  || entry.last_attempt_at)}` }, t("Resend"));
  const cells = [
    el("span", {}, el("code", {}, entry.event_type), resendNote(entry)),
    el("span", {}, el("span", { class: `badge wh-${kind}` }, word),
       entry.error ? el("span", { class: "wh-error" }, entry.error) : null),
    entry.status_code ?? "—",
    String(entry.attempts),
    entry.response_time === null || entry.response_time === undefined ? "—" : t("{n} ms", { n: entry.response_time }),
    when(entry.delivered_at || entry.last_attempt_at),
    when(entry.next_retry_at),
    resend,
  ];
  return el("tr", { "data-id": entry.id, "data-event": entry.event_type, "data-outcome": kind,
                    "data-resend-of": entry.resend_of },
            ...cells.map((cell, i) => el("td", { "data-label": labels[i] }, cell)));
}

export async function loadLog() {
  if (!current) return;
  const webhook = current;
  more.disabled = true;
  try {
    const found = await request("GET", `/api/webhooks/${encodeURIComponent(webhook.id)}/logs?limit=${limit}`);
    if (current !== webhook) return; // another log was opened meanwhile
    entries = found;
    const focused = rows.contains(document.activeElement) ? document.activeElement.closest("tr").dataset.id : null;
    rows.replaceChildren(...entries.map(row));
    if (focused) rows.querySelector(`tr[data-id="${CSS.escape(focused)}"] button`)?.focus(); // kept across a refresh
    table.hidden = entries.length === 0;
    empty.hidden = entries.length > 0;
    more.hidden = entries.length < limit || limit >= MAX;
  } catch (error) {
    if (!missing(error)) showError(error, panel);
  } finally {
    more.disabled = false;
  }
}

export async function openLog(webhook, { focus = true } = {}) {
  if (current?.id !== webhook.id) {
    limit = PAGE;
    result.hidden = true;
    entries = [];
    rows.replaceChildren();
    for (const callback of opened) callback(webhook);
  }
  current = webhook;
  title.textContent = t("Delivery log of {url}", { url: webhook.url });
  panel.hidden = false;
  await loadLog();
  if (focus) title.focus();
}

// A re-send's first attempt follows at once: the log is read again, a second apart, until no entry
// waits for its first attempt (at most SETTLE_TRIES times), so the outcome shows without Refresh.
const SETTLE_TRIES = 10;
let settling = 0;

export async function settleLog() {
  const round = ++settling; // a newer settle (or another log) ends this one
  const webhook = current;
  for (let i = 0; i < SETTLE_TRIES; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (round !== settling || current !== webhook) return;
    await loadLog();
    if (!entries.some((entry) => entry.attempts === 0)) return;
  }
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
    if (!missing(error)) showError(error, panel);
  } finally {
    button.disabled = false;
  }
}

// A webhook deleted elsewhere: the page (webhooks/page.js) says so and refreshes its list.
export function missing(error) {
  if (error.code !== "WEBHOOK_NOT_FOUND") return false;
  document.dispatchEvent(new CustomEvent("webhooks:missing", { detail: error }));
  return true;
}

// Report on the panel's status line (a live region): kind is "notice", "error" or "muted".
export function say(kind, text) {
  result.hidden = false;
  result.className = kind;
  result.textContent = text;
}

// What went wrong with a resend or a recovery, in words. A webhook found disabled may have been
// disabled by the service meanwhile: the list is fetched again to say why.
export function problem(error) {
  if (error.code === "WEBHOOK_DISABLED") {
    document.dispatchEvent(new CustomEvent("webhooks:stale"));
    return t("This webhook is disabled, so nothing can be sent to it. Re-enable it first.");
  }
  if (error.code === "NOT_FOUND") return t("This delivery is no longer in the log. The log was refreshed.");
  return error.message;
}

async function resend(entry, button) {
  const webhook = current;
  // A refresh meanwhile (settleLog) may have drawn the row anew: the focus goes to its button then.
  const refocus = () => (button.isConnected ? button
    : rows.querySelector(`tr[data-id="${CSS.escape(entry.id)}"] button[data-action="resend"]`));
  await whileBusy(button, async () => {
    try {
      const fresh = await request("POST", `/api/webhooks/${encodeURIComponent(webhook.id)}/logs/`
                                  + `${encodeURIComponent(entry.id)}/resend`);
      if (current !== webhook) return;
      entries = [fresh, ...entries];
      rows.prepend(row(fresh));
      table.hidden = false;
      empty.hidden = true;
      say("notice", t("Sent again: the new delivery of {event} is at the top of the log.",
                      { event: entry.event_type }));
      settleLog();
    } catch (error) {
      if (missing(error)) return;
      say("error", problem(error));
      if (error.code === "NOT_FOUND") await loadLog();
    }
  }, { refocus });
}

rows.addEventListener("click", (event) => {
  const button = event.target.closest('button[data-action="resend"]');
  const entry = button && entries.find((e) => e.id === button.closest("tr").dataset.id);
  if (entry) resend(entry, button);
});

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
