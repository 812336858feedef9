// The widget's place on the shop page: `<div id="cw-root">` with an open shadow root (the
// shop's CSS stays out), the widget container inside it, and one polite live region for
// everything announced: finished answers, staff replies, status and errors.

import { LAUNCHER_CSS } from "./styles.js";
import { adoptStyles, element } from "./dom.js";

export function createHost() {
  const host = element("div", { id: "cw-root" });
  const root = host.attachShadow({ mode: "open" });
  adoptStyles(root, LAUNCHER_CSS);
  const announcer = element("div", { class: "visually-hidden", "aria-live": "polite" });
  const widget = element("div", { class: "widget scheme-auto" }, announcer);
  root.append(widget);
  // emptied first, then set a moment later, so the same text is read out again
  const announce = (text) => {
    announcer.textContent = "";
    setTimeout(() => (announcer.textContent = text), 60);
  };
  return { host, root, widget, announce };
}
