"""The corpus: the walk, front matter, Markdown bodies, and the census of every file."""
