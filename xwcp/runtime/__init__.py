"""Process helpers with no crossword knowledge: lazy imports, bounded file reads, signals, isolated workers, argument types."""
