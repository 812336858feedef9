// Small DOM helpers shared by the loader and the panel. Text is always set as text nodes,
// never parsed as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";
const ICON_PATHS = {
  chat: "M21 11.5a8.4 8.4 0 0 1-12.3 7.5L3 21l2-5.5A8.4 8.4 0 1 1 21 11.5z",
  close: "M6 6l12 12M18 6L6 18",
  more: "M12 5h.01M12 12h.01M12 19h.01",
  send: "M4 12l16-8-6 16-2.5-6.5z",
};

/**
 * element("div", {class: "x", onclick: fn, "aria-label": "..."}, child, "text", ...)
 * Attributes that are null or false are left out; `true` sets an empty attribute.
 */
export function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const name in attributes) {
    const value = attributes[name];
    if (value == null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child != null && child !== false));
  return node;
}

export function button(content, onClick, attributes) {
  return element("button", { type: "button", onclick: onClick, ...attributes }, content);
}

export function icon(name) {
  const svg = document.createElementNS(SVG_NS, "svg");
  const path = document.createElementNS(SVG_NS, "path");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  path.setAttribute("d", ICON_PATHS[name]);
  svg.append(path);
  return svg;
}

/** Adds a stylesheet to a shadow root; adopted sheets are not blocked by a shop's style-src CSP. */
export function adoptStyles(root, css) {
  if (root.adoptedStyleSheets && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    root.prepend(element("style", {}, css));
  }
}

// Cookie names come from the config endpoint and contain only [A-Za-z0-9_].
export function readCookie(name) {
  const match = document.cookie.match("(^|; )" + name + "=([^;]*)");
  return match ? decodeURIComponent(match[2]) : null;
}

export function writeCookie(name, value, maxAgeSeconds) {
  document.cookie =
    name + "=" + encodeURIComponent(value) + "; path=/; max-age=" + maxAgeSeconds +
    "; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
}

export function deleteCookie(name) {
  if (readCookie(name) != null) writeCookie(name, "", 0);
}

export function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// sessionStorage holds only whether the panel is open, to reopen it after a page change
export function openFlag(value) {
  try {
    if (value === undefined) return sessionStorage.cw_open === "1";
    if (value) sessionStorage.cw_open = "1";
    else sessionStorage.removeItem("cw_open");
  } catch {
    return false;
  }
}
