// The websocket: one socket at a time, `hello` on every open, reconnect with full-jitter
// backoff (500 ms base, 15 s cap, reset by the caller on `welcome`), and again at once when
// the browser comes back online.

export function createConnection({ url, hello, onFrame, onLost }) {
  let socket = null;
  let ready = false;
  let tries = 0;
  let timer = 0;
  let stopped = false; // no reconnect (forgotten, destroyed)

  function open() {
    clearTimeout(timer);
    timer = 0;
    stopped = false;
    let current;
    try {
      current = new WebSocket(url);
    } catch (error) {
      return retry();
    }
    socket = current;
    ready = false;
    current.onopen = () => current.send(JSON.stringify(hello()));
    current.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (frame && typeof frame.type === "string") onFrame(frame);
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      ready = false;
      onLost(!stopped);
      if (!stopped) retry();
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
  addEventListener("online", onOnline);

  return {
    connect: () => !socket && !stopped && open(),
    /** A fresh socket now, e.g. to say hello without a session. */
    restart: () => (close(), open()),
    send: (frame) => socket.send(JSON.stringify(frame)),
    markReady: () => ((ready = true), (tries = 0)),
    isReady: () => ready,
    stop: () => (stopped = true),
    destroy() {
      stopped = true;
      close();
      removeEventListener("online", onOnline);
    },
  };
}
