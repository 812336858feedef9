"""The widget's transport: the visitor socket (`consumers`, `membership`), its inbound
frames (`protocol`), per-process socket limits (`limits`), the HTTP views (config, export,
continuation, transcript e-mail, privacy page) and the widget's strings and settings."""
