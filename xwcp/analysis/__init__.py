"""Questions a constructor asks of a grid: domains, suggestions, heat map, verification of words, statistics."""
