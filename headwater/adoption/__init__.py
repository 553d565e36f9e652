"""Adopting a repository that already keeps records: reading the forms teams write their metadata
in, inferring an overlay from the tree, and migrating the records once into front matter."""
