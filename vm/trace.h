/* Readable text for events: the --trace listener, and the pieces race
 * reports and the REPL reuse. */
#ifndef DR_TRACE_H
#define DR_TRACE_H

#include "vm.h"

/* The target of an event: "Account#3.balance", "int[]#2[5]", "T2 Thread-1". */
void dr_event_target(DrVM *vm, const DrEvent *e, DrBuf *b);
/* One trace line, with its newline. */
void dr_event_line(DrVM *vm, const DrEvent *e, DrBuf *b);
/* The --trace listener writing to path (NULL: stderr).  NULL if path
 * cannot be opened (errno set).  Its finish() closes and frees it. */
/* A listener writing a line per event to path (NULL: stderr).  *failed is
 * set at the end when the file could not be written whole (after saying
 * so on the VM's error stream). */
DrListener *dr_tracer_new(const char *path, bool *failed);

#endif
