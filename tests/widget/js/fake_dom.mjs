// A tiny stand-in for the browser's DOM, enough for the widget modules that build nodes
// (dom.js's `element`, markdown.js, transcript.js) to run under `node --test`: elements with
// attributes, classes, children (moved, not copied, as in the DOM), text nodes, fragments,
// and a cookie jar. No parser: nothing here turns a string into elements, so a test that
// finds an element found one the widget built.

class FakeNode {
  parentNode = null;
  remove() {
    if (this.parentNode) this.parentNode.detach(this);
  }
}

export class FakeText extends FakeNode {
  nodeType = 3;
  constructor(data) {
    super();
    this.data = String(data);
  }
  get textContent() {
    return this.data;
  }
}

export class FakeElement extends FakeNode {
  nodeType = 1;
  childNodes = [];
  attributes = new Map();
  listeners = new Map();
  style = {};
  className = "";
  constructor(tagName) {
    super();
    this.tagName = tagName.toUpperCase();
  }
  get children() {
    return this.childNodes.filter((node) => node.nodeType === 1);
  }
  get lastChild() {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }
  get textContent() {
    return this.childNodes.map((node) => node.textContent).join("");
  }
  set textContent(value) {
    this.replaceChildren(...(value === "" ? [] : [String(value)]));
  }
  get classList() {
    const names = () => this.className.split(/\s+/).filter(Boolean);
    const set = (list) => (this.className = list.join(" "));
    return {
      contains: (name) => names().includes(name),
      add: (...added) => set([...new Set([...names(), ...added])]),
      remove: (...removed) => set(names().filter((name) => !removed.includes(name))),
      replace: (old, next) => {
        const list = names();
        if (!list.includes(old)) return false;
        set(list.map((name) => (name === old ? next : name)));
        return true;
      },
      toggle: (name, force = !names().includes(name)) => {
        set(force ? [...new Set([...names(), name])] : names().filter((item) => item !== name));
        return force;
      },
    };
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }
  hasAttribute(name) {
    return this.attributes.has(name);
  }
  removeAttribute(name) {
    this.attributes.delete(name);
  }
  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(listener);
  }
  /** Test helper: calls the listeners of `type` with `event`. */
  dispatch(type, event = {}) {
    for (const listener of this.listeners.get(type) || []) listener(event);
  }
  adopt(node) {
    if (typeof node === "string") return [new FakeText(node)];
    if (node.nodeType === 11) return node.childNodes.splice(0).map((child) => (child.parentNode = null, child));
    node.remove();
    return [node];
  }
  append(...nodes) {
    for (const node of nodes) {
      for (const child of this.adopt(node)) {
        child.parentNode = this;
        this.childNodes.push(child);
      }
    }
  }
  prepend(...nodes) {
    const first = this.childNodes[0];
    if (!first) return this.append(...nodes);
    for (const node of nodes) this.insertBefore(node, first);
  }
  insertBefore(node, reference) {
    if (reference == null) return this.append(node), node;
    for (const child of this.adopt(node)) {
      child.parentNode = this;
      this.childNodes.splice(this.childNodes.indexOf(reference), 0, child);
    }
    return node;
  }
  replaceChildren(...nodes) {
    for (const child of this.childNodes.splice(0)) child.parentNode = null;
    this.append(...nodes);
  }
  detach(node) {
    this.childNodes.splice(this.childNodes.indexOf(node), 1);
    node.parentNode = null;
  }
  contains(node) {
    for (let current = node; current; current = current.parentNode) if (current === this) return true;
    return false;
  }
  /** Class selectors only (".note.error"): the elements below this one that have them all. */
  querySelectorAll(selector) {
    const classes = selector.split(".").filter(Boolean);
    return this.descendants().filter((node) => classes.every((name) => node.classList.contains(name)));
  }
  /** Test helper: every element below this one, in document order. */
  descendants() {
    return this.children.flatMap((child) => [child, ...child.descendants()]);
  }
  /** Test helper: the tree as markup, text escaped; for readable assertions. */
  get html() {
    return this.childNodes
      .map((node) => {
        if (node.nodeType === 3) return node.data.replace(/&/g, "&amp;").replace(/</g, "&lt;");
        const tag = node.tagName.toLowerCase();
        const attributes = [...node.attributes].map(([name, value]) => ` ${name}="${value}"`);
        if (node.className) attributes.unshift(` class="${node.className}"`);
        const open = `<${tag}${attributes.join("")}>`;
        return tag === "br" ? open : `${open}${node.html}</${tag}>`;
      })
      .join("");
  }
}

class FakeFragment extends FakeElement {
  nodeType = 11;
  constructor() {
    super("#fragment");
  }
}

/** A document with a cookie jar (`name=value; path=/; max-age=N`; max-age=0 deletes). */
export function fakeDocument() {
  const jar = new Map();
  return {
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (namespace, tag) => new FakeElement(tag),
    createDocumentFragment: () => new FakeFragment(),
    createTextNode: (data) => new FakeText(data),
    /** Test helper: the cookies as written, name -> the whole string written. */
    written: jar,
    get cookie() {
      return [...jar.keys()].map((name) => name + "=" + jar.get(name).split(";")[0].split("=").slice(1).join("=")).join("; ");
    },
    set cookie(value) {
      const name = value.split("=")[0];
      if (/;\s*max-age=0(;|$)/.test(value)) jar.delete(name);
      else jar.set(name, value);
    },
  };
}

/** Puts a fake `document` (and what dom.js reads next to it) on globalThis. */
export function installFakeDom() {
  globalThis.document = fakeDocument();
  globalThis.location ??= { protocol: "http:" };
  return globalThis.document;
}
