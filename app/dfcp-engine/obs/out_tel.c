/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rte_telemetry backend of the output writer (out.h). DPDK 22.11 nests
 * containers one level deep and accepts only [A-Za-z0-9_/] in keys: an
 * object or item opened at the root becomes a container named by its key
 * or label; inside one, objects and items add "KEY/" to the key of what
 * they hold, arrays add nothing (their items are named by their labels,
 * their bare scalars "ARRAY/INDEX"). Arrays at the root are transparent.
 * Doubles go out as strings with their decimals (no double in 22.11).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>

#include "obs/out.h"

/* Append s to buf[*len..cap) with every byte outside [A-Za-z0-9_/] as '_'. */
static void
tel_append(char *buf, size_t cap, size_t *len, const char *s)
{
	for (; *s != '\0' && *len + 1 < cap; s++) {
		char c = *s;
		int ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
				(c >= 'a' && c <= 'z') || c == '_' || c == '/';

		buf[(*len)++] = ok ? c : '_';
	}
	buf[*len] = '\0';
}

static void
tel_open(struct eng_out *o, const char *key, int how)
{
	int l = o->depth;	/* the level the new container is a member of */
	size_t len;

	o->tel_plen[l + 1] = strlen(o->tel_prefix);
	o->tel_arrkey[l + 1] = how == ENG_OPEN_ARR ? key : NULL;
	if (o->tel_item_depth == 0) {
		if (how == ENG_OPEN_ARR)
			return;		/* transparent at the root */
		o->tel_cur = rte_tel_data_alloc();
		if (o->tel_cur == NULL) {
			o->err = -ENOMEM;
			o->tel_cur = o->tel_root;
			return;
		}
		rte_tel_data_start_dict(o->tel_cur);
		len = 0;
		tel_append(o->tel_label, sizeof(o->tel_label), &len, key != NULL ? key : "-");
		o->tel_item_depth = l + 1;
		o->tel_prefix[0] = '\0';
		return;
	}
	if (how == ENG_OPEN_ARR)
		return;
	len = strlen(o->tel_prefix);
	if (key == NULL) {
		char idx[16];

		snprintf(idx, sizeof(idx), "%u", o->count[l]);
		tel_append(o->tel_prefix, sizeof(o->tel_prefix), &len, idx);
	} else {
		tel_append(o->tel_prefix, sizeof(o->tel_prefix), &len, key);
	}
	tel_append(o->tel_prefix, sizeof(o->tel_prefix), &len, "/");
	o->count[l]++;
}

static void
tel_close(struct eng_out *o)
{
	int l = o->depth;

	if (l == o->tel_item_depth) {
		if (o->tel_cur != o->tel_root &&
				rte_tel_data_add_dict_container(o->tel_root, o->tel_label, o->tel_cur,
						0) != 0) {
			rte_tel_data_free(o->tel_cur);
			if (o->err == 0)
				o->err = -ENOSPC;
		}
		o->tel_cur = o->tel_root;
		o->tel_item_depth = 0;
	}
	o->tel_prefix[o->tel_plen[l]] = '\0';
}

static void
tel_scalar(struct eng_out *o, const char *key, const struct eng_out_val *v)
{
	char name[RTE_TEL_MAX_STRING_LEN], num[64];
	int l = o->depth, rc;
	size_t len = 0;

	tel_append(name, sizeof(name), &len, o->tel_prefix);
	if (key == NULL) {
		if (o->tel_arrkey[l] != NULL) {
			tel_append(name, sizeof(name), &len, o->tel_arrkey[l]);
			tel_append(name, sizeof(name), &len, "/");
		}
		snprintf(num, sizeof(num), "%u", o->count[l]);
		tel_append(name, sizeof(name), &len, num);
	} else {
		tel_append(name, sizeof(name), &len, key);
	}
	o->count[l]++;
	switch (v->type) {
	case ENG_CT_INT:
		rc = rte_tel_data_add_dict_int(o->tel_cur, name, (int)v->i);
		break;
	case ENG_CT_DBL:
		snprintf(num, sizeof(num), "%.*f", v->prec, v->d);
		rc = rte_tel_data_add_dict_string(o->tel_cur, name, num);
		break;
	case ENG_CT_STR:
		rc = rte_tel_data_add_dict_string(o->tel_cur, name, v->s);
		break;
	default:	/* U64, U32, BOOL */
		rc = rte_tel_data_add_dict_u64(o->tel_cur, name, v->u);
		break;
	}
	if (rc != 0 && o->err == 0)
		o->err = rc < 0 ? rc : -ENOSPC;
}

static const struct eng_out_backend tel_backend = {
	.open = tel_open,
	.close = tel_close,
	.scalar = tel_scalar,
	.finish = NULL,
};

void
eng_out_tel(struct eng_out *o, struct rte_tel_data *d)
{
	memset(o, 0, sizeof(*o));
	o->be = &tel_backend;
	o->kind = ENG_OUT_TEL;
	o->view = ENG_OUT_TEL;
	o->tel_root = d;
	o->tel_cur = d;
	rte_tel_data_start_dict(d);
}

int
eng_out_tel_string(struct eng_out *o, const char *s)
{
	if (strlen(s) >= RTE_TEL_MAX_SINGLE_STRING_LEN)
		return -E2BIG;
	return rte_tel_data_string(o->tel_root, s) == 0 ? 0 : -E2BIG;
}
