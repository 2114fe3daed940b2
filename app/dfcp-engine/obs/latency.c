/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Latency histograms (lib/hist): per DFCP flow the block latency (first symbol
 * of a block sent -> its BLOCK-ACK received, recorded by lib/dfcp through
 * dfcp_conn_conf.block_latency), per pipe the queueing delay (enqueue -> start
 * of serialization, recorded by the router task). Writers are the lcores that
 * own the flow or pipe; readers (periodic stats, JSON, telemetry thread) take
 * hist_snapshot() copies. See doc/observability.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "config/config.h"
#include "core/log.h"
#include "obs/obs.h"
#include "obs/out.h"

/* The histograms, in eng_runtime.lat. */
struct eng_lat_rt {
	struct hist **flow;	/* [nflows], by cfg->flows index */
	unsigned int nflows;
	struct hist **pipe;	/* [npipes], by pipe index, grown on demand */
	unsigned int npipes;
};

static struct eng_lat_rt *
lat_rt(struct eng_runtime *rt)
{
	if (rt->lat == NULL)
		rt->lat = calloc(1, sizeof(*rt->lat));
	return rt->lat;
}

static struct hist *
lat_alloc(int socket)
{
	size_t sz = hist_size(ENG_HIST_SIG_BITS);
	void *mem = rte_zmalloc_socket("hist", sz, RTE_CACHE_LINE_SIZE, socket);

	if (mem == NULL)
		mem = rte_zmalloc("hist", sz, RTE_CACHE_LINE_SIZE);
	if (mem == NULL) {
		ENG_LOG(WARNING, stats, "no memory for a latency histogram (%zu bytes)", sz);
		return NULL;
	}
	return hist_init(mem, sz, ENG_HIST_SIG_BITS);
}

struct hist *
eng_lat_flow_hist(struct eng_runtime *rt, unsigned int flow, int socket)
{
	struct eng_lat_rt *l = lat_rt(rt);

	if (l == NULL)
		return NULL;
	if (l->flow == NULL) {
		l->nflows = rt->cfg->nb_flows;
		l->flow = calloc(l->nflows + 1, sizeof(*l->flow));
		if (l->flow == NULL)
			return NULL;
	}
	if (flow >= l->nflows)
		return NULL;
	if (l->flow[flow] == NULL)
		l->flow[flow] = lat_alloc(socket);
	return l->flow[flow];
}

struct hist *
eng_lat_pipe_hist(struct eng_runtime *rt, unsigned int pipe, int socket)
{
	struct eng_lat_rt *l = lat_rt(rt);

	if (l == NULL)
		return NULL;
	if (pipe >= l->npipes) {
		struct hist **a = realloc(l->pipe, (pipe + 1) * sizeof(*a));

		if (a == NULL)
			return NULL;
		memset(&a[l->npipes], 0, (pipe + 1 - l->npipes) * sizeof(*a));
		l->pipe = a;
		l->npipes = pipe + 1;
	}
	if (l->pipe[pipe] == NULL)
		l->pipe[pipe] = lat_alloc(socket);
	return l->pipe[pipe];
}

static const struct hist *
lat_flow_h(const struct eng_runtime *rt, unsigned int flow)
{
	const struct eng_lat_rt *l = rt->lat;

	return l != NULL && l->flow != NULL && flow < l->nflows ? l->flow[flow] : NULL;
}

static const struct hist *
lat_pipe_h(const struct eng_runtime *rt, unsigned int pipe)
{
	const struct eng_lat_rt *l = rt->lat;

	return l != NULL && pipe < l->npipes ? l->pipe[pipe] : NULL;
}

/* A snapshot of h in freshly allocated memory (free with hist_free), or NULL. */
static struct hist *
snap(const struct hist *h)
{
	struct hist *c;

	if (h == NULL)
		return NULL;
	c = hist_create(hist_sig_bits(h));
	if (c != NULL && hist_snapshot(c, h) < 0) {
		hist_free(c);
		c = NULL;
	}
	return c;
}

