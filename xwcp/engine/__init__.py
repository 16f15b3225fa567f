"""The compiled kernels and their Python side: AC-3, the fill search, results and the check every fill passes."""
