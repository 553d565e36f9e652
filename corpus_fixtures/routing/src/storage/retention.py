"""Relay: storage/retention."""
