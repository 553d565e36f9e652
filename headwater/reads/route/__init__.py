"""Route: the documents that govern a task, the machinery that finds them, and its answer."""
