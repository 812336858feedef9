"""The owners' dashboard (issue 18): counts per site and day as server-rendered SVG charts
and a CSV download. Counts only: no message text, no person, no conversation id.

- models: the admin entry and its permission (a proxy of memory's DailyStat)
- selectors: the figures per site and day (`dashboard_days`)
- charts: chart geometry for the templates (templates/admin/insights/)
- admin: the page and the CSV download
"""
