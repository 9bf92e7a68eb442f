// The preview: the pages of the very PDF the export produces, drawn by the server as PNG images
// (GET /api/resumes/<id>/preview with the export options). Refreshed after each save ("resume:saved",
// debounced) and when the export options change; a newer refresh cancels an older one, and the new
// pages replace the old ones only once all their images have loaded, so the preview never flickers
// or shows a mix of two versions. One image per page, labelled "Page 1 of 3": the page breaks are
// the PDF's own.
import { request } from "./api.js";
import { readOptions, resumePath, st } from "./side_common.js";

const DEBOUNCE_MS = 25; // saves are debounced already; this only merges a burst of them
const RETRY_MS = 5000; // the 503's Retry-After
const TOO_HEAVY = "This resume takes longer than {seconds} seconds to draw, so it cannot be previewed. " +
  "Very long words or entries are the usual cause: shorten them and the preview comes back.";
const box = document.getElementById("preview-pages");
const note = document.getElementById("preview-state");
let controller = null;
let timer = null;
let shown = null; // the version on screen

function query() {
  const options = readOptions();
  return new URLSearchParams({ ...options, includePhoto: String(options.includePhoto) });
}

function loadImage(page, label, signal) {
  const image = new Image(page.width, page.height);
  image.alt = label;
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
    caption.textContent = image.alt;
    figure.append(image, caption);
    if (index < images.length - 1) figure.dataset.break = "true";
    return figure;
  });
  box.replaceChildren(...figures);
  shown = preview.version;
  box.dataset.version = preview.version;
  box.dataset.pages = String(preview.pageCount);
}

function settle(state, message) {
  box.dataset.state = state;
  box.setAttribute("aria-busy", "false");
  note.textContent = message;
}

export async function refresh() {
  clearTimeout(timer);
  timer = null;
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  box.dataset.state = "loading";
  box.setAttribute("aria-busy", "true");
  note.textContent = st("Updating the preview…");
  try {
    const preview = await request("GET", `${resumePath}/preview?${query()}`, undefined, { signal });
    if (preview.version !== shown) {
      const total = preview.pageCount;
      const images = await Promise.all(preview.pages.map((page) =>
        loadImage(page, st("Page {n} of {total}", { n: page.number, total }), signal)));
      if (signal.aborted) return;
      show(preview, images);
    }
    settle("ready", st("Preview updated."));
    document.dispatchEvent(new CustomEvent("preview:shown", { detail: { version: preview.version } }));
  } catch (error) {
    if (signal.aborted) return; // a newer refresh took over
    if (error.code === "PREVIEW_TOO_HEAVY") {
      settle("too-heavy", st(TOO_HEAVY, { seconds: error.details.seconds }));
    } else if (error.status === 503) { // busy drawing (this user's other previews, or everyone's): again soon
      settle("failed", st("Previews are busy; this one will be drawn again in a moment."));
      timer = setTimeout(refresh, RETRY_MS);
    } else {
      settle("failed", error.code ? error.message : st("The preview could not be drawn."));
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
  refresh();
}
