// Autosave for the editor: one save at a time, debounced, with a visible state.
// What changed is remembered, not the request: a body is built from the editor's state when the
// save starts, so text typed during a save is never lost and goes out with the next one.
// A failed save keeps everything dirty and retries with back-off (network, 5xx, 429); a refused
// value (400 with details.field) is shown at its field and held back until it is edited again,
// while the rest still saves. Project entries go through the project-entry endpoints when only
// they changed; a change elsewhere in contentJson sends the whole content (entries included).
// settle() saves everything now (before a version is restored); reset() forgets what was unsaved.
import { request, showError } from "./api.js";
import { t } from "./i18n.js";

const DEBOUNCE_MS = 800;
const MAX_BACKOFF_MS = 30_000;

export class Saver {
  constructor(resumeId, state, { onSaved, status, revertTemplate }) {
    this.path = `/api/resumes/${encodeURIComponent(resumeId)}`;
    this.state = state;          // the editor's resume object, edited in place
    this.onSaved = onSaved;
    this.revertTemplate = revertTemplate;
    this.status = status;        // the element that says Saved / Saving… / Could not save
    this.dirty = new Set();      // top-level fields: title, status, templateId, contentJson, ...
    this.projects = new Set();   // project entries (objects of state.contentJson.projects) changed alone
    this.ops = [];               // project entries to add or delete, in order
    this.held = new Set();       // refused fields/entries, sent again once edited
    this.failures = 0;
    this.running = false;
    this.again = false;          // a save was asked for while one was running
    this.timer = null;           // the debounce or the next retry
    window.addEventListener("beforeunload", (event) => {
      if (this.pending()) { event.preventDefault(); event.returnValue = ""; }
    });
  }

  pending() {
    return this.running || this.timer !== null || this.dirty.size > 0 || this.projects.size > 0
      || this.ops.length > 0;
  }

  // A field at `path` changed (e.g. "contentJson.projects.2.name", "sectionsVisibility.skills").
  changed(path) {
    const parts = path.split(".");
    const project = parts[0] === "contentJson" && parts[1] === "projects" && parts.length > 3
      ? this.state.contentJson.projects[Number(parts[2])] : null;
    if (project && !this.dirty.has("contentJson")) {
      this.held.delete(project);
      this.projects.add(project);
    } else {
      this.held.delete(parts[0]);
      this.dirty.add(parts[0]);
    }
    this.schedule(DEBOUNCE_MS);
  }

  addProject(entry) { this.ops.push({ kind: "add", entry }); this.schedule(0); }

  removeProject(entry) {
    this.projects.delete(entry);
    this.held.delete(entry);
    const queued = this.ops.findIndex((op) => op.kind === "add" && op.entry === entry);
    if (queued >= 0 && !(this.running && queued === 0)) this.ops.splice(queued, 1);
    else this.ops.push({ kind: "delete", entry });
    this.schedule(0);
  }

