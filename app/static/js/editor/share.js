// Share: the resume's public link (GET/POST/PUT /api/resumes/<id>/share): on and off, password,
// expiry, download and comments allowed, the link to copy, its views and last view; and the
// comments visitors left on the share page (GET /api/resumes/<id>/comments, a page at a time), for the owner.
// New comments appear by themselves: the newest page is asked for every POLL_MS while the tab is visible
// (and at once when it becomes visible again), and the comments not shown yet are put on top.
import { request, showError, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { formatTime, resumePath } from "./side-common.js";
import { $ } from "../shared/dom.js";

const form = document.getElementById("share-form");
let share = null; // the share's settings, or null before the first share
let commentsPage = 0; // the last page of comments the list shows
const POLL_MS = 25_000;
let polling = false; // a poll is under way

function localInput(iso) {
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function render() {
  const on = Boolean(share?.isEnabled);
  form.elements.isEnabled.checked = on;
  $("share-badge").textContent = on ? t("Shared") : share ? t("Sharing is off") : t("Not shared");
  $("share-badge").dataset.state = on ? "on" : "off";
  $("share-details").hidden = !on;
  form.setAttribute("aria-busy", "false");
  if (!share) return;
  $("share-url").value = share.shareUrl;
  form.elements.allowDownload.checked = share.allowDownload;
  form.elements.allowComments.checked = share.allowComments;
  const views = t("Views: {n}", { n: share.viewCount });
  const viewed = share.lastViewedAt ? t("Last viewed {time}", { time: formatTime(share.lastViewedAt) })
    : t("Not viewed yet");
  $("share-stats").textContent = `${views} · ${viewed}`;
  $("share-password-state").textContent = share.hasPassword ? t("Protected by a password.") : t("No password.");
  $("share-password-remove").hidden = !share.hasPassword;
  $("share-expiry-state").textContent = share.expiresAt
    ? t("Expires {time}", { time: formatTime(share.expiresAt) }) : t("Never");
  $("share-expires").value = share.expiresAt ? localInput(share.expiresAt) : "";
  $("share-expires-remove").hidden = !share.expiresAt;
}

async function load() {
  try {
    share = await request("GET", `${resumePath}/share`);
  } catch (error) {
    if (error.code !== "SHARE_NOT_FOUND") showError(error, form);
    share = null;
  }
  render();
}

// Apply a change: POST creates the link the first time, PUT changes it afterwards.
async function change(fields, done) {
  form.setAttribute("aria-busy", "true");
  try {
    const answer = await request(share ? "PUT" : "POST", `${resumePath}/share`, fields);
    share = { lastViewedAt: null, ...share, ...answer };
    render();
    for (const old of form.querySelectorAll(".field-error")) old.remove();
    toast(done || t("Share settings saved."));
    return true;
  } catch (error) {
    render();
    showError(error, form);
    return false;
  }
}

async function copyLink() {
  const input = $("share-url");
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t("Link copied."));
  } catch {
    input.focus();
    input.select(); // the person copies it themselves
    toast(t("The link is selected: press Ctrl+C (or ⌘C) to copy it."));
  }
}

function commentItem(comment) {
  const item = document.createElement("li");
  item.dataset.id = comment.id;
  const head = document.createElement("p");
  const name = document.createElement("strong");
  name.textContent = comment.name;
  const time = document.createElement("time");
  time.dateTime = comment.createdAt;
  time.textContent = formatTime(comment.createdAt);
  head.append(name, " ", time);
  const text = document.createElement("p");
  text.className = "comment-text";
  text.textContent = comment.text;
  item.append(head, text);
  return item;
}

// The newest comments (Refresh), or the next page of older ones below those shown (more).
async function loadComments(more = false) {
  const list = $("comments");
  const button = $("comments-more");
  const page = more ? commentsPage + 1 : 1;
  let answer;
  try {
    answer = await request("GET", `${resumePath}/comments?page=${page}`, undefined, { envelope: true });
  } catch (error) {
    showError(error, list.parentElement);
    return;
  }
  const { data: comments, meta } = answer;
  commentsPage = page;
  const left = meta.total - (page - 1) * meta.limit - comments.length;
  button.hidden = left <= 0;
  button.textContent = t("Show older comments ({n} more)", { n: left });
  if (!comments.length && page === 1) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = t("No comments yet.");
    list.replaceChildren(empty);
    return;
  }
  // A comment left since the first page moves the rest down a place: one shown already is not repeated.
  const shown = new Set(more ? [...list.children].map((item) => item.dataset.id) : []);
  const items = comments.filter((comment) => !shown.has(comment.id)).map(commentItem);
  if (more) list.append(...items);
  else list.replaceChildren(...items);
}

// The comments left since the list was shown, put on top of it; quiet when it fails (the next poll tries again).
async function pollComments() {
  if (document.hidden || polling || !commentsPage) return;
  polling = true;
  try {
    const { data: comments, meta } = await request("GET", `${resumePath}/comments?page=1`, undefined,
                                                    { envelope: true });
    const list = $("comments");
    const shown = new Set([...list.children].map((item) => item.dataset.id).filter(Boolean));
    const fresh = comments.filter((comment) => !shown.has(comment.id));
    if (!fresh.length) return;
    if (fresh.length >= meta.limit) { // a whole page is new: start again from the newest
      commentsPage = 0;
      await loadComments();
      return;
    }
    if (!shown.size) list.replaceChildren(); // "No comments yet."
    list.prepend(...fresh.map(commentItem));
    const left = meta.total - list.children.length;
    $("comments-more").hidden = left <= 0;
    $("comments-more").textContent = t("Show older comments ({n} more)", { n: left });
  } catch {
    // shown at the next Refresh, if it lasts
  } finally {
    polling = false;
  }
}

if (form) {
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("change", (event) => {
    const name = event.target.name;
    if (["isEnabled", "allowDownload", "allowComments"].includes(name)) change({ [name]: event.target.checked });
  });
  $("share-copy").addEventListener("click", copyLink);
  $("share-password-set").addEventListener("click", async () => {
    const input = $("share-password");
    if (await change({ password: input.value }, t("Password set."))) input.value = "";
  });
  $("share-password-remove").addEventListener("click", () => change({ password: null }, t("Password removed.")));
  $("share-expires-set").addEventListener("click", () => {
    const value = $("share-expires").value;
    change({ expiresAt: value ? new Date(value).toISOString() : null });
  });
  $("share-expires-remove").addEventListener("click", () => change({ expiresAt: null }));
  $("comments-refresh").addEventListener("click", () => loadComments());
  $("comments-more").addEventListener("click", () => loadComments(true));
  load();
  loadComments();
  setInterval(pollComments, POLL_MS);
  document.addEventListener("visibilitychange", pollComments);
}
