/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly multi-flow (txflows.h): N streams from one task. Per flow: its
 * source port and address (and IPv4 checksum, computed at set-up), its next
 * sequence number and, with an egress sched task, its handle there. Sent
 * round-robin; through a sched task a flow over its flow_queue is skipped
 * (refused and counted) before any mbuf is built, so the sequence numbers
 * of every stream stay gap-free. A stream held to its own rate (txlim.h)
 * is passed over until it is due.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_udp.h>

#include "config/config.h"
#include "core/egress.h"
#include "core/log.h"
#include "core/runtime.h"
#include "kinds/gen/txbuild.h"
#include "kinds/gen/txflows.h"
#include "kinds/gen/txlim.h"

#define TXF_MAX_BURST 512
#define TXF_PF_AHEAD 8			/* mbufs prefetched ahead of the build */

struct eng_txflows {
	struct rte_mempool *pool;
	uint16_t port_id, txq;
	uint32_t data_off;		/* of a raw mbuf's data (eng_txf_prefetch) */
	uint32_t n, next;
	uint64_t start_cyc, start_tsc;	/* start: delay, and when (0: not yet seen) */
	struct eng_egress_flow **h;	/* [n], NULL: the port */
	struct eng_txflow *f;		/* [n] */
	struct eng_txf_frame fr;	/* template, length, offloads */
	/* per-stream control: want [n] written by the main lcore; lim [n] and
	 * limited the owner's */
	uint64_t *want;
	struct eng_txlim *lim;
	uint64_t base, catchup, hz;	/* catchup: cycles x 2^ENG_TXLIM_FP */
	int limited;			/* a stream is stopped or held */
};

int
eng_txflows_parse(struct eng_txflows_conf *c, struct eng_sec *sec)
{
	char buf[CFG_VALUE_LEN], *tok, *save = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	c->n = 1;
	c->vary = ENG_TXF_VARY_PORT;
	/* streams; "flows", its older spelling, is still read (not both) */
	if (eng_sec_get(sec, "streams") != NULL && eng_sec_get(sec, "flows") != NULL)
		return eng_sec_error(sec, "flows", "streams is its newer spelling: give one of "
				"them");
	rc = eng_sec_u32(sec, "streams", 1, ENG_TXF_MAX_FLOWS, &c->n);
	if (rc == 0)
		rc = eng_sec_u32(sec, "flows", 1, ENG_TXF_MAX_FLOWS, &c->n);
	if (rc == 0)
		rc = eng_sec_time(sec, "start", 1000000ull, 0, 3600000000000ull, &c->start_ns);
	if (rc == 0 && eng_sec_get(sec, "flow_vary") != NULL) {
		rc = eng_sec_str(sec, "flow_vary", buf, sizeof(buf));
		if (rc == 0 && strcmp(buf, "port") == 0)
			c->vary = ENG_TXF_VARY_PORT;
		else if (rc == 0 && strcmp(buf, "ip") == 0)
			c->vary = ENG_TXF_VARY_IP;
		else if (rc == 0 && strcmp(buf, "both") == 0)
			c->vary = ENG_TXF_VARY_PORT | ENG_TXF_VARY_IP;
		else if (rc == 0)
			return eng_sec_error(sec, "flow_vary", "\"%s\" (expected port, ip or both)",
					buf);
	}
	if (rc != 0 || eng_sec_get(sec, "weights") == NULL)
		return rc;
	rc = eng_sec_str(sec, "weights", buf, sizeof(buf));
	for (tok = strtok_r(buf, ", ", &save); rc == 0 && tok != NULL;
			tok = strtok_r(NULL, ", ", &save)) {
		char *end;
		unsigned long w = strtoul(tok, &end, 10);

		if (*end != '\0' || w < 1 || w > (1u << 20))
			return eng_sec_error(sec, "weights", "\"%s\" (expected weights 1..1048576 "
					"separated by commas)", tok);
		if (c->nb_weights == ENG_TXF_MAX_WEIGHTS)
			return eng_sec_error(sec, "weights", "more than %u weights",
					ENG_TXF_MAX_WEIGHTS);
		c->weights[c->nb_weights++] = (uint32_t)w;
	}
	if (rc == 0 && c->nb_weights == 0)
		return eng_sec_error(sec, "weights", "empty (expected w1,w2,...)");
	return rc;
}

void
eng_txflows_free(struct eng_txflows *tf)
{
	if (tf == NULL)
		return;
	rte_free(tf->h);
	rte_free(tf->f);
	rte_free(tf->want);
	rte_free(tf->lim);
	rte_free(tf);
}

