/* SPDX-License-Identifier: BSD-3-Clause */
/* pipe: Dummynet-style link emulation over a lib/sched scheduler. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pace.h"
#include "pipe.h"
#include "pktsched.h"

struct pipe {
	char name[32];
	struct sched *s;
	/*
	 * link: a lib/pace schedule (bw > 0) is the serializer: its next
	 * departure is when the link frees up. bw = 0: no serialization,
	 * link_ns is the arrival of the latest packet.
	 */
	struct pace *link;
	uint64_t link_ns;
	uint32_t overhead;
	uint64_t delay_ns;
	uint64_t drop_run;	/* drop-tail drops in a row, now */
	uint64_t last_now;	/* latest time seen (enqueue or dequeue) */
	uint64_t last_enq;	/* latest enqueue time */
	/* catch-up bound (bw > 0): nothing leaves more than catchup_ns late;
	 * the delay line holds t_depart - line_shift */
	uint64_t catchup_ns;
	uint64_t line_shift;
	uint64_t late_max_ns;
	/* loss */
	uint64_t rng[4];
	uint64_t plr_thr;
	uint64_t ge_gb, ge_bg, ge_lg, ge_lb;
	int ge_on, ge_bad;
	/* delay line: FIFO ring, departures nondecreasing */
	struct pipe_pkt *line;
	uint32_t line_cap, line_rd, line_n;
	uint32_t line_stalls;
	/* queues and rules */
	uint32_t nb_queues, max_queues;
	uint32_t nb_rules, max_rules;
	uint32_t unmatched;
	uint32_t def_pkts;
	uint64_t def_bytes;
	struct pipe_rule *rules;
	uint32_t *rule_smask, *rule_dmask;
	struct pipe_stats st;
};

/* xoshiro256** seeded by splitmix64: fast, deterministic per seed. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t
rng_next(uint64_t *s)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Probability as a threshold on a uniform 64-bit draw (set-up only). */
static uint64_t
prob_fp(double p)
{
	if (!(p > 0))
		return 0;
	if (p >= 1)
		return UINT64_MAX;
	return (uint64_t)ldexp(p, 64);
}

static inline int
draw(struct pipe *p, uint64_t thr)
{
	return thr != 0 && rng_next(p->rng) < thr;
}

int
pipe_ge_from_mean(struct pipe_ge *ge, double loss, double burst)
{
	if (ge == NULL || !(loss > 0 && loss < 1) || !(burst >= 1))
		return -EINVAL;
	ge->p_bg = 1.0 / burst;
	ge->p_gb = ge->p_bg * loss / (1 - loss);
	if (ge->p_gb > 1)
		return -EINVAL;
	ge->loss_good = 0;
	ge->loss_bad = 1;
	return 0;
}

