/* lint/engine/backend_header_memo.h -- el_config_is_backend_header,
 * answered once a thread for each configuration, spelling and file.
 *
 * The question matches every backend_headers and backend_dirs pattern,
 * ~100 000 instructions an include (1.3 M a TU of the bench: EH101 and
 * EH104 ask it of every include of the linted files, and the same headers
 * come back in every TU).  The memo is keyed on the configuration's
 * content (its fingerprint and root), not its address, so a configuration
 * freed and another allocated in its place never reads a stale answer;
 * it is freed when its thread ends. */
#ifndef EL_BACKEND_HEADER_MEMO_H
#define EL_BACKEND_HEADER_MEMO_H

#include <stdbool.h>

#include "config.h"

bool el_backend_header_memo(const el_config *cfg, const char *spelled, const char *resolved);
/* el_config_legacy_backend(cfg, resolved, ...) != false, the same way
 * (EH101 and EH104 ask it of every include too). */
bool el_legacy_backend_memo(const el_config *cfg, const char *resolved);
/* Is resolved a file whose macros are the project's own (el_macro_is_own:
 * in the project, no vendor header, no backend's file)?  The vendor
 * header patterns alone cost ~100 000 instructions a question. */
bool el_own_macro_file_memo(const el_config *cfg, const char *resolved);

#endif
