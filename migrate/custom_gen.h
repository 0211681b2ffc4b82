/* migrate/custom_gen.h -- the code ember-migrate writes for the custom ops
 * it makes (custom_ops.h), per application directory <root>, namespace ns:
 *
 *   <root>/<ns>_ops.h           frontend: the wrappers <ns>_<name>, with the
 *                               legacy functions' parameters and result, the
 *                               params structs of ops with scalar parameters,
 *                               and <ns>_ops_register();
 *   <root>/<ns>_ops.c           frontend: each wrapper registers the ops (once)
 *                               and calls eh_custom_call("<ns>.<name>", ...);
 *   <root>/<ns>_ops_register.c  the registration unit: the op definitions
 *                               (EH_CUSTOM_DYNAMIC: the legacy function makes
 *                               its own result), one adapter per kernel --
 *                               `eh_status (const eh_op_call *)` calling the
 *                               moved legacy function with the call's tensors
 *                               and params -- and the table of kernels, by
 *                               backend.  It knows both sides, like libeh's
 *                               dispatch layer: a file-level suppression says
 *                               which frontend rules do not apply, and why.
 *
 * And an `#include "<ns>_ops.h"` (spelled from the including file's
 * directory) after the last #include of every file whose rewritten code
 * calls a wrapper.  docs/ember-migrate.md, "Custom ops", shows the files. */
#ifndef EM_CUSTOM_GEN_H
#define EM_CUSTOM_GEN_H

#include "custom_ops.h"
#include "edit.h"
#include "moves.h"
#include "texts.h"

/* The generated files into mv->creates (mode 0644), and the include edits
 * for the files whose edits (`taken`: the fixes chosen, group >= 0) call a
 * wrapper into *includes.  0, or -1 with *err (a file cannot be read). */
int em_custom_gen(const em_customs *c, const em_tree *t, em_texts *texts, const el_edits *taken,
                  em_moves *mv, el_edits *includes, char **err);

/* Where a file gets one more #include (the offset of s[0..n)): after its
 * last include that no conditional but a header guard encloses, or after
 * the #endif of the last conditional that holds includes; without
 * includes after a header guard's #define, else at the top. */
size_t em_include_spot(const char *s, size_t n);

#endif
