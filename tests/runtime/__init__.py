"""Tests of xwcp/runtime/: process helpers (isolated workers, signals, bounded file reads, argument types)."""
