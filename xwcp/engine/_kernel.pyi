"""The compiled kernel (xwcp/engine/_kernel.c with _bitsearch.c, and _bitsearch_en.c: the search again for 26 letters): it
defines no Python names.

xwcp.engine.kernel imports it only to find its file, which it loads with ctypes.
"""
