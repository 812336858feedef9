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

/** The variants the visitor chooses from (at least two, each with a label), or []. */
export function cardVariants(card) {
  const variants = (Array.isArray(card.variants) ? card.variants : []).filter(
    (v) => v && typeof v === "object" && typeof v.label === "string" && v.label,
  );
  return variants.length >= 2 ? variants : [];
}

/** The variant shown first: the one the answer named, else the first not sold out. */
export function firstVariant(card, variants) {
  const named = variants.findIndex((v) => v.sku && v.sku === card.sku);
  if (named >= 0) return named;
  return Math.max(0, variants.findIndex((v) => v.stock !== "out_of_stock"));
}

/** The `cart_add` event's detail: the product as the shop's knowledge names it, with the
 * variant the visitor chose (its SKU, or its label where the catalogue gives none). */
export function cartDetail(card, chosen) {
  const detail = {
    id: String(card.id || ""),
    sku: String((chosen && chosen.sku) || card.sku || ""),
    variant: card.sku && card.sku !== card.id ? String(card.sku) : null,
    title: String(card.title || ""),
    url: safeUrl(card.url),
  };
  if (chosen) detail.variant = String(chosen.sku || chosen.label);
  return detail;
}

/** A card's variant picker: a labelled select; sold-out variants can be seen, not chosen. */
function variantPicker(item, variants, selected, { strings: text, onPick }) {
  const options = variants.map((v, index) =>
    element(
      "option",
      { value: String(index), selected: index === selected, disabled: v.stock === "out_of_stock" },
      v.label + (v.stock === "out_of_stock" ? " (" + text.stock_out + ")" : ""),
    ),
  );
  return element(
    "select",
    {
      class: "card-variant",
      "aria-label": text.variant + ": " + String(item.title || item.sku || ""),
      onchange: (event) => onPick(Number(event.target.value)),
    },
    ...options,
  );
}

/** One card: image, title (the product link), variants, price, stock and "Add to cart". */
function card(item, { strings: text, onAdd }) {
  const url = safeUrl(item.url);
  const image = safeUrl(item.image);
  const title = String(item.title || item.sku || "");
  const variants = cardVariants(item);
  let chosen = variants.length ? firstVariant(item, variants) : -1;
  const shown = () => (chosen >= 0 ? { ...item, ...pick(variants[chosen]) } : item);
  const price = element("span", { class: "card-price" });
  const stock = element("span", { class: "card-stock" });
  const add = button(text.add_to_cart, () => onAdd(cartDetail(item, variants[chosen])), {
    class: "card-add",
    "aria-label": text.add_to_cart + ": " + title,
  });
  function update() {
    const now = shown();
    price.textContent = priceText(now);
    stock.textContent = stockText(now.stock, text);
    stock.className = "card-stock" + (now.stock === "out_of_stock" ? " out" : "");
    if (now.stock === "out_of_stock") add.setAttribute("disabled", "");
    else add.removeAttribute("disabled");
  }
  update();
  const picker =
    variants.length > 0 &&
    variantPicker(item, variants, chosen, {
      strings: text,
      onPick: (index) => ((chosen = variants[index] ? index : chosen), update()),
    });
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
      picker,
      price,
      stock,
      add,
    ),
  );
}

/** A variant's own price and stock, where it states them (else the product's). */
function pick(variant) {
  const own = {};
  if (variant.price) Object.assign(own, { price: variant.price, currency: variant.currency });
  if (variant.stock) own.stock = variant.stock;
  return own;
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
