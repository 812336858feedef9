"""The tenant: a `Site` (one shop that embeds the widget) with its staff hours, theme,
staff access (`site:<key>` groups) and the admin's time zone. Every other app builds on it."""
