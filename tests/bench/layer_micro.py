"""The two Redis channel layers of channels-redis side by side: CPU and wall time per event
(group_send, then the member's receive) and per group_add, in one process, on one Redis.

    python -m tests.bench.layer_micro [--events 2000]   (env: BENCH_REDIS_URL, db 7 default)

Why the product uses the pub/sub layer (chatwidget/settings/base.py): every visitor message
costs two events (the turn, the answer) and a group renewal.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tests.bench.harness import REDIS_URL

EVENT = {
    "type": "chat.event",
    "event": {"type": "message", "seq": 3, "role": "assistant", "text": "x" * 400},
}


async def measure(layer, events: int) -> dict:
    channel = await layer.new_channel()
    await layer.group_add("conv.1", channel)
    for _ in range(50):  # warm connections
        await layer.group_send("conv.1", EVENT)
        await layer.receive(channel)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(events):
        await layer.group_send("conv.1", EVENT)
        await layer.receive(channel)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    add = time.process_time()
    for _ in range(events):
        await layer.group_add("conv.1", channel)
    add = time.process_time() - add
    await layer.flush()
    return {
        "event_cpu_ms": round(cpu * 1000 / events, 3),
        "event_wall_ms": round(wall * 1000 / events, 3),
        "group_add_cpu_ms": round(add * 1000 / events, 3),
    }


def main() -> None:
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    hosts = [{"address": REDIS_URL}]
    rows = {
        "sorted sets (channels_redis.core)": asyncio.run(
            measure(RedisChannelLayer(hosts=hosts, capacity=200, expiry=30), args.events)
        ),
        "pub/sub (channels_redis.pubsub)": asyncio.run(
            measure(RedisPubSubChannelLayer(hosts=hosts), args.events)
        ),
    }
    print("| layer | CPU per event (ms) | wall per event (ms) | CPU per group_add (ms) |")
    print("|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['event_cpu_ms']} | {r['event_wall_ms']} | {r['group_add_cpu_ms']} |")
    core, pubsub = rows.values()
    print(
        f"\nsorted sets / pub/sub, CPU per event: {core['event_cpu_ms'] / pubsub['event_cpu_ms']:.1f}x"
    )


if __name__ == "__main__":
    main()
