// The one request helper: every page talks to the JSON API with the session cookie through it.
// Answers are the API's envelope: {"data": ...} on success, {"error", "code", "details"} otherwise.
import { N_, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body, headers = null) {
    super(body?.error || t("Something went wrong. Try again."));
    this.status = status;
    this.headers = headers; // the answer's headers (a Headers object), none without an answer
    this.code = body?.code || "NETWORK_ERROR";
    this.details = body?.details || {};
    this.field = this.details.field || null; // the field an error belongs to, if the API named one
  }
}

const MESSAGES = {
  SERVICE_UNAVAILABLE: N_("The service is briefly unavailable. Try again in a few seconds."),
  RATE_LIMITED: N_("Too many requests. Wait a moment and try again."),
  UNAUTHENTICATED: N_("Your session has ended. Sign in again."),
};

// request("PUT", "/api/resumes/1", {title: "x"}) -> data; throws ApiError.
// With {envelope: true} the whole answer comes back (a list's "meta" beside its "data").
// A FormData body goes as multipart/form-data (a file upload), anything else as JSON.
// {headers: {...}} adds request headers (e.g. If-Match); with {withHeaders: true} the answer comes back
// as {data, headers} (headers: the response's Headers, e.g. its ETag). A 304 (asked for with If-None-Match)
// is no error: its data is null.
export async function request(method, path, body,
                              { signal, envelope = false, headers = {}, withHeaders = false } = {}) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json", ...headers }, signal };
  if (body instanceof FormData) {
    options.body = body;
  } else if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { error: t("Something went wrong. Try again."), code: "NETWORK_ERROR" });
  }
  const payload = [204, 304].includes(response.status) ? null : await response.json().catch(() => null);
  if (!response.ok && response.status !== 304) {
    const error = new ApiError(response.status, payload, response.headers);
    if (MESSAGES[error.code]) error.message = t(MESSAGES[error.code]);
    if (error.code === "UNAUTHENTICATED") {
      window.location.assign("/login?callbackUrl=" + encodeURIComponent(location.pathname + location.search));
    }
    throw error;
  }
  const data = envelope ? payload : payload?.data ?? payload;
  return withHeaders ? { data, headers: response.headers } : data;
}

// Show an API error at the field its details name (an element with data-field="<name>"), or in the
// page's toast when no field matches. Returns the element that shows it.
export function showError(error, root = document) {
  for (const old of root.querySelectorAll(".field-error")) old.remove();
  for (const old of root.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
  const field = error.field && root.querySelector(`[data-field="${CSS.escape(error.field)}"]`);
  if (field) {
    const note = document.createElement("p");
    note.className = "field-error";
    note.id = `error-${error.field.replace(/\W/g, "-")}`;
    note.textContent = error.message;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", note.id);
    field.insertAdjacentElement("afterend", note);
    return note;
  }
  return toast(error.message, "error");
}

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return null;
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(box._timer);
  box._timer = setTimeout(() => { box.hidden = true; }, 6000);
  return box;
}
