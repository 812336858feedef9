// identity.js: what `identify` accepts (DESIGN.md `hello.identity`): the four fields as
// strings, kept as given, or nothing at all.
import { test } from "node:test";
import assert from "node:assert/strict";

import { identityFrom, sameIdentity } from "../../../static/widget/src/identity.js";

test("an identity keeps its four fields as strings", () => {
  const given = { id: 4711, email: "a@b.de", name: "Anna", signature: "ab12", extra: "x" };
  assert.deepEqual(identityFrom(given), {
    id: "4711",
    email: "a@b.de",
    name: "Anna",
    signature: "ab12",
  });
  assert.deepEqual(identityFrom({ id: "c", signature: "s" }), {
    id: "c",
    email: "",
    name: "",
    signature: "s",
  });
});

test("anything else is no identity", () => {
  for (const value of [null, undefined, "c-1", 5, {}, { id: "c" }, { signature: "s" }, { id: {}, signature: "s" }]) {
    assert.equal(identityFrom(value), null, JSON.stringify(value));
  }
});

test("two identities are the same only field for field", () => {
  assert.ok(sameIdentity(null, null));
  assert.ok(sameIdentity(identityFrom({ id: "c", signature: "s" }), identityFrom({ id: "c", signature: "s" })));
  assert.ok(!sameIdentity(identityFrom({ id: "c", signature: "s" }), null));
});
