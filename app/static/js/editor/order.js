// The order of the resume's body sections: Move up / Move down on each section's head moves its
// panel on the page and saves contentJson.sectionOrder (every body section, in order). A resume
// without a stored order shows the default one (the page's), and keeps none until a section moves.
import { t } from "../shared/i18n.js";

export class SectionOrder {
  constructor(container, saver, announce, onStep = () => {}) {
    this.container = container;
    this.saver = saver;
    this.announce = announce;
    this.onStep = onStep; // a step of the undo history (editor/undo.js)
    this.content = null;
    this.defaults = this.keys(); // the page draws the sections in the default order
    container.dataset.defaults = this.defaults.join(" "); // the order of a resume that keeps none (editor/merge.js)
    container.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move-section]");
      if (button) this.move(button);
    });
  }

  keys() { return [...this.container.children].map((panel) => panel.dataset.section); }

  // Show the sections in the content's order: its known keys (first occurrence), then the others.
  apply(content) {
    this.content = content;
    const stored = Array.isArray(content.sectionOrder) ? content.sectionOrder : [];
    const order = [...new Set(stored.filter((key) => this.defaults.includes(key)))];
    const panels = Object.fromEntries([...this.container.children].map((panel) => [panel.dataset.section, panel]));
    const keys = [...order, ...this.defaults.filter((key) => !order.includes(key))];
    this.container.append(...keys.map((key) => panels[key]));
    this.mark();
  }

  mark() {
    const panels = [...this.container.children];
    panels.forEach((panel, index) => {
      panel.querySelector('[data-move-section="up"]').disabled = index === 0;
      panel.querySelector('[data-move-section="down"]').disabled = index === panels.length - 1;
    });
  }

  move(button) {
    const panel = button.closest("[data-section]");
    const up = button.dataset.moveSection === "up";
    const neighbour = up ? panel.previousElementSibling : panel.nextElementSibling;
    if (!neighbour) return;
    if (up) this.container.insertBefore(panel, neighbour);
    else this.container.insertBefore(neighbour, panel);
    this.content.sectionOrder = this.keys();
    this.saver.changed("contentJson.sectionOrder");
    this.onStep({ where: `sectionsVisibility.${panel.dataset.section}` });
    this.mark();
    const other = panel.querySelector(`[data-move-section="${up ? "down" : "up"}"]`);
    (button.disabled ? other : button).focus(); // at an end its own button is off
    this.announce(t("Section moved to position {n}.", { n: this.keys().indexOf(panel.dataset.section) + 1 }));
  }
}
