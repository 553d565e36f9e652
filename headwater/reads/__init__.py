"""Reads: answers from the snapshot. They never write, never open the network."""