static int
summary(const struct hist *h, struct hist_summary *s)
{
	struct hist *c = snap(h);

	memset(s, 0, sizeof(*s));
	if (c == NULL)
		return -ENOENT;
	hist_summarize(c, s);
	hist_free(c);
	return 0;
}

int
eng_lat_flow_summary(const struct eng_runtime *rt, unsigned int flow, struct hist_summary *s)
{
	return summary(lat_flow_h(rt, flow), s);
}

int
eng_lat_pipe_summary(const struct eng_runtime *rt, unsigned int pipe, struct hist_summary *s)
{
	return summary(lat_pipe_h(rt, pipe), s);
}

int
eng_lat_flow_merge(const struct eng_runtime *rt, struct hist *dst, unsigned int flow)
{
	struct hist *c = snap(lat_flow_h(rt, flow));
	int rc;

	if (c == NULL)
		return -ENOENT;
	rc = hist_merge(dst, c);
	hist_free(c);
	return rc;
}

void
eng_out_hist(struct eng_out *o, const char *key, const struct hist_summary *s)
{
	static const char *const names[] = {"count", "min", "p50", "p90", "p99", "p999", "max"};
	uint64_t v[] = {s->count, s->min, s->p50, s->p90, s->p99, s->p999, s->max};
	char k[64], buf[160];
	unsigned int i;

	switch (o->kind) {
	case ENG_OUT_TEL:	/* flat: KEY_count, KEY_min, KEY_p50 ... */
		for (i = 0; i < RTE_DIM(names); i++) {
			snprintf(k, sizeof(k), "%s_%s", key, names[i]);
			eng_out_u64(o, k, v[i]);
		}
		break;
	case ENG_OUT_TEXT:
		eng_lat_fmt(buf, sizeof(buf), s);
		eng_out_str(o, key, buf);
		break;
	default:
		eng_out_obj(o, key);
		eng_out_u64(o, "count", s->count);
		eng_out_u64(o, "min", s->min);
		eng_out_dbl(o, "mean", s->mean, 1);
		eng_out_u64(o, "p50", s->p50);
		eng_out_u64(o, "p90", s->p90);
		eng_out_u64(o, "p99", s->p99);
		eng_out_u64(o, "p99.9", s->p999);
		eng_out_u64(o, "max", s->max);
		eng_out_end(o);
		break;
	}
}

void
eng_ns_fmt(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3gus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3gms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3gs", (double)ns / 1e9);
}

void
eng_lat_fmt(char *buf, size_t len, const struct hist_summary *s)
{
	char a[5][16];

	if (s->count == 0) {
		snprintf(buf, len, "-");
		return;
	}
	eng_ns_fmt(a[0], sizeof(a[0]), s->p50);
	eng_ns_fmt(a[1], sizeof(a[1]), s->p90);
	eng_ns_fmt(a[2], sizeof(a[2]), s->p99);
	eng_ns_fmt(a[3], sizeof(a[3]), s->p999);
	eng_ns_fmt(a[4], sizeof(a[4]), s->max);
	snprintf(buf, len, "p50 %s p90 %s p99 %s p99.9 %s max %s", a[0], a[1], a[2], a[3], a[4]);
}

int
eng_lat_ts_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "dfcp_engine_pipe_enq_ns",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	int off = rte_mbuf_dynfield_register(&desc);	/* the same offset every time */

	return off < 0 ? -rte_errno : off;
}

void
eng_lat_free(struct eng_runtime *rt)
{
	struct eng_lat_rt *l = rt->lat;
	unsigned int i;

	if (l == NULL)
		return;
	for (i = 0; l->flow != NULL && i < l->nflows; i++)
		rte_free(l->flow[i]);
	for (i = 0; i < l->npipes; i++)
		rte_free(l->pipe[i]);
	free(l->flow);
	free(l->pipe);
	free(l);
	rt->lat = NULL;
}
