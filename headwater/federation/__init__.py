"""Federation: a corpus exports itself; another repository pins, harvests or imports that export."""
