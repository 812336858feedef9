// The satisfaction question after the team resolved the conversation: five score buttons,
// an optional comment and a send button; then a thank-you. The server decides whether a
// conversation may be rated (a `rating` frame: askable, score) and stores one rating per case.

import { button, element } from "./dom.js";
import { ratingFrame } from "./frames.js";

export function createRating({ strings: text, send, announce }) {
  let score = 0;
  const scores = [1, 2, 3, 4, 5].map((n) =>
    button(String(n), () => choose(n), {
      class: "score",
      "aria-pressed": "false",
      "aria-label": String(text.rating_score || "%(n)s of 5").replace("%(n)s", n),
    }),
  );
  // an input, not a textarea: the page has one textarea, the composer
  const comment = element("input", {
    type: "text",
    maxlength: 1000,
    "aria-label": text.rating_comment,
    placeholder: text.rating_comment,
  });
  const sendButton = button(text.rating_send, () => submit(), {
    class: "pill-button",
    disabled: true,
  });
  const question = element("p", { id: "cw-rating-question" }, text.rating_question);
  const form = element(
    "div",
    { class: "rating-form" },
    question,
    element("div", { class: "scores", role: "group", "aria-labelledby": "cw-rating-question" },
      ...scores),
    comment,
    sendButton,
  );
  const thanks = element("p", { class: "rating-thanks", hidden: true }, text.rating_thanks);
  const box = element("div", { class: "rating", hidden: true }, form, thanks);

  function choose(n) {
    score = n;
    scores.forEach((item, i) => item.setAttribute("aria-pressed", String(i + 1 === n)));
    sendButton.disabled = false;
  }
  function submit() {
    if (!score) return;
    sendButton.disabled = true;
    send(ratingFrame({ score, comment: comment.value.trim() }));
  }
  function ask() {
    box.hidden = false;
    form.hidden = false;
    thanks.hidden = true;
  }
  function thank() {
    box.hidden = false;
    form.hidden = true;
    thanks.hidden = false;
    announce(text.rating_thanks);
  }
  function hide() {
    box.hidden = true;
  }
  // a `rating` frame: the stored score (thank), a case to rate (ask), or nothing to rate
  function show(frame) {
    if (frame.score) thank();
    else if (frame.askable) ask();
    else hide();
  }
  return { element: box, ask, show, hide };
}
