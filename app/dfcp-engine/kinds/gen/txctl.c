/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly's run-time control (core/ctl.h): the console's requests checked
 * and posted on the main lcore (eng_txonly_control, the kind's ops->control),
 * applied by the task's own lcore at the top of a poll (eng_txonly_ctl_apply):
 * only that lcore touches the pacer and the frame template.
 *   start / stop   the poll sends, or sends nothing (the pacer idles: no
 *                  credit for the stopped time, no burst at the restart)
 *   rate           lib/pace's pace_set_rate from the next poll on; 0 is full
 *                  speed; a packet rate or a share of the line rate is
 *                  resolved against the frame size it will go with; it ends
 *                  the task's rate profile
 *   pkt_size       one size (not an IMIX, not streams), within the mbufs and
 *                  the port's MTU; the template is built again
 * A rate profile (rate = 0s:1G,5s:5G or ramp ...; lib/pace pace_prof) is
 * resolved to L1 bit/s at set-up (packet rates for the configured pkt_size)
 * and followed by the owner lcore from the run's start: one TSC compare per
 * poll, pace_change_rate at each change (eng_txonly_prof_step).
 * A request for one stream ("TASK/N", req->stream; flows = N) stops, starts
 * or holds that stream to its own rate (txflows.c): the others go on; the
 * one stream of a task without flows = N is the task.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_mbuf.h>

#include "config/config.h"
#include "core/clock.h"
#include "core/ctl.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "kinds/gen/pkt.h"
#include "kinds/gen/txonly_priv.h"
#include "pace.h"

/*
 * Owner lcore: the mailbox's wanted state of gen g (core/ctl.h), checked by
 * the console before it posted it: frame size (the template again), rate
 * (from now on), run or stop.
 */
void
eng_txonly_ctl_apply(struct eng_task *t, struct txonly_priv *p, uint64_t g, uint64_t now)
{
	uint16_t port = t->ports[0].port_idx;
	uint64_t bps = __atomic_load_n(&p->want_bps, __ATOMIC_RELAXED);
	uint64_t size = __atomic_load_n(&p->want_size, __ATOMIC_RELAXED);
	uint64_t rn = __atomic_load_n(&p->want_rates, __ATOMIC_RELAXED);

	if (size - ENG_PKT_FCS_LEN != p->data_len && p->mix == NULL && p->mf == NULL) {
		p->data_len = (uint16_t)(size - ENG_PKT_FCS_LEN);
		eng_txonly_template(p, t->conf, &t->rt->ports[port], &t->rt->cfg->ports[port],
				p->data_len, p->tmpl);
	}
	if (rn != p->rates_seen) {	/* a set rate: the profile ends */
		p->rates_seen = rn;
		p->prof_on = 0;
		p->prof_next_tsc = UINT64_MAX;
	}
	/* the console's rate, unless a profile is followed */
	if (!p->prof_on && bps == 0) {
		__atomic_store_n(&p->pace, NULL, __ATOMIC_RELEASE);
	} else if (!p->prof_on && (p->pace == NULL ||
			pace_npb_of(p->pace_mem) != pace_npb(bps))) {
		if (pace_set_rate(p->pace_mem, bps, eng_clock_ns(&t->rt->clock, now)) == 0)
			__atomic_store_n(&p->pace, p->pace_mem, __ATOMIC_RELEASE);
	}
	p->stopped = __atomic_load_n(&p->want_run, __ATOMIC_RELAXED) == 0;
	if (p->mf != NULL)
		eng_txflows_ctl_apply(p->mf, now);
	p->ctl_applied = g;
	eng_ctl_ack(&p->box, g);
}

/* The largest frame (with FCS) the task may send: its mbufs, the port's MTU. */
static uint32_t
txonly_size_max(const struct eng_task *t, const struct txonly_priv *p)
{
	const struct eng_port_conf *pc = &t->rt->cfg->ports[t->ports[0].port_idx];
	uint32_t max = rte_pktmbuf_data_room_size(p->pool) - RTE_PKTMBUF_HEADROOM + ENG_PKT_FCS_LEN;

	if (max > ENG_PKT_MAX_FRAME)
		max = ENG_PKT_MAX_FRAME;
	if (pc->mtu != 0 && pc->mtu + 14u + ENG_PKT_FCS_LEN < max)
		max = pc->mtu + 14u + ENG_PKT_FCS_LEN;
	return max;
}

/* Main lcore: a request for stream req->stream - 1 of a task with streams. */
static int
txctl_stream(struct eng_task *t, struct txonly_priv *p, const struct eng_ctl_req *req,
		char *err, size_t len)
{
	const struct eng_task_port *tp = &t->ports[0];
	uint32_t i = req->stream - 1;
	uint64_t w, bps = 0;
	char what[48];

	if (i >= eng_txflows_count(p->mf)) {
		snprintf(err, len, "no stream %u: streams %s/0 .. %s/%u (flows = %u)", i, t->name,
				t->name, eng_txflows_count(p->mf) - 1, eng_txflows_count(p->mf));
		return -ENOENT;
	}
	w = eng_txflows_wanted(p->mf, i);
	switch (req->op) {
	case ENG_CTL_START:
	case ENG_CTL_STOP:
		w = req->op == ENG_CTL_STOP ? w | ENG_TXF_STOP : w & ~ENG_TXF_STOP;
		snprintf(err, len, "stream %s/%u %s", t->name, i, req->op == ENG_CTL_STOP ?
				"stopped" : "sending");
		break;
	case ENG_CTL_RATE:
		if (req->rate.value != 0 && eng_txonly_rate_bps(t->conf, &req->rate, p->ctl_size,
					&t->rt->ports[tp->port_idx],
					&t->rt->cfg->ports[tp->port_idx], 0, &bps, err, len) < 0)
			return -EINVAL;
		w = (w & ENG_TXF_STOP) | bps;
		cfg_rate_str(&req->rate, what, sizeof(what));
		if (bps == 0)
			snprintf(err, len, "stream %s/%u: no rate of its own (the task's)",
					t->name, i);
		else
			snprintf(err, len, "stream %s/%u: rate %s = %.3f Mbit/s L1", t->name,
					i, what, (double)bps / 1e6);
		break;
	default:
		snprintf(err, len, "stream %s/%u: pkt_size is the task's (set pkt_size %s)",
				t->name, i, t->name);
		return -ENOTSUP;
	}
	eng_txflows_want(p->mf, i, w);
	eng_ctl_post(&p->box);
	return 0;
}

/*
 * Main lcore (the console): check a request against the task and post the
 * state it wants (core/ctl.h); the rate as written is kept so that a packet
 * rate or a share of the line rate follows a new frame size.
 */
int
eng_txonly_control(struct eng_task *t, const struct eng_ctl_req *req, char *err, size_t len)
{
	struct txonly_priv *p = t->priv;
	const struct txonly_conf *c = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct cfg_rate rate = p->ctl_rate;
	uint32_t size = p->ctl_size;
	uint64_t bps = 0;
	char what[48];

	err[0] = '\0';
	if (req->op == ENG_CTL_SYNC)
		return eng_ctl_pending(&p->box);
	if (req->stream > 1 && p->mf == NULL) {
		snprintf(err, len, "no stream %u: %s sends one stream (%s/0, the task itself)",
				req->stream - 1, t->name, t->name);
		return -ENOENT;
	}
	if (req->stream != 0 && p->mf != NULL)
		return txctl_stream(t, p, req, err, len);
	switch (req->op) {
	case ENG_CTL_START:
	case ENG_CTL_STOP:
		__atomic_store_n(&p->want_run, req->op == ENG_CTL_START, __ATOMIC_RELAXED);
		eng_ctl_post(&p->box);
		return 0;
	case ENG_CTL_RATE:
		rate = req->rate;
		break;
	case ENG_CTL_PKT_SIZE:
		if (c->imix.nb_sizes != 0 || p->mf != NULL) {
			snprintf(err, len, "task %s sends %s: pkt_size is set in its config only",
					t->name, p->mf != NULL ? "streams (streams = N)" : "an IMIX");
			return -ENOTSUP;
		}
		if (req->value < ENG_PKT_MIN_FRAME || req->value > txonly_size_max(t, p)) {
			snprintf(err, len, "pkt_size %" PRIu64 ": out of %u..%u (frames with FCS; "
					"the largest fits the task's mbufs and its port's MTU)",
					req->value, ENG_PKT_MIN_FRAME, txonly_size_max(t, p));
			return -ERANGE;
		}
		size = (uint32_t)req->value;
		break;
	default:
		snprintf(err, len, "task %s: unknown request", t->name);
		return -EINVAL;
	}
	if (rate.value != 0) {
		struct pace_conf pcf = {.overhead = ENG_L1_OVERHEAD,
				.catchup_ns = t->rt->cfg->pace_catchup_ns, .bucket = c->bucket};
		struct pace *probe;

		if (eng_txonly_rate_bps(c, &rate, size, &t->rt->ports[tp->port_idx],
					&t->rt->cfg->ports[tp->port_idx], 0, &bps, err, len) < 0)
			return -EINVAL;
		pcf.rate_bps = bps;
		probe = pace_create(&pcf); /* the owner's pace_set_rate will take it */
		if (probe == NULL) {
			snprintf(err, len, "cannot pace %" PRIu64 " bit/s with bucket %" PRIu64 " B "
					"(bucket time over %llu s)", bps, c->bucket,
					PACE_LAG_MAX_NS / 1000000000ull);
			return -ERANGE;
		}
		pace_free(probe);
	}
	p->ctl_rate = rate;
	p->ctl_size = size;
	__atomic_store_n(&p->want_size, size, __ATOMIC_RELAXED);
	__atomic_store_n(&p->want_bps, bps, __ATOMIC_RELAXED);
	if (req->op == ENG_CTL_RATE)
		__atomic_fetch_add(&p->want_rates, 1, __ATOMIC_RELAXED);	/* ends a profile */
	eng_ctl_post(&p->box);
	cfg_rate_str(&rate, what, sizeof(what));
	if (bps == 0)
		snprintf(err, len, "full speed, %u B frames", size);
	else
		snprintf(err, len, "rate %s = %.3f Mbit/s L1, %u B frames", what, (double)bps / 1e6,
				size);
	return 0;
}

int
eng_txonly_prof_setup(struct eng_task *t, struct txonly_priv *p)
{
	const struct txonly_conf *c = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct pace_conf pcf = {.overhead = ENG_L1_OVERHEAD,
			.catchup_ns = t->rt->cfg->pace_catchup_ns, .bucket = c->bucket};
	char e[CFG_ERR_LEN], what[48];
	struct pace *probe;
	unsigned int i;

	p->prof.n = c->prof.n;
	p->prof.ramp = c->prof.ramp;
	for (i = 0; i < c->prof.n; i++) {
		cfg_rate_str(&c->prof.rate[i], what, sizeof(what));
		p->prof.t_ns[i] = c->prof.t_ns[i];
		if (eng_txonly_rate_bps(c, &c->prof.rate[i], c->pkt_size,
					&t->rt->ports[tp->port_idx], &t->rt->cfg->ports[tp->port_idx],
					1, &p->prof.bps[i], e, sizeof(e)) < 0) {
			ENG_LOG(ERR, task, "task %s: rate point %u: %s", t->name, i + 1, e);
			return -EINVAL;
		}
		pcf.rate_bps = p->prof.bps[i];
		probe = pace_create(&pcf);
		if (probe == NULL) {
			ENG_LOG(ERR, task, "task %s: rate point %u: cannot pace %s = %" PRIu64
					" bit/s with bucket %" PRIu64 " B (pace_catchup + bucket time "
					"over %llu s?)", t->name, i + 1, what, pcf.rate_bps, c->bucket,
					PACE_LAG_MAX_NS / 1000000000ull);
			return -EINVAL;
		}
		pace_free(probe);
		ENG_LOG(INFO, task, "task %s: rate %s %.3f s: %s = %.3f Mbit/s L1", t->name,
				c->prof.ramp ? "ramp" : "step", (double)c->prof.t_ns[i] / 1e9, what,
				(double)p->prof.bps[i] / 1e6);
	}
	if (pace_prof_check(&p->prof) < 0)
		return -EINVAL;
	p->prof_on = 1;
	p->prof_next_tsc = 0;	/* from the first poll of the run */
	return 0;
}

void
eng_txonly_prof_step(struct eng_task *t, struct txonly_priv *p, uint64_t now)
{
	const struct eng_clock *clk = &t->rt->clock;
	uint64_t start = t->rt->start_tsc, next, bps;

	if (!p->prof_on) {
		p->prof_next_tsc = UINT64_MAX;
		return;
	}
	bps = pace_prof_rate(&p->prof, eng_clock_cycles_ns(clk, now - start), &next);
	if (p->pace == NULL || pace_npb_of(p->pace_mem) != pace_npb(bps)) {
		if ((p->pace != NULL ? pace_change_rate(p->pace_mem, bps, eng_clock_ns(clk, now)) :
				pace_set_rate(p->pace_mem, bps, eng_clock_ns(clk, now))) == 0)
			__atomic_store_n(&p->pace, p->pace_mem, __ATOMIC_RELEASE);
	}
	/* one cycle late rather than early: the next call sees the new point */
	p->prof_next_tsc = next == UINT64_MAX ? UINT64_MAX :
			start + eng_clock_ns_cycles(clk, next) + 1;
}
