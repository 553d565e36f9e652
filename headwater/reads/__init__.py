"""Reads: answers from the snapshot. They never write, never open the network, and render
nothing: each computes a frozen answer that `headwater.render.reads` renders (HW-DR-0025)."""
