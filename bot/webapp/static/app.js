// The table, drawn (issue 40): reads the table from /webapp/api/, draws its Board, sends taps, and follows the
// table's event stream. Every text from the server is set as text, never as markup.

import { launchParams, onEvent, ready } from "./telegram.js";
import { cardElement } from "./cards.js";

const API = new URL("../api/", import.meta.url);
const launch = launchParams();
const query = new URLSearchParams(location.search);
const token = query.get("t") || launch.startParam || "";
// The page's own lines, in every language of the bot: locales/*/webapp.ftl, put in the page by the server.
const STRINGS = JSON.parse(document.documentElement.dataset.texts || "{}");
// The viewer's language as Telegram tells it (outside Telegram, the browser's), if the bot speaks it.
const spoken = ((launch.user && launch.user.language_code) || (launch.initData ? "" : navigator.language) || "")
  .toLowerCase().slice(0, 2);
const lang = spoken in STRINGS ? spoken : "en";

const t = (key) => (STRINGS[lang] || {})[key] || (STRINGS.en || {})[key] || "";
const UNAUTHORIZED = new Set(["missing", "malformed", "forged", "expired", "no_user"]);

const $ = (id) => document.getElementById(id);
const body = document.body;

function make(tag, className = "", textValue = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (textValue !== null && textValue !== undefined) node.textContent = textValue;
  return node;
}

// -- theme -----------------------------------------------------------------------------------------------------

const THEME_VARS = {
  bg_color: "--bg",
  text_color: "--text",
  hint_color: "--hint",
  link_color: "--link",
  button_color: "--button",
  button_text_color: "--button-text",
  secondary_bg_color: "--secondary-bg",
  destructive_text_color: "--destructive",
};
const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
let theme = launch.theme;
let scheme = launch.colorScheme;

