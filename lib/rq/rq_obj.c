/* SPDX-License-Identifier: BSD-3-Clause */
/* Object level: OTI, FEC Payload ID, partitioning (RFC 6330 §3, §4.3, §4.4.1). */
#include <errno.h>
#include <string.h>

#include "rq_priv.h"

void
rq_oti_write(const struct rq_oti *oti, uint8_t out[RQ_OTI_LEN])
{
	out[0] = (uint8_t)(oti->F >> 32);
	out[1] = (uint8_t)(oti->F >> 24);
	out[2] = (uint8_t)(oti->F >> 16);
	out[3] = (uint8_t)(oti->F >> 8);
	out[4] = (uint8_t)oti->F;
	out[5] = 0;
	out[6] = (uint8_t)(oti->T >> 8);
	out[7] = (uint8_t)oti->T;
	out[8] = oti->Z;
	out[9] = (uint8_t)(oti->N >> 8);
	out[10] = (uint8_t)oti->N;
	out[11] = oti->Al;
}

int
rq_oti_parse(const uint8_t in[RQ_OTI_LEN], struct rq_oti *oti)
{
	struct rq_oti o;

	if (in == NULL || oti == NULL)
		return -EINVAL;
	o.F = (uint64_t)in[0] << 32 | (uint64_t)in[1] << 24 | (uint64_t)in[2] << 16 |
		(uint64_t)in[3] << 8 | in[4];
	o.T = (uint16_t)(in[6] << 8 | in[7]);
	o.Z = in[8];
	o.N = (uint16_t)(in[9] << 8 | in[10]);
	o.Al = in[11];
	if (rq_oti_check(&o))
		return -EINVAL;
	*oti = o;
	return 0;
}

void
rq_payload_id_write(uint8_t sbn, uint32_t esi, uint8_t out[RQ_PAYLOAD_ID_LEN])
{
	out[0] = sbn;
	out[1] = (uint8_t)(esi >> 16);
	out[2] = (uint8_t)(esi >> 8);
	out[3] = (uint8_t)esi;
}

void
rq_payload_id_parse(const uint8_t in[RQ_PAYLOAD_ID_LEN], uint8_t *sbn, uint32_t *esi)
{
	*sbn = in[0];
	*esi = (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

void
rq_part_get(uint64_t I, uint64_t J, struct rq_part *pt)
{
	pt->IL = (I + J - 1) / J;
	pt->IS = I / J;
	pt->JL = I - pt->IS * J;
	pt->JS = J - pt->JL;
}

int
rq_oti_check(const struct rq_oti *o)
{
	uint64_t Kt;

	if (o == NULL || o->F == 0 || o->F > RQ_MAX_F || o->T == 0 || o->Al == 0 ||
			o->T % o->Al != 0 || o->Z == 0 || o->N == 0 ||
			o->N > o->T / o->Al)
		return -EINVAL;
	Kt = (o->F + o->T - 1) / o->T;
	if (o->Z > Kt || (Kt + o->Z - 1) / o->Z > RQ_MAX_K)
		return -EINVAL;
	return 0;
}

/* Largest K' of Table 2 that is <= x (0 if none). */
static uint64_t
kp_floor(uint64_t x)
{
	int i;

	for (i = RQ_TABLE2_ROWS - 1; i >= 0; i--)
		if (rq_table2[i].Kp <= x)
			return rq_table2[i].Kp;
	return 0;
}

int
rq_oti_derive(uint64_t F, uint16_t T, uint8_t Al, uint64_t WS, struct rq_oti *oti)
{
	uint64_t Kt, Nmax, Z, n, kl;

	if (oti == NULL || F == 0 || F > RQ_MAX_F || T == 0 || Al == 0 || T % Al)
		return -EINVAL;
	if (WS == 0)
		WS = RQ_OBJ_WS_DEFAULT;
	Kt = (F + T - 1) / T;
	Nmax = T / Al;	/* SS = 1 */
	kl = kp_floor(WS / ((uint64_t)Al * ((T + Al * Nmax - 1) / (Al * Nmax))));
	if (kl == 0)
		return -EINVAL;
	Z = (Kt + kl - 1) / kl;
	if (Z > 255)
		return -EFBIG;
	for (n = 1; n <= Nmax; n++) {
		kl = kp_floor(WS / ((uint64_t)Al * ((T + Al * n - 1) / (Al * n))));
		if ((Kt + Z - 1) / Z <= kl)
			break;
	}
	if (n > Nmax || n > UINT16_MAX)
		return -EINVAL;
	oti->F = F;
	oti->T = T;
	oti->Al = Al;
	oti->Z = (uint8_t)Z;
	oti->N = (uint16_t)n;
	return rq_oti_check(oti);
}

int
rq_block_info(const struct rq_oti *oti, uint32_t sbn, uint32_t *K, uint64_t *off, size_t *len)
{
	struct rq_part pt;
	uint64_t Kt, o, k, end;

	if (rq_oti_check(oti) || sbn >= oti->Z)
		return -EINVAL;
	Kt = (oti->F + oti->T - 1) / oti->T;
	rq_part_get(Kt, oti->Z, &pt);
	if (sbn < pt.JL) {
		k = pt.IL;
		o = (uint64_t)sbn * pt.IL;
	} else {
		k = pt.IS;
		o = pt.JL * pt.IL + (sbn - pt.JL) * pt.IS;
	}
	o *= oti->T;
	end = o + k * oti->T;
	if (end > oti->F)
		end = oti->F;
	if (K)
		*K = (uint32_t)k;
	if (off)
		*off = o;
	if (len)
		*len = (size_t)(end - o);
	return 0;
}

static int
convert(const struct rq_oti *oti, uint32_t K, const uint8_t *in, uint8_t *out, int to_sym)
{
	struct rq_part pt;
	uint32_t j, i;
	size_t soff = 0;

	if (rq_oti_check(oti) || K == 0 || in == NULL || out == NULL)
		return -EINVAL;
	if (oti->N == 1) {
		memcpy(out, in, (size_t)K * oti->T);
		return 0;
	}
	rq_part_get(oti->T / oti->Al, oti->N, &pt);
	for (j = 0; j < oti->N; j++) {
		size_t ssz = (j < pt.JL ? pt.IL : pt.IS) * oti->Al;
		size_t boff = (size_t)K * soff;

		for (i = 0; i < K; i++) {
			if (to_sym)
				memcpy(out + (size_t)i * oti->T + soff, in + boff + i * ssz, ssz);
			else
				memcpy(out + boff + i * ssz, in + (size_t)i * oti->T + soff, ssz);
		}
		soff += ssz;
	}
	return 0;
}

int
rq_block_to_symbols(const struct rq_oti *oti, uint32_t K, const void *block, void *symbols)
{
	return convert(oti, K, block, symbols, 1);
}

int
rq_symbols_to_block(const struct rq_oti *oti, uint32_t K, const void *symbols, void *block)
{
	return convert(oti, K, symbols, block, 0);
}
