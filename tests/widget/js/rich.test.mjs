// Product cards and quick replies (issue 33): product text is set as text, never parsed;
// only http(s) URLs become links and images; "Add to cart" emits `cart_add` with the
// product; quick replies are a labelled group of buttons that send their label once and go
// away when used, when the visitor types or when the conversation moves on.
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { cartDetail, priceText, renderCards, renderChoices, safeUrl, stockText } from "../../../static/widget/src/rich.js";
import { createTranscript } from "../../../static/widget/src/transcript.js";

installFakeDom();

const STRINGS = {
  you: "You", assistant: "Assistant", staff: "Staff", typing: "typing", removed_hint: "masked",
  cards_label: "Products", add_to_cart: "Add to cart", stock_in: "In stock",
  stock_out: "Out of stock", stock_preorder: "Pre-order", choices_label: "Suggested replies",
  variant: "Variant",
};
const KURTA = {
  id: "KU-2291-M", sku: "KU-2291-M", title: "Cotton kurta, mint",
  url: "http://127.0.0.1:8001/product/KU-2291-M", price: "49.90", currency: "EUR",
  stock: "in_stock", image: "https://cdn.test/ku.jpg",
};

test("only http(s) URLs are kept", () => {
  assert.equal(safeUrl("https://shop.test/a.png"), "https://shop.test/a.png");
  assert.equal(safeUrl("javascript:alert(1)"), null);
  assert.equal(safeUrl("data:image/png;base64,AAAA"), null);
  assert.equal(safeUrl("/relative"), null);
  assert.equal(safeUrl(42), null);
});

test("a card shows the knowledge's facts as text, with a link, an image and the button", () => {
  const added = [];
  const list = renderCards([KURTA], { strings: STRINGS, onAdd: (detail) => added.push(detail) });
  assert.equal(list.tagName, "UL");
  assert.equal(list.getAttribute("aria-label"), "Products");
  const [link] = list.descendants().filter((n) => n.tagName === "A");
  assert.equal(link.getAttribute("href"), KURTA.url);
  assert.equal(link.textContent, "Cotton kurta, mint");
  const [image] = list.descendants().filter((n) => n.tagName === "IMG");
  assert.equal(image.getAttribute("src"), KURTA.image);
  assert.equal(image.getAttribute("alt"), "", "decorative: the title says what it is");
  assert.equal(list.querySelectorAll(".card-price")[0].textContent, "49.90 EUR");
  assert.equal(list.querySelectorAll(".card-stock")[0].textContent, "In stock");
  const [add] = list.querySelectorAll(".card-add");
  assert.equal(add.getAttribute("aria-label"), "Add to cart: Cotton kurta, mint");
  add.dispatch("click");
  assert.deepEqual(added, [
    { id: "KU-2291-M", sku: "KU-2291-M", variant: null, title: "Cotton kurta, mint", url: KURTA.url },
  ]);
});

test("hostile product text stays text; other schemes give no link and no image", () => {
  const card = { ...KURTA, title: "<img src=x onerror=alert(1)>", url: "javascript:alert(1)", image: "data:x" };
  const list = renderCards([card], { strings: STRINGS, onAdd: () => {} });
  assert.equal(list.descendants().filter((n) => n.tagName === "A" || n.tagName === "IMG").length, 0);
  assert.match(list.html, /&lt;img src=x onerror=alert\(1\)>/);
  assert.equal(renderCards([], { strings: STRINGS }), null);
});

test("sold out: the button is disabled; a variant is named when the sku differs", () => {
  const list = renderCards([{ ...KURTA, stock: "out_of_stock" }], { strings: STRINGS, onAdd: () => {} });
  assert.equal(list.querySelectorAll(".card-add")[0].hasAttribute("disabled"), true);
  assert.equal(stockText("unknown", STRINGS), "");
  assert.equal(priceText({ price: "" }), "");
  assert.equal(cartDetail({ ...KURTA, id: "kurta", sku: "KU-2291-M" }).variant, "KU-2291-M");
});

test("quick replies: a labelled group of buttons, at most five, each sends its label", () => {
  const chosen = [];
  const group = renderChoices(["S", "M", "L", "XL", "XXL", "4XL", 7], {
    strings: STRINGS,
    onChoose: (label) => chosen.push(label),
  });
  assert.equal(group.getAttribute("role"), "group");
  assert.equal(group.getAttribute("aria-label"), "Suggested replies");
  const buttons = group.children;
  assert.deepEqual(buttons.map((b) => b.textContent), ["S", "M", "L", "XL", "XXL"]);
  assert.ok(buttons.every((b) => b.tagName === "BUTTON" && b.getAttribute("type") === "button"));
  buttons[1].dispatch("click");
  assert.deepEqual(chosen, ["M"]);
});

function transcript() {
  const events = [];
  const chosen = [];
  const log = createTranscript({
    strings: STRINGS, announce: () => {}, emit: (name, detail) => events.push([name, detail]),
    greeting: null, onChoose: (label) => chosen.push(label),
  });
  return { log, events, chosen, choices: () => log.list.querySelectorAll(".choices") };
}

test("the transcript shows an answer's cards once and emits cart_add", () => {
  const t = transcript();
  t.log.putTurn({ seq: 2, role: "assistant", text: "See KU-2291-M" }, true);
  t.log.putCards(2, [KURTA]);
  t.log.putTurn({ seq: 2, role: "assistant", text: "See KU-2291-M", cards: [KURTA] }, true);
  assert.equal(t.log.list.querySelectorAll(".cards").length, 1, "the frame and the turn: one list");
  t.log.list.querySelectorAll(".card-add")[0].dispatch("click");
  assert.deepEqual(t.events.filter(([name]) => name === "cart_add").map(([, d]) => d.sku), ["KU-2291-M"]);
});

