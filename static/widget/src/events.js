// The public API's events: listeners by name, called in the order they were added. A failing
// listener is logged and does not stop the others or the widget. A `ready` listener added
// after ready is called at once.

export const EVENTS = [
  "ready", "open", "close", "message", "unread", "handover", "state", "cart_add",
];

export function createEvents() {
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));
  let readyDetail = null; // once ready: gives the `ready` detail for late listeners

  function emit(name, detail) {
    for (const listener of [...listeners.get(name)]) {
      try {
        listener(detail);
      } catch (error) {
        console.error("ChatWidget: an event listener failed", error);
      }
    }
  }
  function on(name, listener) {
    if (!listeners.has(name) || typeof listener !== "function") {
      console.warn(`ChatWidget: on("${name}") needs one of ${EVENTS.join(", ")} and a function`);
      return;
    }
    listeners.get(name).add(listener);
    if (name === "ready" && readyDetail) listener(readyDetail());
  }
  const off = (name, listener) => listeners.has(name) && listeners.get(name).delete(listener);
  /** Emits `ready` once; `detail()` is asked again for each listener added later. */
  function markReady(detail) {
    if (readyDetail) return;
    readyDetail = detail;
    emit("ready", detail());
  }

  return { emit, on, off, markReady, isReady: () => !!readyDetail };
}
