// The merge dialog (#merge in pages/editor.html): shown when the autosave finds the resume saved elsewhere
// (editor/save.js stops saving then, and its onConflict calls open()). One group of two choices per field
// that differs (editor/merge.js names and shows them): "Keep yours" or "Take the other version", preset
// where only one side changed it; a field changed on both sides must be chosen. "Save the merged version"
// fills the form with the merge and lets the autosave save it, made from the other version; "Decide
// later" (or Escape) leaves the autosave waiting and shows "Compare and merge" beside the save state.
import { N_, t } from "../shared/i18n.js";
import { same, snapshot } from "./fields.js";
import { differences, merge, place, showValue } from "./merge.js";
import { $ } from "../shared/dom.js";

const SIDES = {
  theirs: N_("Changed in the other version"),
  mine: N_("Changed in this tab"),
  both: N_("Changed in both: choose one"),
};

function option(index, side, value, difference, where) {
  const id = `merge-${index}-${side}`;
  const label = document.createElement("label");
  label.className = "merge-option";
  const radio = Object.assign(document.createElement("input"), { type: "radio", name: `merge-${index}`, value: side });
  radio.checked = difference.side !== "both" && difference.side === side;
  radio.setAttribute("aria-describedby", `${id}-value`);
  const words = Object.assign(document.createElement("span"), {
    className: "merge-choice", textContent: side === "mine" ? t("Keep yours") : t("Take the other version"),
  });
  const shown = showValue(value, difference.path, where.element);
  shown.id = `${id}-value`;
  label.append(radio, words, shown);
  return label;
}

function group(difference, index) {
  const where = place(difference.path);
  const fieldset = document.createElement("fieldset");
  fieldset.className = "merge-field";
  fieldset.dataset.side = difference.side;
  fieldset.dataset.path = difference.path;
  const legend = document.createElement("legend");
  const span = (className, textContent) => Object.assign(document.createElement("span"), { className, textContent });
  legend.append(span("merge-name", where.text), span("merge-side", t(SIDES[difference.side])));
  const options = document.createElement("div");
  options.className = "merge-options";
  options.append(option(index, "mine", difference.mine, difference, where),
                 option(index, "theirs", difference.theirs, difference, where));
  fieldset.append(legend, options);
  return { fieldset, element: where.element };
}

// The order the form shows them in (what no element shows, last).
function inFormOrder(groups) {
  return groups.sort((a, b) => {
    if (!a.element || !b.element) return (a.element ? 0 : 1) - (b.element ? 0 : 1);
    return a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

// Ask for each of `found`; resolves with "mine" or "theirs" for each, or null (decide later).
function ask(found) {
  const dialog = $("merge");
  const fields = $("merge-fields");
  const error = $("merge-error");
  const groups = inFormOrder(found.map(group));
  fields.replaceChildren(...groups.map((item) => item.fieldset));
  error.hidden = true;
  return new Promise((resolve) => {
    const finish = (answer) => {
      $("merge-form").removeEventListener("submit", submit);
      $("merge-later").removeEventListener("click", later);
      dialog.removeEventListener("cancel", cancel);
      dialog.close();
      resolve(answer);
    };
    const submit = (event) => {
      event.preventDefault();
      const choices = found.map((_, index) => fields.querySelector(`input[name="merge-${index}"]:checked`)?.value);
      const open = choices.findIndex((choice) => !choice);
      if (open >= 0) {
        error.textContent = t("Choose a version for each field changed in both.");
        error.hidden = false;
        fields.querySelector(`input[name="merge-${open}"]`).focus();
        return;
      }
      finish(choices);
    };
    const later = () => finish(null);
    const cancel = (event) => { event.preventDefault(); finish(null); };
    $("merge-form").addEventListener("submit", submit);
    $("merge-later").addEventListener("click", later);
    dialog.addEventListener("cancel", cancel);
    dialog.showModal();
    fields.scrollTop = 0;
    const first = fields.querySelector('[data-side="both"] input') || $("merge-save");
    first.focus();
  });
}

// hooks: {saver, state, fill(resume), announce(message), busy() -> the form is busy (a restore)}
export function setUpConflicts({ saver, state, fill, announce, busy }) {
  const reopen = $("merge-open");
  let asking = false;

  async function resolve() {
    if (asking || !saver.conflict) return;
    asking = true;
    reopen.hidden = true;
    const back = document.activeElement;
    const backPath = back?.dataset?.field;
    const theirs = snapshot(saver.conflict.resume);
    const mine = snapshot(state);
    const found = differences(saver.base, mine, theirs);
    const choices = found.length ? await ask(found) : [];
    asking = false;
    if (choices === null) {
      reopen.hidden = false;
      back?.focus?.();
      return;
    }
    const merged = merge(theirs, found, choices);
    // What this tab held and the merge leaves out is kept in the version history (the refused save kept
    // what it held then; sent again, the server keeps it once more unless it is just that).
    const drops = found.some((item, index) => choices[index] === "theirs" && !same(item.mine, item.base));
    await saver.resolved(() => fill(merged), drops ? mine : null);
    announce(t("Merged. What you did not keep is in the version history."));
    const target = back?.isConnected ? back
      : backPath && document.querySelector(`#editor-form [data-field="${CSS.escape(backPath)}"]`);
    target?.focus?.();
  }

  saver.onConflict = () => {
    if (busy()) reopen.hidden = false; // a restore is under way: it asks about the unsaved changes itself
    else resolve();
  };
  reopen.addEventListener("click", resolve);
  return { reset() { reopen.hidden = true; } };
}
