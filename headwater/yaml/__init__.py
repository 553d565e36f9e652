"""The strict YAML dialect shared by front matter, taxonomy files and the lock."""
