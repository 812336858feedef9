// The offer to continue by e-mail (issue 32): while a person is to answer (waiting, human),
// a line under the banner says that an e-mail address written in the chat brings the team's
// answer by e-mail if the visitor has to leave. It goes once the visitor has written one in
// this conversation (their own turns, as the server stored them, or as sent); the server
// then e-mails staff replies made while no widget of the conversation is connected.

const ADDRESS = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]{2,}/;

/** Whether `text` holds something shaped like an e-mail address (masked ones count). */
export function hasEmailAddress(text) {
  return ADDRESS.test(text || "");
}

/** Whether the offer shows: a person is to answer and no address was given yet. */
export function emailOfferVisible(state, emailGiven) {
  return (state === "waiting" || state === "human") && !emailGiven;
}
