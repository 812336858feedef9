"""Connecting a site to its shop platform and keeping the catalogue in sync (issue 29).

- services.py   `connection_connect` (checked at once), `connection_error_explain`
- documents.py  a product (variants, prices, stock, identifiers) or page as a knowledge Doc
- sync.py       `knowledge_sync`: read everything into staging (resumable), confirm removals,
                then swap in one transaction; one per site at a time (a cache lock)
- webhooks.py   a verified product webhook refreshes one product
"""
