"""The figures each process counts for Prometheus (issue 31), defined once, below every app.

Per process: each Daphne process answers `/metrics` with its own counters (Prometheus
scrapes every pod or instance and adds them up). Shared state (queue depth, condensation
lag, the last purge, beat's heartbeat) is read at scrape time by chatwidget/metrics.py, so
any web process reports it. Labels are fixed words, never a site, an address or message
text.
"""

from prometheus_client import Counter, Histogram

ANSWERS = Counter(
    "chatwidget_answers",
    "Visitor messages answered by the assistant, by outcome (answered, failed).",
    ["outcome"],
)
MODEL_ERRORS = Counter(
    "chatwidget_model_errors",
    "Model calls that failed after the SDK's retries, by error type.",
    ["error"],
)
FIRST_TOKEN_SECONDS = Histogram(
    "chatwidget_model_first_token_seconds",
    "From sending a request to the model to its first streamed event.",
    buckets=(0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 20, 30),
)
