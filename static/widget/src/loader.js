// The loader: the script tag's src. First paint only: the public API (window.ChatWidget),
// the site's config and theme, the launcher and a live region. The panel (transcript,
// websocket, Markdown) is a second file, loaded when the visitor opens the chat or when a
// conversation already exists. Contract: static/widget/README.md.

import { LAUNCHER_CSS } from "./styles.js";
import { adoptStyles, element, icon, readCookie, writeCookie } from "./dom.js";

/* global PANEL_VERSION */ // set by the build: the panel file's content hash

const BUILT_IN_STRINGS = {
  open: "Open chat",
  close: "Close chat",
  new_message: "new message",
  unavailable: "The chat is not available right now.",
};
const COMMANDS = ["open", "close", "toggle", "send", "prefill", "setLanguage", "on", "off"];
const EVENTS = ["ready", "open", "close", "message", "unread", "handover", "state"];

function pickLanguage(value) {
  return /^de/i.test(value || "") ? "de" : "en";
}

function start(script) {
  const siteKey = script.dataset.site;
  const serverOrigin = new URL(script.src, location.href).origin;
  let language = pickLanguage(
    script.dataset.lang || document.documentElement.lang || navigator.language,
  );
  let strings = { ...BUILT_IN_STRINGS };
  let config = null;
  let configRequest = null;
  let panelFactory = null;
  let panelRequest = null;
  let panel = null;
  let unreadCount = 0;
  let markReady;
  const ready = new Promise((resolve) => (markReady = resolve));
  let isReady = false;
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));

  // -- events ------------------------------------------------------------------------------
  const emit = (name, detail) => {
    for (const listener of [...listeners.get(name)]) {
      try {
        listener(detail);
      } catch (error) {
        console.error("ChatWidget: an event listener failed", error);
      }
    }
  };
  const on = (name, listener) => {
    if (!listeners.has(name) || typeof listener !== "function") {
      console.warn(`ChatWidget: on("${name}") needs one of ${EVENTS.join(", ")} and a function`);
      return;
    }
    listeners.get(name).add(listener);
    if (name === "ready" && isReady) listener({ lang: language });
  };
  const off = (name, listener) => listeners.has(name) && listeners.get(name).delete(listener);

  // -- the shadow root, the launcher and the live region ------------------------------------
  const host = element("div", { id: "cw-root" });
  const root = host.attachShadow({ mode: "open" });
  adoptStyles(root, LAUNCHER_CSS);
  // one polite region for everything announced: finished answers, staff replies, status
  const announcer = element("div", { class: "visually-hidden", "aria-live": "polite" });
  const widget = element("div", { class: "widget scheme-auto" }, announcer);
  root.append(widget);
  let launcher = null;
  let launcherLabel = null;

  const announce = (text) => {
    announcer.textContent = "";
    setTimeout(() => (announcer.textContent = text), 60);
  };

  const updateLauncher = () => {
    if (!launcher) return;
    const open = isOpen();
    launcher.setAttribute("aria-expanded", open);
    launcher.classList.toggle("has-unread", unreadCount > 0);
    let label = open ? strings.close : strings.open;
    if (unreadCount > 0 && !open) label += " (" + unreadCount + " " + strings.new_message + ")";
    launcher.setAttribute("aria-label", launcherLabel && !open ? launcherLabel + ", " + label : label);
    launcher.replaceChildren(icon(open ? "close" : "chat"));
    if (launcherLabel && !open) launcher.append(element("span", {}, launcherLabel));
    widget.classList.toggle("is-open", open);
  };

  const applyTheme = (theme) => {
    if (!theme) return;
    if (/^#[0-9a-f]{6}$/i.test(theme.primary || "")) {
      widget.style.setProperty("--cw-primary", theme.primary);
    }
    widget.classList.toggle("position-left", theme.position === "left");
    widget.classList.remove("scheme-auto", "scheme-light", "scheme-dark");
    widget.classList.add("scheme-" + (/^(light|dark)$/.test(theme.scheme) ? theme.scheme : "auto"));
    launcherLabel = theme.launcher_label || null;
  };

  const showLauncher = () => {
    if (!launcher) {
      launcher = element("button", { type: "button", class: "launcher", onclick: () => toggle() });
      widget.prepend(launcher);
    }
    updateLauncher();
  };

  // -- config --------------------------------------------------------------------------------
  const loadConfig = () =>
    (configRequest ||= fetch(
      `${serverOrigin}/widget/v1/${encodeURIComponent(siteKey)}/config.json?lang=${language}`,
      { credentials: "omit" },
    )
      .then(async (response) => {
        if (response.status === 403) {
          const body = await response.json().catch(() => ({}));
          if (body.error === "origin_not_allowed") throw Object.assign(new Error(), { body });
        }
        if (!response.ok) throw new Error("config " + response.status);
        return response.json();
      })
      .then((loaded) => {
        config = loaded;
        language = loaded.lang || language;
        strings = { ...BUILT_IN_STRINGS, ...loaded.strings };
        applyTheme(loaded.theme);
        showLauncher();
        if (!isReady) {
          isReady = true;
          markReady();
          emit("ready", { lang: language });
        }
        return loaded;
      })
      .catch((error) => {
        configRequest = null;
        throw error;
      }));

  // -- the panel, loaded on demand ----------------------------------------------------------
  const shell = {
    root,
    widget,
    announce,
    emit,
    get config() {
      return config;
    },
    get strings() {
      return strings;
    },
    get language() {
      return language;
    },
    get launcher() {
      return launcher;
    },
    updateLauncher,
    setUnread(count) {
      if (count === unreadCount) return;
      unreadCount = count;
      updateLauncher();
      emit("unread", count);
    },
  };

  const loadPanel = () =>
    (panelRequest ||= loadConfig()
      .then(
        () =>
          panelFactory ||
          new Promise((resolve, reject) => {
            window.__cwPanel = (factory) => {
              delete window.__cwPanel;
              resolve((panelFactory = factory));
            };
            const tag = element("script", {
              src: new URL("panel.js?v=" + PANEL_VERSION, script.src).href,
              async: true,
              onerror: () => (tag.remove(), reject(new Error("panel.js did not load"))),
            });
            tag.nonce = script.nonce;
            document.head.append(tag);
          }),
      )
      .then((factory) => (panel ||= factory(shell)))
      .catch((error) => {
        panelRequest = null;
        throw error;
      }));

  function isOpen() {
    return !!panel && panel.isOpen();
  }
  const withPanel = (action) =>
    loadPanel().then(action, () => announce(strings.unavailable));
  const open = () => withPanel((loaded) => loaded.open());
  const close = () => panel && panel.close();
  const toggle = () => (isOpen() ? close() : open());

  const setLanguage = (value) => {
    const next = pickLanguage(value);
    if (next === language) return;
    language = next;
    configRequest = null;
    return loadConfig().then(() => {
      updateLauncher();
      if (!panel) return;
      const wasOpen = panel.isOpen();
      panel.destroy();
      panel = panelFactory(shell);
      panelRequest = Promise.resolve(panel);
      if (panel.hasSession() || wasOpen) panel.connect();
      if (wasOpen) panel.open(true);
    });
  };

  // -- the public API ------------------------------------------------------------------------
  const commands = {
    open,
    close,
    toggle,
    send: (text) => withPanel((loaded) => (loaded.open(), loaded.send(String(text)))),
    prefill: (text) => withPanel((loaded) => (loaded.open(), loaded.prefill(String(text)))),
    setLanguage,
  };
  let queueTail = ready;
  const push = (command) => {
    const [name, ...args] = Array.isArray(command) ? command : [];
    if (name === "on") return on(...args);
    if (name === "off") return off(...args);
    if (!COMMANDS.includes(name)) {
      console.warn(`ChatWidget: unknown command ${JSON.stringify(name)}; use one of ${COMMANDS}`);
      return;
    }
    // in order, once the config is there; a failing command does not stop the next one
    queueTail = queueTail.then(() => commands[name](...args)).catch((error) => {
      console.error(`ChatWidget: ${name} failed`, error);
    });
    return queueTail;
  };
  const api = { push, on, off, version: 1 };
  for (const name of COMMANDS.slice(0, 6)) api[name] = (...args) => push([name, ...args]);
  const queued = Array.isArray(window.ChatWidget) ? window.ChatWidget : [];
  window.ChatWidget = api;

  // test handle, kept for the browser tests
  window.__cwWidget = {
    get state() {
      return panel ? panel.state() : "bot";
    },
    get connected() {
      return !!panel && panel.connected();
    },
    get open() {
      return isOpen();
    },
    show: open,
    hide: close,
  };

  // -- e-mail continuation -------------------------------------------------------------------
  // The e-mail's link lands here with a one-time code in the URL fragment (never sent to a
  // server); it is removed from the address bar and exchanged by POST for the session of the
  // same conversation. An invalid or used code changes nothing.
  function continueFromLink(loaded) {
    const match = /(?:^#|&)cw-continue=([\w.:-]+)/.exec(location.hash);
    if (!match || !loaded.continue_url) return Promise.resolve(false);
    history.replaceState(null, "", location.pathname + location.search);
    return fetch(loaded.continue_url, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: match[1] }),
    })
      .then((response) => (response.ok ? response.json() : null))
      .then(
        (data) => {
          if (!data || !data.session) return false;
          const cookie = loaded.session_cookie;
          writeCookie(cookie.name, data.session, cookie.max_age);
          return true;
        },
        () => false,
      );
  }

  // -- start ---------------------------------------------------------------------------------
  document.body.append(host);
  queued.forEach(push);
  loadConfig().then(
    (loaded) =>
      continueFromLink(loaded).then((continued) => {
        // a conversation exists: connect now (the transcript comes from the server)
        if (readCookie(loaded.session_cookie.name) == null) return;
        loadPanel().then((panel) => {
          panel.connect();
          if (continued || panel.wasOpen()) panel.open(true);
        });
      }),
    (error) => {
      if (error.body) {
        host.remove();
        console.warn(
          `Chat widget: hidden, because this page's origin ${location.origin} is not allowed ` +
            `for site ${siteKey}. ${error.body.message || ""}`,
        );
      } else {
        showLauncher(); // built-in English label; a click retries the config
      }
    },
  );
}

// currentScript is set only during this first synchronous run (async scripts too)
const script =
  document.currentScript ||
  document.querySelector('script[src*="/widget/v1/loader.js"][data-site]');
if (script && script.dataset.site && !window.__cwWidget) {
  if (document.body) start(script);
  else document.addEventListener("DOMContentLoaded", () => start(script));
}
