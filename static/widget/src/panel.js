// The chat panel, loaded by the loader on the first open, or at once when a conversation
// exists; the loader passes the `shell`: shadow root, config, strings, the live region, the
// launcher and the event emitter. This file puts the panel together and owns what its parts
// share: the conversation state (bot, waiting, human, closed), the visitor's actions, and
// opening and closing. The parts: the transcript (transcript.js), the options menu (menu.js),
// the composer (composer.js), the banners (banners.js), the rating (rating.js), the focus
// trap (focus_trap.js), the browser storage (session.js), the websocket (connection.js) with
// what waits to be sent (outbox.js) and what each server frame does (frame_handlers.js).

import { PANEL_CSS } from "./styles.js";
import { adoptStyles, button, element, icon, openFlag, randomId } from "./dom.js";
import { createBanners } from "./banners.js";
import { createComposer } from "./composer.js";
import { createConnection } from "./connection.js";
import { createFocusTrap } from "./focus_trap.js";
import { createFrameHandlers } from "./frame_handlers.js";
import {
  attachedFrame, consentFrame, forgetFrame, handoverFrame, helloFrame, historyFrame, profileFrame,
} from "./frames.js";
import { createMenu } from "./menu.js";
import { createOutbox } from "./outbox.js";
import { createRating } from "./rating.js";
import { createSession } from "./session.js";
import { createTranscript } from "./transcript.js";
import { createUploader } from "./upload.js";
import { downloadTranscript } from "./transcript_download.js";
import { emailTranscript } from "./transcript_email.js";

const HANDOVER_STATES = ["waiting", "human"];
let stylesAdopted = false;

