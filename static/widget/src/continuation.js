// E-mail continuation: the e-mail's link lands on the shop page with a one-time code in the
// URL fragment (never sent to a server); it is removed from the address bar and exchanged by
// POST (the code in the body, never in a URL) for a session of the same conversation, which
// becomes the session cookie. The browser's current session goes along: when it already
// holds that conversation it is kept as it is. An invalid or used code changes nothing.

import { readCookie, writeCookie } from "./dom.js";

/** The one-time code in a location hash (`#cw-continue=...`), or null. */
export function continuationCode(hash) {
  const match = /(?:^#|&)cw-continue=([\w.:-]+)/.exec(hash);
  return match ? match[1] : null;
}

/** Resolves true if the page continues a conversation (its session cookie is now set). */
export function continueFromLink(config) {
  const code = continuationCode(location.hash);
  if (!code || !config.continue_url) return Promise.resolve(false);
  history.replaceState(null, "", location.pathname + location.search);
  return fetch(config.continue_url, {
    method: "POST",
    credentials: "omit",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, session: readCookie(config.session_cookie.name) }),
  })
    .then((response) => (response.ok ? response.json() : null))
    .then(
      (data) => {
        if (!data || !data.session) return false;
        const cookie = config.session_cookie;
        writeCookie(cookie.name, data.session, cookie.max_age);
        return true;
      },
      () => false,
    );
}
