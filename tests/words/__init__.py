"""Tests of xwcp/words/: word-list reading, normalisation, the index and its cache."""
