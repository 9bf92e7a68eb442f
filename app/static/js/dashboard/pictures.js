// The dashboard's pictures (issue 25 point 2): each resume's first page beside its title, page 1 of its
// current version in its own template (GET /api/resumes/<id>/first-page.png?v=<updatedAt>: an address per
// version, kept by the browser for good). Loaded lazily; a picture the server was too busy to draw (503)
// is asked for again a little later, twice at most.
const RETRY_MS = 5000;

export function firstPage(image, resume) {
  const url = `/api/resumes/${encodeURIComponent(resume.id)}/first-page.png?v=${encodeURIComponent(resume.updatedAt)}`;
  image.alt = (image.dataset.alt || "{title}").replace("{title}", resume.title);
  image.loading = "lazy";
  image.decoding = "async";
  let tries = 0;
  image.addEventListener("error", () => {
    if (tries >= 2 || !image.isConnected) return;
    tries += 1;
    setTimeout(() => { image.src = url; }, RETRY_MS);
  });
  image.src = url;
}
