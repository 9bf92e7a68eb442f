// Small pieces the webhook scripts share: dates in the person's time zone and language, elements, and
// copying a secret.
import { toast } from "../shared/api.js";
import { locale, t } from "../shared/i18n.js";

const root = document.getElementById("webhooks");

function formatter(options) {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: root?.dataset.timezone || "UTC" });
  } catch {
    return new Intl.DateTimeFormat(locale, options); // an unknown zone: the browser's own
  }
}

const dateTime = formatter({ dateStyle: "medium", timeStyle: "medium" });

export function when(timestamp) {
  return timestamp ? dateTime.format(new Date(timestamp)) : "—";
}

// A datetime-local input's value ("2025-03-01T14:30") reads as a time in the person's zone, like
// every time the page shows. Digits in a fixed locale, hours 0-23, so the parts can be parsed.
const digits = new Intl.DateTimeFormat("en-US", {
  timeZone: formatter({}).resolvedOptions().timeZone, hourCycle: "h23",
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
});

function wallClock(date) { // the zone's wall-clock time of ``date`` as if it were UTC, in ms
  const part = Object.fromEntries(digits.formatToParts(date).map(({ type, value }) => [type, Number(value)]));
  return Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
}

export function toLocalInput(date) {
  return new Date(wallClock(date)).toISOString().slice(0, 16);
}

// The instant whose wall-clock time in the zone is ``value``; null for a value that is not one.
export function fromLocalInput(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value || "");
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const wanted = Date.UTC(year, month - 1, day, hour, minute);
  let instant = wanted - (wallClock(new Date(wanted)) - wanted); // twice: the offset may differ across DST
  instant = wanted - (wallClock(new Date(instant)) - instant);
  return new Date(instant);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("Copied."));
  } catch {
    toast(t("Copy failed: select the text and copy it."), "error");
  }
}

// The column headings of a table, to label its cells where the narrow layout hides the heading row.
export function headings(table) {
  return [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
}
