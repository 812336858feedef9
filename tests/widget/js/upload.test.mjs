// Photos and files from the visitor (issue 33, static/widget/src/upload.js): no button when
// the site takes no uploads; a labelled attach button and a file input that accepts what the
// server says; the error's words (the server's card notice, else the widget's string).
import { test } from "node:test";
import assert from "node:assert/strict";

import { installFakeDom } from "./fake_dom.mjs";
import { createUploader, uploadError } from "../../../static/widget/src/upload.js";

installFakeDom();

const STRINGS = {
  attach: "Attach a photo or file", attachment: "Attachment", uploading: "Uploading",
  upload_err_too_large: "too large", err_generic: "generic",
};

test("no attach button when the site takes no uploads", () => {
  assert.equal(createUploader({ strings: STRINGS, config: {} }), null);
});

test("the attach button is labelled and the input accepts the server's types", () => {
  const uploader = createUploader({
    strings: STRINGS,
    config: { upload_url: "http://w.test/upload", upload_accept: "image/jpeg,application/pdf" },
  });
  assert.equal(uploader.button.getAttribute("aria-label"), "Attach a photo or file");
  assert.equal(uploader.button.getAttribute("type"), "button");
  assert.equal(uploader.input.getAttribute("accept"), "image/jpeg,application/pdf");
  assert.equal(uploader.input.getAttribute("tabindex"), "-1");
  uploader.setClosed(true);
  assert.equal(uploader.button.disabled, true);
});

test("an error says the server's notice, else the widget's words for its code", () => {
  const notice = "For your safety we removed the card number.";
  assert.equal(uploadError({ error: "never_kept", message: notice }, STRINGS), notice);
  assert.equal(uploadError({ error: "too_large" }, STRINGS), "too large");
  assert.equal(uploadError({ error: "what" }, STRINGS), "generic");
  assert.equal(uploadError(null, STRINGS), "generic");
});
