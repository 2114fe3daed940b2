/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IMIX for txonly: a list of frame sizes with optional weights
 * (pkt_size = 64,594,1518, pkt_weights = 7,4,1), turned at set-up into a
 * repeating sequence of sum(weights) frame sizes in which each size appears
 * weight times, spread evenly (smooth weighted round robin: the size with the
 * most credit goes next), so a burst mixes small and large frames instead of
 * sending 7 small then 4 medium. The hot path reads the next size from the
 * table. Pure: no DPDK, unit-tested (test/engine/test_imix.c).
 */
#ifndef ENG_IMIX_H
#define ENG_IMIX_H

#include <stddef.h>
#include <stdint.h>

#define ENG_IMIX_MAX_SIZES 16
#define ENG_IMIX_MAX_SEQ 4096	/* sum of the weights */

struct eng_imix {
	unsigned int nb_sizes;
	uint32_t size[ENG_IMIX_MAX_SIZES];	/* frame sizes with FCS */
	uint32_t weight[ENG_IMIX_MAX_SIZES];
	uint32_t seq_len;			/* sum of the weights */
	uint16_t *seq;				/* seq_len frame sizes (eng_imix_build) */
};

/* "64,594,1518" (sizes: cfg_parse_size syntax, each in [min, max]) and the
 * weights "7,4,1" (NULL or "": 1 each; as many as sizes). 0 or -EINVAL with
 * the reason in err. */
int eng_imix_parse(struct eng_imix *m, const char *sizes, const char *weights, uint32_t min,
		uint32_t max, char *err, size_t errlen);
/* Allocate and fill m->seq (0 or -ENOMEM); eng_imix_free releases it. */
int eng_imix_build(struct eng_imix *m);
void eng_imix_free(struct eng_imix *m);
/* Mean and largest frame size. */
double eng_imix_mean(const struct eng_imix *m);
uint32_t eng_imix_max(const struct eng_imix *m);

#endif /* ENG_IMIX_H */
