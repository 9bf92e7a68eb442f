// The editor's Analysis panel (issue 16): "Analyse against the job" sends the job typed under Target
// job to POST /api/resumes/<id>/analysis and shows the four scores, the job's keywords the resume has
// and lacks, and the suggestions, each with a button that scrolls to its section of the form and
// focuses it. "Write a cover letter" asks /generate for one, shows it for editing, and downloads it
// as PDF, DOCX or TXT through /cover-letter/export.
import { request } from "../shared/api.js";
import { N_, onward, t } from "../shared/i18n.js";
import { explain, jobDescription, resumePath, say } from "./ai-common.js";
import { $ } from "../shared/dom.js";

const panel = document.getElementById("ai-panel");

// The form's section for an analysis' `section` (a contentJson key).
function sectionOf(key) {
  if (key === "personalInfo") return $("h-personal")?.closest("section");
  if (key === "targetJobDescription") return $("h-target")?.closest("section");
  const name = key === "skillGroups" ? "skills" : key;
  return document.querySelector(`#editor-form [data-section="${CSS.escape(name)}"]`);
}

function goTo(section) {
  // The section's content, not its heading's name (contentJson.sectionTitles)
  const content = ":not([data-field^='contentJson.sectionTitles'])";
  const target = section.querySelector(`.entries input, .entries textarea, input[data-field^='contentJson']${content}, `
                                       + "textarea[data-field^='contentJson'], button[data-add]");
  section.scrollIntoView({ block: "start" });
  section.classList.add("ai-flash");
  setTimeout(() => section.classList.remove("ai-flash"), 1600);
  target?.focus({ preventScroll: true });
}

function keywords(list, words) {
  list.replaceChildren(...(words.length ? words : [null]).map((word) => {
    const item = document.createElement("li");
    if (word === null) item.className = "muted";
    item.textContent = word ?? t("None");
    return item;
  }));
}

const SEVERITIES = { critical: N_("Important"), warning: N_("Worth fixing"), info: N_("Tip") };

function suggestion({ section, message, severity }) {
  const item = document.createElement("li");
  item.dataset.severity = severity;
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.textContent = t(SEVERITIES[severity] ?? severity);
  const text = document.createElement("span");
  text.textContent = message;
  item.append(badge, " ", text);
  const place = sectionOf(section);
  if (place) {
    const go = document.createElement("button");
    go.type = "button";
    go.className = "link";
    go.dataset.goto = section;
    go.textContent = `${onward} ${place.querySelector("h2")?.textContent ?? section}`;
    go.addEventListener("click", () => goTo(place));
    item.append(" ", go);
  }
  return item;
}

function show(data) {
  for (const dd of panel.querySelectorAll("[data-score]")) dd.textContent = data[dd.dataset.score];
  keywords($("ai-matched"), data.matchedKeywords);
  keywords($("ai-missing"), data.missingKeywords);
  const list = $("ai-suggestions");
  list.replaceChildren(...data.suggestions.map(suggestion));
  if (!data.suggestions.length) {
    const none = document.createElement("li");
    none.className = "muted";
    none.textContent = t("No suggestions: the resume covers the basics.");
    list.append(none);
  }
  $("ai-results").hidden = false;
}

// Without a job there is nothing to compare with: say where to paste it and take the person there.
async function needJob(note) {
  if (await jobDescription()) return false;
  say(note, t("Paste the job description under Target job first."));
  const field = document.querySelector('[data-field="targetJobDescription"]');
  field?.scrollIntoView({ block: "center" });
  field?.focus({ preventScroll: true });
  return true;
}

async function analyse(button) {
  const note = $("ai-analysis-state");
  if (await needJob(note)) return;
  button.disabled = true;
  panel.setAttribute("aria-busy", "true");
  say(note, t("Analysing…"));
  try {
    show(await request("POST", `${resumePath}/analysis`, { jobDescription: await jobDescription() }));
    say(note);
  } catch (error) {
    $("ai-results").hidden = true;
    explain(note, error);
  } finally {
    button.disabled = false;
    panel.removeAttribute("aria-busy");
  }
}

async function writeLetter(button) {
  const note = $("ai-letter-state");
  if (await needJob(note)) return;
  button.disabled = true;
  say(note, t("Writing…"));
  try {
    const data = await request("POST", `${resumePath}/generate`,
                               { kind: "cover_letter", jobDescription: await jobDescription() });
    say(note);
    $("ai-letter-text").value = data.text;
    $("ai-letter-result").replaceChildren();
    $("ai-letter-box").hidden = false;
    $("ai-letter-text").focus();
  } catch (error) {
    explain(note, error);
  } finally {
    button.disabled = false;
  }
}

async function download(fmt, button) {
  const result = $("ai-letter-result");
  const buttons = $("ai-letter-box").querySelectorAll("button[data-letter-format]");
  buttons.forEach((b) => { b.disabled = true; });
  say(result, t("Rendering {format}…", { format: fmt.toUpperCase() }));
  try {
    const data = await request("POST", `${resumePath}/cover-letter/export`,
                               { text: $("ai-letter-text").value, format: fmt });
    const link = document.createElement("a");
    link.href = data.downloadUrl;
    link.download = data.filename;
    link.textContent = t("Download again");
    link.click();
    result.replaceChildren(t("{file} is ready.", { file: data.filename }), " ", link);
    delete result.dataset.kind;
  } catch (error) {
    explain(result, error);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    button.focus();
  }
}

if (panel) {
  $("ai-analyse").addEventListener("click", (event) => analyse(event.currentTarget));
  $("ai-letter")?.addEventListener("click", (event) => writeLetter(event.currentTarget)); // AI writing set up
  $("ai-letter-box")?.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (button?.dataset.letterFormat) download(button.dataset.letterFormat, button);
    else if (button?.dataset.review === "discard") {
      $("ai-letter-box").hidden = true;
      $("ai-letter").focus();
    }
  });
}
