"""Relay: delivery/retry."""
