// Undo and redo in the resume editor (issue 25): one history of the whole editor, kept for the page's life.
// Every committed change records a step: a snapshot (as JSON) of what a save sends (editor_fields.FIELDS:
// title, status, template, contentJson with the sections' order and headings, visibility, target job),
// taken after the change. Typing, entries and sections added, removed or moved, a heading renamed, the
// template switched, an AI suggestion applied, a version restored, a merge: each is a step. A burst of
// typing in one field is one step: a keystroke in the same field less than BURST_MS after the burst's
// last one updates the step instead of adding one. Undo and redo show a snapshot through the editor's
// own fill() (the code that shows a loaded resume), then hand it to the autosave (Saver.replaced), which
// saves it with If-Match like any edit. A failed save leaves the history as it is: nothing is lost.
// Keys: Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl+Y redo, anywhere on the page and inside the form's
// fields too, where the editor's step is undone rather than the field's own (a field holds the editor's
// value, so its own undo would step out of line with the rest); the browser's undo is left alone in a text
// box that is not part of the resume (the AI's text under review, the cover letter, the side column) and
// in an open dialog. Removing an entry or a custom section shows "Removed … — Undo" for a while.
import { t } from "../shared/i18n.js";
import { FIELDS } from "./fields.js";

const BURST_MS = 1000;
const NOTICE_MS = 10_000;
const MAX_CHARS = 40_000_000; // past this (some hundred steps of a very large resume) the oldest are dropped

// The state as JSON; `bare`: without the ids the server gives project entries and custom sections, which
// come after the change that made them (a step is not a change of ids alone).
function serialize(state, bare = false) {
  const copy = {};
  for (const key of FIELDS) copy[key] = state[key] ?? null;
  copy.targetJobDescription ??= "";
  return JSON.stringify(copy, bare ? (key, value) => (key === "id" ? undefined : value) : undefined);
}

// A field where typing goes (a burst), as opposed to a select or a checkbox.
function typed(input) {
  return input.tagName === "TEXTAREA" || (input.tagName === "INPUT" && !["checkbox", "radio"].includes(input.type));
}

