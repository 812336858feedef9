// "Ask again" under a message the assistant could not answer (error model_unavailable after
// the ack): sends the same message id once more; the server answers it only if no answer is
// stored yet (issue 15). Not connected, the click reconnects first; click again after.
import { button } from "./dom.js";
import { messageFrame } from "./frames.js";

export function offerRetry({ record, id, label, connection, log }) {
  const again = button(label, () => {
    if (!connection.isReady()) return connection.connect();
    record.row.querySelectorAll(".note.error").forEach((note) => note.remove());
    again.remove();
    log.showTyping(true);
    connection.send(messageFrame({ id, text: record.sentText }));
  }, { class: "retry" });
  record.row.append(again);
}
