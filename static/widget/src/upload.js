// Photos and files from the visitor (issue 33): the attach button in the composer, the
// upload (POST to `config.upload_url` with the session token in the body, never in a URL;
// none before the first message: the upload then starts the conversation and answers with
// its token),
// its preview and progress in the transcript, and the error in the visitor's words. The
// server stores it as a visitor turn; the `attached` frame then asks the socket to answer
// it. Part of the panel bundle: a visitor who never opens the chat downloads none of it.

import { element, randomId } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const PAPERCLIP =
  "M21 11.5l-8.6 8.6a5.2 5.2 0 0 1-7.4-7.4l8.6-8.6a3.5 3.5 0 0 1 4.9 4.9l-8.6 8.6a1.7 1.7 0 0 1-2.5-2.5l8-8";

function clipIcon() {
  const svg = document.createElementNS(SVG_NS, "svg");
  const path = document.createElementNS(SVG_NS, "path");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  path.setAttribute("d", PAPERCLIP);
  svg.append(path);
  return svg;
}

/** The preview of a chosen file: the image itself (a local object URL) or its name. */
export function filePreview(file, strings) {
  if (/^image\/(jpeg|png|webp)$/.test(file.type)) {
    const url = URL.createObjectURL(file);
    return element("img", { class: "attachment-image", src: url, alt: strings.attachment + ": " + file.name });
  }
  return element("span", { class: "attachment-file" }, strings.attachment + ": " + file.name);
}

/** The error's words: the server's `message` (never_kept: the notice a typed card number
 * gets), else the widget's string for its code. */
export function uploadError(body, strings) {
  if (body && typeof body.message === "string" && body.message) return body.message;
  const code = body && body.error;
  return strings["upload_err_" + code] || strings.err_generic;
}

/**
 * `token()`: the session token (none before the first message: the upload starts the
 * conversation, and `body.session` carries its token); `lang()`, `page()`: sent with the
 * file; `log`: the transcript; `onStored(body)`: the turn is stored (the panel keeps the
 * token and sends `attached`). Returns null when the site takes no uploads.
 */
export function createUploader({ strings: text, config, token, lang, page, log, announce, onStored }) {
  if (!config.upload_url) return null;
  const input = element("input", {
    type: "file",
    accept: config.upload_accept || "image/*,application/pdf",
    class: "visually-hidden",
    tabindex: "-1",
    "aria-hidden": "true",
    onchange: () => {
      const file = input.files && input.files[0];
      input.value = "";
      if (file) upload(file);
    },
  });
  const attachButton = element(
    "button",
    { type: "button", class: "attach-button", "aria-label": text.attach, title: text.attach, onclick: () => input.click() },
    clipIcon(),
  );

  function refuse(message, record) {
    if (record) log.fail(record), log.addNote(record.row, message, "error");
    else log.addNote(log.list, message, "error"), log.scrollDown(true);
    announce(message);
  }
  function upload(file) {
    const session = token();
    if (config.upload_max_bytes && file.size > config.upload_max_bytes) {
      return refuse(text.upload_err_too_large);
    }
    const record = log.addPending(file.name);
    const preview = filePreview(file, text);
    const progress = element("progress", { max: "1", value: "0", "aria-label": text.uploading });
    record.row.append(preview, progress);
    announce(text.uploading);
    const form = new FormData();
    const where = page() || {};
    if (session) form.append("session", session);
    form.append("id", randomId());
    form.append("lang", lang() || "");
    if (where.url) form.append("page_url", where.url);
    if (where.title) form.append("page_title", where.title);
    form.append("file", file, file.name);
    const request = new XMLHttpRequest();
    request.open("POST", config.upload_url);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) progress.value = event.loaded / event.total;
    };
    request.onload = () => {
      progress.remove();
      let body = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = {};
      }
      if (request.status !== 201) {
        if (body.error === "never_kept") preview.remove(); // the visitor's screen keeps none of it
        return refuse(uploadError(body, text), record);
      }
      record.sentText = body.text;
      const shown = log.acknowledge(record, body.seq, body.text);
      if (shown && shown !== record) {
        // the conversation's echo of this turn came first: the picture replaces its name
        shown.row.querySelectorAll(".attachment-file").forEach((chip) => chip.remove());
        shown.row.append(preview);
      }
      onStored(body);
    };
    request.onerror = () => (progress.remove(), refuse(text.err_generic, record));
    request.send(form);
  }

  return {
    button: attachButton,
    input,
    setClosed: (closed) => (attachButton.disabled = closed),
  };
}
