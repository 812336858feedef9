// transcript.js: numbered turns in seq order whatever order they arrive in, streamed answers
// shown as they grow and announced once finished, the visitor's pending messages below the
// numbered turns until acknowledged, and echoes from other tabs deduplicated.
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { createTranscript } from "../../../static/widget/src/transcript.js";

installFakeDom();

const STRINGS = {
  you: "You", assistant: "Assistant", staff: "Staff", typing: "typing", removed_hint: "masked",
};

function transcript({ greeting = null } = {}) {
  const announced = [];
  const emitted = [];
  const log = createTranscript({
    strings: STRINGS,
    announce: (text) => announced.push(text),
    emit: (name, detail) => emitted.push([name, detail]),
    greeting,
  });
  // what a visitor sees, top to bottom: each row's classes (role, pending) and bubble text
  const rows = () =>
    log.list.children.map((row) =>
      row.classList.contains("typing")
        ? "typing"
        : `${row.className.replace("message ", "")}: ${row.descendants().find((node) => node.className === "bubble" || node.className === "bubble rich").textContent}`,
    );
  return { log, rows, announced, emitted };
}

test("turns arriving out of order are shown in seq order", () => {
  const { log, rows } = transcript();
  log.putTurn({ seq: 3, role: "assistant", text: "three" }, false);
  log.putTurn({ seq: 1, role: "visitor", text: "one" }, false);
  log.putTurn({ seq: 4, role: "staff", text: "four" }, false);
  log.putTurn({ seq: 2, role: "assistant", text: "two" }, false);
  assert.deepEqual(rows(), ["visitor: one", "assistant: two", "assistant: three", "staff: four"]);
  assert.equal(log.lastCompleteSeq(), 4);
});

test("the greeting stays on top; clear keeps it, the turns go", () => {
  const { log, rows } = transcript({ greeting: "Hello!" });
  log.putTurn({ seq: 2, role: "assistant", text: "b" }, false);
  log.putTurn({ seq: 1, role: "visitor", text: "a" }, false);
  assert.deepEqual(rows(), ["assistant: Hello!", "visitor: a", "assistant: b"]);
  log.clear();
  assert.deepEqual(rows(), ["assistant: Hello!"]);
  assert.equal(log.lastCompleteSeq(), 0);
  assert.equal(log.hasTurns(), false);
});

test("history is shown silently; a live turn is emitted and announced once, even if sent twice", () => {
  const { log, rows, announced, emitted } = transcript();
  log.putTurn({ seq: 1, role: "assistant", text: "from before" }, false);
  assert.deepEqual(emitted, []);
  assert.deepEqual(announced, []);
  log.putTurn({ seq: 2, role: "staff", text: "Hi, Anna here" }, true);
  log.putTurn({ seq: 2, role: "staff", text: "Hi, Anna here" }, true); // another tab, a reconnect
  assert.deepEqual(rows(), ["assistant: from before", "staff: Hi, Anna here"]);
  assert.deepEqual(emitted, [["message", { role: "staff", text: "Hi, Anna here", seq: 2 }]]);
  assert.deepEqual(announced, ["Staff: Hi, Anna here"]);
});

test("a streamed answer grows in place, is busy and not complete until its message comes", () => {
  const { log, rows, announced, emitted } = transcript();
  log.putTurn({ seq: 1, role: "visitor", text: "Shipping?" }, false);
  log.appendDelta(2, "We ship ");
  log.appendDelta(2, "**free**");
  assert.deepEqual(rows(), ["visitor: Shipping?", "assistant: We ship free"]);
  const row = log.list.children[1];
  assert.equal(row.getAttribute("aria-busy"), "true");
  assert.equal(row.descendants().filter((node) => node.tagName === "STRONG").length, 1);
  assert.equal(log.isComplete(2), false);
  assert.equal(log.lastCompleteSeq(), 1, "resume asks again for the unfinished answer");
  assert.deepEqual(announced, [], "chunks are never read out");

  log.putTurn({ seq: 2, role: "assistant", text: "We ship free to Austria." }, true);
  assert.deepEqual(rows(), ["visitor: Shipping?", "assistant: We ship free to Austria."]);
  assert.equal(row.getAttribute("aria-busy"), null);
  assert.equal(log.lastCompleteSeq(), 2);
  assert.deepEqual(announced, ["Assistant: We ship free to Austria."]);
  assert.deepEqual(emitted.map(([name, detail]) => [name, detail.seq]), [["message", 2]]);

  log.appendDelta(2, " (late chunk)");
  assert.deepEqual(rows(), ["visitor: Shipping?", "assistant: We ship free to Austria."]);
});

