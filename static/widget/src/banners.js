// What the connection and the conversation's state say around the transcript: the status
// line (reconnecting, offline, a brief outage), the banner of a handover (waiting for a
// person, a person is here, closed), the "Talk to a person" bar while the assistant answers
// and the "Start a new conversation" bar of a closed case.

import { button, element } from "./dom.js";

/** `isVisible()`: whether the panel is open (a status is announced only then). */
export function createBanners({ strings: text, announce, isVisible, onAskForPerson, onRestart }) {
  let lastStatus = "";
  const status = element("div", { class: "status", hidden: true });
  const banner = element("div", { class: "banner", hidden: true });
  const handoverBar = element(
    "div",
    { class: "handover-bar" },
    button(text.talk_to_person, onAskForPerson, { class: "pill-button" }),
  );
  const restartBar = element(
    "div",
    { class: "restart-bar", hidden: true },
    button(text.new_conversation || "Start a new conversation", () => onRestart(), {
      class: "pill-button",
    }),
  );

  /** The status line; empty hides it. A new status is announced while the panel is open. */
  function showStatus(value) {
    status.textContent = value || "";
    status.hidden = !value;
    if (value && value !== lastStatus && isVisible()) announce(value);
    lastStatus = value || "";
  }
  /** The conversation state: bot, waiting, human or closed. */
  function showState(state) {
    banner.className = "banner " + state;
    banner.textContent = text[state] || "";
    banner.hidden = state === "bot";
    handoverBar.hidden = state !== "bot";
    restartBar.hidden = state !== "closed";
  }

  return { status, banner, handoverBar, restartBar, showStatus, showState };
}
