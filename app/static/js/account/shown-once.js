// What the account page's lists of secrets share (API tokens: account/tokens.js; agent keys:
// account/agents.js): a new secret shown this once, with Copy and "I have copied it" (which takes it off
// the page), and a button on each item that revokes it (DELETE path/<id>, confirmed first).
import { request, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { show } from "../shared/dom.js";

// parts: {list, form, created, value (the input), problem, copy, done (buttons)}; path: the list's API path;
// answered(body): what the DELETE answers, drawn; words: {selected, confirm(name), revoked(name)}
export function setUpShownOnce({ list, form, created, value, problem, copy, done }, path, answered, words) {
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(value.value);
      toast(t("Copied."), "ok");
    } catch {
      value.focus();
      value.select(); // the person copies it themselves
      toast(words.selected);
    }
  });
  done.addEventListener("click", () => {
    value.value = ""; // the value leaves the page
    created.hidden = true;
    form.elements.name.focus();
  });
  list.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-revoke]");
    if (!button || !window.confirm(words.confirm(button.dataset.name))) return;
    show(problem, "");
    button.disabled = true;
    try {
      answered(await request("DELETE", `${path}/${encodeURIComponent(button.dataset.revoke)}`));
      toast(words.revoked(button.dataset.name), "ok");
      form.elements.name.focus();
    } catch (error) {
      button.disabled = false;
      show(problem, error.message);
      button.focus();
    }
  });
  return (secret) => { // shows a new secret
    value.value = secret;
    created.hidden = false;
    value.focus();
    value.select();
  };
}
