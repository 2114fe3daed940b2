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
#include <rte_telemetry.h>

#include "kinds/route/route.h"
#include "obs/obs.h"

static struct hist **lat_flow;	/* [lat_nflows] */
static unsigned int lat_nflows;
static struct hist *lat_pipe[ENG_MAX_PIPES];
int eng_lat_ts_off = -1;

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
	if (lat_flow == NULL) {
		lat_nflows = rt->cfg->nb_flows;
		lat_flow = calloc(lat_nflows + 1, sizeof(*lat_flow));
		if (lat_flow == NULL)
			return NULL;
	}
	if (flow >= lat_nflows)
		return NULL;
	if (lat_flow[flow] == NULL)
		lat_flow[flow] = lat_alloc(socket);
	return lat_flow[flow];
}

struct hist *
eng_lat_pipe_hist(struct eng_runtime *rt, unsigned int pipe, int socket)
{
	RTE_SET_USED(rt);
	if (pipe >= ENG_MAX_PIPES)
		return NULL;
	if (lat_pipe[pipe] == NULL)
		lat_pipe[pipe] = lat_alloc(socket);
	return lat_pipe[pipe];
}

static const struct hist *
flow_h(unsigned int flow)
{
	return lat_flow != NULL && flow < lat_nflows ? lat_flow[flow] : NULL;
}

static const struct hist *
pipe_h(unsigned int pipe)
{
	return pipe < ENG_MAX_PIPES ? lat_pipe[pipe] : NULL;
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
eng_lat_flow_summary(unsigned int flow, struct hist_summary *s)
{
	return summary(flow_h(flow), s);
}

int
eng_lat_pipe_summary(unsigned int pipe, struct hist_summary *s)
{
	return summary(pipe_h(pipe), s);
}

int
eng_lat_flow_merge(struct hist *dst, unsigned int flow)
{
	struct hist *c = snap(flow_h(flow));
	int rc;

	if (c == NULL)
		return -ENOENT;
	rc = hist_merge(dst, c);
	hist_free(c);
	return rc;
}

static void
json(FILE *f, const char *key, const struct hist *h)
{
	struct hist *c = snap(h);
	char buf[320];

	if (c == NULL)
		return;
	if (hist_json(c, buf, sizeof(buf)) >= 0)
		fprintf(f, ", \"%s\": %s", key, buf);
	hist_free(c);
}

void
eng_lat_flow_json(FILE *f, unsigned int flow)
{
	json(f, "block_latency_ns", flow_h(flow));
}

void
eng_lat_pipe_json(FILE *f, unsigned int pipe)
{
	json(f, "queue_delay_ns", pipe_h(pipe));
}

void
eng_lat_tel(struct rte_tel_data *d, const char *prefix, const struct hist_summary *s)
{
	static const char *const names[] = {"count", "min", "p50", "p90", "p99", "p999", "max"};
	uint64_t v[] = {s->count, s->min, s->p50, s->p90, s->p99, s->p999, s->max};
	char key[RTE_TEL_MAX_STRING_LEN];
	unsigned int i;

	for (i = 0; i < RTE_DIM(names); i++) {
		snprintf(key, sizeof(key), "%s_%s", prefix, names[i]);
		rte_tel_data_add_dict_u64(d, key, v[i]);
	}
}

void
eng_lat_flow_tel(struct rte_tel_data *d, unsigned int flow)
{
	struct hist_summary s;

	if (eng_lat_flow_summary(flow, &s) == 0)
		eng_lat_tel(d, "block_latency_ns", &s);
}

void
eng_lat_pipe_tel(struct rte_tel_data *d, unsigned int pipe)
{
	struct hist_summary s;

	if (eng_lat_pipe_summary(pipe, &s) == 0)
		eng_lat_tel(d, "queue_delay_ns", &s);
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
	int off;

	if (eng_lat_ts_off >= 0)
		return 0;
	off = rte_mbuf_dynfield_register(&desc);
	if (off < 0)
		return -rte_errno;
	eng_lat_ts_off = off;
	return 0;
}

void
eng_lat_free(void)
{
	unsigned int i;

	for (i = 0; lat_flow != NULL && i < lat_nflows; i++)
		rte_free(lat_flow[i]);
	free(lat_flow);
	lat_flow = NULL;
	lat_nflows = 0;
	for (i = 0; i < ENG_MAX_PIPES; i++) {
		rte_free(lat_pipe[i]);
		lat_pipe[i] = NULL;
	}
}
