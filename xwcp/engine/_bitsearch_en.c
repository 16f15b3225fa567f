/* The fill search specialised for 26 letters (English): _bitsearch.c compiled with the alphabet's size a
 * constant, its exported functions named bs_init_26, bs_search_26, ... (xwcp/engine/kernel.py picks them
 * when the problem's alphabet has 26 letters). Same state struct, same search: only the strides of the
 * per-letter tables are known to the compiler. */
#define LETTERS(st) 26
#define BS_FN(name) name##_26
#include "_bitsearch.c"
