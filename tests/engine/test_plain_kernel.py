"""The numpy-free kernel (xwcp/engine/plain_kernel.py): it knows the C state, so a small fill needs no numpy
(the quick path's answers: tests/services/test_quick.py)."""
from __future__ import annotations

from xwcp.engine import plain_kernel


def test_plain_search_knows_the_c_state():
    """If this fails, the C state grew a pointer: PlainBitSearch or PlainEngine (xwcp/engine/plain_kernel.py)
    must fill the new array as BitSearch or Engine does, or every small fill takes the numpy path again."""
    assert plain_kernel.plain_search_supported()
