"""Tests of xwcp/bench/: the bench command, its rows, summary and plots, peers, XCSP instances, textbook entrants."""
