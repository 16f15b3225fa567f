"""From a grid, a word list and the constructor's controls to one solver-independent problem; reads no files."""
