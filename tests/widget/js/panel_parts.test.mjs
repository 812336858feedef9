// The panel's small pure parts: where Tab goes in the modal panel (focus_trap.js) and the
// export's file name (transcript_download.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { wrapTarget } from "../../../static/widget/src/focus_trap.js";
import { exportFileName } from "../../../static/widget/src/transcript_download.js";

test("Tab on the last element wraps to the first; Shift+Tab on the first to the last", () => {
  const [close, menu, composer, send] = ["close", "menu", "composer", "send"];
  const focusable = [close, menu, composer, send];
  const go = (active, shiftKey, inside = true) => wrapTarget({ focusable, active, inside, shiftKey });
  assert.equal(go(send, false), close);
  assert.equal(go(close, true), send);
  assert.equal(go(menu, false), null, "inside the panel Tab moves on by itself");
  assert.equal(go(composer, true), null);
  assert.equal(go("page link", true, false), send, "Shift+Tab from outside comes back in");
});

test("the export is saved as chat-<UTC date>.<format>", () => {
  const date = new Date("2026-03-09T23:30:00Z");
  assert.equal(exportFileName(date, "json"), "chat-2026-03-09.json");
  assert.equal(exportFileName(date, "txt"), "chat-2026-03-09.txt");
});
