// The panel's options menu: export, "What do you know about me?", the recognition consent
// (with the privacy link) and deleting the conversation after a confirmation.

import { button, element, icon, readCookie } from "./dom.js";

export function createMenu({ strings: text, config, actions }) {
  const menuButton = button(icon("more"), () => show(menu.hidden), {
    class: "icon-button",
    "aria-label": text.menu,
    "aria-expanded": "false",
    "aria-controls": "cw-menu",
  });
  const forgetButton = button(text.forget, () => showConfirm(true));
  const sessionButtons = [
    button(text.download_json, () => actions.download("json")),
    button(text.download_text, () => actions.download("txt")),
    button(text.email_transcript, () => (show(false), actions.emailTranscript())),
    forgetButton,
  ];
  const consentBox = element("input", {
    type: "checkbox",
    "aria-describedby": "cw-recognition-note",
    onchange: () => actions.consent(consentBox.checked),
  });
  consentBox.checked = readCookie(config.recognition_cookie.name) != null;
  const privacyUrl = /^https?:/i.test(config.privacy_url) ? config.privacy_url : null;
  const months = config.recognition_cookie.months;
  const confirmBox = element(
    "div",
    { class: "confirm", hidden: true },
    element("p", {}, text.forget_confirm),
    button(text.forget_yes, () => (show(false), actions.forget()), { class: "pill-button danger" }),
    button(text.cancel, () => (showConfirm(false), forgetButton.focus()), { class: "pill-button" }),
  );
  const menu = element(
    "div",
    { class: "menu", id: "cw-menu", hidden: true },
    sessionButtons[0],
    sessionButtons[1],
    sessionButtons[2],
    button(text.what_we_know, () => (show(false), actions.profile())),
    element("label", {}, consentBox, String(text.remember_me).replace("%(months)s", months)),
    element(
      "p",
      { class: "menu-note", id: "cw-recognition-note" },
      text.remember_explain,
      " ",
      privacyUrl &&
        element("a", { href: privacyUrl, target: "_blank", rel: "noopener" }, text.privacy),
    ),
    forgetButton,
    confirmBox,
  );

  function show(on) {
    menu.hidden = !on;
    menuButton.setAttribute("aria-expanded", on);
    if (!on) showConfirm(false);
  }
  function showConfirm(on) {
    confirmBox.hidden = !on;
    forgetButton.hidden = on;
    if (on) confirmBox.lastChild.focus();
  }
  // the export and delete buttons need a conversation
  const setSessionAvailable = (available) =>
    sessionButtons.forEach((item) => (item.disabled = !available));
  setSessionAvailable(false);

  return {
    element: menu,
    button: menuButton,
    show,
    showConfirm,
    setSessionAvailable,
    isOpen: () => !menu.hidden,
    setConsent: (on) => (consentBox.checked = on),
  };
}
