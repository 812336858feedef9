"""A trivial echo ASGI app: the harness's ceiling.

It speaks just enough of the widget protocol for the load client: `hello` -> `welcome`;
`message` -> `ack`, one `delta` and the complete `message`, immediately, with no database,
no channel layer and no model. Whatever latency the load client measures against it is the
cost of the client, the server (Daphne/uvicorn), the loopback and the shared CPUs.

    python -m daphne -b 127.0.0.1 -p 8001 tests.bench.echo_app:app
"""

import json
from datetime import UTC, datetime


async def app(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http":
        await receive()
        await send(
            {
                "type": "http.response.start",
                "status": 404,
                "headers": [(b"content-type", b"text/plain")],
            }
        )
        await send({"type": "http.response.body", "body": b"echo app: websockets only"})
        return
    if scope["type"] != "websocket":
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    seq = 0
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            frame = json.loads(message.get("text") or "")
        except ValueError:
            continue
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "hello":
            out = [
                {"type": "welcome", "session": None, "resumed": False, "state": "bot", "turns": []}
            ]
        elif kind == "message":
            seq += 2
            out = [
                {"type": "ack", "id": frame.get("id"), "seq": seq - 1, "session": "echo"},
                {"type": "delta", "seq": seq, "text": "echo "},
                {
                    "type": "message",
                    "seq": seq,
                    "role": "assistant",
                    "text": "echo",
                    "at": datetime.now(UTC).isoformat(),
                },
            ]
        else:
            out = []
        for frame_out in out:
            await send({"type": "websocket.send", "text": json.dumps(frame_out)})
