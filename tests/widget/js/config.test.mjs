// config.js: one config request at a time, kept once loaded, asked again after a failure or
// a new language; a page whose origin the site does not allow learns why.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

import {
  configUrl,
  createConfigLoader,
  languageOf,
  pageLanguages,
  pickLanguage,
  queuedLanguage,
} from "../../../static/widget/src/config.js";

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

test("a tag's language: its primary subtag, if the widget speaks it", () => {
  assert.equal(pickLanguage("de-AT"), "de");
  assert.equal(pickLanguage("DE"), "de");
  assert.equal(pickLanguage("en-GB"), "en");
  assert.equal(pickLanguage("fr-CA"), "fr");
  assert.equal(pickLanguage("nl_BE"), "nl");
  for (const language of ["es", "it", "pl"]) assert.equal(pickLanguage(language), language);
  assert.equal(pickLanguage("pt-BR"), "en");
  assert.equal(pickLanguage(""), "en");
  assert.equal(pickLanguage(undefined), "en");
  assert.equal(languageOf("ja"), null);
});

test("setLanguage first, then data-lang, the page's lang, the browser's languages, English", () => {
  const page = (dataLang, htmlLang, languages) =>
    pageLanguages(
      { dataset: { lang: dataLang } },
      { documentElement: { lang: htmlLang } },
      { languages, language: languages[0] },
    );
  assert.equal(pickLanguage("it", page(undefined, "fr", ["de"])), "it");
  assert.equal(pickLanguage(undefined, page(undefined, "fr", ["de"])), "fr");
  assert.equal(pickLanguage(undefined, page("pl", "fr", ["de"])), "pl");
  // a page language the widget does not speak: the browser's, in its order
  assert.equal(pickLanguage(undefined, page(undefined, "ja", ["pt-BR", "nl-NL", "de"])), "nl");
  assert.equal(pickLanguage("xx", page(undefined, "", ["fr-CA"])), "fr");
  assert.equal(pickLanguage(undefined, page(undefined, "", ["ja"])), "en");
  // an old browser without navigator.languages
  assert.deepEqual(
    pageLanguages({ dataset: {} }, { documentElement: { lang: "" } }, { language: "es-MX" }),
    [undefined, "", "es-MX"],
  );
});

test("a setLanguage queued before the loader ran: the last one counts", () => {
  assert.equal(queuedLanguage([["open"], ["setLanguage", "fr"], ["setLanguage", "es"]]), "es");
  assert.equal(queuedLanguage([["open"], "junk"]), undefined);
  assert.equal(queuedLanguage([]), undefined);
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
