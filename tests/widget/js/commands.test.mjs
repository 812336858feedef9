// commands.js and events.js: the public API's command queue and events (DESIGN.md "The
// widget's public JavaScript API"). Shop pages depend on the order and on a failing command
// or listener not stopping the widget.
import { test } from "node:test";
import assert from "node:assert/strict";

import { COMMANDS, createCommandQueue, publicApi } from "../../../static/widget/src/commands.js";
import { EVENTS, createEvents } from "../../../static/widget/src/events.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function queueWith(log, overrides = {}) {
  const commands = {};
  for (const name of COMMANDS.slice(0, 6)) {
    commands[name] = (...args) => log.push([name, ...args]);
  }
  const listened = [];
  const queue = createCommandQueue({
    commands: { ...commands, ...overrides },
    on: (...args) => listened.push(["on", ...args]),
    off: (...args) => listened.push(["off", ...args]),
  });
  return { queue, listened };
}

test("commands pushed before ready wait, then run in the order pushed", async () => {
  const ran = [];
  const { queue } = queueWith(ran);
  queue.push(["open"]);
  queue.push(["prefill", "Do you ship to Austria?"]);
  queue.push(["send", "hi"]);
  await tick();
  assert.deepEqual(ran, [], "nothing runs before the config is there");
  queue.release();
  await tick();
  assert.deepEqual(ran, [["open"], ["prefill", "Do you ship to Austria?"], ["send", "hi"]]);
});

test("each command waits for the previous one to finish", async () => {
  const ran = [];
  let finishOpen;
  const { queue } = queueWith(ran, {
    open: () => new Promise((resolve) => (finishOpen = () => (ran.push(["open done"]), resolve()))),
  });
  queue.release();
  queue.push(["open"]);
  const last = queue.push(["send", "after open"]);
  await tick();
  assert.deepEqual(ran, []);
  finishOpen();
  await last;
  assert.deepEqual(ran, [["open done"], ["send", "after open"]]);
});

test("a failing command is logged and does not stop the next", async (t) => {
  const errors = t.mock.method(console, "error", () => {});
  const ran = [];
  const { queue } = queueWith(ran, {
    toggle: () => {
      throw new Error("boom");
    },
    close: () => Promise.reject(new Error("async boom")),
  });
  queue.release();
  queue.push(["toggle"]);
  queue.push(["close"]);
  await queue.push(["open"]);
  assert.deepEqual(ran, [["open"]]);
  assert.deepEqual(errors.mock.calls.map((call) => call.arguments[0]), [
    "ChatWidget: toggle failed",
    "ChatWidget: close failed",
  ]);
});

test("on and off take effect at once, before ready", () => {
  const { queue, listened } = queueWith([]);
  const listener = () => {};
  queue.push(["on", "message", listener]);
  queue.push(["off", "message", listener]);
  assert.deepEqual(listened, [["on", "message", listener], ["off", "message", listener]]);
});

test("an unknown command or a non-array warns and runs nothing", async (t) => {
  const warnings = t.mock.method(console, "warn", () => {});
  const ran = [];
  const { queue } = queueWith(ran);
  queue.release();
  assert.equal(queue.push(["explode"]), undefined);
  assert.equal(queue.push("open"), undefined);
  await queue.push(["close"]);
  assert.deepEqual(ran, [["close"]]);
  assert.equal(warnings.mock.callCount(), 2);
  assert.match(warnings.mock.calls[0].arguments[0], /unknown command "explode"/);
});

test("the API object has push, on, off and each command as a method that pushes it", () => {
  const pushed = [];
  const on = () => {};
  const off = () => {};
  const api = publicApi({ push: (command) => pushed.push(command), on, off });
  assert.equal(api.version, 1);
  assert.equal(api.on, on);
  assert.equal(api.off, off);
  api.open();
  api.send("hello", "ignored");
  api.setLanguage("de");
  assert.deepEqual(pushed, [["open"], ["send", "hello", "ignored"], ["setLanguage", "de"]]);
  assert.deepEqual(
    Object.keys(api).sort(),
    [
      "close",
      "identify",
      "logout",
      "off",
      "on",
      "open",
      "prefill",
      "push",
      "send",
      "setLanguage",
      "setPage",
      "toggle",
      "version",
    ],
  );
});

test("events reach their listeners in order; a failing listener does not stop the rest", (t) => {
  const errors = t.mock.method(console, "error", () => {});
  const events = createEvents();
  const heard = [];
  events.on("message", (m) => heard.push(["first", m.text]));
  events.on("message", () => {
    throw new Error("a shop's bug");
  });
  events.on("message", (m) => heard.push(["third", m.text]));
  events.emit("message", { role: "assistant", text: "hi", seq: 2 });
  assert.deepEqual(heard, [["first", "hi"], ["third", "hi"]]);
  assert.equal(errors.mock.callCount(), 1);
});

test("off removes a listener; unknown events and non-functions are refused with a warning", (t) => {
  const warnings = t.mock.method(console, "warn", () => {});
  const events = createEvents();
  const heard = [];
  const listener = (count) => heard.push(count);
  events.on("unread", listener);
  events.emit("unread", 1);
  events.off("unread", listener);
  events.emit("unread", 2);
  assert.deepEqual(heard, [1]);
  events.on("nonsense", listener);
  events.on("open", "not a function");
  assert.equal(warnings.mock.callCount(), 2);
  assert.deepEqual(EVENTS, ["ready", "open", "close", "message", "unread", "handover", "state", "cart_add"]);
});

test("ready is emitted once; a listener added later is called at once with the current detail", () => {
  const events = createEvents();
  let language = "en";
  const heard = [];
  events.on("ready", (detail) => heard.push(["early", detail.lang]));
  assert.equal(events.isReady(), false);
  events.markReady(() => ({ lang: language }));
  events.markReady(() => ({ lang: "again" }));
  assert.equal(events.isReady(), true);
  language = "de";
  events.on("ready", (detail) => heard.push(["late", detail.lang]));
  assert.deepEqual(heard, [["early", "en"], ["late", "de"]]);
});
