// The websocket: one socket at a time, `hello` on every open, reconnect with full-jitter
// backoff (500 ms base, 15 s cap, reset by the caller on `welcome`), and again at once when
// the browser comes back online. A failed hello (the server closes with 4503) is retried the
// same way. Closed for idleness (4000), the socket stays closed until the visitor acts
// (`connect`, e.g. sending a message) or the page becomes visible again.

const CLOSE_IDLE = 4000; // the server closed an idle socket (chatwidget.widget.limits)

export function createConnection({ url, hello, onFrame, onLost }) {
  let socket = null;
  let ready = false;
  let tries = 0;
  let timer = 0;
  let stopped = false; // no reconnect (forgotten, destroyed)
  let dormant = false; // closed for idleness: reconnect on the next action or visibility

  function open() {
    clearTimeout(timer);
    timer = 0;
    stopped = false;
    dormant = false;
    let current;
    try {
      current = new WebSocket(url);
    } catch {
      return retry();
    }
    socket = current;
    ready = false;
    current.onopen = () => current.send(JSON.stringify(hello()));
    current.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && typeof frame.type === "string") onFrame(frame);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      ready = false;
      dormant = !stopped && event.code === CLOSE_IDLE;
      onLost(!stopped && !dormant);
      if (!stopped && !dormant) retry();
    };
  }
  function retry() {
    timer = setTimeout(open, Math.random() * Math.min(15000, 500 * 2 ** tries++));
  }
  function close() {
    const old = socket;
    socket = null;
    ready = false;
    clearTimeout(timer);
    if (old) old.close();
  }
  const onOnline = () => timer && open();
  const onVisible = () => dormant && document.visibilityState === "visible" && open();
  addEventListener("online", onOnline);
  document.addEventListener("visibilitychange", onVisible);

  return {
    connect: () => !socket && !stopped && open(),
    /** A fresh socket now, e.g. to say hello without a session. */
    restart: () => (close(), open()),
    send: (frame) => socket.send(JSON.stringify(frame)),
    markReady: () => ((ready = true), (tries = 0)),
    isReady: () => ready,
    /** A socket is open or opening (its hello may be sent already). */
    isActive: () => !!socket,
    stop: () => (stopped = true),
    destroy() {
      stopped = true;
      close();
      removeEventListener("online", onOnline);
      document.removeEventListener("visibilitychange", onVisible);
    },
  };
}
