// Small pieces the webhook scripts share: dates in the person's time zone and language, and elements.
import { language } from "./i18n.js";

const root = document.getElementById("webhooks");
const locale = language === "zh-cn" ? "zh-CN" : "en";

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

// el("td", {class: "x", "data-label": "URL"}, "text", child) -> an element; text is never parsed as HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// The column headings of a table, to label its cells where the narrow layout hides the heading row.
export function headings(table) {
  return [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
}
