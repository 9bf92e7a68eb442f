// The subscription page's dialogs: subscribing (or upgrading) with a card, confirming a change after
// seeing what it costs and when it takes effect (POST .../preview), and putting another card on file.
// Each calls done(message) after a change the API accepted; errors stay in the dialog, in words.
import { request, showError } from "../shared/api.js";
import { t } from "../shared/i18n.js";
import { day, describe, money, planName, when } from "./billing-format.js";

const PREVIEW = "/api/account/subscription/preview";
const SUBSCRIPTION = "/api/account/subscription";
const ON_FILE = "on-file"; // the card-on-file option: the API uses that card when none is named

for (const button of document.querySelectorAll("dialog [data-close]")) {
  button.addEventListener("click", () => button.closest("dialog").close());
}

function fill(list, rows) {
  list.replaceChildren();
  for (const [term, value] of rows) {
    const row = document.createElement("div");
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = value;
    row.append(dt, dd);
    list.append(row);
  }
}

function then(preview) {
  const next = preview.nextBilling;
  return next ? t("{amount} on {date}", { amount: money(next.amount, next.currency), date: day(next.date) })
    : t("No further charge");
}

function failed(box, error, root) {
  const message = describe(error);
  if (error.field && root.querySelector(`[data-field="${CSS.escape(error.field)}"]`)) {
    error.message = message;
    showError(error, root);
    box.hidden = true;
  } else {
    box.textContent = message;
    box.hidden = false;
  }
}

function clearErrors(root, box) {
  box.hidden = true;
  for (const old of root.querySelectorAll(".field-error")) old.remove();
  for (const old of root.querySelectorAll("[aria-invalid]")) old.removeAttribute("aria-invalid");
}

// The on-file card as the first choice of a card field (only where it can pay: upgrades).
function offerCardOnFile(select, card) {
  const group = select.querySelector("optgroup.on-file");
  group.replaceChildren();
  group.hidden = !card;
  if (!card) return;
  const option = new Option(t("{brand} ending in {last4}, expires {month}/{year}", {
    brand: card.brand.charAt(0).toUpperCase() + card.brand.slice(1), last4: card.last4,
    month: card.expiryMonth, year: card.expiryYear }), ON_FILE);
  group.append(option);
  select.value = ON_FILE;
}

// Subscribe dialog ------------------------------------------------------------------------------------
const subscribeDialog = document.getElementById("subscribe-dialog");
const subscribeForm = document.getElementById("subscribe-form");
const subscribeCard = document.getElementById("subscribe-card");
const subscribeSummary = document.getElementById("subscribe-summary");
const subscribeError = document.getElementById("subscribe-error");
const subscribeConfirm = document.getElementById("subscribe-confirm");
const coupon = document.getElementById("coupon");
const couponNote = document.getElementById("coupon-note");
let asked = 0; // the latest preview asked for; older answers are dropped
let onSubscribed = () => {};

function subscribeChoice() {
  const card = subscribeCard.value;
  const fresh = subscribeForm.elements.billing.value === "new";
  return { card, fresh, viaSubscribe: fresh && card !== ON_FILE };
}

function showCouponNote() {
  couponNote.hidden = !(subscribeChoice().viaSubscribe && coupon.value.trim());
}

async function refreshSubscribeSummary() {
  const { card, fresh, viaSubscribe } = subscribeChoice();
  coupon.closest("label").hidden = !viaSubscribe;
  subscribeConfirm.textContent = viaSubscribe ? t("Subscribe and pay") : t("Pay and upgrade");
  const body = { action: "upgrade", planId: "premium", prorationBehavior: fresh ? "none" : "always_invoice" };
  if (card !== ON_FILE) body.paymentMethodId = card;
  const ticket = ++asked;
  fill(subscribeSummary, [[t("Charged now"), t("Working it out…")]]);
  subscribeConfirm.disabled = true;
  try {
    const preview = await request("POST", PREVIEW, body);
    if (ticket !== asked) return;
    const rows = [];
    if (!fresh) rows.push([t("Prorated amount"), money(preview.prorationAmount, preview.currency)]);
    rows.push([t("Charged now"), money(preview.amountDueNow, preview.currency)],
              [t("Takes effect"), when(preview.effectiveDate)],
              [t("Then"), preview.nextBilling ? t("{amount} on {date}, then monthly", {
                amount: money(preview.nextBilling.amount, preview.nextBilling.currency),
                date: day(preview.nextBilling.date) }) : t("No further charge")]);
    fill(subscribeSummary, rows);
    showCouponNote();
    subscribeConfirm.disabled = false;
  } catch (error) {
    if (ticket !== asked) return;
    subscribeSummary.replaceChildren();
    failed(subscribeError, error, subscribeForm);
  }
}

export function openSubscribe(subscription, done) {
  onSubscribed = done;
  clearErrors(subscribeForm, subscribeError);
  subscribeForm.reset();
  offerCardOnFile(subscribeCard, subscription.paymentMethod);
  subscribeDialog.showModal();
  refreshSubscribeSummary();
}

subscribeForm.addEventListener("change", (event) => {
  if (event.target !== coupon) { clearErrors(subscribeForm, subscribeError); refreshSubscribeSummary(); }
});
coupon.addEventListener("input", showCouponNote);

subscribeForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const { card, fresh, viaSubscribe } = subscribeChoice();
  clearErrors(subscribeForm, subscribeError);
  subscribeConfirm.disabled = true;
  try {
    if (viaSubscribe) {
      const body = { planId: "premium", paymentMethodId: card };
      if (coupon.value.trim()) body.couponCode = coupon.value.trim();
      const result = await request("POST", SUBSCRIPTION, body);
      if (result.requiresAction && result.nextAction?.url) {
        // The card holder confirms at their bank's page; this page shows the outcome when they are back.
        sessionStorage.setItem("billing.authentication", "pending");
        fill(subscribeSummary, [[t("Sending you to your bank to confirm the payment…"), ""]]);
        window.location.assign(result.nextAction.url);
        return;
      }
    } else {
      const body = { action: "upgrade", planId: "premium", prorationBehavior: fresh ? "none" : "always_invoice" };
      if (card !== ON_FILE) body.paymentMethodId = card;
      await request("PUT", SUBSCRIPTION, body);
    }
    subscribeDialog.close();
    onSubscribed(t("You now have Premium. Thank you!"));
  } catch (error) {
    failed(subscribeError, error, subscribeForm);
    subscribeConfirm.disabled = false;
  }
});

// Change dialog: downgrade, cancel, reactivate --------------------------------------------------------
const changeDialog = document.getElementById("change-dialog");
const changeTitle = document.getElementById("change-title");
const changeLead = document.getElementById("change-lead");
const changeSummary = document.getElementById("change-summary");
const changeError = document.getElementById("change-error");
const changeConfirm = document.getElementById("change-confirm");
let pending = null; // {body, done, message}

export async function openChange(action, subscription, done, planId = null) {
  const current = planName(subscription.type);
  const body = { action };
  if (planId) body.planId = planId;
  const target = planId ? planName(planId.toUpperCase()) : current;
  changeTitle.textContent = {
    downgrade: t("Downgrade to {plan}?", { plan: target }),
    cancel: t("Cancel your subscription?"),
    reactivate: t("Reactivate {plan}?", { plan: current }),
  }[action];
  changeConfirm.textContent = { downgrade: t("Schedule the downgrade"), cancel: t("Cancel subscription"),
                                reactivate: t("Reactivate") }[action];
  changeConfirm.className = action === "reactivate" ? "" : "danger";
  changeConfirm.disabled = true;
  changeLead.textContent = "";
  changeError.hidden = true;
  fill(changeSummary, [[t("Takes effect"), t("Working it out…")]]);
  pending = null;
  changeDialog.showModal();
  try {
    const preview = await request("POST", PREVIEW, body);
    const date = day(preview.effectiveDate);
    const end = day(subscription.currentPeriodEnd);
    changeLead.textContent = {
      downgrade: t("You keep {current} until {date}; then your plan becomes {plan}. Nothing is refunded for " +
                   "the rest of the period.", { current, date, plan: target }),
      cancel: t("{current} stays until {date}; then you are on Free and nothing more is charged.",
                { current, date }),
      reactivate: t("What was scheduled for {date} is undone: your {plan} plan renews as it is.",
                    { date: end, plan: current }),
    }[action];
    fill(changeSummary, [[t("Prorated amount"), money(preview.prorationAmount, preview.currency)],
                         [t("Charged now"), money(preview.amountDueNow, preview.currency)],
                         [t("Takes effect"), when(preview.effectiveDate)],
                         [t("Next billing"), then(preview)]]);
    pending = { body, done, message: {
      downgrade: t("Downgrade scheduled for {date}.", { date }),
      cancel: t("Your subscription ends on {date}.", { date }),
      reactivate: t("Your plan renews as it is."),
    }[action] };
    changeConfirm.disabled = false;
    changeConfirm.focus();
  } catch (error) {
    changeSummary.replaceChildren();
    failed(changeError, error, changeDialog);
  }
}

changeConfirm.addEventListener("click", async () => {
  if (!pending) return;
  changeConfirm.disabled = true;
  try {
    await request("PUT", SUBSCRIPTION, pending.body);
    changeDialog.close();
    pending.done(pending.message);
  } catch (error) {
    failed(changeError, error, changeDialog);
    changeConfirm.disabled = false;
  }
});

// Card dialog -----------------------------------------------------------------------------------------
const cardDialog = document.getElementById("card-dialog");
const cardForm = document.getElementById("card-form");
const cardError = document.getElementById("card-error");
let onCardChanged = () => {};

export function openCardChange(done) {
  onCardChanged = done;
  clearErrors(cardForm, cardError);
  cardForm.reset();
  cardDialog.showModal();
}

cardForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(cardForm, cardError);
  const paymentMethodId = document.getElementById("new-card").value;
  if (!paymentMethodId) { cardError.textContent = t("Choose a card."); cardError.hidden = false; return; }
  try {
    await request("PUT", SUBSCRIPTION, { action: "update_payment_method", paymentMethodId });
    cardDialog.close();
    onCardChanged(t("Your card has been changed."));
  } catch (error) {
    failed(cardError, error, cardForm);
  }
});
