"""The shop app's models, one module per half (Django finds an app's models here)."""

from chatwidget.shop.models.actions import Action, ActionCall, ActionPolicy
from chatwidget.shop.models.connections import Connection, SyncItem
from chatwidget.shop.models.knowledge import (
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeSource,
    KnowledgeTrace,
)

__all__ = [
    "Action",
    "ActionCall",
    "ActionPolicy",
    "Connection",
    "KnowledgeChunk",
    "KnowledgeDocument",
    "KnowledgeSource",
    "KnowledgeTrace",
    "SyncItem",
]
