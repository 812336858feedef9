// config.js: one config request at a time, kept once loaded, asked again after a failure or
// a new language; a page whose origin the site does not allow learns why.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import { configUrl, createConfigLoader, pickLanguage } from "../../../static/widget/src/config.js";

let requests;
let answers;
beforeEach(() => {
  requests = [];
  answers = [];
  globalThis.fetch = async (url, options) => {
    requests.push([url, options]);
    const [status, body] = answers.shift();
    return { status, ok: status >= 200 && status < 300, json: async () => body };
  };
});

function loader(language = "en") {
  const loaded = [];
  const state = { language };
  const configLoader = createConfigLoader({
    serverOrigin: "https://chat.example",
    siteKey: "shop key/1",
    language: () => state.language,
    onLoaded: (config) => loaded.push(config),
  });
  return { configLoader, loaded, state };
}

test("the language is de for any German tag, else en", () => {
  assert.equal(pickLanguage("de-AT"), "de");
  assert.equal(pickLanguage("DE"), "de");
  assert.equal(pickLanguage("en-GB"), "en");
  assert.equal(pickLanguage("fr"), "en");
  assert.equal(pickLanguage(""), "en");
  assert.equal(pickLanguage(undefined), "en");
});

test("the config URL names the site (encoded) and the language", () => {
  assert.equal(
    configUrl("https://chat.example", "shop key/1", "de"),
    "https://chat.example/widget/v1/shop%20key%2F1/config.json?lang=de",
  );
});

test("one request, without credentials; the loaded config is kept", async () => {
  const { configLoader, loaded } = loader("de");
  answers.push([200, { lang: "de", strings: {} }]);
  const first = configLoader.load();
  assert.equal(configLoader.load(), first, "a second call shares the pending request");
  assert.deepEqual(await first, { lang: "de", strings: {} });
  assert.deepEqual(await configLoader.load(), { lang: "de", strings: {} });
  assert.deepEqual(requests, [
    ["https://chat.example/widget/v1/shop%20key%2F1/config.json?lang=de", { credentials: "omit" }],
  ]);
  assert.equal(loaded.length, 1);
});

test("a failed request is forgotten: the next load asks again", async () => {
  const { configLoader, loaded } = loader();
  answers.push([500, {}], [200, { lang: "en" }]);
  await assert.rejects(configLoader.load(), /config 500/);
  assert.equal(loaded.length, 0);
  assert.deepEqual(await configLoader.load(), { lang: "en" });
  assert.equal(requests.length, 2);
});

test("an origin the site does not allow rejects with the server's explanation", async () => {
  const { configLoader } = loader();
  const body = { error: "origin_not_allowed", origin: "https://evil.example", message: "Not here." };
  answers.push([403, body]);
  await assert.rejects(configLoader.load(), (error) => error.body === body);
  answers.push([403, { error: "something_else" }]);
  await assert.rejects(configLoader.load(), (error) => !error.body && /config 403/.test(error.message));
});

test("reset: the next load asks again, in the language of that moment", async () => {
  const { configLoader, state } = loader("en");
  answers.push([200, { lang: "en" }], [200, { lang: "de" }]);
  await configLoader.load();
  state.language = "de";
  configLoader.reset();
  assert.deepEqual(await configLoader.load(), { lang: "de" });
  assert.match(requests[1][0], /\?lang=de$/);
});
