// Export: PDF, DOCX, HTML or TXT with the chosen options (POST /api/resumes/<id>/export, which
// answers once the render job is done), then the file downloads from the signed address it gives.
// The options are kept per resume in this browser and the preview follows them ("side:options").
// A full storage and a failed render are said in words, with what to do next.
import { request, showError } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { whileBusy } from "../shared/dom.js";
import { formatBytes, formatTime, readOptions, resumePath, storeOptions, undrawnText } from "./side-common.js";

const form = document.getElementById("export-form");
const progress = document.getElementById("export-progress");
const progressText = document.getElementById("export-progress-text");
const result = document.getElementById("export-result");
const LABELS = { pdf: "PDF", docx: "DOCX", html: "HTML", txt: "TXT", json: "JSON Resume" };

function download(url, filename) {
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

function showReady(data) {
  const message = document.createElement("p");
  message.className = "notice";
  message.textContent = t("{file} is ready ({size}). The download link works until {time}.", {
    file: data.filename, size: formatBytes(data.fileSize), time: formatTime(data.expiresAt) });
  const again = document.createElement("a");
  again.href = data.downloadUrl;
  again.download = data.filename;
  again.textContent = t("Download again");
  message.append(" ", again);
  if (data.undrawnCharacters?.length) message.append(" ", undrawnText(data.undrawnCharacters));
  result.replaceChildren(message);
}

function explain(error, fmt) {
  const message = document.createElement("p");
  message.className = "error";
  message.setAttribute("role", "alert");
  message.dataset.code = error.code;
  if (error.code === "SUBSCRIPTION_LIMIT_EXCEEDED" && error.details.resource === "storage") {
    message.textContent = t("Your storage is full: this export would pass your plan's {limit} of storage. "
      + "Delete old exports or upgrade your plan.", { limit: formatBytes(error.details.limit) });
    const upgrade = document.createElement("a");
    upgrade.href = "/billing";
    upgrade.textContent = t("Upgrade");
    message.append(" ", upgrade);
  } else if (error.code === "EXPORT_FAILED") { // the server says why, and what to do about it
    message.textContent = error.message || t("The {format} file could not be produced. Try again in a moment; "
      + "if it keeps failing, try another template.", { format: LABELS[fmt] });
  } else if (error.field && form.querySelector(`[data-field="${CSS.escape(error.field)}"]`)) {
    showError(error, form);
    return;
  } else {
    message.textContent = error.message;
  }
  result.replaceChildren(message);
}

async function exportAs(fmt) {
  form.setAttribute("aria-busy", "true");
  result.replaceChildren();
  progressText.textContent = t("Rendering {format}…", { format: LABELS[fmt] });
  progress.hidden = false;
  await whileBusy([...form.querySelectorAll("button[data-format]")], async () => {
    try {
      const data = await request("POST", `${resumePath}/export`, { format: fmt, options: readOptions() });
      download(data.downloadUrl, data.filename);
      showReady(data);
    } catch (error) {
      explain(error, fmt);
    } finally {
      progress.hidden = true;
      form.removeAttribute("aria-busy");
    }
  });
}

if (form) {
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("change", () => {
    storeOptions(readOptions());
    document.dispatchEvent(new CustomEvent("side:options"));
  });
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-format]");
    if (button) exportAs(button.dataset.format);
  });
}
