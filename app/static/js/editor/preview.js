// The preview: the pages of the very PDF the export produces, drawn by the server as PNG images
// (GET /api/resumes/<id>/preview with the export options). Refreshed after each save ("resume:saved",
// debounced) and when the export options change; a newer refresh cancels an older one, and the new
// pages replace the old ones only once all their images have loaded, so the preview never flickers
// or shows a mix of two versions. One image per page, labelled "Page 1 of 3": the page breaks are
// the PDF's own. Each image's alt says which page of the preview it is, and the text of every page (the
// server reads it from the PDF) is under "The preview as text", the images' text alternative.
// While the editor's latest change is not saved (refused, or no answer yet: "save:state"), the
// preview says it shows the last saved version rather than "Preview updated." (issue 25).
import { request } from "../shared/api.js";
import { N_, t } from "../shared/i18n.js";
import { readOptions, resumePath, undrawnText } from "./side-common.js";

const DEBOUNCE_MS = 25; // saves are debounced already; this only merges a burst of them
const RETRY_MS = 5000; // the 503's Retry-After
const box = document.getElementById("preview-pages");
const note = document.getElementById("preview-state");
const undrawnNote = document.getElementById("preview-undrawn");

let controller = null;
let timer = null;
let shown = null; // the version on screen
let unsaved = false; // the editor holds a change the server has not taken
const BEHIND = N_("The preview shows the last saved version: your latest change is not saved.");
const UNSAVED = ["failed", "retrying", "conflict"];

function query() {
  const options = readOptions();
  return new URLSearchParams({ ...options, includePhoto: String(options.includePhoto) });
}

function loadImage(page, numbers, signal) {
  const image = new Image(page.width, page.height);
  image.alt = t("Page {n} of {total} of the preview", numbers);
  image.dataset.label = t("Page {n} of {total}", numbers);
  image.dataset.text = page.text || "";
  image.decoding = "async";
  signal.addEventListener("abort", () => { image.src = ""; }, { once: true });
  image.src = page.url;
  return image.decode().then(() => image);
}

function show(preview, images) {
  const figures = images.map((image, index) => {
    const figure = document.createElement("figure");
    figure.className = "preview-page";
    const caption = document.createElement("figcaption");
    caption.textContent = image.dataset.label;
    caption.setAttribute("aria-hidden", "true"); // the image's alt says it already
    figure.append(image, caption);
    if (index < images.length - 1) figure.dataset.break = "true";
    return figure;
  });
  box.replaceChildren(...figures);
  showText(images);
  shown = preview.version;
  box.dataset.version = preview.version;
  box.dataset.pages = String(preview.pageCount);
}

function showText(images) {
  const holder = document.getElementById("preview-text-pages");
  if (!holder) return;
  holder.replaceChildren(...images.flatMap((image) => {
    const heading = document.createElement("h3");
    heading.textContent = image.dataset.label;
    const text = document.createElement("p");
    text.className = "preview-page-text";
    text.textContent = image.dataset.text;
    return [heading, text];
  }));
}

function showUndrawn(characters) {
  if (!undrawnNote) return;
  undrawnNote.hidden = !characters?.length;
  undrawnNote.textContent = characters?.length ? undrawnText(characters) : "";
}

function settle(state, message) {
  box.dataset.state = state;
  box.setAttribute("aria-busy", "false");
  note.textContent = message;
  note.dataset.behind = String(unsaved && state === "ready");
}

export async function refresh() {
  clearTimeout(timer);
  timer = null;
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  box.dataset.state = "loading";
  box.setAttribute("aria-busy", "true");
  note.textContent = t("Updating the preview…");
  try {
    const preview = await request("GET", `${resumePath}/preview?${query()}`, undefined, { signal });
    if (preview.version !== shown) {
      const total = preview.pageCount;
      const images = await Promise.all(preview.pages.map((page) =>
        loadImage(page, { n: page.number, total }, signal)));
      if (signal.aborted) return;
      show(preview, images);
    }
    showUndrawn(preview.undrawnCharacters);
    settle("ready", (unsaved ? t(BEHIND) : t("Preview updated.")));
    document.dispatchEvent(new CustomEvent("preview:shown", { detail: { version: preview.version } }));
  } catch (error) {
    if (signal.aborted) return; // a newer refresh took over
    if (error.code === "PREVIEW_TOO_HEAVY") {
      settle("too-heavy", error.message); // how long it may take, in the reader's language
    } else if (error.status === 503) { // busy drawing (this user's other previews, or everyone's): again soon
      settle("failed", t("Previews are busy; this one will be drawn again in a moment."));
      timer = setTimeout(refresh, RETRY_MS);
    } else {
      settle("failed", error.code ? error.message : t("The preview could not be drawn."));
    }
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, DEBOUNCE_MS);
}

if (box) {
  document.addEventListener("resume:saved", schedule);
  document.addEventListener("side:options", refresh);
  document.addEventListener("save:state", (event) => {
    const was = unsaved;
    unsaved = UNSAVED.includes(event.detail.state) || (unsaved && event.detail.state === "saving");
    if (box.dataset.state === "ready" && was !== unsaved) {
      note.textContent = (unsaved ? t(BEHIND) : t("Preview updated."));
      note.dataset.behind = String(unsaved);
    }
  });
  refresh();
}
