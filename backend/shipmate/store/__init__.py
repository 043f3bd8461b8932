"""Redis persistence: snapshot + append-only event stream + pub/sub, written in one atomic step."""

from .errors import Unavailable
from .games import Claim, ClaimLost, Conflict, GameStore, Remember, Retired, connect, hash_token
from .presence import Presence, Seen
from .seats import Seats

__all__ = ["Claim", "ClaimLost", "Conflict", "GameStore", "Presence", "Remember", "Retired", "Seats", "Seen",
           "Unavailable", "connect", "hash_token"]
