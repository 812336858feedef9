"""Figure 4: context build time and prompt tokens vs conversation length, from
`tests/bench/bench_context.py` (written by the memory app's owner), in its own process.

The contract: `bench_context.main()` returns JSON-able figures; if it accepts a `quick`
keyword it gets it. This hook only calls it and writes what it returns to `--out`.
"""

from __future__ import annotations

import argparse
import inspect
import json
import traceback


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    try:
        from tests.bench import bench_context
    except ImportError as exc:
        result = {
            "available": False,
            "reason": f"tests/bench/bench_context.py is not there yet ({exc})",
        }
    else:
        try:
            import django

            django.setup()
            kwargs = {}
            if "quick" in inspect.signature(bench_context.main).parameters:
                kwargs["quick"] = args.quick
            result = {"available": True, "figures": bench_context.main(**kwargs)}
        except Exception as exc:  # reported, not fatal for the other figures
            result = {
                "available": False,
                "reason": f"bench_context.main() failed: {type(exc).__name__}",
                "traceback": traceback.format_exc(limit=8),
            }
    with open(args.out, "w") as fh:
        json.dump(result, fh, default=str, indent=2)


if __name__ == "__main__":
    main()
