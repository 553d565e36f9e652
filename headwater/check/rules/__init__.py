"""One module per rule family; each rule is one small declared function."""
