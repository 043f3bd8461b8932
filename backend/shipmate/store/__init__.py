"""Redis persistence: snapshot + append-only event stream + pub/sub, written in one atomic step."""

from .games import Claim, ClaimLost, Conflict, GameStore, Remember, Unavailable, connect, hash_token

__all__ = ["Claim", "ClaimLost", "Conflict", "GameStore", "Remember", "Unavailable", "connect", "hash_token"]
