// The chat panel: composer, banners and the websocket, with the transcript (transcript.js)
// and the options menu (menu.js). Loaded by the loader on the first open, or at once when a
// conversation exists; the loader passes the `shell`: shadow root, config, strings, the live
// region, the launcher and the event emitter.

import { PANEL_CSS } from "./styles.js";
import {
  adoptStyles, button, deleteCookie, element, icon, openFlag, randomId, readCookie, writeCookie,
} from "./dom.js";
import { createConnection } from "./connection.js";
import {
  consentFrame, forgetFrame, handoverFrame, helloFrame, messageFrame, profileFrame,
} from "./frames.js";
import { createMenu } from "./menu.js";
import { offerRetry } from "./retry.js";
import { createRating } from "./rating.js";
import { createTranscript } from "./transcript.js";
import { emailTranscript } from "./transcript_email.js";

const HANDOVER_STATES = ["waiting", "human"];
const NARROW = "(max-width: 480px)";
const FOCUSABLE = "button,textarea,input,a[href],[tabindex='0']";
let stylesAdopted = false;

function createPanel(shell) {
  const { root, config, strings: text, announce, emit } = shell;
  const sessionCookie = config.session_cookie;
  const recognitionCookie = config.recognition_cookie;
  if (!stylesAdopted) adoptStyles(root, PANEL_CSS), (stylesAdopted = true);

  let token = null;
  let visitorActed = false; // the session cookie is written only after the visitor acted
  let conversationState = "bot";
  let lastStatus = "";
  let unread = 0;
  const unacked = new Map(); // client id -> {text, record} until acked
  const byClientId = new Map(); // client id -> record, for error notes
  const heldFrames = []; // control frames sent while offline, sent after the next welcome

  // -- DOM -----------------------------------------------------------------------------------
  const log = createTranscript({ strings: text, announce, emit, greeting: config.greeting });
  const menu = createMenu({
    strings: text,
    config,
    actions: {
      download,
      emailTranscript: () => emailTranscript({ config, token, announce, strings: text }),
      consent: setConsent,
      profile: () => (sendControl(profileFrame()), composer.focus()),
      forget: () => (sendControl(forgetFrame()), composer.focus()),
    },
  });
  const composer = element("textarea", {
    rows: 1,
    maxlength: config.max_length,
    "aria-label": text.message_label,
    "aria-describedby": "cw-counter",
    oninput: () => resizeComposer(),
    onkeydown: (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    },
  });
  const sendButton = element(
    "button",
    { type: "submit", class: "send-button", "aria-label": text.send },
    icon("send"),
  );
  const counter = element("div", { class: "counter", id: "cw-counter", hidden: true });
  const status = element("div", { class: "status", hidden: true });
  const banner = element("div", { class: "banner", hidden: true });
  const askForPerson = () => {
    sendControl(handoverFrame({ reason: "visitor asked for a person" }));
    composer.focus(); // the button goes away with the bot state; the focus must not
  };
  const handoverBar = element(
    "div",
    { class: "handover-bar" },
    button(text.talk_to_person, askForPerson, { class: "pill-button" }),
  );
  const rating = createRating({ strings: text, announce, send: (frame) => sendControl(frame) });
  const restartBar = element(
    "div",
    { class: "restart-bar", hidden: true },
    button(text.new_conversation || "Start a new conversation", () => startNewConversation(), {
      class: "pill-button",
    }),
  );
  const panel = element(
    "div",
    {
      class: "panel",
      id: "cw-panel",
      role: "dialog",
      "aria-modal": "false",
      "aria-labelledby": "cw-title",
      lang: config.lang,
      hidden: true,
      onkeydown: (event) => trapFocus(event),
    },
    element(
      "div",
      { class: "panel-header" },
      element("h2", { id: "cw-title" }, text.title),
      menu.button,
      button(icon("close"), () => close(), { class: "icon-button", "aria-label": text.close }),
    ),
    menu.element,
    status,
    banner,
    log.scroller,
    handoverBar,
    rating.element,
    restartBar,
    element(
      "form",
      { class: "composer", onsubmit: (event) => (event.preventDefault(), submit(), composer.focus()) },
      composer,
      sendButton,
    ),
    counter,
  );
  const onEscape = (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    if (menu.isOpen()) menu.show(false), menu.button.focus();
    else close();
  };
  shell.widget.addEventListener("keydown", onEscape);
  shell.widget.append(panel);
  shell.launcher.setAttribute("aria-controls", "cw-panel");
  // on narrow screens the panel covers the page: modal, with the focus kept inside
  const narrow = matchMedia(NARROW);
  const onNarrowChange = () => panel.setAttribute("aria-modal", narrow.matches);
  narrow.addEventListener("change", onNarrowChange);
  onNarrowChange();
  setState("bot");

  // -- session token -------------------------------------------------------------------------
  function setToken(value, persist) {
    token = value || null;
    if (token && persist) writeCookie(sessionCookie.name, token, sessionCookie.max_age);
    if (!token) deleteCookie(sessionCookie.name);
    menu.setSessionAvailable(!!token);
  }

  // -- websocket -----------------------------------------------------------------------------
  const connection = createConnection({
    url: config.ws,
    hello: () =>
      helloFrame({
        session: token || readCookie(sessionCookie.name),
        lastSeq: log.lastCompleteSeq() || null,
        lang: shell.language,
        recognition: readCookie(recognitionCookie.name),
      }),
    onFrame: (frame) => Object.hasOwn(handlers, frame.type) && handlers[frame.type](frame),
    onLost: (willRetry) => {
      log.showTyping(false);
      if (willRetry) showStatus(navigator.onLine === false ? text.offline : text.reconnecting);
    },
  });
  const sendFrame = connection.send;
  const connect = connection.connect;
  function sendControl(frame) {
    visitorActed = true;
    if (connection.isReady()) sendFrame(frame);
    else heldFrames.push(frame), connect();
  }
  function showStatus(value) {
    status.textContent = value || "";
    status.hidden = !value;
    if (value && value !== lastStatus && !panel.hidden) announce(value);
    lastStatus = value || "";
  }

  const handlers = {
    welcome(frame) {
      connection.markReady();
      showStatus();
      if (!frame.resumed) log.dropHistory();
      setToken(frame.session, visitorActed || readCookie(sessionCookie.name) != null);
      (frame.turns || []).forEach((turn) => log.putTurn(turn, false));
      setState(frame.state);
      unacked.forEach((item, id) => sendFrame(messageFrame({ id, text: item.text })));
      heldFrames.splice(0).forEach(sendFrame);
    },
    ack(frame) {
      visitorActed = true;
      showStatus();
      setToken(frame.session, true); // the first interaction creates the cookie
      const item = unacked.get(frame.id);
      if (!item) return;
      unacked.delete(frame.id);
      log.acknowledge(item.record, frame.seq, frame.text);
      if (conversationState === "bot" && frame.seq >= log.lastCompleteSeq()) log.showTyping(true);
    },
    delta(frame) {
      log.showTyping(false);
      log.appendDelta(frame.seq, frame.text);
    },
    message(frame) {
      if (frame.role !== "visitor") {
        log.showTyping(false);
        if (panel.hidden && !log.isComplete(frame.seq)) shell.setUnread(++unread);
      }
      log.putTurn(frame, true);
    },
    state(frame) {
      if (frame.state === "closed" && conversationState !== "closed") rating.ask(); // resolved
      setState(frame.state);
    },
    rating: (frame) => rating.show(frame),
    forgotten() {
      connection.stop();
      visitorActed = false;
      setToken(null);
      log.clear();
      unacked.clear();
      setState("bot");
      log.addNote(log.list, text.forgotten);
      announce(text.forgotten);
      menu.showConfirm(false);
    },
    error(frame) {
      log.showTyping(false);
      const message = frame.message || text["err_" + frame.code] || text.err_generic;
      const item = unacked.get(frame.id);
      const record = byClientId.get(frame.id);
      if (item && frame.code === "unavailable") {
        // briefly down: keep the message and send it again with the same id
        const resend = () =>
          unacked.has(frame.id) && connection.isReady() &&
          sendFrame(messageFrame({ id: frame.id, text: item.text }));
        setTimeout(resend, 2000 + Math.random() * 3000);
        return showStatus(message);
      }
      if (item) {
        unacked.delete(frame.id);
        log.fail(item.record);
        if (!composer.value) composer.value = item.text;
      }
      if (record) log.addNote(record.row, message, "error");
      else log.append(element("p", { class: "note error" }, message));
      if (record && !item && frame.code === "model_unavailable")
        offerRetry({ record, id: frame.id, label: text.retry, connection, connect, log });
      announce(message);
    },
    consent(frame) {
      if (frame.recognition && frame.token) {
        writeCookie(recognitionCookie.name, frame.token, frame.max_age || recognitionCookie.max_age);
      }
      if (!frame.recognition) deleteCookie(recognitionCookie.name);
      menu.setConsent(!!frame.recognition);
    },
    profile(frame) {
      log.showProfile(frame.fields || {}, () => setConsent(false));
    },
  };

  function setState(value) {
    const previous = conversationState;
    conversationState = value || "bot";
    const closed = conversationState === "closed";
    banner.className = "banner " + conversationState;
    banner.textContent = text[conversationState] || "";
    banner.hidden = conversationState === "bot";
    handoverBar.hidden = conversationState !== "bot";
    restartBar.hidden = !closed;
    composer.disabled = sendButton.disabled = closed;
    composer.placeholder = closed ? text.closed : text.placeholder;
    if (conversationState !== "bot") log.showTyping(false);
    if (!closed) rating.hide();
    if (previous !== conversationState) {
      emit("state", conversationState);
      if (HANDOVER_STATES.includes(conversationState)) emit("handover", conversationState);
    }
  }

  // -- visitor actions -----------------------------------------------------------------------
  function send(messageText) {
    const value = messageText.trim().slice(0, config.max_length);
    if (!value || conversationState === "closed") return false;
    const id = randomId();
    const record = log.addPending(value);
    unacked.set(id, { text: value, record });
    byClientId.set(id, record);
    visitorActed = true;
    if (connection.isReady()) sendFrame(messageFrame({ id, text: value }));
    else connect();
    return true;
  }
  function submit() {
    if (send(composer.value)) composer.value = "", resizeComposer();
  }
  function prefill(value) {
    composer.value = value.slice(0, config.max_length);
    resizeComposer();
    composer.focus();
  }
  function startNewConversation() {
    // the closed case stays closed: forget its token here and say hello without one
    visitorActed = false;
    setToken(null);
    log.clear();
    unacked.clear();
    setState("bot");
    connection.restart();
    composer.focus();
  }
  function setConsent(yes) {
    if (!yes) deleteCookie(recognitionCookie.name); // withdrawal: at once
    menu.setConsent(yes);
    sendControl(consentFrame({ recognition: yes }));
  }
  async function download(format) {
    try {
      const response = await fetch(config.export_url, {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ session: token, format }),
      });
      if (!response.ok) throw new Error("export " + response.status);
      const url = URL.createObjectURL(await response.blob());
      const name = "chat-" + new Date().toISOString().slice(0, 10) + "." + format;
      const anchor = element("a", { href: url, download: name });
      shell.widget.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (error) {
      announce(text.err_generic);
    }
  }
  function resizeComposer() {
    composer.style.height = "";
    composer.style.height = Math.min(composer.scrollHeight + 2, 128) + "px";
    const length = composer.value.length;
    counter.hidden = length < config.max_length * 0.9;
    counter.textContent = length + " / " + config.max_length;
  }
  function trapFocus(event) {
    if (event.key !== "Tab" || !narrow.matches) return;
    const focusable = [...panel.querySelectorAll(FOCUSABLE)].filter(
      (item) => !item.disabled && item.getClientRects().length,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = root.activeElement;
    if (event.shiftKey ? active === first || !panel.contains(active) : active === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  }

  // -- open and close ------------------------------------------------------------------------
  function setOpen(on) {
    panel.hidden = !on;
    openFlag(on);
    if (on) unread = 0;
    shell.setUnread(unread);
    shell.updateLauncher();
    emit(on ? "open" : "close", {});
  }
  function open(restoring) {
    if (!panel.hidden) return;
    setOpen(true);
    connect();
    log.scrollDown(true);
    if (restoring !== true) (composer.disabled ? menu.button : composer).focus();
  }
  function close() {
    if (panel.hidden) return;
    const hadFocus = root.activeElement != null;
    setOpen(false);
    menu.show(false);
    if (hadFocus) shell.launcher.focus();
  }
  function destroy() {
    connection.destroy();
    narrow.removeEventListener("change", onNarrowChange);
    shell.widget.removeEventListener("keydown", onEscape);
    panel.remove();
  }

  return {
    open,
    close,
    send,
    prefill,
    connect,
    destroy,
    isOpen: () => !panel.hidden,
    wasOpen: () => openFlag(),
    hasSession: () => !!(token || readCookie(sessionCookie.name)),
    state: () => conversationState,
    connected: () => connection.isReady(),
  };
}

window.__cwPanel(createPanel);
