"""The shop app's admin: knowledge sources and documents, shop actions and their calls
(Django's admin autodiscovery imports this package)."""

from chatwidget.shop.admin import actions, connections, knowledge

__all__ = ["actions", "connections", "knowledge"]
