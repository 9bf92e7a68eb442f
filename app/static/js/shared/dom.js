// What every page's scripts do to the page: find an element by its id, and show a message in a box that
// is hidden while it has none.
export const $ = (id) => document.getElementById(id);

export function show(box, message) {
  box.textContent = message;
  box.hidden = !message;
}

// el("td", {class: "x", "data-label": "URL"}, "text", child) -> an element; text is never parsed as HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// Disable the buttons while work runs, then give the focus back to the one that had it (disabling it
// blurred it), unless the person put the focus somewhere else meanwhile: another button pressed during a
// slow request keeps it. refocus(button) names the element to focus when the button was drawn anew.
export async function whileBusy(buttons, work, { refocus = (button) => button } = {}) {
  const list = [buttons].flat();
  const had = list.find((button) => button === document.activeElement) ?? null;
  let moved = false;
  const onFocus = (event) => { if (!list.includes(event.target)) moved = true; };
  document.addEventListener("focusin", onFocus);
  for (const button of list) button.disabled = true;
  try {
    return await work();
  } finally {
    document.removeEventListener("focusin", onFocus);
    for (const button of list) button.disabled = false;
    const target = had && !moved ? refocus(had) : null;
    if (target && (!document.activeElement || document.activeElement === document.body)) target.focus();
  }
}
