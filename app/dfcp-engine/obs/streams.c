/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The streams of txonly and rxonly tasks (flows = N; ops->stream_view of
 * their kind): every stats period (the period hook, live.c) each stream's
 * frames, bytes and rates over the period, L2 and L1, and for rxonly its
 * sequence losses. The rows feed the log view and --timeseries (live.c),
 * the live screen (screen.c) and --intervals-json (intervals.c). Counters
 * since the start: a task's "streams" array in the summary JSON (written
 * from the kinds' report) and /dfcp/streams (show streams).
 * Main lcore only; the kinds' counters are read, never reset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "config/config.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/obs.h"
#include "obs/out.h"

#define ST_TEL_MAX 200	/* streams in one telemetry answer (its dict holds 256) */

struct st_slot {
	const struct eng_task *t;
	unsigned int slot;
	uint64_t packets, bytes, lost, reordered; /* at the previous period */
};

struct eng_streams_rt {
	unsigned int n;			/* slots of every task with streams */
	struct st_slot *slot;		/* [n] */
	struct eng_stream_row *row;	/* [n] */
	const struct eng_stream_row **valid; /* [n]: the rows of streams, in order */
	unsigned int nb_valid;
	uint64_t last_tsc;
};

/* A stream as the counter table shows it. */
struct st_rec {
	const char *name, *task, *dir;
	uint64_t packets, bytes, lost, reordered;
	double pps, mbps, l1_mbps, loss_pct, rate_mbps;
	int stopped;
};

#define SR(field) offsetof(struct st_rec, field)

const struct eng_ctr eng_stream_ctrs[ENG_STREAM_NCTRS] = {
	{"name", "", SR(name), ENG_CT_STR, 0, ENG_V_DATA,
		"TASK/N (txonly, N from 0) or TASK/IP:PORT (rxonly: its source)"},
	{"task", "", SR(task), ENG_CT_STR, 0, ENG_V_DATA, "the [task NAME]"},
	{"dir", "", SR(dir), ENG_CT_STR, 0, 0, "tx (sent by a txonly task) or rx (received)"},
	{"packets", "pkts", SR(packets), ENG_CT_U64, 0, 0,
		"frames sent (tx) or received (rx): since the start, or in the period "
		"(--intervals-json); a task's streams add up to its tx_packets / rx_valid"},
	{"bytes", "B", SR(bytes), ENG_CT_U64, 0, 0, "bytes of those frames (no FCS)"},
	{"lost", "pkts", SR(lost), ENG_CT_U64, 0, 0,
		"rx: frames missing from the stream's sequence numbers"},
	{"reordered", "pkts", SR(reordered), ENG_CT_U64, 0, 0,
		"rx: frames late or repeated in the sequence"},
	{"pps", "pkt/s", SR(pps), ENG_CT_DBL, 1, 0, "packets per second (run or period)"},
	{"mbps", "Mbit/s", SR(mbps), ENG_CT_DBL, 3, 0, "L2: bytes x 8 per second"},
	{"l1_mbps", "Mbit/s", SR(l1_mbps), ENG_CT_DBL, 3, 0,
		"L1: mbps with the 24 B each frame adds on the wire (what a rate counts)"},
	{"loss_pct", "%", SR(loss_pct), ENG_CT_DBL, 4, 0,
		"rx: lost x 100 / (packets + lost)"},
	{"rate_l1_mbps", "Mbit/s", SR(rate_mbps), ENG_CT_DBL, 3, 0,
		"tx: the stream's own rate (set rate TASK/N), 0: none (its share of the task's)"},
	{"stopped", "", SR(stopped), ENG_CT_BOOL, 0, 0,
		"tx: stopped by the console (stop TASK/N, or stop TASK)"},
};

static double
pct(uint64_t lost, uint64_t got)
{
	return lost + got != 0 ? (double)lost * 100.0 / (double)(lost + got) : 0.0;
}

/* A record of view v with packets, bytes, lost over cycles. */
static void
rec_fill(struct st_rec *r, const struct eng_task *t, const struct eng_stream_view *v,
		uint64_t packets, uint64_t bytes, uint64_t lost, uint64_t cycles, uint64_t hz)
{
	double per_s = cycles ? (double)hz / (double)cycles : 0.0;

	memset(r, 0, sizeof(*r));
	r->name = v->name;
	r->task = t->name;
	r->dir = v->rx ? "rx" : "tx";
	r->packets = packets;
	r->bytes = bytes;
	r->lost = lost;
	r->reordered = v->reordered;
	r->pps = (double)packets * per_s;
	r->mbps = (double)bytes * per_s * 8e-6;
	r->l1_mbps = (double)(bytes + packets * ENG_L1_OVERHEAD) * per_s * 8e-6;
	r->loss_pct = pct(lost, packets);
	r->rate_mbps = (double)v->rate_bps / 1e6;
	r->stopped = v->stopped;
}

static unsigned int
slots_of(const struct eng_task *t)
{
	return t->ops->stream_slots != NULL && t->priv != NULL ? t->ops->stream_slots(t) : 0;
}

