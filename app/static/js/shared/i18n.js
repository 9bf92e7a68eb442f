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

// The page's language as its BCP 47 tag (<html lang>: "en", "zh-CN", "fr", "ar"...), for Intl's dates,
// numbers and lists.
export const locale = document.documentElement.lang || "en";

// Dates as "6 Dec 2026" (en), "2026年12月6日" (zh-CN), "6 déc. 2026" (fr): the lists of the account page.
export const mediumDate = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });

// A list as the language writes one: "a, b, c", "a、b、c", "a، b، c".
export const listSeparator = /^(zh|ja)/.test(locale) ? "、" : locale.startsWith("ar") ? "، " : ", ";

// Right to left (Arabic): the arrows and the breadcrumbs' separator a script writes point the reading way.
export const rtl = document.documentElement.dir === "rtl";
export const crumb = rtl ? " ‹ " : " › ";
export const onward = rtl ? "←" : "→";
