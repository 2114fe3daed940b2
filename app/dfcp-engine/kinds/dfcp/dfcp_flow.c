/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DFCP keys of a [flow NAME] (proto = dfcp, the default): the thesis's
 * five parameters, coding, timers, integrity, authentication and the peer
 * timeout (config/sec_flow.c reads the keys every flow has, rate among
 * them); the keys of a [task] kind = dfcp. The dfcp kind's check: windows
 * sized by share, the flows of one task have distinct local addresses, its
 * flows fit its block memory (dfcp_mem.c). Keys: doc/config.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/dfcp/dfcp_task.h"

/*
 * block_size = auto: a sixteenth of the path's bandwidth-delay product
 * (path_rate x path_rtt), in whole symbols, K from 64 KiB's (47 at T = 1420)
 * up to ENG_DFCP_AUTO_K_MAX: the window then holds a few dozen blocks
 * (doc/protocol.md, "Block size").
 */
uint32_t
eng_dfcp_block_auto(uint64_t rate_bps, uint64_t rtt_ns, uint16_t T)
{
	uint64_t k = (uint64_t)((unsigned __int128)rate_bps * rtt_ns / 8u / 1000000000u / 16u / T);
	uint64_t kmin = (65536u + T - 1u) / T;

	if (k < kmin)
		k = kmin;
	if (k > ENG_DFCP_AUTO_K_MAX)
		k = ENG_DFCP_AUTO_K_MAX;
	return (uint32_t)(k * T);
}

static void
dfcp_flow_defaults(struct eng_dfcp_flow_conf *f)
{
	f->path_rate_bps = 1000000000ull;
	f->path_rtt_ns = 200000000ull;
	f->redundancy = DFCP_REDUNDANCY_AUTO;
	f->acks = f->encode = f->decode = 1;
	f->T = DFCP_DEFAULT_T;
	f->block_size = 65536;
	f->hs_rto_ns = 200000000ull;
	f->min_rto_ns = 10000000ull; /* above the queueing delay of deep rings */
	f->time_wait_ns = 1000000000ull;
	f->xr = 1;
	f->round_idle_ns = 250000ull;
	f->block_crc = 1;
	f->max_K = DFCP_MAX_K;
}

/* auth_key = FILE, or pinned keys: read and checked now (errors before any EAL output). */
static int
flow_parse_key(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	const char *path = eng_sec_get(sec, "auth_key"), *why = "";
	uint8_t buf[80];
	ssize_t n;
	int rc;

	/* pinned keys make one (and refuse an auth_key beside them) */
	if (path == NULL || eng_sec_get(sec, "identity_key") != NULL ||
			eng_sec_get(sec, "peer_key") != NULL)
		return eng_dfcp_pin_parse(sec, f);
	n = eng_dfcp_key_file(path, buf, sizeof(buf), &why);
	if (n < 0)
		return eng_sec_error(sec, "auth_key", "%s: %s", path, why);
	rc = eng_dfcp_key_decode(buf, (size_t)n, f->auth_key, &f->auth_key_len);
	memset(buf, 0, sizeof(buf));
	if (rc < 0)
		return eng_sec_error(sec, "auth_key", "%s: %zd bytes: expected a key of exactly 16 "
				"or 32 bytes, or 32 or 64 hex digits", path, n);
	return 0;
}

/*
 * crypto = SUITE (the library's names); the key exchange is authenticated
 * by auth_key. crypto_backend: a name of dfcp_aead_be.c's table.
 */
