// A row of the trash (GET /api/resumes/trash): the resume, when it was deleted, when it will be
// deleted for good, and Restore (POST /api/resumes/<id>/restore). A restore counts against the plan
// like a new resume: at the plan's limit the 429 is explained with the upgrade link.
import { request } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { editorUrl, say, sayError } from "./note.js";

function time(element, iso, dates) {
  element.dateTime = iso;
  element.textContent = dates.format(new Date(iso));
}

async function restore(item, button, { note, done }) {
  button.disabled = true;
  try {
    const resume = await request("POST", `/api/resumes/${encodeURIComponent(item.id)}/restore`);
    say(note, t("“{title}” is back in your resumes.", { title: resume.title }),
        { href: editorUrl(resume), link: t("Open in the editor") });
    await done();
  } catch (error) {
    button.disabled = false;
    if (error.code === "RESUME_NOT_FOUND") {
      say(note, t("This resume is no longer in the trash. The list has been refreshed."), { kind: "error" });
      await done();
      return;
    }
    sayError(note, error, N_("Your plan allows {limit} resumes, so this one cannot be restored. Delete one, or upgrade for more."));
  }
}

// trashRow(item, {dates: Intl.DateTimeFormat, note: element for messages, done: refresh the page})
export function trashRow(item, options) {
  const row = document.getElementById("trash-row-template").content.firstElementChild.cloneNode(true);
  row.dataset.resumeId = item.id;
  row.querySelector(".title").textContent = item.title;
  row.querySelector(".template-name").textContent = item.template?.name ?? "";
  time(row.querySelector(".deleted"), item.deletedAt, options.dates);
  time(row.querySelector(".purged"), item.purgeAt, options.dates);
  const button = row.querySelector(".restore");
  button.textContent = t("Restore");
  button.setAttribute("aria-label", t("Restore {title}", { title: item.title }));
  button.addEventListener("click", () => restore(item, button, options));
  return row;
}
