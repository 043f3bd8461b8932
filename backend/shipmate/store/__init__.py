"""Redis persistence: snapshot + append-only event stream + pub/sub, written in one atomic step."""

from .client import client_for, connect, node_url
from .errors import Unavailable
from .games import Change, Conflict, GameStore, Remember, Retired, hash_token
from .idempotency import Claim, ClaimLost
from .presence import Presence, Seen
from .seats import Seats

__all__ = ["Change", "Claim", "ClaimLost", "Conflict", "GameStore", "Presence", "Remember", "Retired",
           "Seats", "Seen", "Unavailable", "client_for", "connect", "hash_token", "node_url"]
