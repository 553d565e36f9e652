"""Relay: delivery/signing."""
