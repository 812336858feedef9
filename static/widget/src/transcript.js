// The transcript: numbered turns in seq order (deduplicated across tabs and reconnects),
// the visitor's pending messages and the typing dots below them. Finished answers and staff
// replies are announced once through the shell's live region; the transcript itself is not
// a live region, so streamed chunks are never read out one by one.

import { element } from "./dom.js";
import { createEarlier } from "./earlier.js";
import { renderMarkdown } from "./markdown.js";
import { renderCards, renderChoices } from "./rich.js";

const ROLES = ["visitor", "assistant", "staff"];

// `requestEarlier(beforeSeq)`: sends `history` for the page below `beforeSeq`; false when
// it could not (not connected). `onChoose(label)`: a quick reply was clicked (send it).
export function createTranscript({
  strings: text,
  announce,
  emit,
  greeting,
  disclosure,
  starters,
  requestEarlier,
  onChoose,
}) {
  const turns = new Map(); // seq -> record
  let choices = null; // the newest answer's quick replies while unused: {seq, node}
  const records = new WeakMap(); // row element -> record, for ordering
  let stickToBottom = true;
  const list = element("div", { class: "transcript" });
  const earlier = createEarlier({
    strings: text,
    announce,
    request: () => !!requestEarlier && requestEarlier(firstSeq()),
  });
  const scroller = element(
    "div",
    {
      class: "scroller",
      role: "region",
      tabindex: "0", // keyboard users can scroll it
      "aria-label": text.transcript || "Conversation",
      onscroll: () => {
        stickToBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 60;
      },
    },
    earlier.element,
    list,
  );
  const typing = element(
    "div",
    { class: "typing" },
    element("i"),
    element("i"),
    element("i"),
    element("span", { class: "visually-hidden" }, text.typing),
  );
  const typingRecord = { row: typing, pending: true };
  records.set(typing, typingRecord);

  function turnRow(role) {
    role = ROLES.includes(role) ? role : "system";
    const bubble = element("div", { class: "bubble" });
    const row = element("div", { class: "message " + role });
    const author = { visitor: text.you, assistant: text.assistant, staff: text.staff }[role];
    if (role === "staff") row.append(element("span", { class: "author" }, author));
    else if (author) row.append(element("span", { class: "visually-hidden" }, author + ": "));
    row.append(bubble);
    const record = { role, row, bubble, seq: null, pending: false, complete: true, text: "" };
    records.set(row, record);
    return record;
  }
  let greetingRecord = null;
  if (greeting || disclosure) {
    greetingRecord = turnRow("assistant");
    greetingRecord.bubble.textContent = [greeting, disclosure].filter(Boolean).join("\n\n");
    list.append(greetingRecord.row);
  }
  // the owner's suggested first questions: under the greeting until the conversation starts
  function showStarters() {
    if (greetingRecord && Array.isArray(starters) && !turns.size) {
      greetingRecord.choicesShown = false;
      showChoices(greetingRecord, starters);
    }
  }
  showStarters();

  // numbered turns in seq order; pending messages and the typing dots stay below them
  function place(record) {
    for (const child of list.children) {
      const other = records.get(child);
      if (child === record.row || !other || other === greetingRecord) continue;
      if (other.pending || other.seq > record.seq) return list.insertBefore(record.row, child);
    }
    list.append(record.row);
  }
  function scrollDown(force) {
    if (force) stickToBottom = true;
    if (stickToBottom) scroller.scrollTop = 1e9;
  }
  // an answer taller than the view is read from its start: its top stays in view while it
  // grows, instead of the view following its end (the visitor scrolls on)
  function follow(record) {
    if (!stickToBottom || record.role === "visitor" || !record.row.getBoundingClientRect)
      return scrollDown();
    const row = record.row.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    if (row.height <= view.height - 16) return scrollDown();
    scroller.scrollTop += row.top - view.top - 8;
  }
  function append(node) {
    list.append(node);
    scrollDown();
  }
  const addNote = (parent, noteText, extraClass) =>
    parent.append(element("p", { class: "note " + (extraClass || "") }, noteText));
  function addRemovedHint(record) {
    if (!record.hinted) addNote(record.row, text.removed_hint), (record.hinted = true);
  }
  function showText(record, value) {
    record.text = value;
    // the assistant's and staff's answers in the safe Markdown subset; the visitor's as typed
    if (record.role === "assistant" || record.role === "staff") {
      record.bubble.classList.add("rich");
      record.bubble.replaceChildren(renderMarkdown(value));
    } else record.bubble.textContent = value;
  }
  // a complete turn replaces streamed or optimistic text; `live`: new, not history
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
    if (choices && turn.seq > choices.seq) clearChoices(); // the conversation moved on
    showCards(record, turn.cards);
    showChoices(record, turn.choices);
    showAttachments(record, turn.attachments);
    record.row.removeAttribute("aria-busy");
    record.complete = true;
    follow(record);
    if (live && isNew) {
      emit("message", { role: record.role, text: turn.text, seq: turn.seq });
      if (record.role !== "visitor") {
        announce((record.role === "staff" ? text.staff : text.assistant) + ": " + turn.text);
      }
    }
    return record;
  }
  // an answer's product cards, once (the `cards` frame and the stored turn carry the same)
  function showCards(record, cards) {
    if (record.cards || !Array.isArray(cards) || !cards.length) return;
    record.cards = renderCards(cards, {
      strings: text,
      onAdd: (detail) => emit("cart_add", detail),
    });
    if (record.cards) record.row.append(record.cards), follow(record);
  }
  // a visitor's photos and files (issue 33): their names (the upload's own preview shows
  // the picture on the page that sent it; the bytes never come back to the widget)
  function showAttachments(record, attachments) {
    if (record.attachmentsShown || !Array.isArray(attachments) || !attachments.length) return;
    record.attachmentsShown = true;
    if (record.row.querySelector(".attachment-image,.attachment-file")) return;
    for (const item of attachments) {
      record.row.append(element("span", { class: "attachment-file" }, text.attachment + ": " + item.name));
    }
  }
  function putCards(seq, cards) {
    const record = turns.get(seq);
    if (record) showCards(record, cards);
  }
  // quick replies: only under the newest turn, once; gone when used or the visitor types
  function showChoices(record, labels) {
    if (record.choicesShown || !Array.isArray(labels) || !labels.length) return;
    for (const seq of turns.keys()) if (seq > record.seq) return; // an older answer's
    record.choicesShown = true;
    clearChoices();
    const node = renderChoices(labels, {
      strings: text,
      onChoose: (label) => (clearChoices(), onChoose && onChoose(label)),
    });
    if (node) record.row.append(node), (choices = { seq: record.seq || 0, node }), follow(record);
  }
  function clearChoices() {
    if (choices) choices.node.remove(), (choices = null);
  }
  // streamed text of an answer: shown as it comes, announced only when complete
  function appendDelta(seq, delta) {
    let record = turns.get(seq);
    if (record && record.complete) return;
    if (!record) {
      record = putTurn({ seq, role: "assistant", text: "" }, false);
      record.complete = false;
      record.row.setAttribute("aria-busy", "true");
    }
    showText(record, record.text + delta);
    follow(record);
  }
  // the visitor's message, shown at once and numbered when the server acknowledges it
  function addPending(value) {
    const record = turnRow("visitor");
    Object.assign(record, { pending: true, complete: false, sentText: value, text: value });
    record.bubble.textContent = value;
    record.row.classList.add("pending");
    list.append(record.row);
    scrollDown(true);
    return record;
  }
  function acknowledge(record, seq, storedText) {
    record.pending = false;
    record.row.classList.remove("pending");
    const duplicate = turns.get(seq); // another tab's echo came first
    if (duplicate) {
      record.row.remove();
      if (duplicate.text !== record.sentText) addRemovedHint(duplicate);
      return duplicate;
    }
    record.seq = seq;
    turns.set(seq, record);
    place(record);
    return putTurn({ seq, role: "visitor", text: storedText ?? record.sentText }, true);
  }
  function fail(record) {
    record.pending = false;
    record.row.classList.replace("pending", "failed");
  }
  function showTyping(on) {
    if (!on) return typing.remove();
    place(typingRecord);
    scrollDown();
  }
  function dropHistory() {
    for (const record of turns.values()) record.row.remove();
    turns.clear();
    earlier.reset();
  }
  function clear() {
    for (const child of [...list.children]) {
      if (!greetingRecord || child !== greetingRecord.row) child.remove();
    }
    turns.clear();
    earlier.reset();
    showStarters(); // a new conversation starts from the greeting again
  }
  // streamed answers that will not be completed (an error after the ack): gone, so the
  // answer to "Ask again" is not shown below half of another
  function dropIncomplete() {
    for (const [seq, record] of turns) {
      if (!record.complete && !record.pending) record.row.remove(), turns.delete(seq);
    }
  }
  // the first seq shown: where the next page of earlier turns ends
  function firstSeq() {
    let lowest = 0;
    turns.forEach((record, seq) => (!lowest || seq < lowest) && (lowest = seq));
    return lowest;
  }
  // a page of earlier turns (`history`), shown silently above the others; the visitor's
  // place in the scroller stays where it was
  function putHistory(page, more) {
    const before = scroller.scrollHeight - scroller.scrollTop;
    const stick = stickToBottom;
    stickToBottom = false;
    let added = 0;
    for (const turn of page) if (!turns.has(turn.seq)) putTurn(turn, false), added++;
    stickToBottom = stick;
    if (!stick && scroller.scrollHeight) scroller.scrollTop = scroller.scrollHeight - before;
    earlier.loaded(added, more, scroller);
  }
  // resume after the last complete turn: an answer seen only as deltas comes back whole
  function lastCompleteSeq() {
    let highest = 0;
    turns.forEach((record, seq) => record.complete && seq > highest && (highest = seq));
    return highest;
  }
  // "What do you know about me?": the stored profile, with a way to withdraw
  function showProfile(fields, forget) {
    const keys = Object.keys(fields);
    const card = element("div", { class: "profile-card" }, element("h3", {}, text.profile_title));
    if (!keys.length) card.append(element("p", { class: "note" }, text.nothing_stored));
    else {
      const facts = element("dl");
      for (const key of keys) {
        const value = fields[key];
        const shown = Array.isArray(value) ? value.join(", ")
          : typeof value === "object" ? JSON.stringify(value) : String(value);
        facts.append(element("dt", {}, key), element("dd", {}, shown));
      }
      card.append(facts, element("button", { type: "button", class: "pill-button", onclick: forget }, text.forget_me));
    }
    append(card);
  }
  const isComplete = (seq) => !!turns.get(seq) && turns.get(seq).complete;

  return {
    scroller,
    list,
    putTurn,
    putCards,
    clearChoices,
    appendDelta,
    addPending,
    acknowledge,
    fail,
    addNote,
    append,
    showTyping,
    scrollDown,
    dropHistory,
    clear,
    lastCompleteSeq,
    isComplete,
    showProfile,
    putHistory,
    firstSeq,
    dropIncomplete,
    /** A welcome; `more`: it said earlier turns exist below the ones it carried. */
    welcomeEarlier: (more) => earlier.welcomed(!!more),
    hasTurns: () => turns.size > 0,
  };
}
