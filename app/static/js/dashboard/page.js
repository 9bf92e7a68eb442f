// The dashboard: the person's resumes from GET /api/resumes (filtered by status, a page at a time),
// the plan's usage, "New resume" (dashboard/picker.js), "Import" (dashboard/import.js), duplicate,
// and delete with a confirmation (to the trash, for 30 days). With ?view=trash it lists the trash
// instead (GET /api/resumes/trash, rows from dashboard/trash.js). The view, the filter and the page
// are kept in the address, so reload and back show the same list. Each resume's first page is shown
// beside its title (dashboard/pictures.js).
import { ApiError, request, toast } from "../shared/api.js";
import { N_, locale, t } from "../shared/i18n.js";
import { setUpImport } from "./import.js";
import { editorUrl, say, sayError } from "./note.js";
import { firstPage } from "./pictures.js";
import { setUpPicker } from "./picker.js";
import { trashRow } from "./trash.js";
import { loadUsage } from "./usage.js";
import { $ } from "../shared/dom.js";

const STATUSES = { DRAFT: N_("Draft"), PUBLISHED: N_("Published"), ARCHIVED: N_("Archived") };
const root = $("dashboard");
const rows = $("resume-rows");
const table = $("resume-table");
const listState = $("list-state");
const pager = $("pager");
const filter = $("status-filter");
const confirmDialog = $("confirm-delete");
const note = $("dash-note");
const trash = root.dataset.view === "trash";

let dates;
try {
  dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: root.dataset.timezone });
} catch {
  dates = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
}

const view = readAddress();
let account = null;
let loading = null;

function readAddress() {
  const params = new URLSearchParams(location.search);
  const number = (value, fallback, max) => {
    const parsed = Number.parseInt(value, 10);
    return Number.isInteger(parsed) && parsed >= 1 ? Math.min(parsed, max) : fallback;
  };
  const status = params.get("status");
  return { status: status in STATUSES && !trash ? status : "", page: number(params.get("page"), 1, 1_000_000),
           limit: number(params.get("limit"), 10, 100) };
}

function writeAddress() {
  const params = new URLSearchParams();
  if (trash) params.set("view", "trash");
  if (view.status) params.set("status", view.status);
  if (view.page > 1) params.set("page", view.page);
  if (view.limit !== 10) params.set("limit", view.limit);
  const query = params.toString();
  history.replaceState(null, "", location.pathname + (query ? `?${query}` : ""));
}

function shareText(share) {
  if (!share) return t("Not shared");
  const parts = [share.isEnabled ? (share.hasPassword ? t("Shared with a password") : t("Shared")) : t("Sharing off")];
  if (share.isEnabled || share.viewCount) {
    parts.push(share.viewCount === 1 ? t("1 view") : t("{n} views", { n: share.viewCount }));
  }
  return parts.join(" · ");
}

function row(resume) {
  const item = $("row-template").content.firstElementChild.cloneNode(true);
  const editUrl = `/resumes/${encodeURIComponent(resume.id)}/edit`;
  item.dataset.resumeId = resume.id;
  const title = item.querySelector(".title");
  title.href = editUrl;
  title.textContent = resume.title;
  firstPage(item.querySelector(".first-page"), resume);
  item.querySelector(".template-name").textContent = resume.template?.name ?? "";
  const status = item.querySelector(".status");
  status.textContent = t(STATUSES[resume.status] || resume.status);
  status.dataset.status = resume.status;
  const updated = item.querySelector(".updated");
  updated.dateTime = resume.updatedAt;
  updated.textContent = dates.format(new Date(resume.updatedAt));
  const score = item.querySelector(".score");
  if (resume.atsScore === null || resume.atsScore === undefined) {
    score.textContent = t("No score yet");
    score.classList.add("muted");
  } else {
    score.textContent = String(resume.atsScore);
  }
  item.querySelector(".share-state").textContent = shareText(resume.shareInfo);
  const lastViewed = resume.shareInfo?.lastViewedAt;
  const lastView = item.querySelector(".last-view");
  lastView.hidden = !lastViewed;
  if (lastViewed) lastView.textContent = t("Last viewed {date}", { date: dates.format(new Date(lastViewed)) });
  const edit = item.querySelector(".edit");
  edit.href = editUrl;
  edit.textContent = t("Edit");
  edit.setAttribute("aria-label", t("Edit {title}", { title: resume.title }));
  const copy = item.querySelector(".duplicate");
  copy.textContent = t("Duplicate");
  copy.setAttribute("aria-label", t("Duplicate {title}", { title: resume.title }));
  copy.addEventListener("click", () => duplicate(resume, copy));
  const remove = item.querySelector(".delete");
  remove.textContent = t("Delete");
  remove.setAttribute("aria-label", t("Delete {title}", { title: resume.title }));
  remove.addEventListener("click", () => confirmDelete(resume, remove));
  return item;
}