function textBox(element) {
  return element instanceof HTMLElement && (element.isContentEditable || element.tagName === "TEXTAREA"
    || (element.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset"].includes(element.type)));
}

export class UndoHistory {
  // hooks: {state, fill(resume), saver, busy() -> a restore is under way, announce(message)}
  constructor({ state, fill, saver, busy, announce }) {
    Object.assign(this, { state, fill, saver, busy, announce });
    this.form = document.getElementById("editor-form");
    this.buttons = { undo: document.getElementById("undo"), redo: document.getElementById("redo") };
    this.notice = document.getElementById("undo-notice");
    this.steps = [];
    this.index = -1;
    this.chars = 0;
    this.burst = null; // {key, time} of the typing the current step holds, while it may go on
    this.buttons.undo.addEventListener("click", () => this.undo("button"));
    this.buttons.redo.addEventListener("click", () => this.redo("button"));
    document.addEventListener("keydown", (event) => this.key(event));
    // the browser's Undo from a field's context menu: the editor's too, where the browser lets it be replaced
    this.form.addEventListener("beforeinput", (event) => {
      if (!["historyUndo", "historyRedo"].includes(event.inputType) || !event.cancelable) return;
      if (!event.target.dataset?.field) return; // a text box that is not the resume's keeps its own
      event.preventDefault();
      if (event.inputType === "historyUndo") this.undo("key"); else this.redo("key");
    });
    if (/Mac|iPhone|iPad/.test(navigator.platform)) {
      for (const button of Object.values(this.buttons)) {
        button.title = button.title.replace("Ctrl+Shift+", "⇧⌘").replace("Ctrl+", "⌘");
      }
    }
  }

  // The state shown now is the first step (the loaded resume).
  start() {
    this.steps = [{ json: serialize(this.state) }];
    this.chars = this.steps[0].json.length;
    this.index = 0;
    this.burst = null;
    this.refresh();
  }

  // A change was made to the state. key: the field typed into (bursts in one field are one step);
  // where: the path (data-field) the change is at, back: where it was before (a move), for the focus;
  // removed: the words for a removed entry, shown with an Undo button.
  record({ key = null, where = null, back = null, removed = null } = {}) {
    const json = serialize(this.state);
    const now = performance.now();
    const current = this.steps[this.index];
    if (json === current.json) return;
    const bare = serialize(this.state, true);
    current.bare ??= serialize(JSON.parse(current.json), true);
    if (bare === current.bare) { // ids given meanwhile: the step learns them
      this.chars += json.length - current.json.length;
      current.json = json;
      return;
    }
    const top = this.index === this.steps.length - 1;
    if (key && top && this.index > 0 && this.burst?.key === key && now - this.burst.time < BURST_MS) {
      this.chars += json.length - current.json.length;
      Object.assign(current, { json, bare });
    } else {
      for (const dropped of this.steps.splice(this.index + 1)) this.chars -= dropped.json.length;
      delete current.bare; // kept for the step shown only
      this.steps.push({ json, bare, where, back });
      this.chars += json.length;
      this.index += 1;
      this.trim();
    }
    this.burst = key ? { key, time: now } : null;
    this.hideNotice();
    if (removed) this.showNotice(removed);
    this.refresh();
  }

  // The state was corrected, not changed by the person (a template the plan refused, put back): the
  // step shown now holds the correction, and is dropped when that leaves it without a change.
  amend() {
    if (this.index < 0) return;
    const json = serialize(this.state);
    this.chars += json.length - this.steps[this.index].json.length;
    Object.assign(this.steps[this.index], { json, bare: undefined });
    const previous = this.steps[this.index - 1];
    if (previous && serialize(JSON.parse(previous.json), true) === serialize(this.state, true)) {
      this.chars -= json.length;
      this.steps.splice(this.index, 1);
      this.index -= 1;
      this.burst = null;
      this.refresh();
    }
  }

  // The state now holds a version saved elsewhere (editor/freshness.js): each step becomes rebased(its
  // snapshot), that version with the step's own changes where they still apply, and the step shown is the
  // state. A step that no longer changes anything (the same as the one before it) is dropped.
  rebase(rebased) {
    const steps = [];
    let index = 0;
    this.steps.forEach((step, at) => {
      const json = at === this.index ? serialize(this.state) : serialize(rebased(JSON.parse(step.json)));
      const bare = serialize(JSON.parse(json), true);
      if (bare !== steps.at(-1)?.bare) steps.push({ json, bare, where: step.where, back: step.back });
      if (at === this.index) index = steps.length - 1;
    });
    for (const step of steps) delete step.bare;
    this.steps = steps;
    this.index = index;
    this.chars = steps.reduce((sum, step) => sum + step.json.length, 0);
    this.burst = null;
    this.hideNotice();
    this.refresh();
  }

  trim() {
    while (this.chars > MAX_CHARS && this.index > 1) {
      this.chars -= this.steps.shift().json.length;
      this.index -= 1;
    }
  }

  refresh() {
    const busy = this.busy();
    this.buttons.undo.disabled = busy || this.index <= 0;
    this.buttons.redo.disabled = busy || this.index >= this.steps.length - 1;
  }

  undo(how) {
    if (this.busy() || this.index <= 0) return;
    const step = this.steps[this.index];
    this.go(this.index - 1, step.back ?? step.where, how);
    this.announce(t("Undone."));
  }

  redo(how) {
    if (this.busy() || this.index >= this.steps.length - 1) return;
    const step = this.steps[this.index + 1];
    this.go(this.index + 1, step.where, how);
    this.announce(t("Redone."));
  }

  // Show step `index`, save it, and put the focus where the change is (by keyboard and from the notice)
  // or keep it on the toolbar (from its buttons).
  go(index, where, how) {
    const before = JSON.parse(serialize(this.state)); // with the ids given since the step
    delete this.steps[this.index].bare;
    this.index = index;
    this.burst = null;
    this.hideNotice();
    this.fill(JSON.parse(this.steps[index].json));
    this.saver.replaced(before);
    this.refresh();
    if (how === "button") {
      const { undo, redo } = this.buttons;
      const [own, other] = document.activeElement === redo ? [redo, undo] : [undo, redo];
      if (own.disabled && !other.disabled) other.focus();
    } else {
      this.focus(where);
    }
  }

  // The input at `path`, or the first one under it, or its list's Add button, or the closest one above.
  focus(path) {
    const form = this.form;
    while (path) {
      const exact = form.querySelector(`[data-field="${CSS.escape(path)}"]`);
      const target = exact?.dataset.list
        ? form.querySelector(`[data-add="${CSS.escape(exact.dataset.list)}"]`)
        : exact || form.querySelector(`[data-field^="${CSS.escape(`${path}.`)}"]:not([data-list])`);
      if (target) {
        target.focus();
        return;
      }
      path = path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "";
    }
  }

  key(event) {
    if (event.defaultPrevented || event.isComposing || event.altKey || !(event.ctrlKey || event.metaKey)) return;
    const letter = /^[a-z]$/i.test(event.key) ? event.key.toLowerCase() : event.code.replace(/^Key/, "").toLowerCase();
    const redo = (letter === "z" && event.shiftKey) || (letter === "y" && event.ctrlKey && !event.shiftKey);
    if (letter !== "z" && !redo) return;
    const target = event.target;
    if (document.querySelector("dialog[open]")) return;
    if (textBox(target) && !(this.form.contains(target) && target.dataset.field)) return; // not the resume's
    event.preventDefault();
    if (redo) this.redo("key"); else this.undo("key");
  }

  showNotice(words) {
    const text = document.createElement("span");
    text.id = "undo-notice-text";
    text.textContent = t("Removed {entry}.", { entry: words });
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.textContent = t("Undo");
    button.setAttribute("aria-describedby", text.id);
    const step = this.index;
    button.addEventListener("click", () => { if (this.index === step) this.undo("notice"); });
    this.notice.replaceChildren(text, " ", button);
    this.notice.dataset.shown = "";
    this.noticeTimer = setTimeout(() => this.hideNotice(), NOTICE_MS);
  }

  hideNotice() {
    clearTimeout(this.noticeTimer);
    if (!this.notice.hasAttribute("data-shown")) return;
    const inside = this.notice.contains(document.activeElement);
    delete this.notice.dataset.shown;
    this.notice.replaceChildren();
    if (inside) this.buttons.undo.focus(); // not lost to the page when the notice goes
  }
}

// The input event's step: a burst key for typing by the person into a text field (a script's input event,
// such as an applied AI suggestion, is a step of its own).
export function editStep(event) {
  const input = event.target;
  return { key: event.isTrusted && typed(input) ? input.dataset.field : null, where: input.dataset.field };
}
