"""Answers shaped for people: JSON-ready dicts, plain text and pictures."""
