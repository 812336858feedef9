// The public API's command queue (DESIGN.md "The widget's public JavaScript API"): a shop
// page pushes `[name, ...args]` before or after the loader ran. Commands wait until the
// widget is ready (the site's config is loaded), then run one after the other, each after the
// previous one finished; a failing command is logged and does not stop the next. `on` and
// `off` take effect at once. An unknown command logs a warning.

export const COMMANDS = [
  "open",
  "close",
  "toggle",
  "send",
  "prefill",
  "setLanguage",
  "on",
  "off",
  "setPage",
  "identify",
  "logout",
];

/**
 * `commands`: name -> function for every command but `on` and `off` (which go to `on`/`off`
 * at once). Returns `push` and `release`, which lets the queued commands run (call it once,
 * when the widget is ready).
 */
export function createCommandQueue({ commands, on, off }) {
  let release;
  let queueTail = new Promise((resolve) => (release = resolve));
  function push(command) {
    const [name, ...args] = Array.isArray(command) ? command : [];
    if (name === "on") return on(...args);
    if (name === "off") return off(...args);
    if (!COMMANDS.includes(name)) {
      console.warn(`ChatWidget: unknown command ${JSON.stringify(name)}; use one of ${COMMANDS}`);
      return;
    }
    // in order, once ready; a failing command does not stop the next one
    queueTail = queueTail.then(() => commands[name](...args)).catch((error) => {
      console.error(`ChatWidget: ${name} failed`, error);
    });
    return queueTail;
  }
  return { push, release: () => release() };
}

/** `window.ChatWidget` once the loader ran: `push`, `on`, `off` and each command as a method. */
export function publicApi({ push, on, off }) {
  const api = { push, on, off, version: 1 };
  for (const name of COMMANDS) api[name] ||= (...args) => push([name, ...args]);
  return api;
}
