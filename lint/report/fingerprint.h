/* lint/report/fingerprint.h -- a finding's fingerprint: stable when lines
 * move, so GitHub code scanning (SARIF partialFingerprints) and baselines
 * (baseline.h) recognise the same finding across commits.
 *
 * "HASH:N": HASH is 16 hex digits of a hash of the rule ID, the finding's
 * source line and its nearest non-blank neighbours above and below, each
 * with all white space removed (re-indenting or moving code keeps it;
 * editing the line or its neighbours changes it).  N counts findings of
 * the same rule with the same HASH in the same file, in report order
 * (1, 2, ...), so two identical lines stay two findings.  The file is not
 * part of the hash: baselines match it separately. */
#ifndef EL_FINGERPRINT_H
#define EL_FINGERPRINT_H

#include "finding.h"
#include "srctext.h"

/* One fingerprint per finding, in order (caller frees with
 * el_fingerprints_free). */
char **el_fingerprints(const el_findings *f, el_texts *texts);
void el_fingerprints_free(char **fp, size_t n);

#endif
