// What the visitor sends over the websocket, kept until it is safe. Messages stay here with
// their client id until the server acknowledges them and are sent again, with the same id,
// after each `welcome` (the server answers a repeated id with the same ack and no second
// turn), with the page they were written on (page.js), not the one shown at the resend. Control
// frames (handover, consent, forget, profile, rating) sent while offline go out after the next
// `welcome`. `connection`: connection.js's object.

import { messageFrame } from "./frames.js";

export function createOutbox(connection) {
  const unacked = new Map(); // client id -> {text, record, page} until acked
  const frame = (id, item) => messageFrame({ id, text: item.text, page: item.page });
  const byClientId = new Map(); // client id -> record, for error notes
  const held = []; // control frames sent while offline

  return {
    /** A new message: sent now if the socket is ready, else connects (sent after welcome).
     * `page`: where it was written ({url, title}), or null. */
    send(id, text, record, page = null) {
      const item = page ? { text, record, page } : { text, record };
      unacked.set(id, item);
      byClientId.set(id, record);
      if (connection.isReady()) connection.send(frame(id, item));
      else connection.connect();
    },
    /** A control frame: sent now if the socket is ready, else held and connects. */
    control(frame) {
      if (connection.isReady()) connection.send(frame);
      else held.push(frame), connection.connect();
    },
    /** After `welcome`: every unacknowledged message again, in order, then the held frames. */
    flush() {
      unacked.forEach((item, id) => connection.send(frame(id, item)));
      held.splice(0).forEach(connection.send);
    },
    /** The unacknowledged message with this client id: {text, record[, page]}, or undefined. */
    pending: (id) => unacked.get(id),
    /** The transcript record of any message sent from this page with this client id. */
    record: (id) => byClientId.get(id),
    /** Acknowledged or refused: not sent again. */
    settle: (id) => unacked.delete(id),
    /** The same message once more (same id), if still unacknowledged and connected. */
    resend(id) {
      const item = unacked.get(id);
      if (item && connection.isReady()) connection.send(frame(id, item));
    },
    /** Forgotten or a new conversation: nothing is sent again. */
    clear: () => unacked.clear(),
  };
}
