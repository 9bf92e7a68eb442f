// The page's strings, translated on the server from the same catalogues as the page
// (app/i18n.py renders them into <script type="application/json" id="page-strings">).
const strings = JSON.parse(document.getElementById("page-strings")?.textContent || "{}");

// t("Saved") -> the translation; t("{n} of {total}", {n: 3, total: 5}) fills the named places.
export function t(message, values = {}) {
  const text = strings[message] ?? message;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export const language = document.documentElement.lang.startsWith("zh") ? "zh-cn" : "en";
