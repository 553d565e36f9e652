"""The taxonomy: consumer declaration, packages, overlays, validation, the lock, the kinds."""