  schedule(delay) {
    this.show("saving", t("Saving…"));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.flush(); }, delay);
  }

  show(state, text) {
    this.status.dataset.state = state;
    this.status.textContent = text;
  }

  flush() {
    if (this.running) { this.again = true; return this.current; }
    this.current = this.run();
    return this.current;
  }

  // Save what is unsaved now; true once everything is saved, false when something could not be
  // (a refused value, or no answer: its retry stays scheduled).
  async settle() {
    while (this.running || this.unsent()) {
      await (this.running ? this.current : this.flush());
      if (this.failures) return false;
    }
    return this.held.size === 0;
  }

  // Forget every unsaved change (the resume was replaced, e.g. by a restored version).
  reset() {
    clearTimeout(this.timer);
    this.timer = null;
    this.again = false;
    this.failures = 0;
    for (const set of [this.dirty, this.projects, this.held]) set.clear();
    this.ops = [];
    clearErrors();
    this.show("saved", t("Saved"));
  }

  async run() {
    clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    this.again = false;
    let failure = null;
    try {
      let saved = null;
      let read = false;
      while (this.ops.length) {
        await this.runOp(this.ops[0]);
        this.ops.shift();
        read = true;
      }
      const keys = [...this.dirty].filter((key) => !this.held.has(key));
      if (keys.length) saved = await this.putResume(keys);
      for (const entry of [...this.projects]) {
        if (this.held.has(entry)) continue;
        await this.putProject(entry);
        read = true;
      }
      if (read) saved = await request("GET", this.path);
      this.failures = 0;
      if (this.held.size === 0) clearErrors();
      if (saved) this.announceSaved(saved);
    } catch (error) {
      failure = error;
    } finally {
      this.running = false;
    }
    if (failure && isTransient(failure)) {
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.failures);
      this.failures += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), delay);
      this.show("retrying", t("Could not save. Retrying…"));
      return;
    }
    if (failure) showField(failure);
    if (this.again || this.unsent()) {
      if (this.timer === null) this.schedule(0); // what was typed meanwhile, or the rest of a refused save
    } else if (this.held.size) {
      this.show("failed", t("Could not save: correct the marked field."));
    } else if (this.timer === null) {
      this.show("saved", t("Saved"));
    }
  }

  unsent() {
    return this.ops.length > 0 || [...this.dirty].some((k) => !this.held.has(k))
      || [...this.projects].some((p) => !this.held.has(p));
  }

  async runOp(op) {
    const projects = `${this.path}/projects`;
    if (op.kind === "add") {
      const { id, ...fields } = op.entry;
      this.projects.delete(op.entry); // its fields go out now
      try {
        const created = await this.attempt(() => request("POST", projects, fields), op.entry);
        op.entry.id = created.id;
      } catch (error) {
        if (!isTransient(error)) { this.ops.shift(); this.held.add(op.entry); }
        throw error;
      }
    } else if (op.entry.id) {
      try {
        await request("DELETE", `${projects}/${encodeURIComponent(op.entry.id)}`);
      } catch (error) {
        if (error.status !== 404 && isTransient(error)) throw error; // otherwise gone, or not ours: done
      }
    }
  }

  async putResume(keys) {
    const body = {};
    for (const key of keys) body[key] = this.state[key];
    if ("targetJobDescription" in body && !body.targetJobDescription) body.targetJobDescription = null;
    keys.forEach((key) => this.dirty.delete(key));
    const entries = keys.includes("contentJson") ? [...this.projects] : [];
    entries.forEach((entry) => this.projects.delete(entry)); // the whole content carries them
    // custom sections sent without an id get the server's (by their place in what was sent)
    const sections = keys.includes("contentJson") ? [...(this.state.contentJson.customSections || [])] : [];
    try {
      const saved = await request("PUT", this.path, JSON.parse(JSON.stringify(body)));
      sections.forEach((section, index) => { section.id ??= saved.contentJson.customSections?.[index]?.id; });
      return saved;
    } catch (error) {
      keys.forEach((key) => this.dirty.add(key));
      entries.forEach((entry) => this.projects.add(entry));
      if (error.code === "INVALID_TEMPLATE") { // not the person's to use: back to the saved one
        error.field = "templateId";
        this.dirty.delete("templateId");
        this.revertTemplate();
      } else if (!isTransient(error)) {
        const key = (error.field || "").split(".")[0];
        for (const held of keys.includes(key) ? [key] : keys) this.held.add(held);
      }
      throw error;
    }
  }

  async putProject(entry) {
    this.projects.delete(entry);
    const { id, ...fields } = entry;
    try {
      await this.attempt(() => request("PUT", `${this.path}/projects/${encodeURIComponent(id)}`, fields), entry);
    } catch (error) {
      this.projects.add(entry);
      if (!isTransient(error)) this.held.add(entry);
      throw error;
    }
  }

  // Name a project endpoint's error by the entry's path in contentJson, as the editor's inputs do.
  async attempt(call, entry) {
    try {
      return await call();
    } catch (error) {
      const index = this.state.contentJson.projects.indexOf(entry);
      if (error.field && error.field !== "body" && index >= 0) {
        error.field = `contentJson.projects.${index}.${error.field}`;
      }
      throw error;
    }
  }

  announceSaved(resume) {
    this.onSaved(resume);
    document.dispatchEvent(new CustomEvent("resume:saved", { detail: resume }));
  }
}

function isTransient(error) {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

function clearErrors(root = document.getElementById("editor-form")) {
  for (const note of root.querySelectorAll(".field-error")) note.remove();
  for (const field of root.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
}

// Show an API error at the closest input: "contentJson.skills.3" lands on "contentJson.skills".
export function showField(error, root = document.getElementById("editor-form")) {
  let field = error.field || "";
  while (field && !root.querySelector(`[data-field="${CSS.escape(field)}"]`)) {
    field = field.includes(".") ? field.slice(0, field.lastIndexOf(".")) : "";
  }
  return showError({ field: field || null, message: error.message }, field ? root : document);
}
