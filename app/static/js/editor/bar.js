// The editor's toolbar (issue 25): it stays at the top of the window as the long form scrolls, so the save
// state, undo and redo are always in view; its height is kept in --editor-bar, which the page's scroll
// padding and the side column's place follow (a field focused or jumped to is not hidden under it).
// "Jump to preview" takes the view and the focus to the preview (below the form on narrow screens, beside it
// on wide ones), and then reads "Back to the form", which returns to the field the person was at.
const bar = document.getElementById("editor-bar");
const jump = document.getElementById("jump");
const preview = document.getElementById("preview-panel");
const side = document.querySelector(".editor-side");
const title = document.getElementById("editor-title");
const form = document.getElementById("editor-form");
const wide = window.matchMedia("(min-width: 1100px)");

let back = null; // the form's field the person was at before jumping
let inSide = false; // the focus was last in the side column (the toolbar does not count)
let frame = 0;

// At the preview: on a wide screen (the preview beside the form) when the focus was last in the side column,
// else when the side column fills the view's top half.
function atPreview() {
  if (wide.matches) return inSide;
  return side.getBoundingClientRect().top < window.innerHeight / 2;
}

function update() {
  frame = 0;
  const to = atPreview() ? "form" : "preview";
  if (jump.dataset.to === to) return;
  jump.dataset.to = to;
  jump.textContent = jump.dataset[to];
  jump.href = to === "preview" ? "#preview-panel" : "#editor-title";
}

const later = () => { frame ||= requestAnimationFrame(update); };

function go(target, block) {
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block });
}

export function setUpBar() {
  if (!bar || !jump || !preview) return;
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--editor-bar", `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  }).observe(bar);
  form.addEventListener("focusin", (event) => { back = event.target; });
  jump.addEventListener("click", (event) => {
    event.preventDefault();
    if (jump.dataset.to === "preview") go(preview, "start");
    else if (back?.isConnected && !back.closest("[hidden]")) go(back, "center");
    else go(title, "start");
    update();
  });
  window.addEventListener("scroll", later, { passive: true });
  document.addEventListener("focusin", (event) => {
    if (!bar.contains(event.target)) inSide = side.contains(event.target);
    later();
  });
  wide.addEventListener("change", later);
  update();
}
