// The loader's small parts: the launcher's accessible name (launcher.js) and the e-mail
// continuation's code in the URL fragment (continuation.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { createLauncher, launcherLabel } from "../../../static/widget/src/launcher.js";
import { continuationCode } from "../../../static/widget/src/continuation.js";

const STRINGS = { open: "Open chat", close: "Close chat", new_message: "new message" };

test("the launcher says what a click does, how much is new, and the site's label", () => {
  const label = (state) => launcherLabel({ strings: STRINGS, label: null, unread: 0, open: false, ...state });
  assert.equal(label({}), "Open chat");
  assert.equal(label({ open: true }), "Close chat");
  assert.equal(label({ unread: 2 }), "Open chat (2 new message)");
  assert.equal(label({ unread: 2, open: true }), "Close chat");
  assert.equal(label({ label: "Questions?", unread: 1 }), "Questions?, Open chat (1 new message)");
  assert.equal(label({ label: "Questions?", open: true }), "Close chat");
});

test("the launcher appears on show, first in the widget, and follows the state", () => {
  const document = installFakeDom();
  const widget = document.createElement("div");
  widget.append(document.createElement("div")); // the live region
  let clicks = 0;
  const launcher = createLauncher({ widget, onClick: () => clicks++ });
  launcher.update({ open: false, unread: 0, strings: STRINGS });
  assert.equal(launcher.element, null, "nothing before the config (or its failure)");
  launcher.setLabel("Questions?");
  launcher.show({ open: false, unread: 3, strings: STRINGS });
  const button = launcher.element;
  assert.equal(widget.children[0], button);
  assert.equal(button.getAttribute("aria-expanded"), "false");
  assert.equal(button.getAttribute("aria-label"), "Questions?, Open chat (3 new message)");
  assert.ok(button.classList.contains("has-unread"));
  assert.equal(button.textContent, "Questions?");
  button.dispatch("click");
  assert.equal(clicks, 1);
  launcher.update({ open: true, unread: 0, strings: STRINGS });
  assert.equal(button.getAttribute("aria-expanded"), "true");
  assert.equal(button.textContent, "", "the icon only while open");
  assert.ok(widget.classList.contains("is-open"));
  assert.equal(button.classList.contains("has-unread"), false);
});

test("the continuation code is read from the fragment only in its own shape", () => {
  assert.equal(continuationCode("#cw-continue=abc.DEF:12-x_y"), "abc.DEF:12-x_y");
  assert.equal(continuationCode("#top&cw-continue=k1"), "k1");
  assert.equal(continuationCode("#xcw-continue=k1"), null);
  assert.equal(continuationCode(""), null);
  assert.equal(continuationCode("#cw-continue=<script>"), null);
});