/* Flow i's source port and address: port varies fastest with both. */
static void
txflow_init(struct eng_txflows *tf, const struct eng_txflows_conf *c,
		const struct eng_txflows_base *b, uint32_t i)
{
	uint8_t hdr[ENG_PKT_HDR_LEN];
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(hdr + 14);
	uint32_t sip = b->src_ip;
	uint16_t sport = b->src_port;

	if (c->vary == ENG_TXF_VARY_PORT)
		sport = (uint16_t)(sport + i);
	else if (c->vary == ENG_TXF_VARY_IP)
		sip += i;
	else {
		sport = (uint16_t)(sport + i % 256);
		sip += i / 256;
	}
	memcpy(hdr, b->tmpl, sizeof(hdr));
	ip->src_addr = rte_cpu_to_be_32(sip);
	ip->hdr_checksum = 0;
	if (b->ip_cksum)
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	tf->f[i].ip = ip->src_addr;
	tf->f[i].cksum = ip->hdr_checksum;
	tf->f[i].port = rte_cpu_to_be_16(sport);
}

struct eng_txflows *
eng_txflows_create(const struct eng_txflows_conf *c, const struct eng_txflows_base *b,
		struct eng_runtime *rt, const struct eng_task *t, int socket)
{
	struct eng_txflows *tf = rte_zmalloc_socket("txflows", sizeof(*tf), RTE_CACHE_LINE_SIZE,
			socket);
	char name[ENG_NAME_LEN];
	uint32_t i, id;

	if (tf == NULL)
		return NULL;
	tf->f = rte_zmalloc_socket("txflows_f", c->n * sizeof(tf->f[0]), RTE_CACHE_LINE_SIZE,
			socket);
	if (b->egress[0] != '\0')
		tf->h = rte_zmalloc_socket("txflows_h", c->n * sizeof(tf->h[0]), 0, socket);
	tf->want = rte_zmalloc_socket("txflows_want", c->n * sizeof(uint64_t), 0, socket);
	tf->lim = rte_zmalloc_socket("txflows_lim", c->n * sizeof(tf->lim[0]), 0, socket);
	if (tf->f == NULL || (b->egress[0] != '\0' && tf->h == NULL) || tf->want == NULL ||
			tf->lim == NULL) {
		ENG_LOG(ERR, task, "task %s: out of memory for %u flows", t->name, c->n);
		eng_txflows_free(tf);
		return NULL;
	}
	tf->pool = b->pool;
	tf->port_id = b->port_id;
	tf->txq = b->txq;
	tf->data_off = eng_txf_data_off(b->pool);
	tf->fr.data_len = b->data_len;
	tf->fr.ol_flags = b->ol_flags;
	tf->n = c->n;
	tf->start_cyc = (uint64_t)((unsigned __int128)c->start_ns * rt->clock.hz / 1000000000u);
	tf->hz = rt->clock.hz;
	tf->base = rte_rdtsc();
	tf->catchup = eng_clock_ns_cycles(&rt->clock, rt->cfg->pace_catchup_ns) << ENG_TXLIM_FP;
	memcpy(tf->fr.tmpl, b->tmpl, sizeof(tf->fr.tmpl));
	for (i = 0; i < c->n; i++) {
		txflow_init(tf, c, b, i);
		if (tf->h == NULL)
			continue;
		snprintf(name, sizeof(name), "%.20s.%u", t->name, i);
		tf->h[i] = eng_egress_attach(rt, t, b->egress, name,
				c->nb_weights ? c->weights[i % c->nb_weights] : b->weight, &id);
		if (tf->h[i] == NULL) {
			eng_txflows_free(tf);
			return NULL;
		}
	}
	ENG_LOG(INFO, task, "task %s: %u flows%s%s", t->name, c->n, tf->h ? " to " : "",
			b->egress);
	return tf;
}

uint32_t
eng_txflows_count(const struct eng_txflows *tf)
{
	return tf->n;
}

uint64_t
eng_txflows_sent(const struct eng_txflows *tf, uint32_t i)
{
	return __atomic_load_n(&tf->f[i].seq, __ATOMIC_RELAXED);
}

uint64_t
eng_txflows_wanted(const struct eng_txflows *tf, uint32_t i)
{
	return __atomic_load_n(&tf->want[i], __ATOMIC_RELAXED);
}

void
eng_txflows_want(struct eng_txflows *tf, uint32_t i, uint64_t want)
{
	__atomic_store_n(&tf->want[i], want, __ATOMIC_RELAXED);
}

