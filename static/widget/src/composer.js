// The composer: the message field (Enter sends, Shift+Enter makes a new line; it grows with
// its text up to 128 px), the send button, and the length counter, shown from 90 % of the
// site's limit on. A closed conversation disables it.

import { element, icon } from "./dom.js";

/** `onSubmit(text)` sends and returns true if it did; the field is emptied then. `onInput`:
 * the visitor typed (quick replies go away). */
export function createComposer({ strings: text, maxLength, onSubmit, onInput, attach }) {
  const field = element("textarea", {
    rows: 1,
    maxlength: maxLength,
    "aria-label": text.message_label,
    "aria-describedby": "cw-counter",
    oninput: () => (resize(), onInput && onInput()),
    onkeydown: (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        submit();
      }
    },
  });
  const sendButton = element(
    "button",
    { type: "submit", class: "send-button", "aria-label": text.send },
    icon("send"),
  );
  const counter = element("div", { class: "counter", id: "cw-counter", hidden: true });
  const form = element(
    "form",
    { class: "composer", onsubmit: (event) => (event.preventDefault(), submit(), field.focus()) },
    attach ? attach.input : null,
    attach ? attach.button : null, // photos and files (upload.js), when the site takes them
    field,
    sendButton,
  );

  function submit() {
    if (onSubmit(field.value)) (field.value = ""), resize();
  }
  function resize() {
    field.style.height = "";
    field.style.height = Math.min(field.scrollHeight + 2, 128) + "px";
    // a scroll bar only once the text is taller than the field can grow
    field.style.overflowY = field.scrollHeight + 2 > 128 ? "auto" : "hidden";
    const length = field.value.length;
    counter.hidden = length < maxLength * 0.9;
    counter.textContent = length + " / " + maxLength;
  }
  /** `prefill` of the public API: the text in the field, focused, not sent. */
  function prefill(value) {
    field.value = value.slice(0, maxLength);
    resize();
    field.focus();
  }
  function setClosed(closed) {
    field.disabled = sendButton.disabled = closed;
    if (attach) attach.setClosed(closed);
    field.placeholder = closed ? text.closed : text.placeholder;
  }

  return {
    form,
    counter,
    prefill,
    setClosed,
    focus: () => field.focus(),
    /** What the visitor has typed and not sent (kept when the panel is built again). */
    draft: () => field.value,
    isDisabled: () => field.disabled,
    /** A message the server refused comes back into the field, unless the visitor typed anew. */
    restore: (value) => {
      if (!field.value) field.value = value;
    },
  };
}
