// The editor's assistant (issue 35 point 5): the person writes, POST /api/resumes/<id>/assistant answers with
// the model's words and at most one proposal (a JSON Patch, with the resume as it would leave it) or one
// question. A proposal is shown as the list of what it would change, in the form's words (the history's own
// diff: editor/versions-diff.js), with Accept and Decline. Accept saves what was typed first, then POST
// .../assistant/accept applies it from the version it was made from: the editor shows the result as one step
// of its undo history, and the resume keeps the state it replaced as a version named after the assistant.
// Nothing changes otherwise. The chat is this page's: a reload starts a new one.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { $ } from "../shared/dom.js";
import { resumePath } from "./side-common.js";

const messages = []; // the chat so far, as the API takes it
let editor = null; // hooks: {current(), settle(), busy(on), restored(resume, etag), sections}
let views = null;

function say(message, kind = "muted") {
  $("assistant-state").textContent = message;
  $("assistant-state").className = `side-note ${kind}`;
}

function entry(who, text, className) {
  const item = document.createElement("li");
  item.className = `assistant-${className}`;
  const name = document.createElement("strong");
  name.textContent = who;
  const words = document.createElement("p");
  words.textContent = text;
  words.dir = "auto";
  item.append(name, words);
  $("assistant-log").append(item);
  item.scrollIntoView({ block: "nearest" });
  return item;
}

async function loadViews() {
  if (!views) {
    const [diff, show] = await Promise.all([import("./versions-diff.js"), import("./versions-show.js")]);
    views = { differences: diff.differences, changeList: show.changeList };
  }
  return views;
}

async function showProposal(item, proposal) {
  const { differences, changeList } = await loadViews();
  const now = editor.current();
  const found = differences(now, { ...now, ...proposal.resume }, editor.sections);
  const list = document.createElement("ul");
  list.className = "history-changes assistant-changes";
  list.append(...changeList(found));
  const row = document.createElement("div");
  row.className = "row";
  const accept = document.createElement("button");
  accept.type = "button";
  accept.textContent = t("Accept");
  const decline = document.createElement("button");
  decline.type = "button";
  decline.className = "secondary";
  decline.textContent = t("Decline");
  row.append(accept, decline);
  item.append(list, row);
  const done = (message) => { row.replaceWith(Object.assign(document.createElement("p"), { className: "hint",
                                                                                           textContent: message })); };
  decline.addEventListener("click", () => { done(t("Declined: nothing was changed.")); $("assistant-message").focus(); });
  accept.addEventListener("click", async () => {
    accept.disabled = decline.disabled = true;
    editor.busy(true);
    say(t("Saving your changes first…"));
    try {
      await editor.settle();
      const answer = await request("POST", `${resumePath}/assistant/accept`,
                                   { baseVersion: proposal.baseVersion, operations: proposal.operations },
                                   { withHeaders: true });
      editor.restored(answer.data, answer.headers.get("ETag"));
      done(t("Applied: Undo takes it back, and the history keeps the version before it."));
      say("");
    } catch (error) {
      accept.disabled = decline.disabled = false;
      say(error.code === "RESUME_CONFLICT"
        ? t("The resume changed since this proposal: ask again.") : error.message, "error");
    } finally {
      editor.busy(false);
    }
  });
}

async function send(event) {
  event.preventDefault();
  const box = $("assistant-message");
  const text = box.value.trim();
  if (!text) return;
  const button = $("assistant-send");
  button.disabled = true;
  messages.push({ role: "user", content: text });
  entry(t("You"), text, "you");
  box.value = "";
  say(t("The assistant is thinking…"));
  try {
    await editor.settle(); // it reads the resume as saved
    const answer = await request("POST", `${resumePath}/assistant`, { messages });
    messages.push({ role: "assistant", content: answer.reply || "…" });
    const item = entry(t("Assistant"), answer.reply, answer.kind);
    if (answer.proposal) await showProposal(item, answer.proposal);
    say("");
  } catch (error) {
    messages.pop();
    say(error.message, "error");
  } finally {
    button.disabled = false;
    box.focus();
  }
}

// hooks: as editor/versions.js's (editor/page.js hands the same in)
export function setUpAssistant(hooks) {
  editor = hooks;
  $("assistant-form")?.addEventListener("submit", send);
}
