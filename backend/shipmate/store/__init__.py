"""Redis persistence: snapshot + append-only event stream + pub/sub, written in one atomic step."""

from .client import client_for, node_url
from .errors import Unavailable
from .games import Conflict, GameStore, Retired, hash_token
from .idempotency import Answered
from .presence import Presence, Seen
from .seats import Seats
from .subscription import Subscription

__all__ = ["Answered", "Conflict", "GameStore", "Presence", "Retired", "Seats", "Seen", "Subscription",
           "Unavailable", "client_for", "hash_token", "node_url"]