static int
flow_parse_crypto(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	const char *names[DFCP_CRYPTO_MAX], *bnames[ENG_CRYPTO_MAX], *dev;
	/* with a key, sealed by default: AES-GCM costs less than a SipHash tag per symbol
	 * (doc/performance.md, "Encryption"); crypto = off keeps the tags */
	int v = f->auth_key_len != 0 ? DFCP_CRYPTO_AES128GCM : DFCP_CRYPTO_OFF, rc;

	for (int i = 0; i < DFCP_CRYPTO_MAX; i++)
		names[i] = dfcp_crypto_name((unsigned int)i);
	rc = eng_sec_choice(sec, "crypto", names, DFCP_CRYPTO_MAX, &v, NULL, 0);
	if (rc < 0)
		return rc;
	if (v != DFCP_CRYPTO_OFF && f->auth_key_len == 0)
		return eng_sec_error(sec, "crypto", "%s needs auth_key (the pre-shared key that "
				"authenticates the key exchange)", names[v]);
	f->crypto = (uint8_t)v;
	v = ENG_CRYPTO_AUTO;
	for (int i = 0; i < ENG_CRYPTO_MAX; i++)
		bnames[i] = eng_dfcp_backend_name(i);
	rc = eng_sec_choice(sec, "crypto_backend", bnames, ENG_CRYPTO_MAX, &v, NULL, 0);
	f->crypto_backend = (uint8_t)v;
	if (rc < 0)
		return rc;
	dev = eng_sec_get(sec, "crypto_dev");
	if (dev == NULL)
		return 0;
	if (dev[0] == '\0' || strlen(dev) >= sizeof(f->crypto_dev) || strchr(dev, ' ') != NULL)
		return eng_sec_error(sec, "crypto_dev", "'%s': expected a cryptodev name of 1 to "
				"%zu characters (crypto_openssl0, a probed device's name)", dev,
				sizeof(f->crypto_dev) - 1);
	if (v != ENG_CRYPTO_AUTO && v != ENG_CRYPTO_CDEV)
		return eng_sec_error(sec, "crypto_dev", "a cryptodev device, but crypto_backend "
				"= %s", bnames[v]);
	snprintf(f->crypto_dev, sizeof(f->crypto_dev), "%s", dev);
	return 0;
}

