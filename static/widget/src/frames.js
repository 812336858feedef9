// The websocket protocol's frames, the JS twin of chatwidget/platform/frames.py (DESIGN.md "The
// websocket protocol"): one builder per frame the widget sends, and the names of the frames
// and error codes it reads. Nothing else in the widget spells a frame object, so a field
// added or renamed here is added or renamed everywhere. Field order is the order on the
// wire (JSON.stringify keeps insertion order); keep it as it is.

/** Frame types, as FrameType in chatwidget/platform/frames.py (those the widget sends or reads). */
export const FrameType = Object.freeze({
  // widget -> server
  HELLO: "hello",
  HANDOVER: "handover",
  FORGET: "forget",
  // both ways: the widget asks, the server answers with a frame of the same type
  MESSAGE: "message",
  CONSENT: "consent",
  PROFILE: "profile",
  RATING: "rating",
  HISTORY: "history", // earlier turns of a long conversation, a page at a time
  ATTACHED: "attached", // an upload (upload.js) is stored: answer it
  // server -> widget
  WELCOME: "welcome",
  ACK: "ack",
  DELTA: "delta",
  STATE: "state",
  ERROR: "error",
  FORGOTTEN: "forgotten",
  CARDS: "cards", // an answer's product cards (issue 33)
});

/** Error codes of `error` frames the widget acts on (ErrorCode in chatwidget/platform/frames.py). */
export const ErrorCode = Object.freeze({
  UNAVAILABLE: "unavailable", // briefly down: the widget sends the message again
  MODEL_UNAVAILABLE: "model_unavailable", // no answer after the ack: "Ask again"
  IDENTITY_INVALID: "identity_invalid", // the shop's signature did not verify: the chat goes on anonymously
});

/**
 * First on every socket. `lastSeq`: the highest complete seq the widget shows, or null.
 * `identity`: the customer the shop signed in (`identify`), `{id, email, name, signature}`, or null.
 */
export function helloFrame({ session, lastSeq, lang, recognition, identity }) {
  return { type: FrameType.HELLO, session, last_seq: lastSeq, lang, recognition, identity: identity || null };
}

/** The visitor's message; the client id makes a resend idempotent. `page`: `{url, title}`
 * where the visitor wrote it (page.js), left out when null. */
export function messageFrame({ id, text, page = null }) {
  const frame = { type: FrameType.MESSAGE, id, text };
  if (page) frame.page = { url: page.url, title: page.title };
  return frame;
}

/** The visitor asks for a person. */
export function handoverFrame({ reason }) {
  return { type: FrameType.HANDOVER, reason };
}

/** Recognition on this device: given (true) or withdrawn (false). */
export function consentFrame({ recognition }) {
  return { type: FrameType.CONSENT, recognition };
}

/** Erase this conversation now. */
export function forgetFrame() {
  return { type: FrameType.FORGET };
}

/** "What do you know about me?": the server answers with a `profile` frame. */
export function profileFrame() {
  return { type: FrameType.PROFILE };
}

/** "Show earlier messages": the page of turns below `beforeSeq` (the first seq shown). */
export function historyFrame({ beforeSeq }) {
  return { type: FrameType.HISTORY, before_seq: beforeSeq };
}

/** The visitor's rating of the resolved case: score 1-5 and an optional comment. */
export function ratingFrame({ score, comment }) {
  return { type: FrameType.RATING, score, comment };
}

/** The upload stored its turn (POST .../upload): the socket answers it. `session`: the
 * token of the conversation the upload started (a photo before the first message), which
 * the socket joins. */
export function attachedFrame(session) {
  return session ? { type: FrameType.ATTACHED, session } : { type: FrameType.ATTACHED };
}
