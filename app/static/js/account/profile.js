// Name and photo address (PUT /api/account), and preferences: language, time zone, theme, e-mail.
// A new language or theme applies at once: the page reloads in it after the save.
import { request, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { busy, clear, fail } from "./form.js";

// The photo comes from /account/avatar (our origin: the CSP allows no other); ?v= changes with the address
// so a new one is fetched despite the cache. A photo that does not load leaves the initial showing.
function hashOf(text) { // FNV-1a: only a cache key, not a secret
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ char.codePointAt(0), 0x01000193) >>> 0;
  return hash.toString(16);
}

function dropIfBroken(img) {
  if (img.complete && img.naturalWidth === 0) img.remove(); // failed before this script ran
  else img.addEventListener("error", () => img.remove(), { once: true });
}

function showAvatar(url) {
  const holder = document.querySelector(".acc-avatar");
  holder.querySelector("img")?.remove();
  if (!url) return;
  const img = document.createElement("img");
  img.alt = "";
  img.width = img.height = 48;
  img.addEventListener("error", () => img.remove(), { once: true });
  img.src = `/account/avatar?v=${hashOf(url)}`;
  holder.append(img);
}

export function initProfile() {
  const form = document.getElementById("profile-form");
  const current = document.querySelector(".acc-avatar img");
  if (current) dropIfBroken(current);
  let shownAvatar = form.elements.avatar.value.trim() || null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    const avatar = form.elements.avatar.value.trim();
    const body = { name: form.elements.name.value.trim(), avatar: avatar || null };
    await busy(form, async () => {
      try {
        const account = await request("PUT", "/api/account", body);
        document.getElementById("profile-name").textContent = account.name;
        document.querySelector(".acc-initial").textContent = (account.name || "?").slice(0, 1).toUpperCase();
        if (account.avatar !== shownAvatar) {
          shownAvatar = account.avatar;
          showAvatar(account.avatar);
        }
        document.querySelector(".who").textContent = account.name;
        toast(t("Profile saved."), "ok");
      } catch (error) {
        fail(form, error);
      }
    });
  });
}

export function initPreferences() {
  const root = document.getElementById("account");
  const form = document.getElementById("preferences-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(form);
    const preferences = {
      language: form.elements.language.value,
      timezone: form.elements.timezone.value,
      theme: form.querySelector("input[name=theme]:checked")?.value || "auto",
      emailNotifications: form.elements.emailNotifications.checked,
      marketingEmails: form.elements.marketingEmails.checked,
    };
    await busy(form, async () => {
      try {
        await request("PUT", "/api/account", { preferences });
      } catch (error) {
        fail(form, error);
        return;
      }
      if (preferences.language !== root.dataset.language || preferences.theme !== root.dataset.theme) {
        window.location.reload(); // the whole page in the new language and theme
        return;
      }
      toast(t("Preferences saved."), "ok");
    });
  });
}
