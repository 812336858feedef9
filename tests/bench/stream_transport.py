"""CPU per streamed answer, by the openai SDK's HTTP transport (issue 30).

The product reads the model's answer through the SDK's low-level `post` and its own
server-sent-events parser (`chatwidget.platform.llm.sse_chunks`). This measures only that
read, in one process: the fake model on 127.0.0.1 streams `--words` words, `--answers`
answers per round, `--concurrency` at a time, and each round alternates the SDK's default
transport (httpx, httpcore, anyio) with its `DefaultAioHttpClient` (aiohttp), which
`llm.stream_client` uses since. CPU per answer = the process's CPU time over the round /
answers (the request, the response's headers, every event parsed).

    python -m tests.bench.stream_transport [--answers 60] [--concurrency 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import openai

from tests.bench import harness

BODY = {"model": "bench", "messages": [{"role": "user", "content": "hi"}], "stream": True}


async def _answer(client: openai.AsyncOpenAI) -> int:
    from chatwidget.platform.llm import httpx, sse_chunks

    response = await client.post(
        "/chat/completions", cast_to=httpx.Response, body=BODY, stream=True
    )
    try:
        return sum([1 async for _ in sse_chunks(response.aiter_bytes())])
    finally:
        await response.aclose()


async def _round(base_url: str, transport: str, answers: int, concurrency: int) -> dict:
    client = openai.AsyncOpenAI(
        api_key="bench",
        base_url=base_url,
        max_retries=0,
        http_client=openai.DefaultAioHttpClient() if transport == "aiohttp" else None,
    )
    await _answer(client)  # the connection and the imports, outside the measurement
    gate = asyncio.Semaphore(concurrency)

    async def one() -> int:
        async with gate:
            return await _answer(client)

    cpu, wall = time.process_time(), time.perf_counter()
    events = await asyncio.gather(*[one() for _ in range(answers)])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await client.close()
    return {"cpu_ms": cpu / answers * 1000, "events": sum(events) / answers, "wall_s": wall}


async def _main(args: argparse.Namespace, base_url: str) -> None:
    got: dict[str, list[float]] = {"httpx": [], "aiohttp": []}
    for i in range(args.rounds):
        for transport in got:
            r = await _round(base_url, transport, args.answers, args.concurrency)
            got[transport].append(r["cpu_ms"])
            print(
                f"round {i + 1} {transport:8s} CPU per answer {r['cpu_ms']:.2f} ms, "
                f"{r['events']:.0f} events, {r['wall_s']:.1f} s",
                flush=True,
            )
    a, b = (statistics.median(got[t]) for t in ("httpx", "aiohttp"))
    print(f"median CPU per answer: httpx {a:.2f} ms, aiohttp {b:.2f} ms (x{b / a:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--answers", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--words", type=int, default=100)
    args = parser.parse_args()
    procs = harness.Procs()
    try:
        port, _ = harness.start_fakellm(procs, first_token_ms=50, token_ms=10, words=args.words)
        asyncio.run(_main(args, f"http://127.0.0.1:{port}/v1"))
    finally:
        procs.stop_all()


if __name__ == "__main__":
    main()
