"""Redis persistence: snapshot + append-only event stream + pub/sub, written in one atomic step."""

from .games import Conflict, GameStore, Unavailable, connect, hash_token

__all__ = ["Conflict", "GameStore", "Unavailable", "connect", "hash_token"]
