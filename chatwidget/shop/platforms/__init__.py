"""Shop platforms (issue 29): one module per platform behind one small interface
(`base.Platform`): catalogue pages of products with variants, prices, stock and URLs; content
pages; products by id (to confirm a removal); an order by number; webhook verification.

- base.py         the interface, its data (Product, Variant, ContentPage, Order) and the
                  errors a connection check reports (PlatformError and its codes)
- http.py         the HTTP session every platform uses: the egress guard, 429/Retry-After,
                  request counts, errors by status
- shopify.py      Admin GraphQL API (cursor paging, cost-based throttling)
- woocommerce.py  REST API v3 (X-WP-TotalPages paging) and WordPress pages
- shopware.py     Admin API (OAuth client credentials, /api/search with associations)
- documents.py    a product or page as the text of a knowledge document
- registry.py     a connection's platform, with its credentials read from the environment
"""
