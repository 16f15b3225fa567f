"""Process helpers that know no crosswords: lazy imports, bounded file reads, signals, isolated workers, argument types."""
