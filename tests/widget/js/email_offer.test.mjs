// The offer to continue by e-mail (static/widget/src/email_offer.js, issue 32): shown while a
// person is to answer, gone once the visitor wrote an e-mail address.
import { test } from "node:test";
import assert from "node:assert/strict";

import { emailOfferVisible, hasEmailAddress } from "../../../static/widget/src/email_offer.js";

test("the offer shows while a person is to answer and no address was given", () => {
  assert.equal(emailOfferVisible("waiting", false), true);
  assert.equal(emailOfferVisible("human", false), true);
  assert.equal(emailOfferVisible("bot", false), false);
  assert.equal(emailOfferVisible("closed", false), false);
  assert.equal(emailOfferVisible("waiting", true), false);
});

test("an e-mail address in a visitor turn is recognised, masked or not", () => {
  assert.equal(hasEmailAddress("Write to anna.b@example.com please"), true);
  assert.equal(hasEmailAddress("<anna@example.de>"), true);
  assert.equal(hasEmailAddress("a***@e******.com"), true);
  assert.equal(hasEmailAddress("I am @home, order 55-1031"), false);
  assert.equal(hasEmailAddress("anna@localhost"), false);
  assert.equal(hasEmailAddress(""), false);
  assert.equal(hasEmailAddress(undefined), false);
});
