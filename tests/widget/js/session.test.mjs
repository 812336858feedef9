// session.js: the privacy model's browser storage (static/widget/README.md "Browser
// storage"). The session cookie is written only after the visitor acted; the recognition
// cookie only after consent, and deleted at once on withdrawal.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { createSession } from "../../../static/widget/src/session.js";

const SESSION = { name: "cw_session_ab12cd34", max_age: 3600 };
const RECOGNITION = { name: "cw_recognition_ab12cd34", max_age: 15552000, months: 6 };
let changes;
let document; // a fresh fake one per test, with an empty cookie jar

function session() {
  return createSession({
    sessionCookie: SESSION,
    recognitionCookie: RECOGNITION,
    onChange: (hasToken) => changes.push(hasToken),
  });
}
beforeEach(() => {
  document = installFakeDom();
  changes = [];
});

test("a welcome on page load keeps the token in memory only", () => {
  const storage = session();
  storage.welcomed("tok1");
  assert.equal(storage.token(), "tok1");
  assert.equal(document.cookie, "");
  assert.deepEqual(changes, [true]);
});

test("after the visitor acted, the welcome's token becomes the session cookie", () => {
  const storage = session();
  storage.markActed();
  storage.welcomed("tok1");
  assert.equal(document.cookie, "cw_session_ab12cd34=tok1");
  assert.equal(
    document.written.get(SESSION.name),
    "cw_session_ab12cd34=tok1; path=/; max-age=3600; SameSite=Lax",
  );
});

test("a cookie from before is refreshed by the welcome; hello uses it until then", () => {
  document.cookie = "cw_session_ab12cd34=old; path=/; max-age=5";
  const storage = session();
  assert.equal(storage.token(), null);
  assert.equal(storage.stored(), "old");
  storage.welcomed("new");
  assert.equal(document.cookie, "cw_session_ab12cd34=new");
});

test("an ack writes the cookie: the first message creates it", () => {
  const storage = session();
  storage.acknowledged("tok2");
  assert.equal(document.cookie, "cw_session_ab12cd34=tok2");
  storage.welcomed("tok3"); // a reconnect: the visitor has acted
  assert.equal(document.cookie, "cw_session_ab12cd34=tok3");
});

test("reset (forgotten, a new conversation) deletes the cookie and forgets the action", () => {
  const storage = session();
  storage.acknowledged("tok");
  storage.reset();
  assert.equal(storage.token(), null);
  assert.equal(storage.stored(), null);
  assert.equal(document.cookie, "");
  storage.welcomed("fresh");
  assert.equal(document.cookie, "", "a new conversation gets its cookie only after an action");
  assert.deepEqual(changes, [true, false, true]);
});

test("a welcome without a session deletes the cookie", () => {
  document.cookie = "cw_session_ab12cd34=expired; path=/; max-age=5";
  const storage = session();
  storage.welcomed(null);
  assert.equal(document.cookie, "");
});

test("the recognition cookie follows consent; withdrawal deletes it at once", () => {
  const storage = session();
  assert.equal(storage.recognition(), null);
  storage.consented({ recognition: true, token: "rec1", max_age: 100 });
  assert.equal(storage.recognition(), "rec1");
  assert.match(document.written.get(RECOGNITION.name), /max-age=100;/);
  storage.forgetRecognition();
  assert.equal(storage.recognition(), null);
  storage.consented({ recognition: true, token: "rec2" });
  assert.match(document.written.get(RECOGNITION.name), /max-age=15552000;/);
  storage.consented({ recognition: false, token: null, max_age: 0 });
  assert.equal(storage.recognition(), null);
  storage.consented({ recognition: true, token: null });
  assert.equal(storage.recognition(), null, "no token, no cookie");
});
