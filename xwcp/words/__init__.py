"""Word lists: reading scored lists, indexing them by length, the on-disk cache and the user's personal words."""
