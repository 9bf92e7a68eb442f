// A tab learns of another's change (issue 32 point 7). The editor asks whether the resume is still the version
// it shows (GET with If-None-Match: the ETag of that version; 304 while it is) when the window gets the focus
// back, when the tab is shown again, and every EDITOR_FRESHNESS_SECONDS (data-freshness-seconds) while it is
// visible. When the resume was saved elsewhere and this tab holds nothing unsaved, the save state says
// "Changed in another tab or device" instead of "Saved", with "Load the latest version": that shows it in the
// form, makes its ETag the If-Match of the next save, and rebases the undo history on it (every step keeps
// this tab's own changes where the other version left the fields as this tab had them; a step left with no
// change of its own is dropped). A tab with unsaved changes is never overwritten: the check leaves it alone,
// and its save, refused (409), opens the merge dialog (editor/conflict.js). Only a person's click loads.
import { request, showError } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { snapshot } from "./fields.js";

// hooks: {saver, state, fill(resume), history, announce(message), busy() -> a restore is under way, seconds}
export function setUpFreshness({ saver, state, fill, history, announce, busy, seconds }) {
  const button = document.getElementById("fresh-load");
  let newer = null; // the ETag of the version saved elsewhere, while its offer is shown
  let asking = false;
  const idle = () => !busy() && !saver.pending();

  async function check() {
    if (document.hidden || asking || !idle() || !saver.etag) return;
    const known = newer ?? saver.etag;
    const from = saver.etag;
    asking = true;
    try {
      const answer = await request("GET", saver.path, undefined,
                                   { headers: { "If-None-Match": known }, withHeaders: true });
      const etag = answer.headers.get("ETag");
      if (answer.data === null || !etag || etag === known) return; // 304: still that version
      if (!idle() || saver.etag !== from) return; // this tab saved or restored meanwhile: its save knows
      newer = etag;
      saver.show("stale", t("Changed in another tab or device"));
      button.hidden = false;
    } catch {
      // no answer (or the resume is gone): the next check asks again, and a save says what is wrong
    } finally {
      asking = false;
    }
  }

  async function load() {
    if (!idle()) return;
    const focused = document.activeElement === button; // it goes with the offer: the focus goes to the form
    button.disabled = true;
    try {
      const [answer, { differences, merge }] = await Promise.all([
        request("GET", saver.path, undefined, { withHeaders: true }), import("./merge.js")]);
      if (!idle()) return; // typed meanwhile: that save finds the other version and asks
      const shown = snapshot(state);
      const latest = snapshot(answer.data);
      saver.loaded(answer.data, answer.headers.get("ETag"));
      fill(answer.data);
      // a step's own changes are those it makes to what was shown; each stays where the latest version has
      // the field as it was shown (the merge dialog's three-way rule, with the step as "mine")
      history.rebase((step) => {
        const found = differences(shown, step, latest);
        return merge(latest, found, found.map((item) => (item.side === "mine" ? "mine" : "theirs")));
      });
      saver.show("saved", t("Saved"));
      saver.announceSaved(answer.data);
      announce(t("The latest version is shown."));
      if (focused) document.getElementById("editor-title").focus({ preventScroll: true });
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  }

  // Any other state (typing is saving, a save, a restore, a conflict): the offer no longer holds.
  document.addEventListener("save:state", (event) => {
    if (event.detail.state === "stale") return;
    newer = null;
    button.hidden = true;
  });
  button.addEventListener("click", load);
  window.addEventListener("focus", check);
  window.addEventListener("pageshow", (event) => { if (event.persisted) check(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
  if (seconds > 0) setInterval(check, seconds * 1000);
}
