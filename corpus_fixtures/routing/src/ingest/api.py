"""Relay: ingest/api."""
