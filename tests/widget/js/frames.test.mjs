// frames.js, the widget's twin of chatwidget/platform/frames.py: the frames the widget sends must
// stay byte for byte what the server parses (DESIGN.md "The websocket protocol").
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import {
  ErrorCode,
  FrameType,
  attachedFrame,
  consentFrame,
  forgetFrame,
  handoverFrame,
  helloFrame,
  historyFrame,
  messageFrame,
  profileFrame,
  ratingFrame,
} from "../../../static/widget/src/frames.js";

// What the widget put on the wire before frames.js existed, spelled out: field order included.
test("each builder gives the frame the widget has always sent, byte for byte", () => {
  const cases = [
    [
      helloFrame({ session: "tok", lastSeq: 7, lang: "de", recognition: "rec" }),
      '{"type":"hello","session":"tok","last_seq":7,"lang":"de","recognition":"rec","identity":null}',
    ],
    [
      helloFrame({ session: null, lastSeq: null, lang: "en", recognition: null }),
      '{"type":"hello","session":null,"last_seq":null,"lang":"en","recognition":null,"identity":null}',
    ],
    [
      // a signed-in customer (identify): DESIGN.md `hello.identity`
      helloFrame({
        session: null,
        lastSeq: null,
        lang: "en",
        recognition: null,
        identity: { id: "c-1", email: "a@b.de", name: "A", signature: "ab12" },
      }),
      '{"type":"hello","session":null,"last_seq":null,"lang":"en","recognition":null,' +
        '"identity":{"id":"c-1","email":"a@b.de","name":"A","signature":"ab12"}}',
    ],
    [messageFrame({ id: "c1", text: "Hallo <b>\"du\"</b>" }), '{"type":"message","id":"c1","text":"Hallo <b>\\"du\\"</b>"}'],
    [
      handoverFrame({ reason: "visitor asked for a person" }),
      '{"type":"handover","reason":"visitor asked for a person"}',
    ],
    [consentFrame({ recognition: true }), '{"type":"consent","recognition":true}'],
    [consentFrame({ recognition: false }), '{"type":"consent","recognition":false}'],
    [forgetFrame(), '{"type":"forget"}'],
    [profileFrame(), '{"type":"profile"}'],
    [ratingFrame({ score: 4, comment: "" }), '{"type":"rating","score":4,"comment":""}'],
    [historyFrame({ beforeSeq: 41 }), '{"type":"history","before_seq":41}'],
  ];
  for (const [frame, wire] of cases) assert.equal(JSON.stringify(frame), wire);
});

test("a builder takes only its own fields: nothing extra reaches the server", () => {
  const frame = messageFrame({ id: "c1", text: "hi", lang: "de", type: "hello" });
  assert.deepEqual(frame, { type: "message", id: "c1", text: "hi" });
  const page = { url: "https://shop.example/p", title: "P", cookie: "x" };
  assert.deepEqual(messageFrame({ id: "c1", text: "hi", page }).page, {
    url: "https://shop.example/p",
    title: "P",
  });
});

// The server's side of the contract: the frame types and error codes
// (chatwidget/platform/frames.py) and the frames the visitor socket accepts
// (chatwidget/widget/protocol.py).
function serverProtocol() {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const frames = readFileSync(join(root, "chatwidget/platform/frames.py"), "utf8");
  const protocol = readFileSync(join(root, "chatwidget/widget/protocol.py"), "utf8");
  const enumValues = (name) => {
    const body = frames.split(`class ${name}(`)[1].split(/\n(?=\S)/)[0];
    return new Set([...body.matchAll(/^\s+[A-Z_]+ = "(\w+)"/gm)].map((match) => match[1]));
  };
  const inbound = protocol.split("INBOUND_TYPES")[1].split(")")[0];
  return {
    frameTypes: enumValues("FrameType"),
    errorCodes: enumValues("ErrorCode"),
    inbound: new Set([...inbound.matchAll(/FrameType\.([A-Z_]+)/g)].map((m) => m[1])),
  };
}

test("the frame types and error codes are the server's (FrameType, ErrorCode)", () => {
  const server = serverProtocol();
  assert.ok(server.frameTypes.size > 10);
  for (const value of Object.values(FrameType)) assert.ok(server.frameTypes.has(value), value);
  for (const value of Object.values(ErrorCode)) assert.ok(server.errorCodes.has(value), value);
});

test("every frame the widget sends is one the server accepts (INBOUND_TYPES)", () => {
  const { inbound } = serverProtocol();
  const sent = [
    helloFrame({}), messageFrame({}), handoverFrame({}), consentFrame({}), forgetFrame(),
    profileFrame(), ratingFrame({}), historyFrame({}), attachedFrame(),
  ].map((frame) => frame.type);
  const accepted = [...inbound].map((name) => FrameType[name]);
  assert.deepEqual(sent.sort(), accepted.sort());
});

test("the constants cannot be changed at run time", () => {
  assert.throws(() => (FrameType.HELLO = "hi"), TypeError);
});
