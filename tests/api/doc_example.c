/* docs/embedding.md's complete host program, built and run as a test:
 * with no argument it runs its built-in lost-update program under 100
 * seeds and exits 0 when every run could be made.  The program itself
 * lives in docs/embedding_example.c, which the document quotes. */
#include "../../docs/embedding_example.c"
