"""Relay: ingest/auth."""
