// The loader: the script tag's src. First paint only: the public API (window.ChatWidget:
// commands.js, events.js), the site's config (config.js) and theme (theme.js), the launcher
// (launcher.js) and a live region in a shadow root (host.js). The panel (transcript,
// websocket, Markdown) is a second file, loaded (panel_script.js) when the visitor opens the
// chat or when a conversation already exists. This file starts the widget and ties the parts
// together. Contract: static/widget/README.md.

import { deleteCookie, readCookie } from "./dom.js";
import { createCommandQueue, publicApi } from "./commands.js";
import { createConfigLoader, pageLanguages, pickLanguage, queuedLanguage } from "./config.js";
import { continueFromLink } from "./continuation.js";
import { createEvents } from "./events.js";
import { createHost } from "./host.js";
import { identityFrom, sameIdentity } from "./identity.js";
import { createLauncher } from "./launcher.js";
import { createPageContext } from "./page.js";
import { loadPanelScript } from "./panel_script.js";
import { applyTheme } from "./theme.js";

const BUILT_IN_STRINGS = {
  open: "Open chat",
  close: "Close chat",
  new_message: "new message",
  unavailable: "The chat is not available right now.",
};

function start(script) {
  const siteKey = script.dataset.site;
  // a setLanguage queued before the loader ran wins from the start (no second config load)
  const queued = Array.isArray(window.ChatWidget) ? window.ChatWidget : [];
  let language = pickLanguage(queuedLanguage(queued), pageLanguages(script));
  let strings = { ...BUILT_IN_STRINGS };
  let config = null;
  let panelFactory = null;
  let panelRequest = null;
  let panel = null;
  let unreadCount = 0;
  let identity = null; // the signed-in customer (identify): in memory only, never stored

  // -- the page's part: events, the shadow root, the launcher -------------------------------
  const events = createEvents();
  const { emit, on, off } = events;
  const { host, root, widget, announce } = createHost();
  const launcher = createLauncher({ widget, onClick: () => toggle() });
  const launcherState = () => ({ open: isOpen(), unread: unreadCount, strings });
  const updateLauncher = () => launcher.update(launcherState());
  const pageContext = createPageContext(window); // sent with each message (setPage)

  // -- the site's config ---------------------------------------------------------------------
  const configLoader = createConfigLoader({
    serverOrigin: new URL(script.src, location.href).origin,
    siteKey,
    language: () => language,
    onLoaded(loaded) {
      config = loaded;
      language = loaded.lang || language;
      widget.lang = language; // read out in the widget's language, whatever the page's is
      strings = { ...BUILT_IN_STRINGS, ...loaded.strings };
      if (loaded.theme) applyTheme(widget, loaded.theme), launcher.setLabel(loaded.theme.launcher_label);
      launcher.show(launcherState());
      if (!events.isReady()) {
        queue.release(); // the queued commands run from here on
        events.markReady(() => ({ lang: language }));
      }
    },
  });
  const loadConfig = configLoader.load;

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
    get identity() {
      return identity;
    },
    get launcher() {
      return launcher.element;
    },
    updateLauncher,
    page: () => pageContext.current(),
    setUnread(count) {
      if (count === unreadCount) return;
      unreadCount = count;
      updateLauncher();
      emit("unread", count);
    },
  };

  const loadPanel = () =>
    (panelRequest ||= loadConfig()
      .then(() => panelFactory || loadPanelScript(script).then((factory) => (panelFactory = factory)))
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

  // a new language: new strings, and the panel built again (the transcript comes back)
  const setLanguage = (value) => {
    // a language the widget does not speak: the page's or the browser's, as at the start
    const next = pickLanguage(value, pageLanguages(script));
    if (next === language) return;
    language = next;
    configLoader.reset();
    return loadConfig().then(() => {
      updateLauncher();
      if (!panel) return;
      const wasOpen = panel.isOpen();
      const draft = panel.draft ? panel.draft() : "";
      panel.destroy();
      panel = panelFactory(shell);
      panelRequest = Promise.resolve(panel);
      if (draft) panel.restoreDraft(draft); // a prefilled or typed message survives
      if (panel.hasSession() || wasOpen) panel.connect();
      if (wasOpen) panel.open(true);
    });
  };

  // the customer the shop signed in: every hello carries it; a change reconnects at once
  const identify = (value) => {
    const next = identityFrom(value);
    if (!next) console.warn("ChatWidget: identify needs {id, email, name, signature}");
    if (sameIdentity(next, identity)) return;
    identity = next;
    if (panel) panel.reconnect();
  };
  // forget the identity on this device and start a new anonymous conversation; the old one
  // stays the customer's on the server
  const logout = () => {
    identity = null;
    if (panel) return panel.startNew();
    if (config) deleteCookie(config.session_cookie.name);
  };

  // -- the public API ------------------------------------------------------------------------
  const queue = createCommandQueue({
    commands: {
      open,
      close,
      toggle,
      send: (text) => withPanel((loaded) => (loaded.open(), loaded.send(String(text)))),
      prefill: (text) => withPanel((loaded) => (loaded.open(), loaded.prefill(String(text)))),
      setLanguage,
      setPage: (value) => pageContext.set(value),
      identify,
      logout,
    },
    on,
    off,
  });
  window.ChatWidget = publicApi({ push: queue.push, on, off });

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

  // -- start ---------------------------------------------------------------------------------
  document.body.append(host);
  queued.forEach((command) => queue.push(command));
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
        launcher.show(launcherState()); // built-in English label; a click retries the config
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
