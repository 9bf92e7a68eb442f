// The account page's connected agents (GET/POST /api/account/agents, DELETE /api/account/agents/<id>, GET
// /api/account/agent-log): each agent with what it may do and when it last worked, Disconnect, a form to
// make a personal agent key with chosen scopes (shown once, with Copy; a security change, made with
// withSudo), and the agents' latest tool calls.
import { request, toast } from "../shared/api.js";
import { mediumDate, t } from "../shared/i18n.js";
import { clear, fail } from "./form.js";
import { withSudo } from "./reauth.js";
import { el, show } from "../shared/dom.js";
import { setUpShownOnce } from "./shown-once.js";

const list = document.getElementById("agent-list");
const form = document.getElementById("agent-create-form");
const created = document.getElementById("agent-created");
const key = document.getElementById("agent-key");
const problem = document.getElementById("agent-error");
const log = document.getElementById("agent-log");
let reveal = null; // shows a new key (account/shown-once.js)

const day = (iso) => mediumDate.format(new Date(iso));
const time = (iso) => new Date(iso).toLocaleString(document.documentElement.lang || undefined);

function render(agents) {
  const labels = JSON.parse(list.dataset.scopes);
  document.getElementById("agent-loading").hidden = true;
  const items = agents.map((agent) => {
    const kind = agent.kind === "oauth" ? t("Connected with OAuth") : t("Agent key");
    const used = agent.lastUsedAt ? t("Last used {date}", { date: day(agent.lastUsedAt) }) : t("Never used");
    return el("li", { "data-agent": agent.id },
      el("div", {},
         el("strong", {}, agent.name),
         el("div", { class: "hint" }, [kind, t("Created {date}", { date: day(agent.createdAt) }), used].join(" · ")),
         ...agent.scopes.map((scope) => el("div", { class: "hint" }, "✓ " + (labels[scope] || scope)))),
      el("button", { type: "button", class: "secondary", "data-revoke": agent.id, "data-name": agent.name,
                     "aria-label": t("Disconnect {name}", { name: agent.name }) }, t("Disconnect")));
  });
  if (!items.length) items.push(el("li", { class: "muted" }, t("No agents are connected.")));
  list.replaceChildren(...items);
}

function renderLog(calls) {
  const items = calls.map((call) => el("li", {},
    el("time", { datetime: call.createdAt }, time(call.createdAt)), " ",
    t("{agent}: {tool}", { agent: call.agentName, tool: call.tool }),
    call.outcome === "done" ? "" : " " + t("(refused: {code})", { code: call.outcome })));
  if (!items.length) items.push(el("li", { class: "muted" }, t("Nothing yet.")));
  log.replaceChildren(...items);
}

async function load() {
  try {
    const [agents, calls] = await Promise.all([request("GET", "/api/account/agents"),
                                               request("GET", "/api/account/agent-log")]);
    render(agents.agents);
    renderLog(calls);
  } catch (error) {
    show(problem, error.message);
  }
}

async function create(event) {
  event.preventDefault();
  clear(form);
  show(problem, "");
  const name = form.elements.name.value.trim();
  const scopes = [...form.querySelectorAll("[name=scopes]:checked")].map((box) => box.value);
  if (!name) {
    fail(form, { field: "name", message: t("Give the agent a name."), code: "" });
    return;
  }
  if (!scopes.length) {
    fail(form, { field: "scopes", message: t("Allow it at least one thing."), code: "" });
    return;
  }
  const button = form.querySelector("[type=submit]");
  button.disabled = true;
  try {
    const agent = await withSudo(() => request("POST", "/api/account/agents", { name, scopes }));
    form.reset();
    reveal(agent.key);
    toast(t("Agent key created. Copy it now: it is not shown again."), "ok");
    await load();
  } catch (error) {
    fail(form, error);
  } finally {
    button.disabled = false;
  }
}

if (list) {
  reveal = setUpShownOnce(
    { list, form, created, value: key, problem, copy: document.getElementById("agent-copy"),
      done: document.getElementById("agent-done") },
    "/api/account/agents", (body) => render(body.agents),
    { selected: t("The key is selected: press Ctrl+C (or ⌘C) to copy it."),
      confirm: (name) => t("Disconnect “{name}”? It stops working at once.", { name }),
      revoked: (name) => t("Agent disconnected: {name}.", { name }) });
  form.addEventListener("submit", create);
  load();
}
