/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Summary folding (obs/fold.c, no EAL): a set of many flows (a flow group,
 * or a task's senders or receivers) becomes one group summary instead of a
 * line per flow: counts, total goodput, percentiles of the per-flow goodput,
 * Jain's index (weighted), the slowest flows, failures by class. The JSON
 * summary still lists every flow. See doc/observability.md ("Many flows").
 */
#ifndef ENG_FOLD_H
#define ENG_FOLD_H

#include <stddef.h>
#include <stdint.h>

#define ENG_FOLD_TOP 5		/* slowest flows named */
#define ENG_FOLD_CLASSES 4	/* failure classes named (the rest counted as "other") */
#define ENG_FOLD_CLASS_LEN 96

struct eng_out;

/* One flow as the fold sees it. */
struct eng_fold_flow {
	const char *name;
	double mbps;		/* goodput */
	uint32_t weight;	/* >= 1 */
	int completed;
	const char *fail;	/* "" = did not fail */
};

struct eng_fold {
	unsigned int n, completed, failed;
	double total_mbps, min, p50, p90, p99, max;	/* per-flow goodput, Mbit/s */
	double jain;				/* over goodput / weight */
	unsigned int nb_slow;
	unsigned int slow[ENG_FOLD_TOP];	/* indexes, lowest goodput / weight first */
	unsigned int nb_classes, other_failed;
	struct eng_fold_cls {
		char reason[ENG_FOLD_CLASS_LEN];
		char example[ENG_FOLD_CLASS_LEN];	/* its first flow's reason, numbers kept */
		unsigned int count;
	} classes[ENG_FOLD_CLASSES];		/* most frequent first */
};

/* The class of a failure: its reason with the numbers replaced by N; a SYN
 * timeout is "never connected (syn-timeout)". */
void eng_fold_class(const char *fail, char *out, size_t len);
/* Fold n flows; 0 or -ENOMEM. */
int eng_fold_compute(const struct eng_fold_flow *v, unsigned int n, struct eng_fold *out);
/* Its members inside an open item (text: the summary's lines; JSON: numbers). */
void eng_fold_write(struct eng_out *o, const struct eng_fold_flow *v, const struct eng_fold *s);
/* "48 of 64 flows failed: 48 never connected (syn-timeout)" into buf. */
void eng_fold_failures_str(const struct eng_fold *s, char *buf, size_t len);

#endif /* ENG_FOLD_H */
