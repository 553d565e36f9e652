"""Relay: admin/console."""