/* Integrity, authentication, encryption, dead peers, the peer's K. */
static int
flow_parse_integrity(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	const char *v = eng_sec_get(sec, "peer_timeout");
	int rc = eng_sec_bool(sec, "block_crc", &f->block_crc);

	if (rc == 0 && v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_time(sec, "peer_timeout", 1000000000ull, 10000000ull, 3600000000000ull,
				&f->peer_timeout_ns);
	if (rc == 0)
		rc = eng_sec_u16(sec, "max_K", 1, DFCP_MAX_K, &f->max_K);
	if (rc == 0)
		rc = flow_parse_key(sec, f);
	if (rc == 0)
		rc = flow_parse_crypto(sec, f);
	/* sealed: every symbol carries a 128-bit tag, the CRC is off unless asked for */
	if (rc == 0 && f->crypto != DFCP_CRYPTO_OFF && eng_sec_get(sec, "block_crc") == NULL)
		f->block_crc = 0;
	return rc;
}

/* Window (and the path it is sized for), redundancy, acks, coding on or off: the
 * five parameters of the thesis. */
static int
flow_parse_window(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	const char *v = eng_sec_get(sec, "window");
	int rc = 0;

	if (v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_u32(sec, "window", 1, DFCP_MAX_WINDOW, &f->window);
	f->window_auto = f->window == 0;
	if (rc == 0)
		rc = eng_sec_rate(sec, "path_rate", 1000, 400000000000ull, &f->path_rate_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "path_rtt", 1000000ull, 0, 10000000000ull, &f->path_rtt_ns);
	v = eng_sec_get(sec, "redundancy");
	if (rc == 0 && v != NULL) {
		if (strcmp(v, "auto") == 0)
			f->redundancy = DFCP_REDUNDANCY_AUTO;
		else
			rc = eng_sec_u16(sec, "redundancy", 1, DFCP_MAX_REDUNDANCY, &f->redundancy);
	}
	if (rc == 0)
		rc = eng_sec_bool(sec, "acks", &f->acks);
	if (rc == 0)
		rc = eng_sec_bool(sec, "encode", &f->encode);
	if (rc == 0)
		rc = eng_sec_bool(sec, "decode", &f->decode);
	return rc;
}

/* Coding (symbol and block size) and the connection's timers. */
static int
flow_parse_coding(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	uint64_t u = f->block_size;
	int rc;

	const char *bs = eng_sec_get(sec, "block_size");

	rc = eng_sec_u16(sec, "symbol_size", DFCP_MIN_T, DFCP_MAX_T, &f->T);
	if (rc == 0 && bs != NULL && strcmp(bs, "auto") == 0)
		u = eng_dfcp_block_auto(f->path_rate_bps, f->path_rtt_ns, f->T);
	else if (rc == 0)
		rc = eng_sec_size(sec, "block_size", 1, (uint64_t)DFCP_MAX_K * DFCP_MAX_T, &u);
	if (rc < 0)
		return rc;
	f->block_size = (uint32_t)u;
	u = (f->block_size + f->T - 1u) / f->T;
	if (u > DFCP_MAX_K)
		return eng_sec_error(sec, "block_size", "%u bytes need K = %" PRIu64
				" symbols of %u bytes (at most %u)", f->block_size, u, f->T,
				DFCP_MAX_K);
	f->K = (uint16_t)u;
	if (f->redundancy != DFCP_REDUNDANCY_AUTO && f->redundancy < f->K)
		return eng_sec_error(sec, "redundancy",
				"%u packets per block is fewer than K = %u source symbols",
				f->redundancy, f->K);
	rc = eng_sec_time(sec, "hs_rto", 1000000ull, 1000000ull, 60000000000ull, &f->hs_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "min_rto", 1000000ull, 1000ull, 60000000000ull, &f->min_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "time_wait", 1000000ull, 1000000ull, 600000000000ull,
				&f->time_wait_ns);
	if (rc == 0)
		rc = eng_sec_bool(sec, "xr", &f->xr);
	if (rc == 0)
		rc = eng_sec_bool(sec, "rate_hint", &f->rate_hint);
	if (rc == 0)
		rc = eng_sec_time(sec, "round_idle", 1000000ull, 10000ull, 1000000000ull,
				&f->round_idle_ns);
	if (rc == 0 && f->rate_hint && !f->xr)
		return eng_sec_error(sec, "rate_hint", "needs xr = on (hints travel in loss reports)");
	return rc;
}

int
eng_dfcp_flow_parse(struct eng_flow_conf *fc, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_dfcp_flow_conf *f;
	int rc;

	RTE_SET_USED(cfg);
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	fc->pconf = f;
	dfcp_flow_defaults(f);
	rc = flow_parse_window(sec, f);
	if (rc == 0)
		rc = flow_parse_coding(sec, f);
	if (rc == 0)
		rc = flow_parse_integrity(sec, f);
	if (rc == 0 && f->max_K < f->K)
		return eng_sec_error(sec, "max_K", "%u is below the flow's own K = %u", f->max_K, f->K);
	if (rc < 0)
		return rc;
	if (f->window_auto) /* until the check sizes it by the flow's share */
		f->window = eng_dfcp_window_path(f);
	return 0;
}

/* mem_budget (max_rx_memory: its older name) and max_half_open, each auto or a number. */
static int
parse_memory(struct eng_sec *sec, struct eng_dfcp_conf *c)
{
	const char *key = eng_sec_get(sec, "mem_budget") != NULL ? "mem_budget" : "max_rx_memory";
	const char *v = eng_sec_get(sec, key);
	int rc = 0;

	if (eng_sec_get(sec, "mem_budget") != NULL && eng_sec_get(sec, "max_rx_memory") != NULL)
		return eng_sec_error(sec, "max_rx_memory", "the older name of mem_budget: give one");
	if (v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_size(sec, key, 1, 1ull << 40, &c->mem_budget);
	v = eng_sec_get(sec, "max_half_open");
	if (rc == 0 && v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_u32(sec, "max_half_open", 1, 1u << 20, &c->max_half_open);
	return rc;
}

/* [task NAME] kind = dfcp: egress or port, flows, max_conns, checksum, memory. */
int
eng_dfcp_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	static const char *const modes[] = {"auto", "full", "zero", "offload"};
	struct eng_dfcp_conf *c;
	const char *v;
	int rc, i;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	c->max_conns = 4;
	rc = eng_task_parse_egress_port(t, sec, cfg, c->egress, sizeof(c->egress));
	if (rc == 0)
		rc = eng_task_parse_flows(t, sec);
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_conns", 1, 1024, &c->max_conns);
	rc = rc == 0 ? parse_memory(sec, c) : rc;
	v = eng_sec_get(sec, "checksum");
	if (rc == 0 && v != NULL) {
		for (i = 0; i < 4; i++)
			if (strcmp(v, modes[i]) == 0)
				break;
		if (i == 4)
			return eng_sec_error(sec, "checksum",
					"unknown mode \"%s\" (expected auto, full, zero or offload)", v);
		c->csum = i;
	}
	return rc;
}

/*
 * Windows by share; each task's block memory fits its budget; two flows of
 * one task on the same local address:port cannot be told apart.
 */
int
eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen)
{
	const struct eng_flow_conf *f, *g;
	struct eng_dfcp_plan pl;
	unsigned int t;

	eng_dfcp_windows(cfg);
	for (t = 0; t < cfg->nb_tasks; t++) {
		const struct eng_task *tk = &cfg->tasks[t];

		if (tk->ops != &eng_task_dfcp)
			continue;
		if (eng_dfcp_plan(cfg, tk, &pl, err, errlen) < 0)
			return -EINVAL;
		if (eng_task_flows_same_local(cfg, tk, &f, &g) > 0) {
			snprintf(err, errlen, "%s:%d: [flow %s] local: same address and port as "
					"flow %s on the same task", cfg->file, f->line, f->name, g->name);
			return -EINVAL;
		}
	}
	return 0;
}
