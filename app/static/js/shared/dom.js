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