test("quick replies go away when used, when the visitor types, or under an older answer", () => {
  const t = transcript();
  t.log.putTurn({ seq: 2, role: "assistant", text: "Which size?", choices: ["S", "M"] }, true);
  assert.equal(t.choices().length, 1);
  t.choices()[0].children[0].dispatch("click");
  assert.deepEqual(t.chosen, ["S"]);
  assert.equal(t.choices().length, 0, "used: gone");
  t.log.putTurn({ seq: 2, role: "assistant", text: "Which size?", choices: ["S", "M"] }, false);
  assert.equal(t.choices().length, 0, "a welcome again does not bring used ones back");

  t.log.putTurn({ seq: 4, role: "assistant", text: "Colour?", choices: ["Mint", "White"] }, true);
  assert.equal(t.choices().length, 1);
  t.log.clearChoices(); // the visitor typed
  assert.equal(t.choices().length, 0);

  t.log.putTurn({ seq: 6, role: "assistant", text: "Fit?", choices: ["Slim"] }, true);
  t.log.putTurn({ seq: 7, role: "visitor", text: "slim please" }, true);
  assert.equal(t.choices().length, 0, "the conversation moved on");
  t.log.putTurn({ seq: 1, role: "assistant", text: "old", choices: ["Old"] }, false);
  assert.equal(t.choices().length, 0, "an earlier page's answer shows none");
});

test("the owner's suggested questions: under the greeting until the conversation starts", () => {
  const chosen = [];
  const make = () =>
    createTranscript({
      strings: STRINGS, announce: () => {}, emit: () => {}, greeting: "Hello!",
      starters: ["Where is my order?", "Returns"], onChoose: (label) => chosen.push(label),
    });
  const log = make();
  const groups = () => log.list.querySelectorAll(".choices");
  assert.equal(groups().length, 1);
  assert.deepEqual(groups()[0].children.map((b) => b.textContent), ["Where is my order?", "Returns"]);
  groups()[0].children[1].dispatch("click");
  assert.deepEqual(chosen, ["Returns"]);
  assert.equal(groups().length, 0, "used: gone");

  const back = make(); // a returning visitor: the welcome brings the conversation
  back.putTurn({ seq: 1, role: "visitor", text: "hi" }, false);
  assert.equal(back.list.querySelectorAll(".choices").length, 0, "a started conversation shows none");
  back.clear(); // a new conversation
  assert.equal(back.list.querySelectorAll(".choices").length, 1, "back with the greeting");
});

test("variants: a labelled picker; the chosen one's SKU, price and stock; sold out not addable", () => {
  const added = [];
  const item = {
    ...KURTA, id: "kurta", sku: "KU-L",
    variants: [
      { label: "M", sku: "KU-M", price: "49.90", currency: "EUR", stock: "in_stock" },
      { label: "L", sku: "KU-L", price: "52.00", currency: "EUR", stock: "in_stock" },
      { label: "XXL", sku: "KU-XXL", price: "", currency: "", stock: "out_of_stock" },
    ],
  };
  const list = renderCards([item], { strings: STRINGS, onAdd: (d) => added.push(d) });
  const [select] = list.querySelectorAll(".card-variant");
  assert.equal(select.tagName, "SELECT");
  assert.equal(select.getAttribute("aria-label"), "Variant: Cotton kurta, mint");
  const options = select.children;
  assert.deepEqual(options.map((o) => o.textContent), ["M", "L", "XXL (Out of stock)"]);
  assert.ok(options[1].hasAttribute("selected"), "the variant the answer named comes first");
  assert.ok(options[2].hasAttribute("disabled"));
  assert.equal(list.querySelectorAll(".card-price")[0].textContent, "52.00 EUR");
  const [add] = list.querySelectorAll(".card-add");
  add.dispatch("click");
  select.dispatch("change", { target: { value: "0" } });
  assert.equal(list.querySelectorAll(".card-price")[0].textContent, "49.90 EUR");
  add.dispatch("click");
  assert.deepEqual(added.map((d) => [d.sku, d.variant]), [["KU-L", "KU-L"], ["KU-M", "KU-M"]]);
  select.dispatch("change", { target: { value: "2" } });
  assert.ok(add.hasAttribute("disabled"), "a sold-out variant cannot be added");
});

test("a catalogue's sizes: the chosen size is the variant; one variant is no picker", () => {
  const added = [];
  const sizes = [
    { label: "S", sku: "", stock: "out_of_stock" },
    { label: "M", sku: "", stock: "in_stock" },
  ];
  const list = renderCards([{ ...KURTA, variants: sizes }], { strings: STRINGS, onAdd: (d) => added.push(d) });
  assert.ok(list.querySelectorAll(".card-variant")[0].children[1].hasAttribute("selected"), "first in stock");
  list.querySelectorAll(".card-add")[0].dispatch("click");
  assert.deepEqual(added.map((d) => [d.sku, d.variant]), [["KU-2291-M", "M"]]);
  const single = renderCards([{ ...KURTA, variants: [sizes[1]] }], { strings: STRINGS, onAdd: () => {} });
  assert.equal(single.querySelectorAll(".card-variant").length, 0);
});
