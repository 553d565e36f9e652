"""Writes: init, new, change and fixes. Atomic, and never overwriting an author's file."""
