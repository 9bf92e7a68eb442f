// /login: signing in with a passkey, nothing typed. The browser offers this site's passkeys (discoverable
// credentials) for a challenge from POST /api/auth/passkey/options; the answer goes to POST
// /api/auth/passkey/signin, which sets the session cookie and names where to go. Without JavaScript, or
// in a browser without WebAuthn, the button stays hidden and the form signs in as before.
import { request } from "../shared/api.js";
import { getCredential, supported } from "../shared/webauthn.js";

const box = document.getElementById("passkey-box");

async function signIn(button, problem) {
  problem.hidden = true;
  button.disabled = true;
  try {
    const options = await request("POST", "/api/auth/passkey/options");
    const credential = await getCredential(options.publicKey);
    const callbackUrl = document.querySelector("input[name=callbackUrl]")?.value || null;
    const data = await request("POST", "/api/auth/passkey/signin", { credential, callbackUrl });
    window.location.assign(data.url);
  } catch (error) {
    button.disabled = false;
    if (error.name === "NotAllowedError" || error.name === "AbortError") problem.textContent = box.dataset.cancelled;
    else if (error.status === 429) problem.textContent = box.dataset.limited;
    else problem.textContent = box.dataset.failed;
    problem.className = "error";
    problem.hidden = false;
    button.setAttribute("aria-describedby", problem.id);
  }
}

if (box && supported()) {
  const button = document.getElementById("passkey-signin");
  const problem = document.getElementById("passkey-error");
  box.hidden = false;
  button.addEventListener("click", () => signIn(button, problem));
}
