// The plan's usage on the dashboard, from GET /api/account: "Resumes 3 of 5", "Storage 1.2 of 10 MB".
// A limit of -1 is the contract's "unlimited". Storage is in bytes; shown in MB (2^20 bytes), the
// unit the plans are sold in (FREE: 10485760 bytes = 10 MB).
import { request } from "../shared/api.js";
import { N_, locale, t } from "../shared/i18n.js";
import { $ } from "../shared/dom.js";

const MB = 1024 * 1024;
const PLAN_NAMES = { FREE: N_("Free plan"), PREMIUM: N_("Premium plan"), ENTERPRISE: N_("Enterprise plan") };
const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });

export function megabytes(bytes) {
  // Used storage is never shown as 0 MB when there is some: round up to the first decimal.
  const value = bytes > 0 ? Math.max(Math.ceil((bytes / MB) * 10) / 10, 0.1) : 0;
  return numbers.format(value);
}

function meter(element, used, limit) {
  element.hidden = limit === -1;
  element.max = Math.max(limit, 1);
  element.value = Math.min(used, Math.max(limit, 0));
  element.classList.toggle("full", limit !== -1 && used >= limit);
}

function show(account) {
    const { resumesCreated: used, resumesLimit: limit, storageUsed, storageLimit } = account;
  $("plan-name").textContent = t(PLAN_NAMES[account.subscriptionType] || account.subscriptionType);
  $("upgrade-link").hidden = account.subscriptionType !== "FREE";
  $("resumes-usage").textContent = limit === -1 ? t("{n} (no limit)", { n: used })
    : t("{n} of {total}", { n: used, total: limit });
  meter($("resumes-meter"), used, limit);
  $("storage-usage").textContent = storageLimit === -1 ? t("{used} MB (no limit)", { used: megabytes(storageUsed) })
    : t("{used} of {total} MB", { used: megabytes(storageUsed), total: numbers.format(storageLimit / MB) });
  meter($("storage-meter"), storageUsed, storageLimit);
  const note = $("limit-note");
  note.hidden = !(limit !== -1 && used >= limit);
  note.textContent = t("You have used every resume of your plan. Delete one, or upgrade for more.");
}

// Loads and shows the usage; resolves to the account (null when it could not be read: the
// panel then says so, and the rest of the page still works).
export async function loadUsage() {
  const panel = document.querySelector(".usage");
  panel.setAttribute("aria-busy", "true");
  try {
    const account = await request("GET", "/api/account");
    show(account);
    return account;
  } catch (error) {
    document.getElementById("resumes-usage").textContent = error.message;
    document.getElementById("storage-usage").textContent = "";
    return null;
  } finally {
    panel.setAttribute("aria-busy", "false");
  }
}
