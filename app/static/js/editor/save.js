// Autosave for the editor: one save at a time, debounced, with a visible state.
// What changed is remembered, not the request: a body is built from the editor's state when the
// save starts, so text typed during a save is never lost and goes out with the next one.
// A failed save keeps everything dirty and retries with back-off (network, 5xx, 429); a refused
// value (400 with details.field) is shown at its field, in words (editor/errors.js), and held back until it
// is edited again, while the rest still saves. The state is said in the toolbar (a button to the refused field
// when one was refused) and announced as "save:state" (the preview says whether it shows the latest edit). Project entries go through the project-entry endpoints when only
// they changed; a change elsewhere in contentJson sends the whole content (entries included).
// settle() saves everything now (before a version is restored); reset() forgets what was unsaved.
// Every save names the version it was made from (If-Match: the ETag of the load or of the last save, as
// each answer gives it). One refused because the resume was saved elsewhere meanwhile (409
// RESUME_CONFLICT) stops the autosave: onConflict() lets the person merge (editor/conflict.js), and
// resolved() saves the merge, made from the other version.
import { request } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { FIELDS, same, snapshot } from "./fields.js";
import { clearErrors, showFailed, showRefused } from "./errors.js";

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
    this.etag = null;            // the version this tab's state was loaded or last saved as (If-Match)
    this.base = null;            // that version's fields (editor_fields.snapshot): a merge's common base
    this.conflict = null;        // {resume, etag}: the version saved elsewhere; no saving until merged
    this.onConflict = () => {};
    window.addEventListener("beforeunload", (event) => {
      if (this.pending()) { event.preventDefault(); event.returnValue = ""; }
    });
  }

  // The resume as loaded (GET, a restore) and the ETag it came with.
  loaded(resume, etag) {
    this.etag = etag || null;
    this.base = snapshot(resume);
  }

  pending() {
    return this.conflict !== null || this.running || this.timer !== null || this.dirty.size > 0
      || this.projects.size > 0 || this.ops.length > 0;
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
    clearTimeout(this.timer);
    this.timer = null;
    if (this.conflict) { this.show("conflict", t("Not saved: changed elsewhere")); return; }
    this.show("saving", t("Saving…"));
    this.timer = setTimeout(() => { this.timer = null; this.flush(); }, delay);
  }

  show(state, text) {
    this.status.dataset.state = state;
    if (state === "failed") showFailed(this.status, text);
    else this.status.textContent = text;
    document.dispatchEvent(new CustomEvent("save:state", { detail: { state } }));
  }

  flush() {
    if (this.conflict) return Promise.resolve();
    if (this.running) { this.again = true; return this.current; }
    this.current = this.run();
    return this.current;
  }

  // Save what is unsaved now; true once everything is saved, false when something could not be
  // (a refused value, or no answer: its retry stays scheduled).
  async settle() {
    while (!this.conflict && (this.running || this.unsent())) {
      await (this.running ? this.current : this.flush());
      if (this.failures) return false;
    }
    return this.held.size === 0 && !this.conflict;
  }

  // Forget every unsaved change (the resume was replaced, e.g. by a restored version).
  reset() {
    clearTimeout(this.timer);
    this.timer = null;
    this.again = false;
    this.failures = 0;
    this.conflict = null;
    for (const set of [this.dirty, this.projects, this.held]) set.clear();
    this.ops = [];
    clearErrors();
    this.show("saved", t("Saved"));
  }

  // The whole state was replaced in place by an undo or redo (editor/undo.js) from `before`: every field
  // it changed is saved (what was unsaved and is not changed stays as it was). Queued entry requests were
  // about entries the state may no longer hold: the whole content goes instead (one under way finishes first).
  replaced(before) {
    const entries = this.ops.length > 0 || this.projects.size > 0
      || [...this.held].some((held) => typeof held !== "string");
    this.ops = this.running ? this.ops.slice(0, 1) : [];
    this.projects.clear();
    for (const held of [...this.held]) if (typeof held !== "string") this.held.delete(held);
    const keys = FIELDS.filter((key) => !same(before[key], this.state[key]));
    if (entries && !keys.includes("contentJson")) keys.push("contentJson");
    for (const key of keys) {
      this.held.delete(key);
      this.dirty.add(key);
    }
    if (this.held.size === 0) clearErrors();
    if (this.dirty.size) this.schedule(DEBOUNCE_MS);
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
      if (read) {
        const answer = await request("GET", this.path, undefined, { withHeaders: true });
        saved = answer.data;
        // the version the entries were saved as: the base (a save made elsewhere since is found by the next)
        if (answer.headers.get("ETag") === this.etag) this.base = snapshot(saved);
      }
      this.failures = 0;
      if (this.held.size === 0) clearErrors();
      if (saved) this.announceSaved(saved);
    } catch (error) {
      failure = error;
    } finally {
      this.running = false;
    }
    if (failure?.code === "RESUME_CONFLICT") {
      this.conflict = { resume: failure.details.resume, etag: failure.details.etag };
      this.again = false;
      this.schedule(0); // says so, and saves nothing
      this.onConflict();
      return;
    }
    if (failure && isTransient(failure)) {
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.failures);
      this.failures += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), delay);
      this.show("retrying", t("Could not save. Retrying…"));
      return;
    }
    if (failure) showRefused(failure);
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
        const created = await this.attempt(() => this.send("POST", projects, fields), op.entry);
        op.entry.id = created.id;
        this.base.contentJson.projects.push(structuredClone(created));
      } catch (error) {
        if (!isTransient(error) && !isConflict(error)) { this.ops.shift(); this.held.add(op.entry); }
        throw error;
      }
    } else if (op.entry.id) {
      try {
        await this.send("DELETE", `${projects}/${encodeURIComponent(op.entry.id)}`);
        this.base.contentJson.projects = this.base.contentJson.projects.filter((p) => p.id !== op.entry.id);
      } catch (error) {
        if (isConflict(error) || (error.status !== 404 && isTransient(error))) throw error; // else gone: done
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
    const projects = keys.includes("contentJson") ? [...(this.state.contentJson.projects || [])] : [];
    try {
      const saved = await this.send("PUT", this.path, JSON.parse(JSON.stringify(body)));
      sections.forEach((section, index) => { section.id ??= saved.contentJson.customSections?.[index]?.id; });
      projects.forEach((entry, index) => { entry.id ??= saved.contentJson.projects[index]?.id; }); // after a merge
      this.base = snapshot(saved);
      clearErrors(keys); // what was refused in them is saved now
      return saved;
    } catch (error) {
      keys.forEach((key) => this.dirty.add(key));
      entries.forEach((entry) => this.projects.add(entry));
      if (isConflict(error)) {
        // saved by the merge
      } else if (error.code === "INVALID_TEMPLATE") { // not the person's to use: back to the saved one
        error.field = "templateId";
        this.dirty.delete("templateId");
        this.revertTemplate();
      } else if (!isTransient(error)) { // held back: the fields it refused, else all it sent
        const refused = Object.keys(error.details?.errors || { [error.field || ""]: 1 }).map((p) => p.split(".")[0]);
        const found = keys.filter((key) => refused.includes(key));
        for (const held of found.length ? found : keys) this.held.add(held);
      }
      throw error;
    }
  }

  async putProject(entry) {
    this.projects.delete(entry);
    const { id, ...fields } = entry;
    try {
      const saved = await this.attempt(() => this.send("PUT", `${this.path}/projects/${encodeURIComponent(id)}`,
                                                       fields), entry);
      this.base.contentJson.projects = this.base.contentJson.projects.map((p) => (p.id === id ? saved : p));
    } catch (error) {
      this.projects.add(entry);
      if (!isTransient(error) && !isConflict(error)) this.held.add(entry);
      throw error;
    }
  }

  // A request that changes the resume, made from the version this tab has (If-Match); its answer's ETag
  // names the version to make the next one from.
  async send(method, path, body) {
    const headers = this.etag ? { "If-Match": this.etag } : {};
    const answer = await request(method, path, body, { headers, withHeaders: true });
    this.etag = answer.headers.get("ETag") || this.etag;
    return answer.data;
  }

  // The person merged this tab's version with the one saved elsewhere (this.conflict): apply() puts the
  // merge in the state, and what differs from the other version is saved, made from it. `keep` (this
  // tab's fields, when the merge leaves some of them out) is sent first from the old copy: refused, it is
  // kept in the version history.
  async resolved(apply, keep = null) {
    apply();
    if (keep && this.etag) {
      const body = Object.fromEntries(["title", "templateId", "contentJson", "sectionsVisibility"]
        .map((key) => [key, keep[key]]));
      await request("PUT", this.path, body, { headers: { "If-Match": this.etag } }).catch(() => null);
    }
    const { resume, etag } = this.conflict;
    this.conflict = null;
    this.etag = etag;
    this.base = snapshot(resume);
    this.ops = [];
    this.failures = 0;
    for (const set of [this.dirty, this.projects, this.held]) set.clear();
    clearErrors();
    for (const key of FIELDS) if (!same(this.state[key], this.base[key])) this.dirty.add(key);
    if (this.dirty.size) {
      this.schedule(0);
    } else {
      this.show("saved", t("Saved"));
      this.announceSaved(resume);
    }
  }

  // Name a project endpoint's error by the entry's path in contentJson, as the editor's inputs do.
  async attempt(call, entry) {
    try {
      return await call();
    } catch (error) {
      const index = this.state.contentJson.projects.indexOf(entry);
      if (error.field && error.field !== "body" && index >= 0) {
        const at = (field) => `contentJson.projects.${index}.${field}`;
        error.field = at(error.field);
        if (error.details?.errors) {
          error.details.errors = Object.fromEntries(Object.entries(error.details.errors).map(([k, v]) => [at(k), v]));
        }
      }
      throw error;
    }
  }

  announceSaved(resume) {
    this.onSaved(resume);
    document.dispatchEvent(new CustomEvent("resume:saved", { detail: resume }));
  }
}

function isConflict(error) {
  return error.code === "RESUME_CONFLICT";
}

function isTransient(error) {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
