// A safe Markdown subset for answers: paragraphs, line breaks, bullet and numbered lists,
// fenced and inline code, **strong**, *emphasis*, [links](https://...) and bare http(s) URLs.
// Everything is built as DOM nodes with text nodes: no innerHTML of untrusted text. A link
// whose target is not http(s) (javascript:, data:, relative ...) stays plain text.
// Look-alikes (issue 25): a host is always shown as the browser resolves it, international
// names as punycode (xn--), never as the look-alike letters; a link whose label reads like a
// URL shows its real target, and the label, if it names another host, only as plain text
// before it; user info ("https://shop.example@evil.example") is dropped from links.

import { element } from "./dom.js";

const INLINE = new RegExp(
  [
    "(`+)([^`]+?)\\1", // 1,2: code
    "\\*\\*(\\S(?:[^*]*?\\S)?)\\*\\*", // 3: strong
    "(?<![\\w*])__(\\S(?:[^_]*?\\S)?)__(?![\\w])", // 4: strong
    "(?<![\\w*])\\*(\\S(?:[^*]*?\\S)?)\\*(?![\\w*])", // 5: emphasis
    "(?<![\\w_])_(\\S(?:[^_]*?\\S)?)_(?![\\w_])", // 6: emphasis
    "\\[([^\\]\\n]+)\\]\\(\\s*<?([^()\\s<>]*(?:\\([^()\\s]*\\)[^()\\s<>]*)*)>?\\s*\\)", // 7,8: link
    "(https?:\\/\\/[^\\s<>()\"']*[^\\s<>()\"'.,;:!?*_])", // 9: bare URL
  ].join("|"),
);

/** The parsed URL if it is absolute http(s), without user info; else null. */
function parseUrl(href) {
  try {
    const url = new URL(href);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.username = url.password = "";
    return url;
  } catch {
    return null;
  }
}

/** The URL if it is absolute http(s) (its host in ASCII, punycode), else null. */
export function safeUrl(href) {
  const url = parseUrl(href);
  return url ? url.href : null;
}

// The host as written after the scheme (and user info): compared with the parsed one
const WRITTEN_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#]*@)?([^/?#:]*)/i;
// A label that reads like a URL: a scheme, "www.", or a domain name with a dot
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+$|^(?:[\p{L}\p{N}-]+[.\u3002\uff0e\uff61])+[\p{L}\p{N}-]{2,}(?:[/:?#]\S*)?$/iu;

/** A URL as shown (bare, or a link's label; `url`: parsed from it): as written, unless its
 * host or user info reads otherwise than where the browser goes (an international host,
 * full-width dots, user info: the ASCII href, punycode). */
export function shownUrl(text, url = parseUrl(text)) {
  if (!url) return text;
  const written = WRITTEN_HOST.exec(text) || WRITTEN_HOST.exec("https://" + text);
  const plain = written && written[0].indexOf("@") < 0 && written[1].toLowerCase() === url.hostname;
  return plain ? text : url.href;
}

/** The URL a label that reads like one names, or null (a label in words). */
function labelUrl(label) {
  const text = label.trim();
  if (!URL_LIKE.test(text)) return null;
  return parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : "https://" + text);
}

function anchor(url, ...children) {
  return element("a", { href: url.href, target: "_blank", rel: "noopener noreferrer" }, ...children);
}

function link(href, children, labelText) {
  const url = parseUrl(href);
  if (!url) return children;
  const named = labelText == null ? null : labelUrl(labelText);
  if (named == null) return [anchor(url, ...children)];
  // the label reads like a URL: the link shows where it goes; another host stays text
  if (named.hostname === url.hostname) return [anchor(url, url.href)];
  return [shownUrl(labelText.trim(), named), " (", anchor(url, url.href), ")"];
}

/** Plain text of inline markup (a link's label, for the look-alike check). */
function inlineText(text) {
  return renderInline(text).map((node) => (typeof node === "string" ? node : node.textContent)).join("");
}

/** Inline markup of one line (or a few joined lines) as an array of nodes. */
export function renderInline(text) {
  const nodes = [];
  let rest = text;
  while (rest) {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push(rest);
      break;
    }
    if (match.index) nodes.push(rest.slice(0, match.index));
    const [whole, , code, strong, strongAlt, emphasis, emphasisAlt, label, href, bare] = match;
    if (code != null) nodes.push(element("code", {}, code));
    else if (strong != null || strongAlt != null)
      nodes.push(element("strong", {}, ...renderInline(strong ?? strongAlt)));
    else if (emphasis != null || emphasisAlt != null)
      nodes.push(element("em", {}, ...renderInline(emphasis ?? emphasisAlt)));
    else if (label != null) nodes.push(...link(href, renderInline(label), inlineText(label)));
    else nodes.push(...link(bare, [shownUrl(bare)]));
    rest = rest.slice(match.index + whole.length);
  }
  return nodes;
}

function paragraph(lines) {
  const children = [];
  lines.forEach((line, index) => {
    if (index) children.push(element("br"));
    children.push(...renderInline(line));
  });
  return element("p", {}, ...children);
}

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/** Markdown text as a DocumentFragment of block elements. */
export function renderMarkdown(text) {
  const fragment = document.createDocumentFragment();
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  let paragraphLines = [];
  let list = null;
  const endParagraph = () => {
    if (paragraphLines.length) fragment.append(paragraph(paragraphLines));
    paragraphLines = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      list = null;
      const code = [];
      while (++index < lines.length && !lines[index].trimStart().startsWith(fence[1])) {
        code.push(lines[index]);
      }
      fragment.append(element("pre", {}, element("code", {}, code.join("\n"))));
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = !bullet && NUMBERED.exec(line);
    if (bullet || numbered) {
      endParagraph();
      const tag = bullet ? "ul" : "ol";
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = element(tag, numbered && numbered[1] !== "1" ? { start: numbered[1] } : {});
        fragment.append(list);
      }
      list.append(element("li", {}, ...renderInline(bullet ? bullet[1] : numbered[2])));
      continue;
    }
    if (!line.trim()) {
      endParagraph();
      list = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      list = null;
      fragment.append(element("p", {}, element("strong", {}, ...renderInline(heading[1]))));
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      list.lastChild.append(" ", ...renderInline(line.trim())); // a wrapped list item
      continue;
    }
    list = null;
    paragraphLines.push(line);
  }
  endParagraph();
  return fragment;
}
