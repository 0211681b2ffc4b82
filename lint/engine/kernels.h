/* lint/engine/kernels.h -- functions a library runs as kernels are
 * backend code.
 *
 * Some libraries take a function and run it on raw tensor storage: ggml's
 * custom ops (`ggml_map_custom1(ctx, a, my_kernel, n_tasks, NULL)`) hand
 * my_kernel the tensors' data.  Its body is a backend implementation by
 * design, however frontend the file around it is.  A function named (as
 * itself or &itself) in an argument of a call to a `kernel_registrars`
 * function, and defined in the same TU, is a kernel: the run drops the
 * findings in its definition of rules that do not apply to backend code
 * (applies_to without "backend", as the file's configuration has it:
 * EH101-EH104, EH201-EH203, EH301, EH302, EH401 by default).  The
 * registration may come after the definition, so the walk records the
 * kernels as facts and the run applies them at the end, over the findings
 * of every TU and of the project hooks (a kernel in a header is the
 * header's, in every TU). */
#ifndef EL_KERNELS_H
#define EL_KERNELS_H

#include <stddef.h>

#include "finding.h"
#include "rule.h"
#include "sources.h"

/* Records the kernels of a TU (an engine rule: the engine runs it on
 * every TU, as the last of its rules). */
extern const el_rule el_kernel_rule;

/* Drop from fs the findings, inside the kernels the facts (every TU's)
 * record, of rules that do not apply to backend code (as the finding's
 * file is configured). */
void el_forgive_kernels(const el_sources *sources, const el_fact_rec *const *facts, size_t n_facts,
                        el_findings *fs);

#endif
