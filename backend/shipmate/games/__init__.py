"""One package per supported game; importing this package registers every game with the core."""

from . import quest1607, serenissima, voyagers

__all__ = ["quest1607", "serenissima", "voyagers"]
