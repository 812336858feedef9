// What the widget keeps in the shop's browser (static/widget/README.md "Browser storage"):
// the session token, in memory and in the session cookie only once the visitor did
// something (never on page load), and the recognition cookie, only after the visitor's
// consent and deleted at once when it is withdrawn.

import { deleteCookie, readCookie, writeCookie } from "./dom.js";

/** `onChange(hasToken)`: after every change of the token (the menu's export needs one). */
export function createSession({ sessionCookie, recognitionCookie, onChange }) {
  let token = null;
  let visitorActed = false; // the session cookie is written only after the visitor acted

  function setToken(value, persist) {
    token = value || null;
    if (token && persist) writeCookie(sessionCookie.name, token, sessionCookie.max_age);
    if (!token) deleteCookie(sessionCookie.name);
    onChange(!!token);
  }

  return {
    token: () => token,
    /** The token to say hello with: this page's, else the cookie's (a conversation exists). */
    stored: () => token || readCookie(sessionCookie.name),
    markActed: () => (visitorActed = true),
    /** A `welcome`'s token, into the cookie if the visitor acted or a cookie was there. */
    welcomed: (value) => setToken(value, visitorActed || readCookie(sessionCookie.name) != null),
    /** An `ack`'s token: the first message creates the cookie, every ack refreshes it. */
    acknowledged(value) {
      visitorActed = true;
      setToken(value, true);
    },
    /** Forgotten, or a new conversation: no token, no cookie, nothing done yet. */
    reset() {
      visitorActed = false;
      setToken(null);
    },
    recognition: () => readCookie(recognitionCookie.name),
    /** The server's `consent` frame: its token becomes the recognition cookie, or none. */
    consented(frame) {
      if (frame.recognition && frame.token) {
        writeCookie(recognitionCookie.name, frame.token, frame.max_age || recognitionCookie.max_age);
      }
      if (!frame.recognition) deleteCookie(recognitionCookie.name);
    },
    /** Withdrawal takes effect at once, before the server answers. */
    forgetRecognition: () => deleteCookie(recognitionCookie.name),
  };
}
