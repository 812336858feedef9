// The chat panel: transcript, composer, menu and the websocket. Loaded by the loader on the
// first open (or at once when a conversation exists), which passes it the `shell`: the
// shadow root, the config, the strings, the live region and the event emitter.

import { PANEL_CSS } from "./styles.js";
import { adoptStyles, button, deleteCookie, element, icon, readCookie, writeCookie } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

const ROLES = ["visitor", "assistant", "staff"];
const HANDOVER_STATES = ["waiting", "human"];
const NARROW = "(max-width: 480px)";
const FOCUSABLE = "button,textarea,input,a[href],[tabindex='0']";
let stylesAdopted = false;

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// sessionStorage holds only whether the panel is open, to reopen it after a page change
function openFlag(value) {
  try {
    if (value === undefined) return sessionStorage.cw_open === "1";
    if (value) sessionStorage.cw_open = "1";
    else sessionStorage.removeItem("cw_open");
  } catch (error) {
    return false;
  }
}

function createPanel(shell) {
  const { root, config, strings: text, announce, emit } = shell;
  const sessionCookie = config.session_cookie;
  const recognitionCookie = config.recognition_cookie;
  if (!stylesAdopted) adoptStyles(root, PANEL_CSS), (stylesAdopted = true);

  // -- state ---------------------------------------------------------------------------------
  let socket = null;
  let socketReady = false;
  let reconnectTries = 0;
  let reconnectTimer = 0;
  let stopped = false; // no reconnect (forgotten, destroyed)
  let token = null;
  let visitorActed = false; // the session cookie is written only after the visitor did something
  let conversationState = "bot";
  let stickToBottom = true;
  let lastStatus = "";
  let unread = 0;
  const turns = new Map(); // seq -> turn record; dedupes tabs and reconnects
  const rowRecords = new WeakMap(); // row element -> turn record (for ordering)
  const unacked = new Map(); // client id -> {text, record} until acked
  const byClientId = new Map(); // client id -> record, for error notes
  let heldFrames = []; // control frames sent while offline, sent after the next welcome

  // -- DOM -----------------------------------------------------------------------------------
  const transcript = element("div", { class: "transcript" });
  const scroller = element(
    "div",
    {
      class: "scroller",
      role: "region",
      tabindex: "0",
      "aria-label": text.transcript || "Conversation",
      onscroll: () => {
        stickToBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
      },
    },
    transcript,
  );
  const typingIndicator = element(
    "div",
    { class: "typing" },
    element("i"),
    element("i"),
    element("i"),
    element("span", { class: "visually-hidden" }, text.typing),
  );
  const typingRecord = { row: typingIndicator, pending: true };
  rowRecords.set(typingIndicator, typingRecord);

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
  const sendButton = element("button", { type: "submit", class: "send-button", "aria-label": text.send }, icon("send"));
  const counter = element("div", { class: "counter", id: "cw-counter", hidden: true });
  const status = element("div", { class: "status", hidden: true });
  const banner = element("div", { class: "banner", hidden: true });
  const handoverBar = element(
    "div",
    { class: "handover-bar" },
    button(text.talk_to_person, () => sendControl({ type: "handover", reason: "visitor asked for a person" }), { class: "pill-button" }),
  );
  const restartBar = element(
    "div",
    { class: "restart-bar", hidden: true },
    button(text.new_conversation || "Start a new conversation", () => startNewConversation(), { class: "pill-button" }),
  );

  // menu: export, recognition consent, profile, erasure
  const menuButton = button(icon("more"), () => showMenu(menu.hidden), {
    class: "icon-button",
    "aria-label": text.menu,
    "aria-expanded": "false",
    "aria-controls": "cw-menu",
  });
  const sessionButtons = [
    button(text.download_json, () => download("json")),
    button(text.download_text, () => download("txt")),
  ];
  const forgetButton = button(text.forget, () => showConfirm(true));
  sessionButtons.push(forgetButton);
  const consentBox = element("input", {
    type: "checkbox",
    "aria-describedby": "cw-recognition-note",
    onchange: () => setConsent(consentBox.checked),
  });
  consentBox.checked = readCookie(recognitionCookie.name) != null;
  const privacyUrl = /^https?:/i.test(config.privacy_url) ? config.privacy_url : null;
  const confirmBox = element(
    "div",
    { class: "confirm", hidden: true },
    element("p", {}, text.forget_confirm),
    button(text.forget_yes, () => {
      showMenu(false);
      sendControl({ type: "forget" });
      composer.focus();
    }, { class: "pill-button danger" }),
    button(text.cancel, () => {
      showConfirm(false);
      forgetButton.focus();
    }, { class: "pill-button" }),
  );
  const menu = element(
    "div",
    { class: "menu", id: "cw-menu", hidden: true },
    sessionButtons[0],
    sessionButtons[1],
    button(text.what_we_know, () => {
      showMenu(false);
      sendControl({ type: "profile" });
      composer.focus();
    }),
    element("label", {}, consentBox, String(text.remember_me).replace("%(months)s", recognitionCookie.months)),
    element(
      "p",
      { class: "menu-note", id: "cw-recognition-note" },
      text.remember_explain,
      " ",
      privacyUrl && element("a", { href: privacyUrl, target: "_blank", rel: "noopener" }, text.privacy),
    ),
    forgetButton,
    confirmBox,
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
      menuButton,
      button(icon("close"), () => close(), { class: "icon-button", "aria-label": text.close }),
    ),
    menu,
    status,
    banner,
    scroller,
    handoverBar,
    restartBar,
    element("form", { class: "composer", onsubmit: (event) => (event.preventDefault(), submit(), composer.focus()) }, composer, sendButton),
    counter,
  );
  let greeting = null;
  if (config.greeting) {
    greeting = turnRow("assistant");
    greeting.bubble.textContent = config.greeting;
    transcript.append(greeting.row);
  }
  const onWidgetKeydown = (event) => {
    if (event.key !== "Escape" || panel.hidden) return;
    if (!menu.hidden) {
      showMenu(false);
      menuButton.focus();
    } else close();
  };
  shell.widget.addEventListener("keydown", onWidgetKeydown);
  shell.widget.append(panel);
  shell.launcher.setAttribute("aria-controls", "cw-panel");
  const narrow = matchMedia(NARROW);
  const onNarrowChange = () => panel.setAttribute("aria-modal", narrow.matches);
  narrow.addEventListener("change", onNarrowChange);
  onNarrowChange();
  sessionButtons.forEach((item) => (item.disabled = true));
  setState("bot");

  // -- the transcript ------------------------------------------------------------------------
  function turnRow(role) {
    role = ROLES.includes(role) ? role : "system";
    const bubble = element("div", { class: "bubble" });
    const row = element("div", { class: "message " + role });
    const author = { visitor: text.you, assistant: text.assistant, staff: text.staff }[role];
    if (role === "staff") row.append(element("span", { class: "author" }, author));
    else if (author) row.append(element("span", { class: "visually-hidden" }, author + ": "));
    row.append(bubble);
    const record = { role, row, bubble, seq: null, pending: false, complete: true, text: "" };
    rowRecords.set(row, record);
    return record;
  }
  // numbered turns in seq order; pending messages and the typing dots stay below them
  function place(record) {
    for (const child of transcript.children) {
      const other = rowRecords.get(child);
      if (child !== record.row && other && other !== greeting && (other.pending || other.seq > record.seq)) {
        return transcript.insertBefore(record.row, child);
      }
    }
    transcript.append(record.row);
  }
  const scrollDown = (force) => {
    if (force) stickToBottom = true;
    if (stickToBottom) scroller.scrollTop = 1e9;
  };
  const addNote = (parent, noteText, extraClass) =>
    parent.append(element("p", { class: "note " + (extraClass || "") }, noteText));
  const addRemovedHint = (record) => {
    if (!record.hinted) addNote(record.row, text.removed_hint), (record.hinted = true);
  };
  function showText(record, value) {
    record.text = value;
    if (record.role === "assistant") {
      record.bubble.classList.add("rich");
      record.bubble.replaceChildren(renderMarkdown(value));
    } else record.bubble.textContent = value;
  }
  // a complete turn: replaces streamed or optimistic text; `live` means new, not history
  function putTurn(turn, live) {
    let record = turns.get(turn.seq);
    const isNew = !record || !record.complete;
    if (!record) {
      record = turnRow(turn.role);
      record.seq = turn.seq;
      turns.set(turn.seq, record);
      place(record);
    }
    if (record.sentText != null && turn.text !== record.sentText) addRemovedHint(record);
    showText(record, turn.text);
    record.row.removeAttribute("aria-busy");
    record.complete = true;
    scrollDown();
    if (live && isNew) {
      emit("message", { role: record.role, text: turn.text, seq: turn.seq });
      if (record.role !== "visitor") {
        announce((record.role === "staff" ? text.staff : text.assistant) + ": " + turn.text);
      }
    }
    return record;
  }
  function showTyping(on) {
    if (!on) return typingIndicator.remove();
    place(typingRecord);
    scrollDown();
  }
  const clearTranscript = () => {
    for (const child of [...transcript.children]) if (!greeting || child !== greeting.row) child.remove();
    turns.clear();
    unacked.clear();
    byClientId.clear();
  };
  // resume after the last complete turn: an answer seen only as deltas comes back whole
  const lastCompleteSeq = () => {
    let highest = 0;
    turns.forEach((record, seq) => record.complete && seq > highest && (highest = seq));
    return highest;
  };

  // -- session token and cookies -------------------------------------------------------------
  function setToken(value, persist) {
    token = value || null;
    if (token && persist) writeCookie(sessionCookie.name, token, sessionCookie.max_age);
    if (!token) deleteCookie(sessionCookie.name);
    sessionButtons.forEach((item) => (item.disabled = !token));
  }

  // -- websocket -----------------------------------------------------------------------------
  const sendFrame = (frame) => socket.send(JSON.stringify(frame));
  function sendControl(frame) {
    visitorActed = true;
    if (socketReady) sendFrame(frame);
    else heldFrames.push(frame), connect();
  }
  function showStatus(value) {
    status.textContent = value || "";
    status.hidden = !value;
    if (value && value !== lastStatus && !panel.hidden) announce(value);
    lastStatus = value || "";
  }
  function scheduleReconnect() {
    showStatus(navigator.onLine === false ? text.offline : text.reconnecting);
    const delay = Math.random() * Math.min(15000, 500 * 2 ** reconnectTries++);
    reconnectTimer = setTimeout(openSocket, delay);
  }
  function connect() {
    if (!socket && !stopped) openSocket();
  }
  function openSocket() {
    clearTimeout(reconnectTimer);
    reconnectTimer = 0;
    stopped = false;
    let current;
    try {
      current = new WebSocket(config.ws);
    } catch (error) {
      return scheduleReconnect();
    }
    socket = current;
    socketReady = false;
    current.onopen = () =>
      sendFrame({
        type: "hello",
        session: token || readCookie(sessionCookie.name),
        last_seq: lastCompleteSeq() || null,
        lang: shell.language,
        recognition: readCookie(recognitionCookie.name),
      });
    current.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (frame && Object.hasOwn(handlers, frame.type)) handlers[frame.type](frame);
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      socketReady = false;
      showTyping(false);
      if (!stopped) scheduleReconnect();
    };
  }
  const onOnline = () => reconnectTimer && openSocket();
  addEventListener("online", onOnline);

  const handlers = {
    welcome(frame) {
      socketReady = true;
      reconnectTries = 0;
      showStatus();
      if (!frame.resumed && turns.size) {
        for (const record of turns.values()) record.row.remove();
        turns.clear();
      }
      setToken(frame.session, visitorActed || readCookie(sessionCookie.name) != null);
      (frame.turns || []).forEach((turn) => putTurn(turn, false));
      setState(frame.state);
      unacked.forEach((item, id) => sendFrame({ type: "message", id, text: item.text }));
      heldFrames.splice(0).forEach(sendFrame);
    },
    ack(frame) {
      visitorActed = true;
      showStatus();
      setToken(frame.session, true); // the first interaction creates the cookie
      const item = unacked.get(frame.id);
      if (!item) return;
      unacked.delete(frame.id);
      const record = item.record;
      const duplicate = turns.get(frame.seq);
      record.pending = false;
      record.row.classList.remove("pending");
      if (duplicate) {
        record.row.remove();
        if (duplicate.text !== item.text) addRemovedHint(duplicate);
      } else {
        record.seq = frame.seq;
        turns.set(frame.seq, record);
        place(record);
        record.complete = false;
        putTurn({ seq: frame.seq, role: "visitor", text: frame.text ?? item.text }, true);
      }
      if (conversationState === "bot" && frame.seq >= lastCompleteSeq()) showTyping(true);
    },
    delta(frame) {
      showTyping(false);
      let record = turns.get(frame.seq);
      if (record && record.complete) return;
      if (!record) {
        record = putTurn({ seq: frame.seq, role: "assistant", text: "" }, false);
        record.complete = false;
        record.row.setAttribute("aria-busy", "true");
      }
      showText(record, record.text + frame.text);
      scrollDown();
    },
    message(frame) {
      if (frame.role !== "visitor") {
        showTyping(false);
        const known = turns.get(frame.seq);
        if (panel.hidden && !(known && known.complete)) shell.setUnread(++unread);
      }
      putTurn(frame, true);
    },
    state(frame) {
      setState(frame.state);
    },
    forgotten() {
      stopped = true;
      visitorActed = false;
      setToken(null);
      clearTranscript();
      setState("bot");
      addNote(transcript, text.forgotten);
      announce(text.forgotten);
      showConfirm(false);
    },
    error(frame) {
      showTyping(false);
      const message = frame.message || text["err_" + frame.code] || text.err_generic;
      const item = unacked.get(frame.id);
      const record = byClientId.get(frame.id);
      if (item && frame.code === "unavailable") {
        // briefly down: keep the message and send it again with the same id
        setTimeout(
          () => unacked.has(frame.id) && socketReady && sendFrame({ type: "message", id: frame.id, text: item.text }),
          2000 + Math.random() * 3000,
        );
        return showStatus(message);
      }
      if (item) {
        unacked.delete(frame.id);
        item.record.row.classList.replace("pending", "failed");
        item.record.pending = false;
        if (!composer.value) composer.value = item.text;
      }
      if (record) addNote(record.row, message, "error");
      else transcript.append(element("p", { class: "note error" }, message)), scrollDown();
      announce(message);
    },
    consent(frame) {
      if (frame.recognition && frame.token) {
        writeCookie(recognitionCookie.name, frame.token, frame.max_age || recognitionCookie.max_age);
      }
      if (!frame.recognition) deleteCookie(recognitionCookie.name);
      consentBox.checked = !!frame.recognition;
    },
    profile(frame) {
      const keys = Object.keys(frame.fields || {});
      const card = element("div", { class: "profile-card" }, element("h3", {}, text.profile_title));
      if (!keys.length) card.append(element("p", { class: "note" }, text.nothing_stored));
      else {
        const list = element("dl");
        for (const key of keys) {
          const value = frame.fields[key];
          const shown = Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value);
          list.append(element("dt", {}, key), element("dd", {}, shown));
        }
        card.append(list, button(text.forget_me, () => setConsent(false), { class: "pill-button" }));
      }
      transcript.append(card);
      scrollDown();
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
    if (conversationState !== "bot") showTyping(false);
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
    const record = turnRow("visitor");
    record.pending = true;
    record.complete = false;
    record.sentText = value;
    record.bubble.textContent = value;
    record.text = value;
    record.row.classList.add("pending");
    transcript.append(record.row);
    scrollDown(true);
    unacked.set(id, { text: value, record });
    byClientId.set(id, record);
    visitorActed = true;
    if (socketReady) sendFrame({ type: "message", id, text: value });
    else connect();
    return true;
  }
  function submit() {
    if (send(composer.value)) {
      composer.value = "";
      resizeComposer();
    }
  }
  function prefill(value) {
    composer.value = value.slice(0, config.max_length);
    resizeComposer();
    composer.focus();
  }
  function startNewConversation() {
    // a closed case stays closed: forget its token here and say hello without a session
    const old = socket;
    socket = null;
    socketReady = false;
    if (old) old.close();
    visitorActed = false;
    setToken(null);
    clearTranscript();
    setState("bot");
    openSocket();
    composer.focus();
  }
  function setConsent(yes) {
    if (!yes) deleteCookie(recognitionCookie.name); // withdrawal: at once
    consentBox.checked = yes;
    sendControl({ type: "consent", recognition: yes });
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
  function showMenu(on) {
    menu.hidden = !on;
    menuButton.setAttribute("aria-expanded", on);
    if (!on) showConfirm(false);
  }
  function showConfirm(on) {
    confirmBox.hidden = !on;
    forgetButton.hidden = on;
    if (on) confirmBox.lastChild.focus();
  }
  // on narrow screens the panel covers the page and is modal: Tab stays inside it
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
    scrollDown(true);
    if (restoring !== true) (composer.disabled ? menuButton : composer).focus();
  }
  function close() {
    if (panel.hidden) return;
    const hadFocus = root.activeElement != null;
    setOpen(false);
    showMenu(false);
    if (hadFocus) shell.launcher.focus();
  }
  function destroy() {
    stopped = true;
    clearTimeout(reconnectTimer);
    if (socket) socket.onclose = null, socket.close();
    socket = null;
    removeEventListener("online", onOnline);
    narrow.removeEventListener("change", onNarrowChange);
    shell.widget.removeEventListener("keydown", onWidgetKeydown);
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
    connected: () => socketReady,
  };
}

window.__cwPanel(createPanel);
