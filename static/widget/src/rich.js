// An answer's product cards and quick replies (issue 33), in the panel bundle only. The
// cards' facts come from the shop's knowledge on the server (chatwidget/shop/knowledge/
// cards.py), but are still untrusted text here: set as text nodes (dom.js's `element`),
// never as HTML, and only http(s) URLs become links or images.

import { button, element } from "./dom.js";

/** `value` when it is an absolute http(s) URL, else null. */
export function safeUrl(value) {
  if (typeof value !== "string" || !value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const STOCK = { in_stock: "stock_in", out_of_stock: "stock_out", preorder: "stock_preorder" };

/** The card's stock in the visitor's language, or "" when the knowledge did not say. */
export function stockText(stock, text) {
  return (STOCK[stock] && text[STOCK[stock]]) || "";
}

/** "49.90 EUR", or "" without a price. */
export function priceText(card) {
  const price = String(card.price || "");
  return price ? (price + " " + String(card.currency || "")).trim() : "";
}

/** The `cart_add` event's detail: the product as the shop's knowledge names it. */
export function cartDetail(card) {
  return {
    id: String(card.id || ""),
    sku: String(card.sku || ""),
    variant: card.sku && card.sku !== card.id ? String(card.sku) : null,
    title: String(card.title || ""),
    url: safeUrl(card.url),
  };
}

/** One card: image, title (the product link), price, stock and "Add to cart". */
function card(item, { strings: text, onAdd }) {
  const url = safeUrl(item.url);
  const image = safeUrl(item.image);
  const title = String(item.title || item.sku || "");
  const stock = stockText(item.stock, text);
  const soldOut = item.stock === "out_of_stock";
  return element(
    "li",
    { class: "card" },
    image && element("img", { src: image, alt: "", loading: "lazy", referrerpolicy: "no-referrer" }),
    element(
      "div",
      { class: "card-body" },
      url
        ? element("a", { class: "card-title", href: url, rel: "noopener" }, title)
        : element("span", { class: "card-title" }, title),
      priceText(item) && element("span", { class: "card-price" }, priceText(item)),
      stock && element("span", { class: "card-stock" + (soldOut ? " out" : "") }, stock),
      button(text.add_to_cart, () => onAdd(cartDetail(item)), {
        class: "card-add",
        disabled: soldOut,
        "aria-label": text.add_to_cart + ": " + title,
      }),
    ),
  );
}

/** The cards of one answer as a list (a row that scrolls sideways when there are several). */
export function renderCards(cards, options) {
  const items = (Array.isArray(cards) ? cards : []).filter((item) => item && typeof item === "object");
  if (!items.length) return null;
  return element(
    "ul",
    { class: "cards", "aria-label": options.strings.cards_label },
    ...items.map((item) => card(item, options)),
  );
}

/**
 * Quick replies: a group of buttons; a click hands the label to `onChoose`. Labels are
 * checked on the server (at most five, 40 characters, plain text); here only strings count.
 */
export function renderChoices(choices, { strings: text, onChoose }) {
  const labels = (Array.isArray(choices) ? choices : [])
    .filter((label) => typeof label === "string" && label.trim())
    .slice(0, 5);
  if (!labels.length) return null;
  return element(
    "div",
    { class: "choices", role: "group", "aria-label": text.choices_label },
    ...labels.map((label) => button(label, () => onChoose(label), { class: "choice" })),
  );
}