test("the visitor's pending message stays below numbered turns until its ack numbers it", () => {
  const { log, rows, emitted } = transcript();
  log.putTurn({ seq: 1, role: "assistant", text: "Hi" }, false);
  const pending = log.addPending("Where is my order?");
  assert.ok(pending.row.classList.contains("pending"));
  log.putTurn({ seq: 2, role: "staff", text: "One moment" }, true);
  assert.deepEqual(rows(), ["assistant: Hi", "staff: One moment", "visitor pending: Where is my order?"]);
  log.acknowledge(pending, 3, undefined);
  assert.equal(pending.row.classList.contains("pending"), false);
  assert.deepEqual(rows(), ["assistant: Hi", "staff: One moment", "visitor: Where is my order?"]);
  assert.equal(log.lastCompleteSeq(), 3);
  assert.deepEqual(emitted.at(-1), ["message", { role: "visitor", text: "Where is my order?", seq: 3 }]);
});

test("the typing dots stay below numbered turns and go away on request", () => {
  const { log, rows } = transcript();
  log.putTurn({ seq: 1, role: "visitor", text: "q" }, false);
  log.showTyping(true);
  log.putTurn({ seq: 2, role: "staff", text: "a" }, false);
  assert.deepEqual(rows(), ["visitor: q", "staff: a", "typing"]);
  log.showTyping(false);
  assert.deepEqual(rows(), ["visitor: q", "staff: a"]);
});

test("another tab's echo that came before the ack is not shown twice", () => {
  const { log, rows } = transcript();
  const pending = log.addPending("same text");
  log.putTurn({ seq: 5, role: "visitor", text: "same text" }, true); // the echo
  log.acknowledge(pending, 5, undefined);
  assert.deepEqual(rows(), ["visitor: same text"]);
});

test("masked text from the server replaces what was typed, with the hint under it", () => {
  const { log, rows } = transcript();
  const pending = log.addPending("my IBAN is DE89370400440532013000");
  log.acknowledge(pending, 1, "my IBAN is [IBAN]");
  assert.deepEqual(rows(), ["visitor: my IBAN is [IBAN]"]);
  assert.ok(pending.row.children.some((node) => node.className.startsWith("note") && node.textContent === "masked"));
});

test("the visitor's text is plain text; answers and staff replies are Markdown", () => {
  const { log } = transcript();
  log.putTurn({ seq: 1, role: "visitor", text: "**not bold** [x](https://x.example)" }, false);
  log.putTurn({ seq: 2, role: "staff", text: "*plain*" }, false);
  log.putTurn({ seq: 3, role: "assistant", text: "*rich*" }, false);
  const [visitor, staff, assistant] = log.list.children;
  assert.equal(visitor.descendants().some((node) => ["STRONG", "A"].includes(node.tagName)), false);
  assert.equal(staff.descendants().some((node) => node.tagName === "EM"), true);
  assert.equal(assistant.descendants().some((node) => node.tagName === "EM"), true);
});

test("after a resume without history the old turns go, the pending message stays", () => {
  const { log, rows } = transcript();
  log.putTurn({ seq: 1, role: "assistant", text: "old" }, false);
  log.addPending("unsent");
  log.dropHistory();
  assert.deepEqual(rows(), ["visitor pending: unsent"]);
  assert.equal(log.lastCompleteSeq(), 0);
});

test("a staff reply renders the Markdown subset, links safe; the visitor's text stays as typed", () => {
  const { log } = transcript();
  log.putTurn({ seq: 1, role: "visitor", text: "**not bold**" }, false);
  log.putTurn({ seq: 2, role: "staff", text: "**Sam** here: see [returns](https://shop.example/r)" }, false);
  const [visitor, staff] = log.list.children;
  const bubble = (row) => row.descendants().find((n) => String(n.className).startsWith("bubble"));
  assert.equal(bubble(visitor).textContent, "**not bold**");
  const nodes = bubble(staff).descendants();
  assert.ok(nodes.some((n) => n.tagName === "STRONG" && n.textContent === "Sam"));
  const link = nodes.find((n) => n.tagName === "A");
  assert.equal(link.getAttribute("href"), "https://shop.example/r");
  assert.equal(link.getAttribute("rel"), "noopener noreferrer");
});
