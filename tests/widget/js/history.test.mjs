// A long conversation on a new page (issue 25): the welcome carries the newest turns and
// says earlier ones exist; "Show earlier messages" at the top asks for the page below the
// first turn shown (`history`) and puts it above, silently, announced once per page. And an
// acked message whose answer could not be stored (`unavailable` with its id) offers "Ask
// again" instead of leaving half an answer on the page.
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { createFrameHandlers } from "../../../static/widget/src/frame_handlers.js";
import { createOutbox } from "../../../static/widget/src/outbox.js";
import { createTranscript } from "../../../static/widget/src/transcript.js";

installFakeDom();

const STRINGS = {
  you: "You", assistant: "Assistant", staff: "Staff", typing: "typing", removed_hint: "masked",
  show_earlier: "Show earlier messages", earlier_loaded: "Earlier messages loaded.",
  retry: "Ask again", err_generic: "Something went wrong.",
};

const turn = (seq) => ({ seq, role: seq % 2 ? "visitor" : "assistant", text: `t${seq}` });
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => turn(from + i));

/** The transcript and the frame handlers, over a stand-in socket that records what is sent. */
function widget({ ready = true } = {}) {
  const sent = [];
  const announced = [];
  const connection = {
    ready,
    connects: 0,
    isReady() { return this.ready; },
    send: (frame) => sent.push(frame),
    connect() { this.connects++; },
    markReady() { this.ready = true; },
    stop() {},
  };
  const log = createTranscript({
    strings: STRINGS,
    announce: (text) => announced.push(text),
    emit: () => {},
    greeting: null,
    requestEarlier: (beforeSeq) => {
      if (!connection.isReady()) return connection.connect(), false;
      connection.send({ type: "history", before_seq: beforeSeq });
      return true;
    },
  });
  const outbox = createOutbox(connection);
  const quiet = new Proxy({}, { get: () => () => {} }); // banners, session, composer, ...
  let state = "bot";
  const handlers = createFrameHandlers({
    connection, session: quiet, outbox, log, banners: quiet, composer: quiet, rating: quiet,
    menu: quiet, strings: STRINGS, announce: (text) => announced.push(text),
    state: () => state, setState: (value) => (state = value), isOpen: () => true,
    countUnread: () => {}, withdrawConsent: () => {},
  });
  const receive = (frame) => handlers[frame.type](frame);
  const earlier = () => log.scroller.children[0];
  const seqs = () =>
    log.list.children.map((row) => row.descendants().find((n) => n.className.startsWith("bubble")).textContent);
  return { log, sent, announced, connection, outbox, receive, earlier, seqs };
}

test("a welcome with earlier turns shows the button at the top; without, it stays hidden", () => {
  const w = widget();
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(91, 100), earlier: true });
  assert.equal(w.earlier().tagName, "BUTTON");
  assert.equal(w.earlier().textContent, "Show earlier messages");
  assert.equal(w.earlier().getAttribute("type"), "button", "a real button: Tab, Enter, Space");
  assert.equal(w.earlier().hasAttribute("hidden"), false);
  assert.deepEqual(w.seqs(), range(91, 100).map((t) => t.text));
  const short = widget();
  short.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(1, 4), earlier: false });
  assert.equal(short.earlier().hasAttribute("hidden"), true);
});

test("the button asks for the page below the first turn and puts it above, to the first turn", () => {
  const w = widget();
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(21, 30), earlier: true });
  w.earlier().dispatch("click");
  assert.deepEqual(w.sent, [{ type: "history", before_seq: 21 }]);
  assert.equal(w.earlier().getAttribute("aria-busy"), "true");
  w.earlier().dispatch("click"); // pressed again while loading: one request
  assert.equal(w.sent.length, 1);
  w.receive({ type: "history", before_seq: 21, turns: range(11, 20), earlier: true });
  assert.deepEqual(w.seqs(), range(11, 30).map((t) => t.text));
  assert.equal(w.earlier().hasAttribute("aria-busy"), false);
  assert.deepEqual(w.announced, ["Earlier messages loaded."], "one announcement, not ten messages");
  w.earlier().dispatch("click");
  assert.deepEqual(w.sent[1], { type: "history", before_seq: 11 });
  w.receive({ type: "history", before_seq: 11, turns: range(1, 10), earlier: false });
  assert.deepEqual(w.seqs(), range(1, 30).map((t) => t.text));
  assert.equal(w.earlier().hasAttribute("hidden"), true, "nothing earlier: the button goes");
  assert.equal(w.log.lastCompleteSeq(), 30, "a reconnect still resumes after the newest");
});

test("a page that overlaps what is shown adds nothing twice", () => {
  const w = widget();
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(5, 8), earlier: true });
  w.earlier().dispatch("click");
  w.receive({ type: "history", before_seq: 5, turns: range(1, 6), earlier: false });
  assert.deepEqual(w.seqs(), range(1, 8).map((t) => t.text));
});

test("not connected, the button reconnects and sends nothing; a welcome ends a page that never came", () => {
  const w = widget({ ready: false });
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(21, 30), earlier: true });
  w.connection.ready = false;
  w.earlier().dispatch("click");
  assert.deepEqual(w.sent, []);
  assert.equal(w.connection.connects, 1);
  assert.equal(w.earlier().hasAttribute("aria-busy"), false);
  w.connection.ready = true;
  w.earlier().dispatch("click");
  assert.equal(w.earlier().getAttribute("aria-busy"), "true");
  // the socket dropped before the page came; the reconnect's welcome has only newer turns
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: [], earlier: false });
  assert.equal(w.earlier().hasAttribute("aria-busy"), false, "the button works again");
  assert.equal(w.earlier().hasAttribute("hidden"), false, "and earlier turns are still offered");
});

test("a reconnect that left turns out starts again from the newest, contiguous", () => {
  const w = widget();
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(1, 10), earlier: false });
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: range(51, 60), earlier: true });
  assert.deepEqual(w.seqs(), range(51, 60).map((t) => t.text), "no gap between 10 and 51");
  assert.equal(w.earlier().hasAttribute("hidden"), false);
});

test("unavailable after the ack: the half-streamed answer goes and 'Ask again' resends the same id", () => {
  const w = widget();
  w.receive({ type: "welcome", session: "tok", resumed: true, state: "bot", turns: [], earlier: false });
  const record = w.log.addPending("Where is my order?");
  w.outbox.send("m1", "Where is my order?", record);
  w.receive({ type: "ack", id: "m1", seq: 1, session: "tok" });
  w.receive({ type: "delta", seq: 2, text: "Your order is" });
  assert.deepEqual(w.seqs(), ["Where is my order?", "Your order is"]);
  w.receive({ type: "error", code: "unavailable", message: "The chat is briefly unavailable.", id: "m1" });
  assert.deepEqual(w.seqs(), ["Where is my order?"], "no half answer left on the page");
  const again = record.row.descendants().find((node) => node.tagName === "BUTTON");
  assert.equal(again.textContent, "Ask again");
  w.sent.length = 0;
  again.dispatch("click");
  assert.deepEqual(w.sent, [{ type: "message", id: "m1", text: "Where is my order?" }]);
});
