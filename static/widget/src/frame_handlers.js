// What the panel does with each frame the server sends (DESIGN.md "The websocket protocol",
// server to client): one handler per frame type, keyed by the type. The panel passes the
// parts they act on; the conversation state and the open panel stay the panel's.

import { element } from "./dom.js";
import { ErrorCode, FrameType } from "./frames.js";
import { offerRetry } from "./retry.js";

/**
 * Parts: `connection`, `session`, `outbox`, `log` (the transcript), `banners`, `composer`,
 * `rating`, `menu`; `strings`, `announce`; from the panel: `state()` and `setState(value)`
 * (the conversation state), `isOpen()`, `countUnread()` (one more message while closed) and
 * `withdrawConsent()`.
 */
// Errors about an acked message whose answer did not come: the same id may be sent again
const ANSWER_ERRORS = [ErrorCode.MODEL_UNAVAILABLE, ErrorCode.UNAVAILABLE];

export function createFrameHandlers(parts) {
  const { connection, session, outbox, log, banners, composer, rating, menu } = parts;
  const { strings: text, announce } = parts;

  return {
    [FrameType.WELCOME](frame) {
      connection.markReady();
      banners.showStatus();
      // `earlier`: turns this page asked for did not fit (a long conversation, or a reconnect
      // far behind): start from the newest, contiguous, and offer the rest on demand
      if (!frame.resumed || frame.earlier) log.dropHistory();
      if (!frame.resumed) banners.resetEmail();
      session.welcomed(frame.session);
      (frame.turns || []).forEach((turn) => {
        log.putTurn(turn, false);
        if (turn.role === "visitor") banners.noteVisitorText(turn.text);
      });
      log.welcomeEarlier(frame.earlier);
      parts.setState(frame.state);
      outbox.flush();
    },
    [FrameType.ACK](frame) {
      banners.showStatus();
      session.acknowledged(frame.session); // the first interaction creates the cookie
      const item = outbox.pending(frame.id);
      if (!item) return;
      outbox.settle(frame.id);
      log.acknowledge(item.record, frame.seq, frame.text);
      banners.noteVisitorText(frame.text ?? item.record.sentText);
      if (parts.state() === "bot" && frame.seq >= log.lastCompleteSeq()) log.showTyping(true);
    },
    [FrameType.DELTA](frame) {
      log.showTyping(false);
      log.appendDelta(frame.seq, frame.text);
    },
    [FrameType.MESSAGE](frame) {
      if (frame.role !== "visitor") {
        log.showTyping(false);
        if (!parts.isOpen() && !log.isComplete(frame.seq)) parts.countUnread();
      } else banners.noteVisitorText(frame.text);
      log.putTurn(frame, true);
    },
    [FrameType.STATE](frame) {
      if (frame.state === "closed" && parts.state() !== "closed") rating.ask(); // resolved
      parts.setState(frame.state);
    },
    [FrameType.RATING]: (frame) => rating.show(frame),
    [FrameType.CARDS]: (frame) => log.putCards(frame.seq, frame.cards),
    [FrameType.HISTORY]: (frame) => log.putHistory(frame.turns || [], !!frame.earlier),
    [FrameType.FORGOTTEN]() {
      connection.stop();
      session.reset();
      log.clear();
      outbox.clear();
      parts.setState("bot");
      log.addNote(log.list, text.forgotten);
      announce(text.forgotten);
      menu.showConfirm(false);
    },
    [FrameType.ERROR](frame) {
      if (frame.code === ErrorCode.IDENTITY_INVALID) {
        // the shop's signature, not the visitor's doing: the chat goes on anonymously
        return console.warn("ChatWidget: the identity's signature did not verify", frame.message);
      }
      log.showTyping(false);
      const message = frame.message || text["err_" + frame.code] || text.err_generic;
      const item = outbox.pending(frame.id);
      const record = outbox.record(frame.id);
      if (item && frame.code === ErrorCode.UNAVAILABLE) {
        // briefly down: keep the message and send it again with the same id
        setTimeout(() => outbox.resend(frame.id), 2000 + Math.random() * 3000);
        return banners.showStatus(message);
      }
      if (item) {
        outbox.settle(frame.id);
        log.fail(item.record);
        composer.restore(item.text);
      }
      const unanswered = record && !item && ANSWER_ERRORS.includes(frame.code);
      if (unanswered) log.dropIncomplete(); // a streamed part that will never be completed
      if (record) log.addNote(record.row, message, "error");
      else log.append(element("p", { class: "note error" }, message));
      // acked, but no answer (the model, or the database while storing it): "Ask again"
      if (unanswered) offerRetry({ record, id: frame.id, label: text.retry, connection, log });
      announce(message);
    },
    [FrameType.CONSENT](frame) {
      session.consented(frame);
      menu.setConsent(!!frame.recognition);
    },
    [FrameType.PROFILE](frame) {
      log.showProfile(frame.fields || {}, () => parts.withdrawConsent());
    },
  };
}
