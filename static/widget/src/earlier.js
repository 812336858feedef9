// "Show earlier messages" (issue 25): a long conversation reopens with its newest turns only
// (the welcome frame has a byte budget); this button at the top of the transcript asks the
// server for the page below the first turn shown (`history`). A real <button>, so it is
// reached with Tab and pressed with Enter or Space; while a page loads it says so
// (aria-busy, disabled); a loaded page is announced once through the shell's live region,
// never message by message.

import { button } from "./dom.js";

/**
 * `request()`: sends the `history` frame; false when it could not (not connected: the caller
 * reconnects, the visitor presses again). `firstSeq()`: the first seq shown.
 */
export function createEarlier({ strings: text, announce, request }) {
  let loading = false;
  const control = button(text.show_earlier || "Show earlier messages", () => {
    if (loading) return;
    if (request()) setLoading(true);
  }, { class: "pill-button earlier", hidden: true });

  function setLoading(on) {
    loading = on;
    if (on) control.setAttribute("aria-busy", "true"), control.setAttribute("aria-disabled", "true");
    else control.removeAttribute("aria-busy"), control.removeAttribute("aria-disabled");
  }
  return {
    element: control,
    /** Earlier turns exist on the server (welcome or history said so), or not. */
    show(on) {
      if (on) control.removeAttribute("hidden");
      else control.setAttribute("hidden", "");
    },
    isShown: () => !control.hasAttribute("hidden"),
    isLoading: () => loading,
    /** A page arrived: `count` turns added; `more`: still earlier ones below. */
    loaded(count, more, focusAfter) {
      const hadFocus = !!control.matches?.(":focus");
      setLoading(false);
      this.show(more);
      if (count) announce(text.earlier_loaded || "Earlier messages loaded.");
      // the button goes away with the last page: the focus must not vanish with it
      if (hadFocus && !more && focusAfter && focusAfter.focus) focusAfter.focus();
    },
    /** A welcome: a page asked for on the old socket will not come; `more`: earlier turns
     * exist below the welcome's (the transcript was dropped and starts from them). */
    welcomed(more) {
      setLoading(false);
      if (more) this.show(true);
    },
    reset() {
      setLoading(false);
      this.show(false);
    },
  };
}
