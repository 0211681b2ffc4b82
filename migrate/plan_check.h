/* migrate/plan_check.h -- verifying a plan before it is written
 * (lint/change/verify.h): every translation unit the plan changes -- the
 * changed and created .c files, the tree's .c files that include a
 * changed header, a changed header no .c includes -- parsed with the new
 * contents in every build configuration, against the same unit now (a
 * moved file: at its old place).  apply runs it before the commit, plan
 * with --verify. */
#ifndef EM_PLAN_CHECK_H
#define EM_PLAN_CHECK_H

#include "options.h"
#include "plan.h"
#include "scan.h"

/* Failures on stderr, one line for each unit the plan would break
 * (`ember-migrate: FILE: does not compile after the change
 * (CONFIGURATION): ERROR; outcome`).  0, or -1 when a unit would not
 * compile. */
int em_verify_plan(const em_opts *o, const em_tree *t, const em_plan *p, const char *outcome);

#endif
