// Messages on the dashboard that may carry a link: "Open in the editor" after a copy, a restore or
// an import, "Upgrade" when the plan's resumes are all used (429 SUBSCRIPTION_LIMIT_EXCEEDED).
import { t } from "../shared/i18n.js";

// say(box, "Copy made.", {href: "/resumes/1/edit", link: "Open in the editor"}); say(box, "") empties it.
export function say(box, message, { kind = "notice", href = null, link = "" } = {}) {
  if (!message) {
    box.replaceChildren();
    return null;
  }
  const text = document.createElement("p");
  text.className = kind;
  text.append(message);
  if (href) {
    const anchor = document.createElement("a");
    anchor.href = href;
    anchor.textContent = link;
    text.append(" ", anchor);
  }
  box.replaceChildren(text);
  return text;
}

export const editorUrl = (resume) => `/resumes/${encodeURIComponent(resume.id)}/edit`;

// An API error in words; the plan's limit with what it stopped (`limited`: a message with {limit}).
export function sayError(box, error, limited) {
  if (error.code === "SUBSCRIPTION_LIMIT_EXCEEDED") {
    return say(box, t(limited, { limit: error.details.limit ?? "" }),
               { kind: "error", href: "/billing", link: t("Upgrade") });
  }
  return say(box, error.message, { kind: "error" });
}