struct pipe *
pipe_create(const struct pipe_conf *c)
{
	struct sched_conf sc;
	struct pipe *p;
	uint64_t line;
	uint32_t i;

	if (c == NULL || c->plr < 0 || c->plr > 1 || c->ge.p_gb < 0 ||
	    c->ge.p_gb > 1 || c->ge.p_bg < 0 || c->ge.p_bg > 1 ||
	    c->ge.loss_good < 0 || c->ge.loss_good > 1 ||
	    c->ge.loss_bad < 0 || c->ge.loss_bad > 1 ||
	    (c->ge.p_gb > 0 && c->ge.p_bg <= 0) ||
	    (c->sched != NULL && sched_algo_check(c->sched) != 0))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	snprintf(p->name, sizeof(p->name), "%s", c->name ? c->name : "pipe");
	p->max_queues = c->max_queues ? c->max_queues : 64;
	p->max_rules = c->max_rules ? c->max_rules : 256;
	p->def_pkts = c->queue_pkts;
	p->def_bytes = c->queue_bytes;
	if (p->def_pkts == 0 && p->def_bytes == 0)
		p->def_pkts = 50;
	p->overhead = c->overhead;
	p->delay_ns = c->delay_ns;
	p->catchup_ns = c->catchup_ns ? c->catchup_ns : PACE_CATCHUP_DEFAULT_NS;
	if (c->bw_bps != 0) {
		/* the pipe applies its bound itself (catch_up), never pace_burst */
		struct pace_conf pc = { .rate_bps = c->bw_bps, .overhead = c->overhead,
			.catchup_ns = PACE_LAG_MAX_NS };

		p->link = pace_create(&pc);
		if (p->link == NULL) {
			free(p);
			return NULL;
		}
	}
	p->plr_thr = prob_fp(c->plr);
	p->ge_on = c->ge.p_gb > 0;
	p->ge_gb = prob_fp(c->ge.p_gb);
	p->ge_bg = prob_fp(c->ge.p_bg);
	p->ge_lg = prob_fp(c->ge.loss_good);
	p->ge_lb = prob_fp(c->ge.loss_bad);
	{
		uint64_t x = c->seed;

		for (i = 0; i < 4; i++)
			p->rng[i] = splitmix64(&x);
	}
	if (c->line_pkts) {
		line = c->line_pkts;
	} else if (c->bw_bps) {
		line = (uint64_t)((double)c->bw_bps / 8 * ((double)c->delay_ns * 1e-9) / 64) + 1024;
		if (line > (1u << 22))
			line = 1u << 22;
	} else {
		line = 65536;
	}
	p->line_cap = (uint32_t)line;
	memset(&sc, 0, sizeof(sc));
	sc.algo = c->sched;
	sc.nb_queues = p->max_queues;
	sc.limit_pkts = p->def_pkts;
	sc.limit_bytes = p->def_bytes;
	if (c->pool_pkts) {
		sc.pool_pkts = c->pool_pkts;
	} else {
		uint64_t pool = (uint64_t)p->max_queues * (p->def_pkts ? p->def_pkts : 64);

		sc.pool_pkts = pool < 4096 ? 4096 : pool > (1u << 24) ? 1u << 24 : (uint32_t)pool;
	}
	p->s = sched_create(&sc);
	p->line = malloc(sizeof(*p->line) * p->line_cap);
	p->rules = calloc(p->max_rules, sizeof(*p->rules));
	p->rule_smask = calloc(p->max_rules, sizeof(uint32_t));
	p->rule_dmask = calloc(p->max_rules, sizeof(uint32_t));
	if (p->s == NULL || p->line == NULL || p->rules == NULL ||
	    p->rule_smask == NULL || p->rule_dmask == NULL) {
		pipe_free(p);
		return NULL;
	}
	/* The scheduler tracks GPS virtual time exactly when it knows the rate. */
	if (c->bw_bps != 0 && sched_set_rate(p->s, c->bw_bps, c->overhead) != 0) {
		pipe_free(p);
		return NULL;
	}
	p->nb_queues = 1;	/* queue 0: the pipe's own queue */
	p->unmatched = 0;
	p->st.nb_queues = 1;
	return p;
}

void
pipe_free(struct pipe *p)
{
	if (p == NULL)
		return;
	sched_free(p->s);
	pace_free(p->link);
	free(p->line);
	free(p->rules);
	free(p->rule_smask);
	free(p->rule_dmask);
	free(p);
}

const char *
pipe_name(const struct pipe *p)
{
	return p->name;
}

int
pipe_queue_set(struct pipe *p, uint32_t q, uint32_t weight,
		uint32_t limit_pkts, uint64_t limit_bytes)
{
	if (p == NULL || q >= p->nb_queues)
		return -EINVAL;
	if (limit_pkts == 0 && limit_bytes == 0) {
		limit_pkts = p->def_pkts;
		limit_bytes = p->def_bytes;
	}
	return sched_queue_set(p->s, q, weight, limit_pkts, limit_bytes);
}

int
pipe_queue_add(struct pipe *p, uint32_t weight, uint32_t limit_pkts,
		uint64_t limit_bytes)
{
	int rc;

	if (p == NULL || weight == 0 || weight > SCHED_WEIGHT_MAX)
		return -EINVAL;
	if (p->nb_queues >= p->max_queues)
		return -ENOSPC;
	p->nb_queues++;
	rc = pipe_queue_set(p, p->nb_queues - 1, weight, limit_pkts, limit_bytes);
	if (rc < 0) {
		p->nb_queues--;
		return rc;
	}
	p->st.nb_queues = p->nb_queues;
	return (int)(p->nb_queues - 1);
}

int
pipe_rule_add(struct pipe *p, const struct pipe_rule *r)
{
	struct pipe_rule *d;

	if (p == NULL || r == NULL || r->src_len > 32 || r->dst_len > 32 ||
	    r->queue >= p->nb_queues || r->sport_lo > r->sport_hi ||
	    r->dport_lo > r->dport_hi)
		return -EINVAL;
	if (p->nb_rules >= p->max_rules)
		return -ENOSPC;
	d = &p->rules[p->nb_rules];
	*d = *r;
	if (d->sport_lo == 0 && d->sport_hi == 0)
		d->sport_hi = UINT16_MAX;
	if (d->dport_lo == 0 && d->dport_hi == 0)
		d->dport_hi = UINT16_MAX;
	p->rule_smask[p->nb_rules] = pipe_prefix_mask(r->src_len);
	p->rule_dmask[p->nb_rules] = pipe_prefix_mask(r->dst_len);
	d->src &= p->rule_smask[p->nb_rules];
	d->dst &= p->rule_dmask[p->nb_rules];
	p->nb_rules++;
	return 0;
}