static int
st_alloc(struct eng_runtime *rt)
{
	struct eng_streams_rt *s;
	unsigned int i, j, n = 0, k = 0;

	if (rt->streams != NULL)
		return 0;
	for (i = 0; i < rt->cfg->nb_tasks; i++)
		n += slots_of(&rt->cfg->tasks[i]);
	if (n == 0)
		return -ENOENT;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->slot = calloc(n, sizeof(*s->slot));
	s->row = calloc(n, sizeof(*s->row));
	s->valid = calloc(n, sizeof(*s->valid));
	if (s->slot == NULL || s->row == NULL || s->valid == NULL) {
		free(s->slot);
		free(s->row);
		free(s->valid);
		free(s);
		return -ENOMEM;
	}
	for (i = 0; i < rt->cfg->nb_tasks; i++)
		for (j = 0; j < slots_of(&rt->cfg->tasks[i]); j++) {
			s->slot[k].t = &rt->cfg->tasks[i];
			s->slot[k++].slot = j;
		}
	s->n = k;
	rt->streams = s;
	return 0;
}

void
eng_streams_free(struct eng_runtime *rt)
{
	struct eng_streams_rt *s = rt->streams;

	if (s == NULL)
		return;
	free(s->slot);
	free(s->row);
	free(s->valid);
	free(s);
	rt->streams = NULL;
}

/* Tasks in config order (their rows are), then the key. */
static int
by_key(const void *a, const void *b)
{
	const struct eng_stream_row *x = *(const struct eng_stream_row *const *)a;
	const struct eng_stream_row *y = *(const struct eng_stream_row *const *)b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->v.key < y->v.key ? -1 : x->v.key > y->v.key;
}

int
eng_streams_period(struct eng_runtime *rt, uint64_t now)
{
	struct eng_streams_rt *s;
	uint64_t last, cyc;
	unsigned int i;
	int rc = st_alloc(rt);

	if (rc < 0)
		return rc;
	s = rt->streams;
	if (now == 0)
		return 0; /* set-up: the tables only */
	last = s->last_tsc ? s->last_tsc : rt->start_tsc;
	cyc = now > last ? now - last : 0;
	s->nb_valid = 0;
	for (i = 0; i < s->n; i++) {
		struct st_slot *sl = &s->slot[i];
		struct eng_stream_row *r = &s->row[i];
		struct st_rec rec;

		if (sl->t->ops->stream_view(sl->t, sl->slot, &r->v) < 0)
			continue;
		r->t = sl->t;
		r->packets = r->v.packets - sl->packets;
		r->bytes = r->v.bytes - sl->bytes;
		r->lost = r->v.lost - sl->lost;
		r->reordered = r->v.reordered - sl->reordered;
		rec_fill(&rec, sl->t, &r->v, r->packets, r->bytes, r->lost, cyc, rt->clock.hz);
		r->pps = rec.pps;
		r->mbps = rec.mbps;
		r->l1_mbps = rec.l1_mbps;
		r->loss_pct = rec.loss_pct;	/* the period's: lost and got in it */
		sl->packets = r->v.packets;
		sl->bytes = r->v.bytes;
		sl->lost = r->v.lost;
		sl->reordered = r->v.reordered;
		s->valid[s->nb_valid++] = r;
	}
	qsort(s->valid, s->nb_valid, sizeof(s->valid[0]), by_key);
	s->last_tsc = now;
	return 0;
}

unsigned int
eng_streams_rows(const struct eng_runtime *rt, const struct eng_stream_row *const **rows)
{
	if (rt->streams == NULL)
		return 0;
	*rows = rt->streams->valid;
	return rt->streams->nb_valid;
}

void
eng_streams_row_write(struct eng_out *o, const struct eng_stream_row *r)
{
	struct st_rec rec;

	rec_fill(&rec, r->t, &r->v, r->packets, r->bytes, r->lost, 0, 0);
	rec.reordered = r->reordered;
	rec.pps = r->pps;
	rec.mbps = r->mbps;
	rec.l1_mbps = r->l1_mbps;
	eng_out_item(o, "stream", r->v.name);
	eng_out_counters(o, eng_stream_ctrs, ENG_STREAM_NCTRS, &rec);
	eng_out_end(o);
}

/* Task t's streams, since the start, as items of an open array; at most max
 * (the rest counted in *more). */
static unsigned int
task_write(struct eng_out *o, const struct eng_task *t, unsigned int max, unsigned int *more)
{
	unsigned int i, n = 0;
	uint64_t cyc = eng_run_cycles(t->rt);

	for (i = 0; i < slots_of(t); i++) {
		struct eng_stream_view v;
		struct st_rec r;

		if (t->ops->stream_view(t, i, &v) < 0)
			continue;
		if (n == max) {
			(*more)++;
			continue;
		}
		rec_fill(&r, t, &v, v.packets, v.bytes, v.lost, cyc, t->rt->clock.hz);
		eng_out_item(o, "stream", v.name);
		eng_out_counters(o, eng_stream_ctrs, ENG_STREAM_NCTRS, &r);
		eng_out_end(o);
		n++;
	}
	return n;
}

void
eng_streams_write(struct eng_out *o, const struct eng_task *t)
{
	unsigned int more = 0;

	if (slots_of(t) == 0)
		return;
	eng_out_arr(o, "streams");
	task_write(o, t, UINT32_MAX, &more);
	eng_out_end(o);
}

int
eng_streams_tel(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	unsigned int i, n = 0, more = 0, tasks = 0;

	eng_out_arr(o, "streams");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];

		if (slots_of(t) == 0 || (params != NULL && params[0] != '\0' &&
					strcmp(params, t->name) != 0))
			continue;
		tasks++;
		n += task_write(o, t, n < ST_TEL_MAX ? ST_TEL_MAX - n : 0, &more);
	}
	eng_out_end(o);
	if (more != 0)
		eng_out_u64(o, "streams_not_shown", more);
	return tasks == 0 && params != NULL && params[0] != '\0' ? -ENOENT : 0;
}
