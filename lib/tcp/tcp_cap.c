/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The seed-002 cwnd-cap policy over a set of flows sharing an egress.
 *
 * Every interval (0.5 s) each active flow's smoothed RTT is compared with
 * its minimum: a "sharp rise" is srtt > rtt_min * (100 + rise_pct) / 100
 * and srtt - rtt_min >= rise_min_ns. A capped flow's cwnd is limited to
 *   min(bound 1 = budget / number of active flows,
 *       bound 2 = the RTT-rise -> cap table entry for the rise)
 * segments (never below min_segs). "old" mode: each flow is capped when its
 * own RTT rises and released when its srtt is back within release_pct of
 * its minimum. "coordinated" mode: every active flow is capped as soon as
 * any one flow's RTT rises (the table is read with the largest rise), and
 * released together. The cap goes to struct tcp_cc.cwnd_cap, which the
 * connection applies after every congestion-control update.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

struct tcp_cap {
	struct tcp_cap_conf conf;
	struct tcp_conn *flows[TCP_CAP_MAX_FLOWS];
	uint8_t capped[TCP_CAP_MAX_FLOWS];
	uint32_t n;
	uint8_t coord_on;
	uint64_t next_at;
	struct tcp_cap_stats st;
};

void
tcp_cap_conf_default(struct tcp_cap_conf *c)
{
	static const struct tcp_cap_ent def[] = {
		{ 10000000ull, 64 }, { 30000000ull, 48 },
		{ 60000000ull, 32 }, { 100000000ull, 16 },
	};

	memset(c, 0, sizeof(*c));
	c->mode = TCP_CAP_OFF;
	c->interval_ns = 500000000ull;
	c->rise_pct = 100;
	c->rise_min_ns = 5000000ull;
	c->min_segs = 4;
	c->release_pct = 25;
	c->ntable = sizeof(def) / sizeof(def[0]);
	memcpy(c->table, def, sizeof(def));
}

struct tcp_cap *
tcp_cap_create(const struct tcp_cap_conf *conf)
{
	struct tcp_cap *p;

	if (conf->interval_ns == 0 || conf->ntable > TCP_CAP_TABLE_MAX)
		return NULL;
	for (uint32_t i = 1; i < conf->ntable; i++)
		if (conf->table[i].rtt_rise_ns < conf->table[i - 1].rtt_rise_ns)
			return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->conf = *conf;
	return p;
}

void
tcp_cap_free(struct tcp_cap *p)
{
	free(p);
}

int
tcp_cap_add(struct tcp_cap *p, struct tcp_conn *c)
{
	if (p->n == TCP_CAP_MAX_FLOWS)
		return -ENOSPC;
	p->flows[p->n] = c;
	p->capped[p->n] = 0;
	return (int)p->n++;
}

uint32_t
tcp_cap_table_lookup(const struct tcp_cap_conf *c, uint64_t rise_ns)
{
	uint32_t cap = UINT32_MAX;

	for (uint32_t i = 0; i < c->ntable; i++)
		if (rise_ns >= c->table[i].rtt_rise_ns)
			cap = c->table[i].cap_segs;
	return cap;
}

uint32_t
tcp_cap_flow_bound(const struct tcp_cap_conf *c, uint32_t nactive,
		uint64_t rtt_min_ns, uint32_t mss)
{
	uint64_t budget;

	if (nactive == 0)
		nactive = 1;
	if (c->budget_segs)
		budget = c->budget_segs;
	else if (c->bw_bps && mss)
		budget = c->bw_bps / 8 * rtt_min_ns / 1000000000ull / mss + c->queue_segs;
	else
		return UINT32_MAX;
	budget /= nactive;
	return budget > UINT32_MAX ? UINT32_MAX : (uint32_t)budget;
}