int
pipe_set_unmatched(struct pipe *p, uint32_t q)
{
	if (p == NULL || (q != PIPE_NO_QUEUE && q >= p->nb_queues))
		return -EINVAL;
	p->unmatched = q;
	return 0;
}

uint32_t
pipe_classify(const struct pipe *p, const struct pipe_flow *f)
{
	uint32_t i;

	for (i = 0; i < p->nb_rules; i++)
		if (pipe_rule_match(&p->rules[i], p->rule_smask[i], p->rule_dmask[i], f))
			return p->rules[i].queue;
	return p->unmatched;
}

/* When the link frees up (the next serialization may start). */
static inline uint64_t
link_next(const struct pipe *p)
{
	return p->link != NULL ? pace_next(p->link) : p->link_ns;
}

/*
 * The catch-up bound. A caller that was stalled finds packets overdue; up to
 * catchup_ns of them leave at once, what is older moves the whole pipe later
 * (serializer and delay line alike, so order and spacing are kept and no
 * packet leaves earlier than its schedule): that link time is lost, counted
 * by the pacer (stalls, lost_ns).
 */
static void
catch_up(struct pipe *p, uint64_t now)
{
	uint64_t e, x;

	if (p->link == NULL)
		return;
	if (p->line_n)
		e = p->line[p->line_rd].t_depart + p->line_shift;
	else if (sched_backlog_pkts(p->s))
		e = pace_next(p->link) + p->delay_ns;
	else
		return;
	if (now <= e || now - e <= p->catchup_ns)
		return;
	x = now - e - p->catchup_ns;
	pace_defer(p->link, x);
	p->line_shift += x;
}

/* Serialize queued packets whose transmission starts by now; 1 if the
 * delay line is full and held one back. */
static int
advance(struct pipe *p, uint64_t now)
{
	while (sched_backlog_pkts(p->s) && link_next(p) <= now) {
		struct sched_pkt sp;
		struct pipe_pkt *o;
		uint32_t w;

		if (p->line_n == p->line_cap) {
			p->line_stalls++;
			return 1;
		}
		sched_dequeue_burst(p->s, &sp, 1, link_next(p));
		if (p->link != NULL)
			pace_sent(p->link, 1, sp.len);
		w = p->line_rd + p->line_n;
		if (w >= p->line_cap)
			w -= p->line_cap;
		o = &p->line[w];
		o->pkt = sp.pkt;
		o->len = sp.len;
		o->queue = sp.queue;
		o->t_depart = link_next(p) + p->delay_ns - p->line_shift;
		p->line_n++;
	}
	return 0;
}

static inline int
lost(struct pipe *p)
{
	int l = 0;

	if (p->ge_on) {
		if (p->ge_bad) {
			if (draw(p, p->ge_bg))
				p->ge_bad = 0;
		} else if (draw(p, p->ge_gb)) {
			p->ge_bad = 1;
		}
		l = draw(p, p->ge_bad ? p->ge_lb : p->ge_lg);
	}
	if (draw(p, p->plr_thr))
		l = 1;
	return l;
}

int
pipe_enqueue_q(struct pipe *p, uint32_t q, uint64_t pkt, uint32_t len,
		uint64_t now)
{
	int rc;

	if (q >= p->nb_queues)
		return -EINVAL;
	/*
	 * A delay line without a serializer takes arrivals earlier than its
	 * latest dequeue (in order among themselves): each packet's departure
	 * is its own arrival + delay, so one that is already due leaves at the
	 * next dequeue, late, never reordered. Any other pipe takes its times
	 * in order.
	 */
	if (now < (p->link == NULL ? p->last_enq : p->last_now))
		now = p->link == NULL ? p->last_enq : p->last_now;
	p->last_enq = now;
	if (now > p->last_now)
		p->last_now = now;
	catch_up(p, now);
	advance(p, now);
	p->st.in_pkts++;
	p->st.in_bytes += len;
	if (lost(p)) {
		p->st.loss_pkts++;
		p->st.loss_bytes += len;
		return -EIO;
	}
	if (sched_backlog_pkts(p->s) == 0 && link_next(p) <= now) {
		struct sched_pkt none;

		/* Idle link: end the busy period; serialization starts now. */
		sched_dequeue_burst(p->s, &none, 1, now);
		if (p->link != NULL)
			pace_idle(p->link, now);
		else
			p->link_ns = now;
	}
	rc = sched_enqueue(p->s, q, pkt, len, now);
	if (rc < 0) {
		p->st.drop_pkts++;
		p->st.drop_bytes += len;
		if (++p->drop_run > p->st.drop_run_max)
			p->st.drop_run_max = p->drop_run;
		if (p->drop_run >= PIPE_DROP_BURST)
			p->st.drop_burst_pkts++;
	} else {
		p->drop_run = 0;
	}
	return rc;
}

