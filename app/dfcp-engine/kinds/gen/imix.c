/* SPDX-License-Identifier: BSD-3-Clause */
/* IMIX size lists for txonly (imix.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

#include "kinds/gen/imix.h"

/* The items of a comma-separated list through parse(); their count or -EINVAL. */
static int
list_parse(const char *s, uint32_t *out, unsigned int max_items, uint64_t min, uint64_t max,
		int sizes, char *err, size_t errlen)
{
	const char *cur = s;
	char item[64], e[CFG_ERR_LEN];
	unsigned int n = 0;
	uint64_t v;
	int rc;

	while ((rc = cfg_list_next(&cur, item, sizeof(item), e, sizeof(e))) == 1) {
		if (n == max_items) {
			snprintf(err, errlen, "more than %u items", max_items);
			return -EINVAL;
		}
		rc = sizes ? cfg_parse_size(item, min, max, &v, e, sizeof(e)) :
				cfg_parse_u64(item, min, max, &v, e, sizeof(e));
		if (rc < 0) {
			snprintf(err, errlen, "item %u: %s", n + 1, e);
			return -EINVAL;
		}
		out[n++] = (uint32_t)v;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", e);
		return -EINVAL;
	}
	if (n == 0) {
		snprintf(err, errlen, "empty list");
		return -EINVAL;
	}
	return (int)n;
}

int
eng_imix_parse(struct eng_imix *m, const char *sizes, const char *weights, uint32_t min,
		uint32_t max, char *err, size_t errlen)
{
	unsigned int i;
	uint64_t sum = 0;
	int n, nw;

	memset(m, 0, sizeof(*m));
	n = list_parse(sizes, m->size, ENG_IMIX_MAX_SIZES, min, max, 1, err, errlen);
	if (n < 0)
		return n;
	m->nb_sizes = (unsigned int)n;
	for (i = 0; i < m->nb_sizes; i++)
		m->weight[i] = 1;
	if (weights != NULL && weights[0] != '\0') {
		nw = list_parse(weights, m->weight, ENG_IMIX_MAX_SIZES, 1, ENG_IMIX_MAX_SEQ, 0, err,
				errlen);
		if (nw < 0)
			return nw;
		if (nw != n) {
			snprintf(err, errlen, "%d weights for %d sizes", nw, n);
			return -EINVAL;
		}
	}
	for (i = 0; i < m->nb_sizes; i++)
		sum += m->weight[i];
	if (sum > ENG_IMIX_MAX_SEQ) {
		snprintf(err, errlen, "weights add up to %llu (at most %u)",
				(unsigned long long)sum, ENG_IMIX_MAX_SEQ);
		return -EINVAL;
	}
	m->seq_len = (uint32_t)sum;
	return 0;
}

int
eng_imix_build(struct eng_imix *m)
{
	int64_t credit[ENG_IMIX_MAX_SIZES] = {0};
	unsigned int i, k, best;

	free(m->seq);
	m->seq = calloc(m->seq_len, sizeof(*m->seq));
	if (m->seq == NULL)
		return -ENOMEM;
	/* smooth weighted round robin: everyone gains its weight, the richest goes
	 * and pays the total; over seq_len rounds each size goes weight times */
	for (k = 0; k < m->seq_len; k++) {
		best = 0;
		for (i = 0; i < m->nb_sizes; i++) {
			credit[i] += m->weight[i];
			if (credit[i] > credit[best])
				best = i;
		}
		credit[best] -= m->seq_len;
		m->seq[k] = (uint16_t)m->size[best];
	}
	return 0;
}

void
eng_imix_free(struct eng_imix *m)
{
	free(m->seq);
	m->seq = NULL;
}

double
eng_imix_mean(const struct eng_imix *m)
{
	double s = 0, w = 0;
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++) {
		s += (double)m->size[i] * m->weight[i];
		w += m->weight[i];
	}
	return w == 0 ? 0 : s / w;
}

uint32_t
eng_imix_max(const struct eng_imix *m)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++)
		if (m->size[i] > v)
			v = m->size[i];
	return v;
}
