// Where the visitor is, sent with each message (DESIGN.md: the `message` frame's `page`):
// `location.href` and `document.title` as they are when the message is sent, or what the shop
// page set last with the `setPage` command (single-page shops, whose URL and title may lag
// behind what is shown). Only http(s) pages are sent; the fragment never is; a title is cut to
// MAX_TITLE, and a URL over MAX_URL loses its query string (or, still too long, is not sent):
// the server refuses a page beyond these bounds (chatwidget/widget/protocol.py).

export const MAX_URL = 2048;
export const MAX_TITLE = 300;

/** `{url, title}` within the bounds, or null (not an http(s) URL). */
export function pageBounded(url, title) {
  let parsed;
  try {
    parsed = new URL(String(url));
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  parsed.hash = "";
  if (parsed.href.length > MAX_URL) parsed.search = "";
  if (parsed.href.length > MAX_URL) return null;
  const text = String(title == null ? "" : title).replace(/\s+/g, " ").trim();
  return { url: parsed.href, title: text.slice(0, MAX_TITLE) };
}

/**
 * `win`: the window (its `location` and `document`). `set({url, title})` is the `setPage`
 * command: `url` relative to the current location, `title` optional (then the document's);
 * `set(null)` goes back to reading the window. `current()`: the page to send now, or null.
 */
export function createPageContext(win) {
  let given = null;
  return {
    set(value) {
      if (value == null) {
        given = null;
        return;
      }
      if (typeof value !== "object" || value.url == null) {
        throw new TypeError("setPage takes {url, title}");
      }
      const url = new URL(String(value.url), win.location.href).href;
      const page = pageBounded(url, value.title == null ? win.document.title : value.title);
      if (!page) throw new TypeError("setPage takes an http(s) url");
      given = page;
    },
    current: () => given || pageBounded(win.location.href, win.document.title),
  };
}
