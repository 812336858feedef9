"""Deltas are coalesced: the first at once, then at most one frame per interval, the same
text in the same order, and a pause in the stream never holds text back for long."""

import asyncio

from chatwidget.assistant.streaming import DeltaCoalescer


class Socket:
    def __init__(self) -> None:
        self.frames: list[dict] = []

    async def send(self, frame: dict) -> None:
        self.frames.append(frame)


def coalescer(socket: Socket, interval: float) -> DeltaCoalescer:
    return DeltaCoalescer(
        send=socket.send,
        interval=interval,
        frame=lambda text: {"type": "delta", "seq": 2, "text": text},
    )


async def test_first_piece_goes_out_at_once_the_burst_after_it_in_one_frame():
    socket = Socket()
    out = coalescer(socket, interval=10.0)
    await out.add("Hello")
    assert socket.frames == [{"type": "delta", "seq": 2, "text": "Hello"}]  # not held back
    for word in [" there,", " how", " can", " I", " help?"]:
        await out.add(word)
    assert len(socket.frames) == 1
    await out.close()
    assert [f["text"] for f in socket.frames] == ["Hello", " there, how can I help?"]
    assert out.frames == 2


async def test_a_pause_in_the_stream_flushes_what_is_pending():
    socket = Socket()
    out = coalescer(socket, interval=0.02)
    await out.add("one")
    await out.add(" two")  # inside the interval: pending
    assert len(socket.frames) == 1
    await asyncio.sleep(0.3)  # the model pauses: the timer sends " two" meanwhile
    assert [f["text"] for f in socket.frames] == ["one", " two"]
    await out.add(" three")  # after the interval: at once again
    assert [f["text"] for f in socket.frames] == ["one", " two", " three"]
    await out.close()
    assert len(socket.frames) == 3


async def test_a_steady_stream_keeps_its_order_and_text():
    socket = Socket()
    out = coalescer(socket, interval=0.01)
    words = [f"w{i} " for i in range(60)]
    for word in words:
        await out.add(word)
        await asyncio.sleep(0.001)
    await out.close()
    assert "".join(f["text"] for f in socket.frames) == "".join(words)
    assert 1 < len(socket.frames) < len(words)


async def test_interval_zero_sends_every_piece_and_empty_pieces_never():
    socket = Socket()
    out = coalescer(socket, interval=0)
    for piece in ["a", "", "b", "c"]:
        await out.add(piece)
    await out.close()
    assert [f["text"] for f in socket.frames] == ["a", "b", "c"]
