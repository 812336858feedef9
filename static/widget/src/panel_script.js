// Loads panel.js, the second built file, next to the loader's own URL with the panel's
// content hash as its version (set by the build), copying the loader's CSP nonce. The panel
// script hands its factory over through `window.__cwPanel`, once.

import { element } from "./dom.js";

/* global PANEL_VERSION */ // set by the build: the panel file's content hash

/** Resolves with the panel factory (`createPanel` of panel.js). */
export function loadPanelScript(script) {
  return new Promise((resolve, reject) => {
    window.__cwPanel = (factory) => {
      delete window.__cwPanel;
      resolve(factory);
    };
    const tag = element("script", {
      src: new URL("panel.js?v=" + PANEL_VERSION, script.src).href,
      async: true,
      onerror: () => (tag.remove(), reject(new Error("panel.js did not load"))),
    });
    tag.nonce = script.nonce;
    document.head.append(tag);
  });
}
