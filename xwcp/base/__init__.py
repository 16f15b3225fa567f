"""The base every layer stands on: small shared types (ids, directions, statuses) and the one user-input error."""
