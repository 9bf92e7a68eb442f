// "Recover failed deliveries": POST /recover re-sends every delivery of the open log's webhook that ran
// out of attempts since a time the person picks (in their time zone, as the page shows times), each as
// a new log entry; the panel says how many and shows the refreshed log.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { fromLocalInput, toLocalInput } from "./format.js";
import { el, whileBusy } from "../shared/dom.js";
import { loadLog, missing, openWebhookId, problem, say, settleLog, whenOpened } from "./log.js";

const form = document.getElementById("recover-form");
const since = form.elements.since;
const DAY = 24 * 3600 * 1000;

function reset(from = new Date(Date.now() - DAY)) { // a day back to start with
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  since.removeAttribute("aria-invalid");
  since.setAttribute("aria-describedby", "recover-hint");
  since.max = toLocalInput(new Date());
  since.value = toLocalInput(from);
}

// The error goes under the row of field and button (showError would put it inside the label).
function fieldError(message) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  const note = el("p", { class: "field-error", id: "error-since" }, message);
  form.querySelector('button[type="submit"]').after(note);
  since.setAttribute("aria-invalid", "true");
  since.setAttribute("aria-describedby", "error-since recover-hint");
  since.focus();
}

// The API names the field; its message is English, so the page says it in the reader's language.
function sinceMessage(error) {
  return /future/i.test(error.message) ? t("Choose a time that has passed.")
    : t("The log does not reach that far back. Choose a later time.");
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = openWebhookId();
  const from = fromLocalInput(since.value);
  if (!from) return fieldError(t("Enter a date and time."));
  if (from > new Date()) return fieldError(t("Choose a time that has passed."));
  await whileBusy(form.querySelector('button[type="submit"]'), async () => {
    try {
      const { count } = await request("POST", `/api/webhooks/${encodeURIComponent(id)}/recover`,
                                      { since: from.toISOString() });
      reset(from);
      say("notice", count === 0 ? t("No deliveries failed since then: nothing was re-sent.")
        : count === 1 ? t("1 delivery re-sent.") : t("{n} deliveries re-sent.", { n: count }));
      await loadLog();
      if (count) settleLog();
    } catch (error) {
      if (missing(error)) return;
      if (error.field === "since") fieldError(sinceMessage(error));
      else say("error", problem(error));
    }
  });
});

whenOpened(() => reset());
