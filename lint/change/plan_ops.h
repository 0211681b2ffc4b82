/* lint/change/plan_ops.h -- whether the plans a translation unit makes
 * have a libeh op, for the advice on the function that runs them
 * (FFTW's fftwf_execute runs whatever plan it is given). */
#ifndef EL_CHANGE_PLAN_OPS_H
#define EL_CHANGE_PLAN_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "clang_api.h"
#include "config.h"

/* executor is a plan runner, `<lib>_execute` (fftwf_execute), and tu
 * (its files but system headers) makes its plans only with planners `<lib>_plan_*` that
 * no op replaces ("replacements": fftwf_plan_dft_1d, a complex DFT; not
 * fftwf_plan_dft_r2c_1d, eh_rfft): then the executor's own replacement
 * (eh_rfft or eh_irfft) is not for these plans.  The first such planner
 * into planner[n].  False when the file makes no plan, or one an op
 * replaces. */
bool el_plans_without_op(CXTranslationUnit tu, const el_config *cfg, const char *executor,
                         char *planner, size_t n);

/* The same question for one call of executor, from the plan it runs:
 * its first argument names a variable or a member (`fftw_execute(p)`,
 * `fftw_execute(s->plan)`) that the TU assigns planners' results.  The
 * last such assignment before the call in the same function decides
 * (a plan made and run in one branch, another kind in the next), one
 * in a branch or loop body that does not hold the call not counting
 * (`if (r) p = r2c; else p = dft; fftw_execute(p)`: either); else
 * all of them do, when they agree.  A value no planner makes (a
 * helper's plan, another variable's; NULL aside) is a plan not known.
 * 1: no op replaces its planner (the first into planner[n]); 0: an op
 * does; -1: not known (another argument, nothing assigns it, planners
 * of both kinds, a value not known) -- ask el_plans_without_op. */
int el_call_plans_without_op(CXTranslationUnit tu, const el_config *cfg, const char *executor,
                             CXCursor call, char *planner, size_t n);

#endif
