// What the connection and the conversation's state say around the transcript: the status
// line (reconnecting, offline, a brief outage), the banner of a handover (waiting for a
// person, a person is here, closed), the offer to continue by e-mail under it
// (email_offer.js), the "Talk to a person" bar while the assistant answers and the "Start a
// new conversation" bar of a closed case.

import { button, element } from "./dom.js";
import { emailOfferVisible, hasEmailAddress } from "./email_offer.js";

/** `isVisible()`: whether the panel is open (a status is announced only then). */
export function createBanners({ strings: text, announce, isVisible, onAskForPerson, onRestart }) {
  let lastStatus = "";
  const status = element("div", { class: "status", hidden: true });
  const banner = element("div", { class: "banner", hidden: true });
  const offer = element("p", { class: "email-offer", hidden: true }, text.email_offer || "");
  let shownState = "bot";
  let emailGiven = false;
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
    shownState = state;
    showOffer();
  }
  function showOffer() {
    offer.hidden = !text.email_offer || !emailOfferVisible(shownState, emailGiven);
  }
  /** A visitor turn's text: once it holds an e-mail address the offer goes. */
  function noteVisitorText(value) {
    if (!emailGiven && hasEmailAddress(value)) (emailGiven = true), showOffer();
  }
  /** A new conversation: no address given in it yet. */
  function resetEmail() {
    emailGiven = false;
    showOffer();
  }

  return {
    status,
    banner,
    offer,
    handoverBar,
    restartBar,
    showStatus,
    showState,
    noteVisitorText,
    resetEmail,
  };
}
