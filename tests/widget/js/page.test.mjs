// page.js and the `setPage` command: each message carries where the visitor is (DESIGN.md, the
// `message` frame's `page`): the window's location and title by default, the last `setPage`
// value for single-page shops; never a fragment, never anything but http(s), within bounds.
import { test } from "node:test";
import assert from "node:assert/strict";

import { COMMANDS, createCommandQueue, publicApi } from "../../../static/widget/src/commands.js";
import { messageFrame } from "../../../static/widget/src/frames.js";
import { createOutbox } from "../../../static/widget/src/outbox.js";
import {
  MAX_TITLE,
  MAX_URL,
  createPageContext,
  pageBounded,
} from "../../../static/widget/src/page.js";

function fakeWindow(href, title) {
  return { location: { href }, document: { title } };
}

test("by default the page is the window's location without its fragment, and its title", () => {
  const win = fakeWindow("https://shop.example/p/kurta?colour=mint#reviews", "  Cotton kurta \n mint ");
  const page = createPageContext(win);
  assert.deepEqual(page.current(), {
    url: "https://shop.example/p/kurta?colour=mint",
    title: "Cotton kurta mint",
  });
  win.location.href = "https://shop.example/p/shirt"; // read at each message, not once
  win.document.title = "Shirt";
  assert.deepEqual(page.current(), { url: "https://shop.example/p/shirt", title: "Shirt" });
});

test("setPage wins over the window until it is set back with null", () => {
  const win = fakeWindow("https://shop.example/app#/", "Shop");
  const page = createPageContext(win);
  page.set({ url: "/p/kurta-ku-2291-m", title: "Cotton kurta" });
  assert.deepEqual(page.current(), {
    url: "https://shop.example/p/kurta-ku-2291-m",
    title: "Cotton kurta",
  });
  win.location.href = "https://shop.example/app#/cart";
  assert.equal(page.current().url, "https://shop.example/p/kurta-ku-2291-m");
  page.set({ url: "https://shop.example/p/shirt" }); // no title: the document's
  assert.deepEqual(page.current(), { url: "https://shop.example/p/shirt", title: "Shop" });
  page.set(null);
  assert.deepEqual(page.current(), { url: "https://shop.example/app", title: "Shop" });
});

test("setPage refuses what is not a page, and keeps the last good one", () => {
  const page = createPageContext(fakeWindow("https://shop.example/", "Shop"));
  page.set({ url: "/p/kurta", title: "Kurta" });
  assert.throws(() => page.set("https://shop.example/x"), TypeError);
  assert.throws(() => page.set({ title: "no url" }), TypeError);
  assert.throws(() => page.set({ url: "javascript:alert(1)" }), TypeError);
  assert.deepEqual(page.current(), { url: "https://shop.example/p/kurta", title: "Kurta" });
});

test("only http(s) pages are sent; long titles are cut; a long URL loses its query", () => {
  assert.equal(pageBounded("file:///tmp/shop.html", "x"), null);
  assert.equal(pageBounded("about:blank", "x"), null);
  assert.equal(pageBounded("not a url", "x"), null);
  assert.equal(pageBounded("https://shop.example/", "t".repeat(400)).title.length, MAX_TITLE);
  const long = pageBounded(`https://shop.example/p/kurta?utm=${"x".repeat(MAX_URL)}`, "Kurta");
  assert.equal(long.url, "https://shop.example/p/kurta");
  assert.equal(pageBounded(`https://shop.example/${"p".repeat(MAX_URL)}`, "Kurta"), null);
  assert.equal(createPageContext(fakeWindow("file:///shop.html", "x")).current(), null);
});

test("the message frame carries the page, and leaves it out when there is none", () => {
  const page = { url: "https://shop.example/p/kurta", title: "Kurta" };
  assert.equal(
    JSON.stringify(messageFrame({ id: "c1", text: "Does this come in XL?", page })),
    '{"type":"message","id":"c1","text":"Does this come in XL?",' +
      '"page":{"url":"https://shop.example/p/kurta","title":"Kurta"}}',
  );
  assert.equal(
    JSON.stringify(messageFrame({ id: "c1", text: "Hi", page: null })),
    '{"type":"message","id":"c1","text":"Hi"}',
  );
});

test("a message is sent again with the page it was written on", () => {
  const wire = [];
  const connection = { ready: false, isReady: () => connection.ready, connect() {}, send: (f) => wire.push(f) };
  const outbox = createOutbox(connection);
  const page = { url: "https://shop.example/p/kurta", title: "Kurta" };
  outbox.send("c1", "Does this come in XL?", {}, page);
  connection.ready = true;
  outbox.flush();
  outbox.resend("c1");
  assert.deepEqual(wire.map((f) => f.page), [page, page]);
});

test("setPage pushed before the widget is ready runs once it is, and is a method after", async () => {
  const ran = [];
  const queue = createCommandQueue({
    commands: { setPage: (value) => ran.push(["setPage", value]), send: (t) => ran.push(["send", t]) },
    on() {},
    off() {},
  });
  assert.ok(COMMANDS.includes("setPage"));
  queue.push(["setPage", { url: "/p/kurta", title: "Kurta" }]);
  queue.push(["send", "Does this come in XL?"]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(ran, [], "nothing runs before ready");
  queue.release();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(ran, [
    ["setPage", { url: "/p/kurta", title: "Kurta" }],
    ["send", "Does this come in XL?"],
  ]);
  const api = publicApi({ push: queue.push, on() {}, off() {} });
  await api.setPage({ url: "/p/shirt" });
  assert.deepEqual(ran.at(-1), ["setPage", { url: "/p/shirt" }]);
});
