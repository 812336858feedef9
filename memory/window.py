"""The verbatim window: the newest turns kept word for word (DESIGN.md). The one place of the
rule; condensation, its scheduling and the context builder all read it from here."""


def window_turns(*, window: int, min_exchanges: int) -> int:
    """Turns kept word for word: the site's window, and never fewer than the guaranteed
    minimum exchanges plus the request."""
    return max(window, verbatim_minimum(min_exchanges=min_exchanges) + 1)


def verbatim_minimum(*, min_exchanges: int) -> int:
    """The turns of the guaranteed minimum exchanges (a visitor turn and an answer each)."""
    return 2 * min_exchanges


def verbatim_window(site) -> int:
    """`window_turns` for a site."""
    return window_turns(
        window=site.verbatim_window_turns, min_exchanges=site.verbatim_min_exchanges
    )
