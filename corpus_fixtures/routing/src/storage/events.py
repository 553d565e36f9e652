"""Relay: storage/events."""