function isDarkColor(color) {
  const match = /^#?([0-9a-f]{6})$/i.exec(String(color || "").trim());
  if (!match) return null;
  const n = parseInt(match[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

function applyTheme() {
  for (const [param, name] of Object.entries(THEME_VARS)) {
    const value = theme && typeof theme[param] === "string" ? theme[param] : "";
    if (/^#[0-9a-f]{3,8}$/i.test(value)) body.style.setProperty(name, value);
    else body.style.removeProperty(name);
  }
  let dark;
  if (scheme === "dark" || scheme === "light") dark = scheme === "dark";
  else if (theme && isDarkColor(theme.bg_color) !== null) dark = isDarkColor(theme.bg_color);
  else dark = Boolean(darkQuery && darkQuery.matches);
  body.classList.toggle("dark", dark);
}

onEvent("theme_changed", (data) => {
  if (data && data.theme_params) {
    theme = data.theme_params;
    scheme = null;
    applyTheme();
  }
});
if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener("change", applyTheme);

// -- the API ---------------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code) {
    super(`${status} ${code}`);
    this.status = status;
    this.code = code;
  }
}

function headers(extra = {}) {
  return { Authorization: `tma ${launch.initData}`, ...extra };
}

async function call(path, params = {}, init = {}) {
  const url = new URL(path, API);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  let response;
  try {
    response = await fetch(url, { cache: "no-store", ...init, headers: headers(init.headers) });
  } catch {
    throw new ApiError(0, "offline");
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (!response.ok) throw new ApiError(response.status, (answer && answer.error) || `http_${response.status}`);
  if (answer === null) throw new ApiError(response.status, "failed");
  return answer;
}

function errorText(error) {
  if (!(error instanceof ApiError)) return t("failed");
  if (error.status === 401 || UNAUTHORIZED.has(error.code)) return t("unauthorized");
  if (error.status === 0) return t("offline");
  return t(error.code) || t("failed");
}

function showError(error) {
  const line = $("error");
  line.textContent = typeof error === "string" ? error : errorText(error);
  line.hidden = false;
  $("loading").hidden = true;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

/** Whether nothing more can work (the page must be opened again): no stream, no retries. */
function fatal(error) {
  return error instanceof ApiError && [401, 403, 404].includes(error.status);
}

// -- drawing ---------------------------------------------------------------------------------------------------

let drawn = null; // the version last drawn from /table
let role = null;
let busy = false;

function lines(container, texts, tag = "p") {
  container.replaceChildren(...(texts || []).map((each) => make(tag, "line", each)));
}

function drawSeats(seats) {
  const list = $("seats");
  list.replaceChildren(...(seats || []).map((seat) => {
    const box = make("li", "seat");
    box.dataset.seat = String(seat.seat);
    box.classList.toggle("you", Boolean(seat.you));
    box.classList.toggle("acting", Boolean(seat.acting));
    const head = make("div", "seat-head");
    if (seat.acting) head.append(make("span", "turn", "⏳"));
    head.append(make("span", "name", seat.name));
    box.append(head);
    if (seat.cards !== null && seat.cards !== undefined) {
      box.append(cardElement(null, { count: seat.cards }));
      box.lastChild.classList.add("mini");
    }
    if (seat.lines && seat.lines.length) {
      const more = make("div", "seat-lines");
      lines(more, seat.lines, "span");
      box.append(more);
    }
    return box;
  }));
}

function drawPile(pile) {
  const box = make("div", `pile ${pile.layout || "row"}`);
  box.dataset.pile = pile.key;
  if (pile.title) box.append(make("div", "pile-title", pile.title));
  const cards = make("div", "cards");
  const faces = pile.cards || [];
  if (pile.layout === "stack") {
    if (faces.length) {
      const top = cardElement(faces[faces.length - 1], { count: pile.count });
      if (!top.classList.contains("down") && pile.count !== null && pile.count !== undefined) {
        top.append(make("span", "badge", String(pile.count))); // a face-up top card: its count beside it
      }
      cards.append(top);
    }
    else if (pile.count) cards.append(cardElement(null, { count: pile.count }));
    else cards.append(make("span", "empty", "0"));
  } else {
    for (const face of faces) cards.append(cardElement(face));
    if (!faces.length) cards.append(make("span", "empty", "—"));
  }
  box.append(cards);
  if (pile.note) box.append(make("div", "pile-note", pile.note));
  return box;
}

function drawSections(sections) {
  $("table").replaceChildren(...(sections || []).map((section) => {
    const box = make("section", "table-section");
    box.dataset.section = section.key;
    if (section.title) box.append(make("h2", "", section.title));
    const piles = make("div", "piles");
    piles.append(...(section.piles || []).map(drawPile));
    box.append(piles);
    return box;
  }));
}

function drawHand(hand) {
  $("hand").classList.toggle("few", (hand || []).length <= 6); // a short hand is drawn larger
  $("hand").replaceChildren(...(hand || []).map((card) => {
    const button = cardElement(card.face, { tag: "button" });
    button.type = "button";
    button.classList.toggle("marked", Boolean(card.marked));
    button.setAttribute("aria-pressed", card.marked ? "true" : "false");
    if (card.data) button.addEventListener("click", () => tap(card.data));
    else button.disabled = true;
    return button;
  }));
}

function drawActions(actions) {
  $("actions").replaceChildren(...(actions || []).map((action) => {
    const button = make("button", "action", action.text);
    button.type = "button";
    button.addEventListener("click", () => tap(action.data));
    return button;
  }));
}

let replaysShown = 0;
let replayOpen = null;

function drawReplays(count) {
  const box = $("replays");
  const shown = role === "player" ? count || 0 : 0;
  box.hidden = shown === 0;
  if (shown === replaysShown) return;
  replaysShown = shown;
  const list = $("replay-list");
  list.replaceChildren();
  for (let deal = 1; deal <= shown; deal += 1) {
    const button = make("button", "", `${t("deal")} ${deal}`);
    button.type = "button";
    button.dataset.deal = String(deal);
    button.addEventListener("click", () => replay(deal));
    list.append(button);
  }
}

async function replay(deal) {
  const panel = $("replay");
  if (replayOpen === deal && !panel.hidden) {
    panel.hidden = true;
    replayOpen = null;
    return;
  }
  replayOpen = deal;
  for (const each of $("replay-list").children) each.classList.toggle("open", each.dataset.deal === String(deal));
  panel.hidden = false;
  panel.textContent = t("loading");
  try {
    const answer = await call("replay", { t: token, deal });
    if (replayOpen === deal) panel.textContent = (answer.lines || []).join("\n");
  } catch (error) {
    if (replayOpen === deal) panel.textContent = errorText(error);
  }
}

function plain(text) {
  // The bot's own text (Telegram HTML) as plain text: parsed inert, never inserted as markup.
  if (!text) return "";
  return new DOMParser().parseFromString(String(text), "text/html").body.textContent || "";
}

/** Draws a Board (the table's or a tap's hand). */
function drawBoard(board) {
  $("title").textContent = board.title || t("table");
  document.title = board.title || t("table");
  lines($("score"), board.score);
  drawSeats(board.seats);
  drawSections(board.sections);
  lines($("status"), board.status);
  drawHand(board.hand);
  drawActions(board.actions);
  drawReplays(board.deals_over);
  $("text").hidden = true;
  body.dataset.game = board.game || "";
}

/** The table without a board (a lobby, or a game that draws none): its text and its buttons. */
function drawText(view) {
  $("title").textContent = t("table");
  lines($("score"), []);
  $("seats").replaceChildren();
  $("table").replaceChildren();
  const text = plain(view.text);
  $("text").textContent = text || t("lobby");
  $("text").hidden = false;
  lines($("status"), []);
  drawHand([]);
  drawActions((view.buttons || []).flat());
  drawReplays(0);
}

function render(view) {
  role = view.role;
  body.dataset.role = view.role || "";
  if (view.board) drawBoard(view.board);
  else drawText(view);
  drawn = view.version;
  body.dataset.version = String(view.version);
  body.dataset.status = view.status || "";
  $("loading").hidden = true;
  clearError();
  setBusy(busy);
}

// -- notices ---------------------------------------------------------------------------------------------------

let fading = null;

function notice(text, alert) {
  const box = $("notice-box");
  clearTimeout(fading);
  $("notice").textContent = text;
  box.classList.toggle("alert", Boolean(alert));
  box.classList.remove("fade");
  box.hidden = false;
  $("notice-ok").hidden = !alert;
  if (alert) {
    $("notice-ok").focus({ preventScroll: true });
  } else {
    fading = setTimeout(() => {
      box.classList.add("fade");
      fading = setTimeout(closeNotice, 400);
    }, 2600);
  }
}

function closeNotice() {
  clearTimeout(fading);
  $("notice-box").hidden = true;
  $("notice").textContent = "";
}

// -- the table, taps and the stream ----------------------------------------------------------------------------

let loading = null;
let again = false;
let retry = null;

/** Fetches the table and draws it; calls made while one is under way make one more after it. */
function refresh() {
  if (dead) return Promise.resolve();
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      clearTimeout(retry);
      try {
        render(await call("table", { t: token }));
      } catch (error) {
        showError(error);
        if (fatal(error)) {
          dead = true;
          stopStream();
          return;
        }
        // busy, throttled or offline: try again shortly
        retry = setTimeout(refresh, error.code === "slow_down" ? 2000 : 1000);
      }
    } while (again);
  })().finally(() => {
    loading = null;
  });
  return loading;
}

function setBusy(value) {
  busy = value;
  body.classList.toggle("busy", value);
  for (const button of document.querySelectorAll("#hand button, #actions button")) {
    if (value) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
}

async function tap(data) {
  if (busy) return; // one tap at a time: no double moves
  setBusy(true);
  let reload = true;
  try {
    const answer = await call("tap", {}, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ t: token, data }),
    });
    if (answer.text) notice(answer.text, answer.alert);
    if (answer.hand && answer.hand.board) {
      drawBoard(answer.hand.board);
      reload = false;
    }
  } catch (error) {
    if (fatal(error)) {
      dead = true;
      stopStream();
      showError(error);
      reload = false;
    } else if (error.code !== "bad_button") {
      // the move was not made: say why; a stale button (bad_button) just gets the table again
      notice(errorText(error), false);
      reload = error.code !== "slow_down";
    }
  } finally {
    setBusy(false);
  }
  if (reload) await refresh();
}

