// WebAuthn glue, no library: the server's options (JSON, byte fields in base64url) become what
// navigator.credentials.create/get want (ArrayBuffers), and the credential they answer goes back as JSON
// (byte fields in base64url), which the server's py_webauthn reads and checks.

export function supported() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function toBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toText(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return (list || []).map((item) => ({ ...item, id: toBytes(item.id) }));
}

function common(credential) {
  const json = { id: credential.id, rawId: toText(credential.rawId), type: credential.type,
                 clientExtensionResults: credential.getClientExtensionResults?.() || {} };
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  return json;
}

// A new passkey: the options of POST /api/account/passkey/options -> the credential to POST /api/account/passkeys.
export async function createCredential(publicKey) {
  const options = { ...publicKey, challenge: toBytes(publicKey.challenge),
                    user: { ...publicKey.user, id: toBytes(publicKey.user.id) },
                    excludeCredentials: descriptors(publicKey.excludeCredentials) };
  const credential = await navigator.credentials.create({ publicKey: options });
  const response = credential.response;
  return { ...common(credential),
           response: { clientDataJSON: toText(response.clientDataJSON),
                       attestationObject: toText(response.attestationObject),
                       transports: typeof response.getTransports === "function" ? response.getTransports() : [] } };
}

// A sign-in: the options of POST /api/auth/passkey/options -> the credential to POST /api/auth/passkey/signin.
export async function getCredential(publicKey) {
  const options = { ...publicKey, challenge: toBytes(publicKey.challenge),
                    allowCredentials: descriptors(publicKey.allowCredentials) };
  const credential = await navigator.credentials.get({ publicKey: options });
  const response = credential.response;
  return { ...common(credential),
           response: { clientDataJSON: toText(response.clientDataJSON),
                       authenticatorData: toText(response.authenticatorData),
                       signature: toText(response.signature),
                       userHandle: response.userHandle ? toText(response.userHandle) : null } };
}
