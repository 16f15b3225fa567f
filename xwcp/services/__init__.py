"""The plumbing every front door shares: one grid-and-list loader, one runner, one saver."""
