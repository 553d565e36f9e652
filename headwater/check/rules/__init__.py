"""One module per rule id prefix (`lifecycle.*` in `lifecycle.py`, `import.*` in `import_.py`), each
listing its rules in `RULES`; modules without `RULES` hold helpers the rules share."""
