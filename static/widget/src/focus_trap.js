// On narrow screens (up to 480 px) the panel covers the page: it is a modal dialog
// (aria-modal) and Tab / Shift+Tab stay inside it. Wider, it is a non-modal dialog.

const NARROW = "(max-width: 480px)";
const FOCUSABLE = "button,textarea,input,a[href],[tabindex='0']";

/**
 * Where Tab (Shift+Tab) must go instead of leaving the panel, or null to let it move on.
 * `focusable`: the panel's focusable elements in order; `active`: the focused element;
 * `inside`: whether it is in the panel.
 */
export function wrapTarget({ focusable, active, inside, shiftKey }) {
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (shiftKey ? active === first || !inside : active === last) return shiftKey ? last : first;
  return null;
}

export function createFocusTrap({ panel, root }) {
  const narrow = matchMedia(NARROW);
  const onNarrowChange = () => panel.setAttribute("aria-modal", narrow.matches);
  narrow.addEventListener("change", onNarrowChange);
  onNarrowChange();

  /** The panel's keydown listener. */
  function onKeydown(event) {
    if (event.key !== "Tab" || !narrow.matches) return;
    const focusable = [...panel.querySelectorAll(FOCUSABLE)].filter(
      (item) => !item.disabled && item.getClientRects().length,
    );
    const active = root.activeElement;
    const target = wrapTarget({
      focusable,
      active,
      inside: panel.contains(active),
      shiftKey: event.shiftKey,
    });
    if (target) {
      event.preventDefault();
      target.focus();
    }
  }

  return { onKeydown, destroy: () => narrow.removeEventListener("change", onNarrowChange) };
}
