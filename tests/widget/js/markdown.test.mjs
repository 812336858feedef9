// markdown.js: the safe subset for answers. Links only to absolute http(s) targets, text
// always as text nodes (never markup), and the supported formatting.
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { renderMarkdown, safeUrl } from "../../../static/widget/src/markdown.js";

const document = installFakeDom();

function render(text) {
  const box = document.createElement("div");
  box.append(renderMarkdown(text));
  return box;
}
const links = (box) => box.descendants().filter((node) => node.tagName === "A");
const tags = (box) => box.descendants().map((node) => node.tagName.toLowerCase());

test("safeUrl lets only absolute http and https through", () => {
  assert.equal(safeUrl("https://shop.example/a?b=1#c"), "https://shop.example/a?b=1#c");
  assert.equal(safeUrl("http://shop.example"), "http://shop.example/");
  for (const href of [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "/relative/path",
    "//evil.example/x",
    "mailto:a@b.example",
    "",
  ]) {
    assert.equal(safeUrl(href), null, href);
  }
});

test("a link to an http(s) target opens in a new tab without opener or referrer", () => {
  const box = render("See [our shop](https://shop.example/a?b=1) today.");
  const [link] = links(box);
  assert.equal(link.getAttribute("href"), "https://shop.example/a?b=1");
  assert.equal(link.getAttribute("target"), "_blank");
  assert.equal(link.getAttribute("rel"), "noopener noreferrer");
  assert.equal(link.textContent, "our shop");
  assert.equal(box.textContent, "See our shop today.");
});

test("a javascript:, data: or relative link stays plain text, with no element", () => {
  for (const href of ["javascript:alert(document.cookie)", "data:text/html;base64,PHNjcmlwdD4=", "/account"]) {
    const box = render(`Click [here](${href}) now`);
    assert.deepEqual(links(box), [], href);
    assert.equal(box.textContent, "Click here now", href);
  }
  const nested = render("**[bold](javascript:alert(1))**");
  assert.deepEqual(links(nested), []);
  assert.deepEqual(tags(nested), ["p", "strong"]);
});

test("a bare javascript: URL is not a link; a bare https URL is, without its full stop", () => {
  assert.deepEqual(links(render("javascript:alert(1)")), []);
  const [link] = links(render("Order at https://shop.example/p/1."));
  assert.equal(link.getAttribute("href"), "https://shop.example/p/1");
  assert.equal(link.textContent, "https://shop.example/p/1");
});

test("HTML in an answer is text: no element comes from it", () => {
  const source = '<img src=x onerror="alert(1)"> <script>alert(2)</script> <a href="/account">x</a>';
  const box = render(source);
  assert.deepEqual(tags(box), ["p"]);
  assert.equal(box.textContent, source);
  const code = render("`<b>bold?</b>`");
  assert.deepEqual(tags(code), ["p", "code"]);
  assert.equal(code.textContent, "<b>bold?</b>");
});

test("the supported formatting: strong, emphasis, code, lists, headings, fences", () => {
  assert.equal(render("**strong** and *em* and __also__ and _this_").html,
    "<p><strong>strong</strong> and <em>em</em> and <strong>also</strong> and <em>this</em></p>");
  assert.equal(render("line one\nline two").html, "<p>line one<br>line two</p>");
  assert.equal(render("- a\n- **b**\n\n3. three\n4. four").html,
    '<ul><li>a</li><li><strong>b</strong></li></ul><ol start="3"><li>three</li><li>four</li></ol>');
  assert.equal(render("## Delivery ##").html, "<p><strong>Delivery</strong></p>");
  assert.equal(render("```\n**not bold** [x](https://x.example)\n```").html,
    "<pre><code>**not bold** [x](https://x.example)</code></pre>");
  assert.equal(render("- a long item\n  that wraps").html, "<ul><li>a long item that wraps</li></ul>");
});

test("snake_case and 2*3*4 are left as they are", () => {
  assert.equal(render("use order_id_field and 2*3*4").html, "<p>use order_id_field and 2*3*4</p>");
});

// Look-alikes (issue 25): what a visitor reads as the destination is where the link goes.
test("a link whose label is another URL shows its real target; the label stays plain text", () => {
  for (const label of ["https://paypal.com/login", "paypal.com", "www.paypal.com/signin", "PAYPAL.COM"]) {
    const box = render(`Log in at [${label}](https://evil.example/steal).`);
    const [link] = links(box);
    assert.equal(link.getAttribute("href"), "https://evil.example/steal", label);
    assert.equal(link.textContent, "https://evil.example/steal", "the target is what is shown");
    assert.equal(box.textContent, `Log in at ${label} (https://evil.example/steal).`, label);
    assert.equal(links(box).length, 1, "the label itself is not a link");
  }
});

test("a URL label on its own host links as before, shown as the target", () => {
  const box = render("[shop.example/orders](https://shop.example/orders)");
  const [link] = links(box);
  assert.equal(link.textContent, "https://shop.example/orders");
  assert.equal(box.textContent, "https://shop.example/orders");
  const words = render("[Order 10452.](https://shop.example/o/10452) and [v2.0 notes](https://shop.example/v2)");
  assert.deepEqual(links(words).map((a) => a.textContent), ["Order 10452.", "v2.0 notes"], "labels in words stay");
});

test("international look-alike hosts show as punycode, in bare URLs and in URL labels", () => {
  const bare = render("Pay at https://pаypal.com/login now"); // Cyrillic а
  const [link] = links(bare);
  assert.equal(link.getAttribute("href"), "https://xn--pypal-4ve.com/login");
  assert.equal(link.textContent, "https://xn--pypal-4ve.com/login");
  assert.ok(!bare.textContent.includes("pаypal"), "the look-alike letters are not shown");
  const labelled = render("[https://exämple.com/a](https://exämple.com/a)");
  assert.equal(links(labelled)[0].textContent, "https://xn--exmple-cua.com/a");
  const hidden = render("[https://pаypal.com](https://paypal.com)"); // looks the same, is not
  assert.equal(links(hidden)[0].getAttribute("href"), "https://paypal.com/");
  assert.equal(hidden.textContent, "https://xn--pypal-4ve.com/ (https://paypal.com/)", "nor as text");
  const domain = render("[pаypal.com](https://paypal.com)");
  assert.equal(domain.textContent, "https://xn--pypal-4ve.com/ (https://paypal.com/)");
});

test("user info before @ is dropped from a link: the host shown is the host visited", () => {
  const box = render("https://shop.example@evil.example/x");
  const [link] = links(box);
  assert.equal(link.getAttribute("href"), "https://evil.example/x");
  assert.equal(link.textContent, "https://evil.example/x");
  assert.equal(safeUrl("https://user:pw@shop.example/"), "https://shop.example/");
});

test("plain ASCII bare URLs are shown exactly as written", () => {
  const box = render("See https://shop.example/a?b=1 or http://shop.example.");
  assert.deepEqual(links(box).map((a) => a.textContent), ["https://shop.example/a?b=1", "http://shop.example"]);
});
