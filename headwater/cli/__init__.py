"""The command line: one verb table drives the parser, the help screens and the README."""