function createPanel(shell) {
  const { root, config, strings: text, announce, emit } = shell;
  if (!stylesAdopted) adoptStyles(root, PANEL_CSS), (stylesAdopted = true);

  let conversationState = "bot";
  let unread = 0;

  // -- the parts -----------------------------------------------------------------------------
  const session = createSession({
    sessionCookie: config.session_cookie,
    recognitionCookie: config.recognition_cookie,
    onChange: (hasToken) => menu.setSessionAvailable(hasToken),
  });
  const log = createTranscript({
    strings: text,
    announce,
    emit,
    greeting: config.greeting,
    disclosure: config.ai_disclosure || text.ai_disclosure,
    starters: config.starters,
    onChoose: (label) => (send(label), composer.focus()),
    requestEarlier: (beforeSeq) => {
      if (!connection.isReady()) return connection.connect(), false;
      connection.send(historyFrame({ beforeSeq }));
      return true;
    },
  });
  const menu = createMenu({
    strings: text,
    config,
    actions: {
      download: (format) =>
        downloadTranscript({
          config, token: session.token(), format, container: shell.widget, announce, strings: text,
        }),
      emailTranscript: () =>
        emailTranscript({ config, token: session.token(), announce, strings: text }),
      consent: setConsent,
      profile: () => (sendControl(profileFrame()), composer.focus()),
      forget: () => (sendControl(forgetFrame()), composer.focus()),
    },
  });
  const uploader = createUploader({
    strings: text,
    config,
    token: () => session.token(),
    lang: () => shell.language,
    page: () => shell.page(),
    log,
    announce,
    onStored: (body) => {
      if (body.session) session.acknowledged(body.session); // this upload started the conversation
      else session.markActed();
      outbox.control(attachedFrame(body.session));
      if (conversationState === "bot" && body.outcome === "answer") log.showTyping(true);
    },
  });
  const composer = createComposer({
    strings: text,
    maxLength: config.max_length,
    onSubmit: send,
    onInput: () => log.clearChoices(),
    attach: uploader,
  });
  const banners = createBanners({
    strings: text,
    announce,
    isVisible: () => !panel.hidden,
    onAskForPerson: () => {
      sendControl(handoverFrame({ reason: "" }));
      composer.focus(); // the button goes away with the bot state; the focus must not
    },
    onRestart: () => startNewConversation(),
  });
  const rating = createRating({ strings: text, announce, send: (frame) => sendControl(frame) });
  const panel = element(
    "div",
    {
      class: "panel",
      id: "cw-panel",
      role: "dialog",
      "aria-modal": "false",
      "aria-labelledby": "cw-title",
      "aria-describedby": "cw-disclosure",
      lang: config.lang,
      hidden: true,
      onkeydown: (event) => focusTrap.onKeydown(event),
    },
    element(
      "div",
      { class: "panel-header" },
      element(
        "div",
        { class: "panel-title" },
        element("h2", { id: "cw-title" }, text.title),
        // the AI disclosure (EU AI Act, Art. 50): always shown, before the first message
        element("p", { id: "cw-disclosure", class: "disclosure" }, config.ai_disclosure || text.ai_disclosure),
      ),
      menu.button,
      button(icon("close"), () => close(), { class: "icon-button", "aria-label": text.close }),
    ),
    menu.element,
    banners.status,
    banners.banner,
    banners.offer,
    log.scroller,
    banners.handoverBar,
    rating.element,
    banners.restartBar,
    composer.form,
    composer.counter,
  );
  // Escape closes the menu, then the panel
  const onEscape = (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    if (menu.isOpen()) menu.show(false), menu.button.focus();
    else close();
  };
  shell.widget.addEventListener("keydown", onEscape);
  shell.widget.append(panel);
  shell.launcher.setAttribute("aria-controls", "cw-panel");
  const focusTrap = createFocusTrap({ panel, root });
  setState("bot");

  // -- the websocket -------------------------------------------------------------------------
  const connection = createConnection({
    url: config.ws,
    hello: () =>
      helloFrame({
        session: session.stored(),
        lastSeq: log.lastCompleteSeq() || null,
        lang: shell.language,
        recognition: session.recognition(),
        identity: shell.identity,
      }),
    onFrame: (frame) => Object.hasOwn(handlers, frame.type) && handlers[frame.type](frame),
    onLost: (willRetry) => {
      log.showTyping(false);
      if (willRetry) banners.showStatus(navigator.onLine === false ? text.offline : text.reconnecting);
    },
  });
  const outbox = createOutbox(connection);
  const handlers = createFrameHandlers({
    connection,
    session,
    outbox,
    log,
    banners,
    composer,
    rating,
    menu,
    strings: text,
    announce,
    state: () => conversationState,
    setState,
    isOpen: () => !panel.hidden,
    countUnread: () => shell.setUnread(++unread),
    withdrawConsent: () => setConsent(false),
  });
  function sendControl(frame) {
    session.markActed();
    outbox.control(frame);
  }

  // -- the conversation state ----------------------------------------------------------------
  function setState(value) {
    const previous = conversationState;
    conversationState = value || "bot";
    const closed = conversationState === "closed";
    banners.showState(conversationState);
    composer.setClosed(closed);
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
    session.markActed();
    log.clearChoices();
    outbox.send(randomId(), value, log.addPending(value), shell.page());
    return true;
  }
  function startNewConversation(byPage) {
    // the closed case stays closed: forget its token here and say hello without one
    const connected = connection.isActive();
    session.reset();
    log.clear();
    outbox.clear();
    setState("bot");
    if (byPage !== true) return connection.restart(), composer.focus();
    // the shop's `logout`: a socket that was open says hello again, anonymously
    if (connected) connection.restart();
  }
  function setConsent(yes) {
    if (!yes) session.forgetRecognition(); // withdrawal: at once
    menu.setConsent(yes);
    sendControl(consentFrame({ recognition: yes }));
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
    connection.connect();
    log.scrollDown(true);
    if (restoring !== true) (composer.isDisabled() ? menu.button : composer).focus();
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
    focusTrap.destroy();
    shell.widget.removeEventListener("keydown", onEscape);
    panel.remove();
  }

  return {
    open,
    close,
    send,
    prefill: composer.prefill,
    draft: composer.draft,
    restoreDraft: composer.restore,
    connect: connection.connect,
    /** Say hello again (a new identity): only a socket that is open or opening is renewed. */
    reconnect: () => connection.isActive() && connection.restart(),
    /** `logout`: no session, no transcript; a new anonymous conversation. */
    startNew: () => startNewConversation(true),
    destroy,
    isOpen: () => !panel.hidden,
    wasOpen: () => openFlag(),
    hasSession: () => !!session.stored(),
    state: () => conversationState,
    connected: () => connection.isReady(),
  };
}

window.__cwPanel(createPanel);
