/* SPDX-License-Identifier: BSD-3-Clause */
/* Summary folding of many flows into a group summary (fold.h). No EAL. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/fold.h"
#include "obs/out.h"

void
eng_fold_class(const char *fail, char *out, size_t len)
{
	size_t o = 0;
	const char *p;

	if (strstr(fail, "(syn-timeout)") != NULL) {
		snprintf(out, len, "never connected (syn-timeout)");
		return;
	}
	for (p = fail; *p != '\0' && o + 1 < len; p++) {
		if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)p[1]) || p[1] == '.')
				p++;
			out[o++] = 'N';
			continue;
		}
		out[o++] = *p;
	}
	out[o] = '\0';
}

struct fold_key {
	double x;		/* goodput / weight */
	double mbps;
	unsigned int i;
};

static int
key_cmp(const void *a, const void *b)
{
	const struct fold_key *x = a, *y = b;

	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least p % of the values at or below it. */
static double
pct(const double *sorted, unsigned int n, unsigned int p)
{
	unsigned int r = (unsigned int)(((uint64_t)p * n + 99) / 100);

	return sorted[r > 0 ? r - 1 : 0];
}

static void
class_add(struct eng_fold *s, const char *fail)
{
	char c[ENG_FOLD_CLASS_LEN];
	unsigned int k;

	eng_fold_class(fail, c, sizeof(c));
	for (k = 0; k < s->nb_classes; k++)
		if (strcmp(s->classes[k].reason, c) == 0) {
			s->classes[k].count++;
			/* keep the most frequent first */
			while (k > 0 && s->classes[k].count > s->classes[k - 1].count) {
				struct eng_fold_cls t = s->classes[k - 1];

				s->classes[k - 1] = s->classes[k];
				s->classes[k] = t;
				k--;
			}
			return;
		}
	if (s->nb_classes == ENG_FOLD_CLASSES) {
		s->other_failed++;
		return;
	}
	snprintf(s->classes[s->nb_classes].reason, ENG_FOLD_CLASS_LEN, "%s", c);
	snprintf(s->classes[s->nb_classes].example, ENG_FOLD_CLASS_LEN, "%s", fail);
	s->classes[s->nb_classes++].count = 1;
}

int
eng_fold_compute(const struct eng_fold_flow *v, unsigned int n, struct eng_fold *s)
{
	struct fold_key *k = malloc(((size_t)n + 1) * sizeof(*k));
	double *g = malloc(((size_t)n + 1) * sizeof(*g));
	double sum = 0, sq = 0;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (k == NULL || g == NULL) {
		free(k);
		free(g);
		return -ENOMEM;
	}
	s->n = n;
	for (i = 0; i < n; i++) {
		double x = v[i].mbps / (v[i].weight ? v[i].weight : 1);

		k[i].x = x;
		k[i].mbps = v[i].mbps;
		k[i].i = i;
		g[i] = v[i].mbps;
		s->total_mbps += v[i].mbps;
		sum += x;
		sq += x * x;
		s->completed += v[i].completed != 0;
		if (v[i].fail != NULL && v[i].fail[0] != '\0') {
			s->failed++;
			class_add(s, v[i].fail);
		}
	}
	s->jain = n == 0 || sq == 0 ? 0.0 : sum * sum / (n * sq);
	if (n != 0) {
		qsort(g, n, sizeof(*g), dbl_cmp);
		qsort(k, n, sizeof(*k), key_cmp);
		s->min = g[0];
		s->max = g[n - 1];
		s->p50 = pct(g, n, 50);
		s->p90 = pct(g, n, 90);
		s->p99 = pct(g, n, 99);
		for (i = 0; i < n && i < ENG_FOLD_TOP; i++)
			s->slow[s->nb_slow++] = k[i].i;
	}
	free(k);
	free(g);
	return 0;
}

void
eng_fold_failures_str(const struct eng_fold *s, char *buf, size_t len)
{
	size_t off;
	unsigned int k;

	off = (size_t)snprintf(buf, len, "%u of %u flows failed", s->failed, s->n);
	for (k = 0; k < s->nb_classes && off < len; k++)
		/* a class of one: its own reason; of several: the numbers as N */
		off += (size_t)snprintf(buf + off, len - off, "%s%u %s", k ? ", " : ": ",
				s->classes[k].count, s->classes[k].count == 1 ?
				s->classes[k].example : s->classes[k].reason);
	if (s->other_failed != 0 && off < len)
		snprintf(buf + off, len - off, ", %u other", s->other_failed);
}

void
eng_fold_write(struct eng_out *o, const struct eng_fold_flow *v, const struct eng_fold *s)
{
	char buf[512];
	size_t off = 0;
	unsigned int i;

	eng_out_u64(o, "flows", s->n);
	eng_out_u64(o, "completed", s->completed);
	eng_out_u64(o, "failed", s->failed);
	eng_out_dbl(o, "goodput_total_mbps", s->total_mbps, 3);
	eng_out_dbl(o, "goodput_min_mbps", s->min, 3);
	eng_out_dbl(o, "goodput_p50_mbps", s->p50, 3);
	eng_out_dbl(o, "goodput_p90_mbps", s->p90, 3);
	eng_out_dbl(o, "goodput_p99_mbps", s->p99, 3);
	eng_out_dbl(o, "goodput_max_mbps", s->max, 3);
	eng_out_dbl(o, "jain", s->jain, 6);
	buf[0] = '\0';
	for (i = 0; i < s->nb_slow && off < sizeof(buf); i++) {
		const struct eng_fold_flow *f = &v[s->slow[i]];

		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s %.1f", i ? ", " : "",
				f->name, f->mbps);
		if (f->weight > 1 && off < sizeof(buf))
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, " (weight %u)",
					f->weight);
	}
	eng_out_str(o, "slowest", buf);
	if (s->failed != 0) {
		eng_fold_failures_str(s, buf, sizeof(buf));
		eng_out_str(o, "failures", buf);
	}
}
