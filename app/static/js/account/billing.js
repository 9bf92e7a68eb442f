// The subscription page: the person's plan, period, next billing and card from GET /api/account/subscription,
// and the buttons for what they can do with it (the dialogs are in account/billing-dialogs.js).
import { request, toast } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { day, money, planName } from "./billing-format.js";
import { openCardChange, openChange, openSubscribe } from "./billing-dialogs.js";
import { $ } from "../shared/dom.js";

const SUBSCRIPTION = "/api/account/subscription";
const AUTHENTICATION = "billing.authentication"; // set while the card holder is at their bank's page
const GRACE_DAYS = 7; // a PAST_DUE subscription's time to give another card (docs/api-decisions.md)

const panel = document.querySelector(".panel.current");
const notice = $("billing-notice");
let subscription = null;

function say(message, kind = "ok") {
  notice.textContent = message;
  notice.className = kind === "ok" ? "notice" : "error";
  notice.hidden = false;
  toast(message, kind === "ok" ? "info" : "error");
}

function show(element, visible) {
  element.hidden = !visible;
}

function render(sub) {
  const plan = sub.plan;
  $("current-plan").textContent = planName(sub.type);
  $("current-status").textContent = planName(sub.status === "PAST_DUE" ? "PAST_DUE" : "ACTIVE");
  $("current-status").dataset.status = sub.status;
  $("current-price").textContent = plan.price === null ? t("Priced by our sales team")
    : t("{amount} / month", { amount: money(plan.price, plan.currency) });
  $("current-period").textContent = t("{start} to {end}", { start: day(sub.currentPeriodStart),
                                                            end: day(sub.currentPeriodEnd) });
  const next = sub.nextBilling;
  $("next-billing").textContent = next ? t("{amount} on {date}", { amount: money(next.amount, next.currency),
                                                                   date: day(next.date) })
    : t("Nothing is scheduled to be charged.");
  const card = sub.paymentMethod;
  $("card-on-file").textContent = card ? t("{brand} ending in {last4}, expires {month}/{year}", {
    brand: card.brand.charAt(0).toUpperCase() + card.brand.slice(1), last4: card.last4,
    month: card.expiryMonth, year: card.expiryYear }) : t("No card on file");

  const paid = sub.type !== "FREE";
  const scheduled = $("scheduled");
  const end = day(sub.currentPeriodEnd);
  if (sub.cancelAtPeriodEnd) {
    scheduled.textContent = t("Your subscription is canceled: {plan} stays until {date}, then you are on Free.",
                              { plan: planName(sub.type), date: end });
  } else if (sub.pendingType) {
    scheduled.textContent = t("A downgrade is scheduled: your plan becomes {plan} on {date}.",
                              { plan: planName(sub.pendingType), date: end });
  }
  const waiting = paid && (sub.cancelAtPeriodEnd || Boolean(sub.pendingType));
  show(scheduled, waiting);
  show($("reactivate"), waiting);
  show($("cancel-plan"), paid && !sub.cancelAtPeriodEnd);
  show($("change-card"), paid);
  const pastDue = $("past-due");
  if (sub.status === "PAST_DUE") {
    const deadline = new Date(new Date(sub.currentPeriodStart).getTime() + GRACE_DAYS * 86_400_000);
    pastDue.textContent = t("Your last payment was declined. Give another card by {date} to keep {plan}.",
                            { date: day(deadline), plan: planName(sub.type) });
  }
  show(pastDue, sub.status === "PAST_DUE");

  for (const card of document.querySelectorAll(".plan")) {
    const type = card.dataset.plan;
    card.classList.toggle("is-current", type === sub.type);
    show(card.querySelector(".current-badge"), type === sub.type);
    const subscribe = card.querySelector("button.subscribe");
    if (subscribe) show(subscribe, sub.type === "FREE");
    const downgrade = card.querySelector("button.downgrade");
    if (downgrade) {
      const lower = { FREE: ["PREMIUM", "ENTERPRISE"], PREMIUM: ["ENTERPRISE"] }[type] || [];
      const already = type === "FREE" ? sub.cancelAtPeriodEnd || sub.pendingType === "FREE"
        : sub.pendingType === type;
      show(downgrade, lower.includes(sub.type) && !already);
    }
  }
  panel.setAttribute("aria-busy", "false");
}

async function load() {
  subscription = await request("GET", SUBSCRIPTION);
  render(subscription);
  return subscription;
}

async function changed(message) {
  notice.hidden = true;
  await load().catch(() => {});
  say(message);
}

// Back from the bank's page (or sent back with ?payment=...): say how it went, from the subscription itself.
async function start() {
  const returning = sessionStorage.getItem(AUTHENTICATION) || new URLSearchParams(location.search).get("payment");
  sessionStorage.removeItem(AUTHENTICATION);
  let sub;
  try {
    sub = await load();
  } catch (error) {
    say(error.message, "error");
    return;
  }
  if (returning) {
    if (sub.type === "PREMIUM") say(t("Your payment was confirmed: you now have Premium."));
    else say(t("The payment was not completed: your plan is unchanged."), "error");
  }
}

for (const amount of document.querySelectorAll(".plan .amount")) {
  amount.textContent = money(Number(amount.dataset.amount), amount.dataset.currency);
}
document.querySelector(".plan button.subscribe")?.addEventListener("click", () => {
  if (subscription) openSubscribe(subscription, changed);
});
for (const button of document.querySelectorAll(".plan button.downgrade")) {
  button.addEventListener("click", () => {
    if (subscription) openChange("downgrade", subscription, changed, button.dataset.planId);
  });
}
$("cancel-plan").addEventListener("click", () => subscription && openChange("cancel", subscription, changed));
$("reactivate").addEventListener("click", () => subscription && openChange("reactivate", subscription, changed));
$("change-card").addEventListener("click", () => openCardChange(changed));

start();
