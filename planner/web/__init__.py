"""Server-rendered pages (written separately)."""