void
eng_txflows_ctl_apply(struct eng_txflows *tf, uint64_t now)
{
	uint64_t bits = ((uint64_t)tf->fr.data_len + ENG_L1_OVERHEAD) * 8;
	uint64_t t = eng_txlim_now(tf->base, now);
	uint32_t i;
	int limited = 0;

	for (i = 0; i < tf->n; i++) {
		uint64_t w = __atomic_load_n(&tf->want[i], __ATOMIC_RELAXED);

		eng_txlim_set(&tf->lim[i], w & ENG_TXF_STOP ? ENG_TXLIM_STOP :
				eng_txlim_gap(bits, tf->hz, w), t);
		limited |= tf->lim[i].gap != 0;
	}
	tf->limited = limited;
}

/* A frame of stream i taken but not sent after all. */
static inline void
txs_untake(struct eng_txflows *tf, uint32_t i)
{
	if (tf->limited)
		eng_txlim_untake(&tf->lim[i]);
}

/* Up to n flows, round-robin; through a sched task only the admitted ones;
 * a stopped stream, or one held to its rate and not due, is passed over. */
static uint32_t
txflows_pick(struct eng_txflows *tf, uint32_t n, uint32_t *fid, uint64_t now,
		uint64_t *dropped)
{
	uint32_t k = 0, tries = 0, f = tf->next, max_tries = n + tf->n;
	const int limited = tf->limited; /* loop-invariant: the free case unswitched */
	uint64_t t = limited ? eng_txlim_now(tf->base, now) : 0;

	while (k < n && tries++ < max_tries) {
		uint32_t cur = f;

		f = f + 1 == tf->n ? 0 : f + 1;
		if (limited && !eng_txlim_ready(&tf->lim[cur], t))
			continue;
		if (tf->h != NULL && !eng_egress_admit(tf->h[cur])) {
			(*dropped)++;
			continue;
		}
		if (limited)
			eng_txlim_take(&tf->lim[cur], t, tf->catchup);
		fid[k++] = cur;
	}
	tf->next = f;
	return k;
}

uint16_t
eng_txflows_send(struct eng_txflows *tf, uint16_t n, uint64_t now, uint64_t *dropped,
		uint64_t *no_mbuf)
{
	struct rte_mbuf *pkts[TXF_MAX_BURST];
	uint32_t fid[TXF_MAX_BURST], k, i;
	uint16_t sent;

	if (unlikely(tf->start_tsc == 0))
		tf->start_tsc = now + tf->start_cyc;
	if (now < tf->start_tsc)
		return 0;
	if (n > TXF_MAX_BURST)
		n = TXF_MAX_BURST;
	if (tf->h != NULL) {
		uint32_t room = eng_egress_ring_room(tf->h[0]);

		if (room < n) {
			*dropped += n - room;
			n = (uint16_t)room;
		}
	}
	k = txflows_pick(tf, n, fid, now, dropped);
	if (k == 0)
		return 0;
	/* raw mbufs, built in place (txbuild.h); their lines fetched for writing ahead */
	if (rte_mempool_get_bulk(tf->pool, (void **)pkts, k) != 0) {
		(*no_mbuf)++;
		for (i = 0; i < k; i++) {
			if (tf->h != NULL)
				tf->h[fid[i]]->sent--; /* admitted, never handed over */
			txs_untake(tf, fid[i]);
		}
		return 0;
	}
	for (i = 0; i < k && i < TXF_PF_AHEAD; i++)
		eng_txf_prefetch(pkts[i], tf->data_off);
	for (i = 0; i < k; i++) {
		if (i + TXF_PF_AHEAD < k)
			eng_txf_prefetch(pkts[i + TXF_PF_AHEAD], tf->data_off);
		eng_txf_build(&tf->fr, &tf->f[fid[i]], pkts[i], now);
		if (tf->h != NULL)
			eng_egress_tag(tf->h[fid[i]], pkts[i]);
	}
	if (tf->h != NULL) {
		eng_egress_push(tf->h[0], pkts, k); /* admitted within the ring's room */
		return (uint16_t)k;
	}
	sent = eng_port_tx(tf->port_id, tf->txq, pkts, (uint16_t)k);
	for (i = k; i-- > sent;) {
		tf->f[fid[i]].seq--; /* the refused suffix: its numbers are reused */
		txs_untake(tf, fid[i]);
	}
	if (sent < k) {
		rte_pktmbuf_free_bulk(&pkts[sent], k - sent);
		*dropped += k - sent;
	}
	return sent;
}
