"""The compiled kernel (xwcp/engine/_kernel.c with _bitsearch.c): it defines no Python names.

xwcp.engine.kernel imports it only to find its file, which it loads with ctypes.
"""