int
pipe_enqueue(struct pipe *p, uint64_t pkt, uint32_t len,
		const struct pipe_flow *flow, uint64_t now)
{
	uint32_t q = flow ? pipe_classify(p, flow) : p->unmatched;

	if (q == PIPE_NO_QUEUE) {
		p->st.pass_pkts++;
		p->st.pass_bytes += len;
		return PIPE_PASS;
	}
	return pipe_enqueue_q(p, q, pkt, len, now);
}

unsigned int
pipe_dequeue_burst(struct pipe *p, uint64_t now, struct pipe_pkt *out,
		unsigned int n)
{
	unsigned int k = 0;

	if (now < p->last_now)
		now = p->last_now;
	p->last_now = now;
	catch_up(p, now);
	for (;;) {
		int stalled = advance(p, now);
		unsigned int k0 = k;

		while (k < n && p->line_n &&
		       p->line[p->line_rd].t_depart + p->line_shift <= now) {
			out[k] = p->line[p->line_rd];
			out[k].t_depart += p->line_shift;
			if (now - out[k].t_depart > p->late_max_ns)
				p->late_max_ns = now - out[k].t_depart;
			p->st.out_pkts++;
			p->st.out_bytes += out[k].len;
			k++;
			if (++p->line_rd == p->line_cap)
				p->line_rd = 0;
			p->line_n--;
		}
		/* A full line held serializations back: room now, retry. */
		if (!stalled || k == k0 || k == n)
			break;
	}
	return k;
}

uint64_t
pipe_next_event(const struct pipe *p)
{
	if (p->line_n)
		return p->line[p->line_rd].t_depart + p->line_shift;
	if (sched_backlog_pkts(p->s))
		return link_next(p) + p->delay_ns;
	return UINT64_MAX;
}

unsigned int
pipe_flush(struct pipe *p, struct pipe_pkt *out, unsigned int n)
{
	unsigned int k = 0;

	while (k < n && p->line_n) {
		out[k] = p->line[p->line_rd];
		out[k++].t_depart += p->line_shift;
		if (++p->line_rd == p->line_cap)
			p->line_rd = 0;
		p->line_n--;
	}
	while (k < n && sched_backlog_pkts(p->s)) {
		struct sched_pkt sp;

		sched_dequeue_burst(p->s, &sp, 1, p->last_now);
		out[k].pkt = sp.pkt;
		out[k].len = sp.len;
		out[k].queue = sp.queue;
		out[k].t_depart = p->last_now;
		k++;
	}
	return k;
}

int
pipe_stats_get(const struct pipe *p, struct pipe_stats *st)
{
	if (p == NULL || st == NULL)
		return -EINVAL;
	*st = p->st;
	st->sched_pkts = sched_backlog_pkts(p->s);
	st->sched_bytes = sched_backlog_bytes(p->s);
	st->line_pkts = p->line_n;
	st->line_stalls = p->line_stalls;
	st->nb_queues = p->nb_queues;
	st->late_max_ns = p->late_max_ns;
	if (p->link != NULL) {
		struct pace_stats ps;

		pace_stats(p->link, &ps);
		st->catchup_stalls = ps.stalls;
		st->catchup_lost_ns = ps.lost_ns;
	}
	return 0;
}

int
pipe_queue_stats(const struct pipe *p, uint32_t q, struct sched_qstats *st)
{
	if (p == NULL || q >= p->nb_queues)
		return -EINVAL;
	return sched_queue_stats(p->s, q, st);
}

double
pipe_jain(const struct pipe *p, const uint64_t *base)
{
	double sum = 0, sq = 0;
	unsigned int m = 0;
	uint32_t q;

	for (q = 0; q < p->nb_queues; q++) {
		struct sched_qstats st;
		uint64_t b;
		double v;

		sched_queue_stats(p->s, q, &st);
		b = st.deq_bytes - (base ? base[q] : 0);
		if (b == 0)
			continue;
		v = (double)b / st.weight;
		sum += v;
		sq += v * v;
		m++;
	}
	return m == 0 || sq == 0 ? 1.0 : sum * sum / (m * sq);
}
