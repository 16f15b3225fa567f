"""Searches built over the backends: the quality search (highest floor, best mean) and minimal cores."""