function emptyState() {
  const heading = document.createElement("h3");
  const text = document.createElement("p");
  const button = document.createElement("button");
  button.type = "button";
  if (trash) {
    heading.textContent = t("The trash is empty");
    text.textContent = t("Deleted resumes stay here for 30 days.");
    listState.replaceChildren(heading, text);
  } else if (view.status) {
    heading.textContent = t("No resumes with this status");
    button.className = "secondary";
    button.textContent = t("Show all resumes");
    button.addEventListener("click", () => { filter.value = ""; changeFilter(); });
    listState.replaceChildren(heading, button);
  } else {
    heading.textContent = t("No resumes yet");
    text.textContent = t("Create your first resume from a template: pick a look, then fill it in.");
    button.textContent = $("new-resume").textContent;
    button.addEventListener("click", openPicker);
    listState.replaceChildren(heading, text, button);
  }
  listState.className = "list-state empty";
}

function errorState(error) {
  const text = document.createElement("p");
  text.className = "error";
  text.textContent = `${t("The resumes could not be loaded.")} ${error.message}`;
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "secondary";
  retry.textContent = t("Try again");
  retry.addEventListener("click", () => load());
  listState.replaceChildren(text, retry);
  listState.className = "list-state";
  listState.hidden = false;
}

function show(resumes, meta) {
  const pages = Math.max(meta.totalPages, 1);
  $("list-count").textContent = meta.total === 0 ? "" : meta.total === 1 ? t("1 resume")
    : t("{total} resumes", { total: meta.total });
  rows.replaceChildren(...resumes.map(trash ? (item) => trashRow(item, { dates, note, done: refresh }) : row));
  table.hidden = resumes.length === 0;
  listState.hidden = resumes.length !== 0;
  if (!resumes.length) emptyState();
  pager.hidden = pages <= 1;
  $("page-label").textContent = t("Page {page} of {pages}", { page: meta.page, pages });
  $("prev-page").disabled = meta.page <= 1;
  $("next-page").disabled = meta.page >= pages;
}

async function load() {
  loading?.abort();
  const controller = new AbortController();
  loading = controller;
  root.querySelector(".list").setAttribute("aria-busy", "true");
  const params = new URLSearchParams({ page: view.page, limit: view.limit });
  if (view.status) params.set("status", view.status);
  try {
    const response = await fetchPage(params, controller.signal);
    if (!response.meta) throw new ApiError(500, null);
    if (response.meta.totalPages && view.page > response.meta.totalPages) {
      view.page = response.meta.totalPages; // e.g. the last item of the last page was deleted
      writeAddress();
      return load();
    }
    show(response.data, response.meta);
  } catch (error) {
    if (error.name !== "AbortError") {
      table.hidden = true;
      pager.hidden = true;
      errorState(error);
    }
  } finally {
    if (loading === controller) root.querySelector(".list").setAttribute("aria-busy", "false");
  }
}

// The list needs the envelope's meta (total, totalPages) as well as its data, and request() answers
// the data only. An answer that is not a success is asked again through request(), which turns it
// into an ApiError in words (and sends a person whose session ended to the sign-in page).
async function fetchPage(params, signal) {
  const path = `/api/resumes${trash ? "/trash" : ""}?${params}`;
  let response;
  try {
    response = await fetch(path, { credentials: "same-origin", headers: { Accept: "application/json" }, signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { error: t("Something went wrong. Try again."), code: "NETWORK_ERROR" });
  }
  const body = response.ok ? await response.json().catch(() => null) : null;
  if (!body?.meta) return { data: await request("GET", path, undefined, { signal }), meta: null };
  return { data: body.data, meta: body.meta };
}

function changeFilter() {
  view.status = filter.value;
  view.page = 1;
  writeAddress();
  load();
}

async function duplicate(resume, button) {
  button.disabled = true;
  try {
    const made = await request("POST", `/api/resumes/${encodeURIComponent(resume.id)}/duplicate`);
    say(note, t("Copy made: “{title}”.", { title: made.title }), { href: editorUrl(made), link: t("Open in the editor") });
    await refresh();
  } catch (error) {
    sayError(note, error, N_("Your plan allows {limit} resumes, so this one cannot be copied. Delete one, or upgrade for more."));
    button.disabled = false;
  }
}

function confirmDelete(resume, opener) {
  $("confirm-text").textContent = t("“{title}” goes to the trash: you can restore it there for 30 days, then it is deleted for good.",
    { title: resume.title });
  confirmDialog.onclose = async () => {
    if (confirmDialog.returnValue !== "delete") return; // Cancel or Escape: nothing changes
    opener.disabled = true;
    try {
      await request("DELETE", `/api/resumes/${encodeURIComponent(resume.id)}`);
      toast(t("Resume moved to the trash."));
    } catch (error) {
      if (error.code === "RESUME_NOT_FOUND") {
        error.message = t("This resume no longer exists. The list has been refreshed.");
      }
      toast(error.message, "error");
    }
    $("list-title").tabIndex = -1;
    $("list-title").focus();
    await refresh();
  };
  confirmDialog.returnValue = "";
  confirmDialog.showModal();
}

async function refreshUsage() {
  account = (await loadUsage()) ?? account;
}

function refresh() {
  return Promise.all([load(), refreshUsage()]);
}

if (filter) {
  filter.value = view.status;
  filter.addEventListener("change", changeFilter);
}
$("prev-page").addEventListener("click", () => { view.page -= 1; writeAddress(); load(); });
$("next-page").addEventListener("click", () => { view.page += 1; writeAddress(); load(); });
const openPicker = setUpPicker($("new-resume"), () => account);
setUpImport($("import-resume"), refresh);
refreshUsage();
load();
