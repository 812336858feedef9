// outbox.js: the visitor's messages are never lost on a reconnect and never sent twice as two
// turns (same client id); control frames sent while offline go out after the next welcome.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createOutbox } from "../../../static/widget/src/outbox.js";
import { consentFrame, handoverFrame } from "../../../static/widget/src/frames.js";

function fakeConnection() {
  const wire = [];
  let connects = 0;
  const connection = {
    ready: false,
    isReady: () => connection.ready,
    connect: () => connects++,
    send: (frame) => wire.push(JSON.stringify(frame)),
  };
  return { connection, wire, connects: () => connects };
}

test("online, a message goes out at once as a message frame", () => {
  const { connection, wire } = fakeConnection();
  connection.ready = true;
  const outbox = createOutbox(connection);
  outbox.send("c1", "Hello", { row: "r1" });
  assert.deepEqual(wire, ['{"type":"message","id":"c1","text":"Hello"}']);
  assert.deepEqual(outbox.pending("c1"), { text: "Hello", record: { row: "r1" } });
});

test("offline, messages and control frames wait for welcome, then go in order", () => {
  const { connection, wire, connects } = fakeConnection();
  const outbox = createOutbox(connection);
  outbox.send("c1", "first", {});
  outbox.control(handoverFrame({ reason: "visitor asked for a person" }));
  outbox.send("c2", "second", {});
  outbox.control(consentFrame({ recognition: false }));
  assert.deepEqual(wire, []);
  assert.equal(connects(), 4, "each one asks for a connection");
  connection.ready = true; // welcome
  outbox.flush();
  assert.deepEqual(wire, [
    '{"type":"message","id":"c1","text":"first"}',
    '{"type":"message","id":"c2","text":"second"}',
    '{"type":"handover","reason":"visitor asked for a person"}',
    '{"type":"consent","recognition":false}',
  ]);
  wire.length = 0;
  outbox.flush(); // the next welcome, after a reconnect
  assert.deepEqual(wire, [
    '{"type":"message","id":"c1","text":"first"}',
    '{"type":"message","id":"c2","text":"second"}',
  ], "unacked messages again with the same ids; control frames only once");
});

test("an acknowledged message is not sent again; its record is still found for errors", () => {
  const { connection, wire } = fakeConnection();
  connection.ready = true;
  const outbox = createOutbox(connection);
  const record = { row: "r" };
  outbox.send("c1", "a", record);
  outbox.send("c2", "b", {});
  outbox.settle("c1");
  wire.length = 0;
  outbox.flush();
  assert.deepEqual(wire, ['{"type":"message","id":"c2","text":"b"}']);
  assert.equal(outbox.pending("c1"), undefined);
  assert.equal(outbox.record("c1"), record);
});

test("resend sends the same message again only while unacked and connected", () => {
  const { connection, wire } = fakeConnection();
  connection.ready = true;
  const outbox = createOutbox(connection);
  outbox.send("c1", "again", {});
  wire.length = 0;
  outbox.resend("c1");
  assert.deepEqual(wire, ['{"type":"message","id":"c1","text":"again"}']);
  connection.ready = false;
  outbox.resend("c1");
  connection.ready = true;
  outbox.settle("c1");
  outbox.resend("c1");
  assert.equal(wire.length, 1);
});

test("clear (forgotten, a new conversation) drops the unacked messages", () => {
  const { connection, wire } = fakeConnection();
  const outbox = createOutbox(connection);
  outbox.send("c1", "old conversation", {});
  outbox.clear();
  connection.ready = true;
  outbox.flush();
  assert.deepEqual(wire, []);
});
