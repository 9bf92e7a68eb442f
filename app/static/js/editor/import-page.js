// The import report's picture of the imported PDF (editor/import.js): one page at a time beside the notes,
// with its neighbours a button away. A note that came from a page shows that page, with the note's text
// quoted under it, so what the form holds can be compared with what the file printed. The picture opens
// full size in a tab of its own.
import { rtl, t } from "../shared/i18n.js";

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function named(button, label) {
  button.setAttribute("aria-label", label);
  button.title = label;
  return button;
}

// {element, show(n, quote = "")} for the report's `pages` pictures, or null when there are none (a DOCX).
export function pageViewer(resumeId, report) {
  const total = report.pages || 0;
  if (!total) return null;
  const file = report.fileName || t("the document");
  const image = element("img", { width: 640, decoding: "async" });
  const link = element("a", { target: "_blank", rel: "noopener" }, image);
  const name = element("span", { className: "report-page-name" });
  const quote = element("q", { className: "report-page-quote", dir: "auto", hidden: true });
  const count = element("span", { className: "report-page-count" });
  const previous = named(element("button", { type: "button", className: "secondary icon", textContent: rtl ? "›" : "‹" }),
                         t("Previous page"));
  const next = named(element("button", { type: "button", className: "secondary icon", textContent: rtl ? "‹" : "›" }),
                     t("Next page"));
  const turn = element("div", { className: "report-page-turn" }, previous, count, next);
  turn.hidden = total < 2;
  const figure = element("figure", { className: "report-page" }, link, element("figcaption", {}, name, quote), turn);
  let shown = 0;

  function show(number, text = "") {
    shown = Math.min(Math.max(1, Number(number) || 1), total);
    const url = `/api/resumes/${encodeURIComponent(resumeId)}/import-report/pages/${shown}`;
    const label = t("Page {n} of {file}", { n: shown, file });
    Object.assign(image, { src: url, alt: label });
    link.href = url;
    link.setAttribute("aria-label", `${label} (${t("opens in a new tab")})`);
    name.textContent = label;
    quote.textContent = text;
    quote.hidden = !text;
    count.textContent = t("{n} / {total}", { n: shown, total });
    previous.disabled = shown === 1;
    next.disabled = shown === total;
  }

  for (const [button, step, other] of [[previous, -1, next], [next, 1, previous]]) {
    button.addEventListener("click", () => {
      show(shown + step);
      if (button.disabled) other.focus(); // at an end: the focus is not lost to the page
    });
  }
  show(1);
  return { element: figure, show, total };
}
