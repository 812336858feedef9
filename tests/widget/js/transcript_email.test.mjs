// "E-mail me the conversation" (transcript_email.js): what the visitor is told for each
// answer of the server (issue 25: usually a confirmation link first, or a cap).

import { test } from "node:test";
import assert from "node:assert/strict";

import { emailTranscript } from "../../../static/widget/src/transcript_email.js";

const strings = {
  email_transcript_sent: "sent",
  email_transcript_confirm: "confirm",
  email_transcript_none: "none",
  email_transcript_limited: "limited",
  err_generic: "error",
};

async function told(status, body) {
  const said = [];
  const posted = [];
  globalThis.fetch = async (url, init) => {
    posted.push({ url, init });
    return {
      status,
      ok: status >= 200 && status < 300,
      json: async () => body,
    };
  };
  await emailTranscript({
    config: { transcript_email_url: "https://chat.test/t" },
    token: "tok",
    announce: (text) => said.push(text),
    strings,
  });
  assert.equal(posted.length, 1);
  assert.equal(posted[0].url, "https://chat.test/t");
  assert.deepEqual(JSON.parse(posted[0].init.body), { session: "tok" });
  return said;
}

test("a confirmation link, a sent transcript, no address, a cap, an error", async () => {
  assert.deepEqual(await told(202, { status: "confirm" }), ["confirm"]);
  assert.deepEqual(await told(202, { status: "sent" }), ["sent"]);
  assert.deepEqual(await told(409, { error: "no_address" }), ["none"]);
  assert.deepEqual(await told(429, { error: "limited" }), ["limited"]);
  assert.deepEqual(await told(500, {}), ["error"]);
});
