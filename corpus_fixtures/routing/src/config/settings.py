"""Relay: config/settings."""
