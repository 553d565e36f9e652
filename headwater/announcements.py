"""The audit events (PEP 578 `sys.audit`) by which the load announces what it looked at and read,
for `headwater.observed` to record and a replay to look at again (HW-DR-0037). Names only, so a
module that announces imports nothing with them."""

PROBE = "headwater.probe"  # sys.audit(PROBE, path) where the load stats, tests or reads a link
READ = "headwater.read"  # sys.audit(READ, path, data[, its sha256 hex]) where the load has a file's bytes in hand
READS = "headwater.reads"  # sys.audit(READS, folder, [(name, data), …]) for files read by name in one folder
LISTING = "headwater.listed"  # sys.audit(LISTING, path, entries) where it has a folder's `os.DirEntry`s
OPENED_IN = "headwater.opened"  # sys.audit(OPENED_IN, folder, [path, …]): files opened relative to a folder
