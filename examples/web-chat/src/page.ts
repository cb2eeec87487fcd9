/**
 * The demo page: plain HTML and one inline script (fetch for the routes, EventSource for the
 * events — it sends the demo cookie, as it would a session cookie). Small on purpose; a React
 * UI will replace it.
 */
import { SUGGESTIONS } from "./offline-script.js";

const STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; background: #f6f4ef; color: #222; }
  main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
  header { display: flex; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
  header h1 { font-size: 1.2rem; margin: 0 auto 0 0; }
  #log { display: flex; flex-direction: column; gap: .4rem; margin: 1rem 0; }
  .msg { padding: .45rem .7rem; border-radius: .6rem; max-width: 85%; white-space: pre-wrap; }
  .user { align-self: flex-end; background: #2f5d50; color: #fff; }
  .agent { align-self: flex-start; background: #fff; border: 1px solid #ddd; }
  .live::after { content: "▍"; opacity: .5; }
  .tool, .note { align-self: center; font-size: .85rem; color: #666; }
  .slot { align-self: stretch; background: #fff; border: 1px solid #c9b98f; border-radius: .6rem; padding: .7rem; margin: .5rem 0; }
  .slot h3 { margin: 0 0 .4rem; font-size: 1rem; }
  .slot label { display: block; margin: .3rem 0; }
  .error { color: #a12; font-size: .85rem; }
  #tasks:empty { display: none; }
  #tasks { background: #fff; border: 1px dashed #aaa; border-radius: .6rem; padding: .5rem 1rem; list-style: none; }
  form#send { display: flex; gap: .5rem; }
  form#send input { flex: 1; padding: .5rem; }
  #status { font-size: .85rem; color: #666; min-height: 1.2em; }
`;

const SCRIPT = `
const SUGGESTIONS = __SUGGESTIONS__;
const $ = (id) => document.getElementById(id);
let conversationId, source, live = null;

function el(tag, props, ...children) {
  const node = Object.assign(document.createElement(tag), props || {});
  node.append(...children);
  return node;
}
async function api(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) { init.body = JSON.stringify(body); init.headers["content-type"] = "application/json"; }
  const response = await fetch("/api" + path, init);
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw Object.assign(new Error((data && data.error && data.error.message) || response.statusText), { status: response.status, data });
  return data;
}
function say(kind, text) {
  const node = el("div", { className: "msg " + kind, textContent: text });
  $("log").append(node);
  node.scrollIntoView({ block: "end" });
  return node;
}
function showResult(r) {
  const x = r.result;
  if (x.status !== "success") say("tool", "✗ " + r.tool_name + ": " + (x.message || x.status));
  else if (r.tool_name === "book_table" && x.renderData) say("tool", "✓ booked, confirmation " + x.renderData.code);
}
function showMessage(m) {
  if (m.is_compaction) return say("note", "(earlier messages were summarised)");
  if (m.is_compaction_request) return;
  if (m.text && !(m.tool_results && m.tool_results.length)) say(m.sender === "user" ? "user" : "agent", m.text);
  for (const c of m.tool_calls || []) if (c.tool_name !== "glove_update_tasks") say("tool", "→ " + c.tool_name).dataset.call = c.id;
  for (const r of m.tool_results || []) showResult(r);
}
function issuesOf(error) {
  const issues = error.data && error.data.error && error.data.error.issues;
  return issues ? issues.map((i) => i.path + ": " + i.message).join("; ") : error.message;
}
async function answer(slotId, body, errorNode) {
  try { await api("/conversations/" + conversationId + "/slots/" + slotId, body); }
  catch (error) { errorNode.textContent = issuesOf(error); }
}
function showSlot(slot) {
  const old = $("slot-" + slot.id);
  if (old) old.remove();
  if (slot.status !== "pending" && slot.status !== "shown") return;
  const box = el("div", { className: "slot", id: "slot-" + slot.id });
  box.dataset.strategy = slot.displayStrategy || "";
  const error = el("div", { className: "error" });
  const input = slot.input || {};
  if (slot.renderer === "reservation_form") {
    const name = el("input", { required: true, placeholder: "Name" });
    const guests = el("input", { type: "number", min: 1, max: 12, value: input.guests || 2 });
    const time = el("input", { type: "time", value: "19:30" });
    const form = el("form", {},
      el("h3", { textContent: input.question || "Booking details" }),
      el("label", {}, "Name ", name), el("label", {}, "Guests ", guests), el("label", {}, "Time ", time),
      el("button", { type: "submit", textContent: "Send" }), " ",
      el("button", { type: "button", textContent: "Cancel", onclick: () => answer(slot.id, { reject: "The user cancelled the form." }, error) }),
      error);
    form.onsubmit = (event) => { event.preventDefault(); answer(slot.id, { resolve: { name: name.value, guests: Number(guests.value), time: time.value } }, error); };
    box.append(form);
  } else if (slot.renderer === "permission_request") {
    box.append(
      el("h3", { textContent: "Allow " + input.tool_name + "?" }),
      el("pre", { textContent: JSON.stringify(input.input, null, 2) }),
      el("button", { textContent: "Allow", onclick: () => answer(slot.id, { resolve: true }, error) }), " ",
      el("button", { textContent: "Deny", onclick: () => answer(slot.id, { resolve: false }, error) }),
      error);
  } else if (slot.renderer === "show_menu") {
    box.append(el("h3", { textContent: input.title || "Menu" }),
      el("ul", {}, ...(input.dishes || []).map((d) => el("li", { textContent: d.name + " — €" + d.price }))),
      input.note ? el("small", { textContent: input.note }) : "");
  } else {
    box.append(el("h3", { textContent: slot.renderer }), el("pre", { textContent: JSON.stringify(input, null, 2) }));
    if (slot.mode === "wait") box.append(el("button", { textContent: "Dismiss", onclick: () => answer(slot.id, { reject: "dismissed" }, error) }), error);
  }
  // Next to the tool call that pushed it, when that call is on the page.
  const anchor = [...document.querySelectorAll("[data-call]")].find((n) => n.dataset.call === slot.toolCallId);
  if (anchor) anchor.after(box); else $("log").append(box);
  box.scrollIntoView({ block: "end" });
}
function showTasks(tasks) {
  const mark = { pending: "○", in_progress: "◐", completed: "●" };
  $("tasks").replaceChildren(...(tasks || []).map((t) => el("li", { textContent: (mark[t.status] || "·") + " " + (t.status === "in_progress" ? t.activeForm : t.content) })));
}
function setBusy(busy) {
  $("abort").disabled = !busy;
  $("status").textContent = busy ? "The agent is working…" : "";
}
function endLive(text) {
  if (!live) return false;
  if (text !== undefined) live.textContent = text;
  live.classList.remove("live");
  live = null;
  return true;
}
const handlers = {
  snapshot(s) {
    $("log").replaceChildren(); live = null;
    s.messages.forEach(showMessage);
    if (s.streamingText) { live = say("agent live", s.streamingText); }
    s.slots.forEach(showSlot); showTasks(s.tasks); setBusy(s.busy);
  },
  turn_start() { setBusy(true); },
  text_delta(d) { if (!live) live = say("agent live", ""); live.textContent += d.text; },
  messages_appended(d) {
    // The streamed bubble becomes the stored message; tool calls and results show from the history.
    for (const m of d.messages) showMessage(m.sender === "agent" && endLive(m.text) ? { ...m, text: "" } : m);
  },
  slot_push(d) { showSlot(d.slot); },
  slot_settled(d) { const node = $("slot-" + d.slotId); if (node && node.dataset.strategy !== "stay") node.remove(); },
  tasks(d) { showTasks(d.tasks); },
  turn_end(d) {
    endLive(); setBusy(false);
    if (d.status !== "done") say("note", "Turn " + d.status + (d.error ? ": " + d.error.message : ""));
  },
};
function connect(id) {
  conversationId = id;
  location.hash = id;
  if (source) source.close();
  source = new EventSource("/api/conversations/" + id + "/events");
  for (const [type, handle] of Object.entries(handlers)) source.addEventListener(type, (e) => handle(JSON.parse(e.data)));
  source.onerror = () => { $("status").textContent = "Reconnecting…"; };
  source.onopen = () => { if ($("status").textContent === "Reconnecting…") $("status").textContent = ""; };
}
async function newConversation() { connect((await api("/conversations", {})).id); }
async function send(text) {
  if (!text.trim()) return;
  try { await api("/conversations/" + conversationId + "/messages", { text, clientMessageId: crypto.randomUUID() }); $("text").value = ""; }
  catch (error) { say("note", error.status === 409 ? "The agent is still busy: wait, or abort." : "Not sent: " + error.message); }
}
$("send").onsubmit = (event) => { event.preventDefault(); send($("text").value); };
$("abort").onclick = () => api("/conversations/" + conversationId + "/abort", {}).catch((e) => say("note", e.message));
$("new").onclick = () => newConversation();
$("suggestions").append(...SUGGESTIONS.map((s) => el("button", { type: "button", textContent: s, onclick: () => send(s) })));
(async () => {
  const wanted = location.hash.slice(1);
  const { conversations } = await api("/conversations");
  const known = conversations.find((c) => c.id === wanted) || conversations[0];
  if (known) connect(known.id); else await newConversation();
})().catch((error) => say("note", "Could not start: " + error.message));
`;

/** The page, with `nonce` on its inline script (the response's Content-Security-Policy allows only that). */
export function chatPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Glove Bistro — web chat</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <header><h1>Glove Bistro</h1><button id="new" type="button">New conversation</button><button id="abort" type="button" disabled>Abort</button></header>
  <ul id="tasks"></ul>
  <div id="log"></div>
  <div id="status"></div>
  <form id="send"><input id="text" autocomplete="off" placeholder="Message the bistro's agent"><button type="submit">Send</button></form>
  <p id="suggestions">Try: </p>
</main>
<script nonce="${nonce}">${SCRIPT.replace("__SUGGESTIONS__", JSON.stringify(SUGGESTIONS))}</script>
</body>
</html>
`;
}
