"""The games' rooms in this process: each game's sockets, its newest change, their views, its presence,
and its actions, run end to end (decided through the rules, committed through the store, handed to
the sockets, answered). Between the web (HTTP and the sockets' connections) and the store."""

from .room import Change, NewToken, Remember, Room, Socket
from .rooms import Rooms
from .update import RULES_SHOW, Show, Update

__all__ = ["RULES_SHOW", "Change", "NewToken", "Remember", "Room", "Rooms", "Show", "Socket", "Update"]
