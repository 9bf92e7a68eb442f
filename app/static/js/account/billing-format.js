// The subscription page's words for money, dates and errors, in the person's language and time zone.
import { N_, locale, t } from "../shared/i18n.js";

const LOCALE = locale;
const ZONE = document.getElementById("billing")?.dataset.timezone || "UTC";

function dateFormat(zone) {
  try {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeZone: zone });
  } catch (error) { // a time zone this browser does not know
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeZone: "UTC" });
  }
}
const DATES = dateFormat(ZONE);

export function money(amount, currency = "USD") {
  return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).format(amount);
}

export function day(timestamp) {
  return DATES.format(new Date(timestamp));
}

// "Today (November 23, 2026)" for a moment within a few minutes of now, else the date.
export function when(timestamp) {
  const moment = new Date(timestamp);
  return Math.abs(moment - Date.now()) < 5 * 60_000 ? t("Today ({date})", { date: day(moment) }) : day(moment);
}

// Plan and status names, translated on the server (with a context: see billing_pages.names).
const NAMES = JSON.parse(document.getElementById("billing")?.dataset.names || "{}");

export function planName(type) {
  return NAMES[type] || type;
}

const DECLINES = {
  generic_decline: N_("The card was declined."),
  insufficient_funds: N_("The card has insufficient funds."),
  expired_card: N_("The card has expired."),
  authentication_required: N_("This card asks its holder to confirm every payment, which only works when you " +
    "start a new period today. Choose that, or use another card."),
  authentication_failed: N_("The card holder did not complete the authentication."),
};

// An API error in the person's words: a declined card says why; a field error names what to fix.
export function describe(error) {
  if (error.code === "PAYMENT_FAILED") {
    const reason = t(DECLINES[error.details.declineCode] || DECLINES.generic_decline);
    return t("Payment failed: {reason} Nothing was charged.", { reason });
  }
  if (error.code === "SUBSCRIPTION_NOT_FOUND") return t("You have no paid subscription to change.");
  if (error.field === "couponCode") return t("This coupon does not exist, has expired or is used up.");
  if (error.field === "paymentMethodId") return t("There is no such card.");
  if (error.field === "planId" && error.details.reason === "subscribed") { // another tab subscribed meanwhile
    return t("You already have a paid plan: change it below.");
  }
  return error.message;
}