static int
flow_active(struct tcp_conn *c)
{
	enum tcp_state s = tcp_conn_state(c);

	return (s == TCP_ESTABLISHED || s == TCP_CLOSE_WAIT || s == TCP_FIN_WAIT1) &&
		!tcp_conn_send_done(c);
}

static void
set_cap(struct tcp_conn *c, uint32_t segs)
{
	struct tcp_cc *cc = tcp_conn_cc(c);

	if (segs == 0 || segs == UINT32_MAX) {
		cc->cwnd_cap = 0;
		return;
	}
	cc->cwnd_cap = segs * cc->mss;
	if (cc->cwnd > cc->cwnd_cap)
		cc->cwnd = cc->cwnd_cap;
}

int
tcp_cap_poll(struct tcp_cap *p, uint64_t now)
{
	const struct tcp_cap_conf *cf = &p->conf;
	struct tcp_stats st[TCP_CAP_MAX_FLOWS];
	uint8_t act[TCP_CAP_MAX_FLOWS], sharp[TCP_CAP_MAX_FLOWS], calm[TCP_CAP_MAX_FLOWS];
	uint64_t rise[TCP_CAP_MAX_FLOWS], max_rise = 0;
	uint32_t nact = 0, any = 0, still = 0, ncapped = 0, last = 0;

	if (now < p->next_at)
		return 0;
	p->next_at = now + cf->interval_ns;
	p->st.evaluations++;
	for (uint32_t i = 0; i < p->n; i++) {
		tcp_conn_stats(p->flows[i], &st[i]);
		act[i] = flow_active(p->flows[i]) && st[i].rtt_samples > 0;
		sharp[i] = calm[i] = 0;
		rise[i] = 0;
		if (!act[i])
			continue;
		nact++;
		rise[i] = st[i].srtt_ns > st[i].rtt_min_ns ? st[i].srtt_ns - st[i].rtt_min_ns : 0;
		sharp[i] = st[i].srtt_ns * 100 > st[i].rtt_min_ns * (100 + cf->rise_pct) &&
			rise[i] >= cf->rise_min_ns;
		calm[i] = st[i].srtt_ns * 100 <= st[i].rtt_min_ns * (100 + cf->release_pct);
		any |= sharp[i];
		still |= !calm[i];
		if (rise[i] > max_rise)
			max_rise = rise[i];
	}
	if (any)
		p->st.triggers++;
	if (cf->mode == TCP_CAP_COORD) {
		if (any)
			p->coord_on = 1;
		else if (!still)
			p->coord_on = 0;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		uint32_t cap, b1, b2;

		if (!act[i] || cf->mode == TCP_CAP_OFF) {
			p->capped[i] = 0;
			if (cf->mode != TCP_CAP_OFF)
				set_cap(p->flows[i], 0);
			continue;
		}
		if (cf->mode == TCP_CAP_OLD) {
			if (sharp[i])
				p->capped[i] = 1;
			else if (calm[i])
				p->capped[i] = 0;
		} else {
			p->capped[i] = p->coord_on;
		}
		if (!p->capped[i]) {
			set_cap(p->flows[i], 0);
			continue;
		}
		b1 = tcp_cap_flow_bound(cf, nact, st[i].rtt_min_ns, st[i].mss);
		b2 = tcp_cap_table_lookup(cf, cf->mode == TCP_CAP_COORD ? max_rise : rise[i]);
		cap = tcp_min32(b1, b2);
		if (cap != UINT32_MAX && cap < cf->min_segs)
			cap = cf->min_segs;
		set_cap(p->flows[i], cap);
		ncapped++;
		last = cap;
	}
	p->st.active = nact;
	p->st.capped = ncapped;
	p->st.last_cap_segs = last;
	return 1;
}

uint64_t
tcp_cap_next_deadline(const struct tcp_cap *p)
{
	return p->next_at;
}

void
tcp_cap_stats(const struct tcp_cap *p, struct tcp_cap_stats *st)
{
	*st = p->st;
}