let dead = false; // the page must be opened again (401, 403, 404): no stream, no retries
let streaming = false;
let streamAbort = null;
let lastEventId = "";
let wake = null;

function stopStream() {
  streaming = false;
  if (streamAbort) streamAbort.abort();
}

function sleep(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

/** Reads the event stream with fetch (EventSource sends no Authorization header) until it ends, reconnecting
 * after a loss with a growing pause (1 s to 10 s) and Last-Event-ID. */
async function stream() {
  if (dead || streaming) return;
  streaming = true;
  let pause = 1000;
  let base = 1000;
  while (streaming) {
    const abort = new AbortController();
    streamAbort = abort;
    let ended = false;
    let watchdog = null;
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), 45000); // heartbeats come every 15 s
    };
    try {
      const url = new URL("events", API);
      url.searchParams.set("t", token);
      const extra = { Accept: "text/event-stream" };
      if (lastEventId) extra["Last-Event-ID"] = lastEventId;
      const response = await fetch(url, { headers: headers(extra), cache: "no-store", signal: abort.signal });
      if (!response.ok || !response.body) {
        let code = `http_${response.status}`;
        try {
          code = (await response.json()).error || code;
        } catch {
          // not JSON
        }
        throw new ApiError(response.status, code);
      }
      body.dataset.stream = "open";
      pause = base;
      alive();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      let event = { id: null, type: "", data: [] };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        buffer += value;
        const parts = buffer.split(/\r\n|\r|\n/);
        buffer = parts.pop();
        for (const line of parts) {
          if (line === "") {
            if (event.id !== null) lastEventId = event.id;
            if (event.type || event.data.length) ended = dispatch(event.type || "message", event.data.join("\n"));
            event = { id: null, type: "", data: [] };
            if (ended) break;
            continue;
          }
          if (line.startsWith(":")) continue; // a heartbeat
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "id") event.id = value;
          else if (field === "event") event.type = value;
          else if (field === "data") event.data.push(value);
          else if (field === "retry" && /^\d+$/.test(value)) base = pause = Math.min(Number(value), 10000) || 1000;
        }
        if (ended) break;
      }
      if (ended) {
        abort.abort();
        streaming = false;
        break;
      }
    } catch (error) {
      if (!streaming) break;
      if (fatal(error)) {
        dead = true;
        stopStream();
        showError(error);
        break;
      }
    } finally {
      clearTimeout(watchdog);
    }
    if (!streaming) break;
    body.dataset.stream = "lost";
    await sleep(pause);
    pause = Math.min(pause * 2, 10000);
    if (streaming) refresh(); // what was missed while the stream was down
  }
}

function dispatch(type, data) {
  let payload = null;
  try {
    payload = data ? JSON.parse(data) : null;
  } catch {
    payload = null;
  }
  if (type === "version") {
    if (!payload || payload.version !== drawn) refresh();
    return false;
  }
  if (type === "end") {
    refresh();
    return true;
  }
  return false;
}

// -- start -----------------------------------------------------------------------------------------------------

function start() {
  document.documentElement.lang = lang;
  applyTheme();
  $("loading").textContent = t("loading");
  $("replays-title").textContent = t("replays");
  $("reconnecting").textContent = t("reconnecting");
  $("notice-ok").textContent = t("ok");
  $("notice-ok").addEventListener("click", closeNotice);
  $("notice-box").addEventListener("click", (event) => {
    if (!$("notice-box").classList.contains("alert") || event.target === $("notice-ok")) closeNotice();
  });
  ready();
  if (!launch.initData) {
    showError(t("unauthorized"));
    return;
  }
  if (!token) {
    showError(t("no_table"));
    return;
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    refresh();
    if (wake) wake(); // a lost stream tries again now
  });
  refresh().then(() => {
    if (!dead) stream();
  });
}

start();
