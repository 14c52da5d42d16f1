// A tiny stand-in for telegram-web-app.js (the bot is self-hosted: no script from Telegram's site). It reads the
// launch parameters Telegram puts in the page's hash, posts events to the client and hears the theme change.

const tg = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData !== undefined
  ? window.Telegram.WebApp : null;

function hashParams() {
  try {
    return new URLSearchParams(location.hash.slice(1));
  } catch {
    return new URLSearchParams();
  }
}

function json(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The launch parameters: initData (the raw query string, sent to the server as it is), its user and
 * start_param, the theme params, the color scheme when the client says it, version and platform. */
export function launchParams() {
  const hash = hashParams();
  const initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  const theme = (tg && tg.themeParams && Object.keys(tg.themeParams).length ? tg.themeParams : null)
    || json(hash.get("tgWebAppThemeParams"));
  return {
    initData,
    user: json(fields.get("user")),
    startParam: fields.get("start_param") || hash.get("tgWebAppStartParam") || "",
    theme,
    colorScheme: (tg && tg.colorScheme) || null,
    version: (tg && tg.version) || hash.get("tgWebAppVersion") || "",
    platform: (tg && tg.platform) || hash.get("tgWebAppPlatform") || "",
  };
}

/** Sends an event to the Telegram client: a native app's proxy, Windows Phone's notify, or the web client's
 * parent frame. Outside Telegram it goes nowhere. */
export function postEvent(type, data = {}) {
  try {
    if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
      window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data));
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType: type, eventData: data }));
    } else if (window.parent && window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
    }
  } catch {
    // a client that cannot hear us: the page works on without it
  }
}

const listeners = new Map();

function deliver(type, data) {
  for (const each of listeners.get(type) || []) {
    try {
      each(data);
    } catch (error) {
      console.warn("telegram event", type, error);
    }
  }
}

/** Calls `handler(eventData)` on each `type` event from the client. */
export function onEvent(type, handler) {
  if (!listeners.has(type)) listeners.set(type, []);
  listeners.get(type).push(handler);
}

// Native clients call Telegram.WebView.receiveEvent; the web client posts messages to the frame.
window.Telegram = window.Telegram || {};
window.Telegram.WebView = window.Telegram.WebView || {};
if (typeof window.Telegram.WebView.receiveEvent !== "function") {
  window.Telegram.WebView.receiveEvent = (type, data) => deliver(type, data);
}
if (!window.TelegramGameProxy) window.TelegramGameProxy = { receiveEvent: window.Telegram.WebView.receiveEvent };
window.addEventListener("message", (event) => {
  if (event.source !== window.parent || window.parent === window) return;
  const message = typeof event.data === "string" ? json(event.data) : event.data;
  if (message && typeof message.eventType === "string") deliver(message.eventType, message.eventData);
});
if (tg && typeof tg.onEvent === "function") {
  tg.onEvent("themeChanged", () => deliver("theme_changed", { theme_params: tg.themeParams }));
}

/** Tells the client the page is ready and asks for the full height (and the theme, for the web client). */
export function ready() {
  if (tg && typeof tg.ready === "function") {
    tg.ready();
    tg.expand();
    return;
  }
  if (window.parent && window.parent !== window) {
    // the web client: it may reload the frame instead of the whole tab
    postEvent("iframe_ready", { reload_supported: true });
    onEvent("reload_iframe", () => location.reload());
  }
  postEvent("web_app_ready");
  postEvent("web_app_expand");
  postEvent("web_app_request_theme");
}
