// The launcher: the round button that opens and closes the panel, with the site's label next
// to the icon while closed and a dot for unread messages. Its accessible name says what a
// click does and how many messages are new.

import { element, icon } from "./dom.js";

/** The launcher's aria-label: "Open chat", "Questions?, Open chat (2 new message)", "Close chat". */
export function launcherLabel({ open, unread, strings, label }) {
  let name = open ? strings.close : strings.open;
  if (unread > 0 && !open) name += " (" + unread + " " + strings.new_message + ")";
  return label && !open ? label + ", " + name : name;
}

export function createLauncher({ widget, onClick }) {
  let launcher = null;
  let label = null; // the site's launcher label (theme), or null: the icon only

  /** Shows the state: `open`, `unread` (count), `strings`. Nothing before `show`. */
  function update({ open, unread, strings }) {
    if (!launcher) return;
    launcher.setAttribute("aria-expanded", open);
    launcher.classList.toggle("has-unread", unread > 0);
    launcher.setAttribute("aria-label", launcherLabel({ open, unread, strings, label }));
    launcher.replaceChildren(icon(open ? "close" : "chat"));
    if (label && !open) launcher.append(element("span", {}, label));
    widget.classList.toggle("is-open", open);
  }
  function show(state) {
    if (!launcher) {
      launcher = element("button", { type: "button", class: "launcher", onclick: onClick });
      widget.prepend(launcher);
    }
    update(state);
  }
  return {
    get element() {
      return launcher;
    },
    show,
    update,
    setLabel: (value) => (label = value || null),
  };
}
