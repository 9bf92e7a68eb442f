// The page's strings, translated on the server from the catalogue (app/i18n.py renders every message of
// the page's script folders into <script type="application/json" id="page-strings">). `make messages`
// finds a message by its call: t("…") where it is shown, N_("…") where it is defined apart from that.
const strings = JSON.parse(document.getElementById("page-strings")?.textContent || "{}");

// t("Saved") -> the translation; t("{n} of {total}", {n: 3, total: 5}) fills the named places.
export function t(message, values = {}) {
  const text = strings[message] ?? message;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// N_("…") marks a message id kept in a table and shown later with t(table[key]).
export const N_ = (message) => message;

export const language = document.documentElement.lang.startsWith("zh") ? "zh-cn" : "en";

// Dates as "6 Dec 2026" (en) or "2026年12月6日" (zh-cn): the lists of the account page.
export const mediumDate = new Intl.DateTimeFormat(language === "zh-cn" ? "zh-CN" : "en", { dateStyle: "medium" });
