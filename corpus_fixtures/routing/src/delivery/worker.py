"""Relay: delivery/worker."""
