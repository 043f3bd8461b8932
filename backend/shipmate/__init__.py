"""Shipmate: the phone companion for the sea-trading board game Quest 1607."""

__version__ = "0.1.0"
