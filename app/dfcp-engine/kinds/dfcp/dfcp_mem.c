/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dfcp kind's memory: windows sized by each flow's share of its
 * bottleneck (window = auto), and one shared, budgeted item pool per block
 * shape per task (lib/dfcp dfcp_pool, conf.shared), made at set-up: its
 * receivers' block buffers and decoders and its senders' encoders, drawn
 * while polling without allocating, a short pool back-pressuring the
 * protocol. The plan (what each pool holds) is computed at load, where a
 * budget that cannot hold the flows' minimum is refused with the numbers,
 * and again at set-up. Totals in the summary, the JSON ("dfcp_memory") and
 * /dfcp/memory. doc/config.md ("kind = dfcp"), doc/architecture.md
 * ("Memory").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "core/log.h"
#include "dfcp.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "obs/out.h"

/* "1.5 GiB": a size for messages. */
static const char *
size_str(uint64_t b, char *buf, size_t n)
{
	static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)b;
	unsigned int i = 0;

	while (v >= 1024.0 && i + 1 < RTE_DIM(u)) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, n, i == 0 ? "%.0f %s" : "%.1f %s", v, u[i]);
	return buf;
}

/* ------------------------------------------------------------------ */
/* windows                                                              */
/* ------------------------------------------------------------------ */

static int
same_group(const struct eng_flow_conf *a, const struct eng_flow_conf *b)
{
	return b->proto == &eng_task_dfcp && b->role == a->role && a->bottleneck[0] != '\0' &&
		strcmp(a->bottleneck, b->bottleneck) == 0;
}

/*
 * window = auto: a flow without a bottleneck label has the whole path:
 * ENG_DFCP_WINDOW_RTTS x path_rate x path_rtt in blocks + 64 for queues
 * (under the capacity budget a lossy block takes a few rounds, a round
 * trip each, and the window counts from the oldest block not acked: one
 * bandwidth-delay product would stall the sender while its oldest blocks
 * finish their rounds). A labelled one has its
 * share (weight / the weights of the flows of its role with the same
 * label): twice the bandwidth-delay product of the share over path_rtt (a
 * block that lost a symbol takes a top-up round, two round trips or more)
 * plus its share of 64 blocks for queues, at least ENG_DFCP_WINDOW_FLOOR.
 */
uint32_t
eng_dfcp_window_path(const struct eng_dfcp_flow_conf *df)
{
	unsigned __int128 bdp = (unsigned __int128)df->path_rate_bps * df->path_rtt_ns /
			8u / 1000000000u;
	uint64_t blocks = (uint64_t)(ENG_DFCP_WINDOW_RTTS * bdp / df->block_size) + 64u;

	return blocks > DFCP_MAX_WINDOW ? DFCP_MAX_WINDOW : (uint32_t)blocks;
}

void
eng_dfcp_windows(struct eng_config *cfg)
{
	unsigned int i, j;

	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *f = &cfg->flows[i];
		struct eng_dfcp_flow_conf *df = f->pconf;
		uint64_t wsum = 0, blocks, bs;
		unsigned __int128 bdp;

		if (f->proto != &eng_task_dfcp || !df->window_auto)
			continue;
		bs = df->block_size;
		bdp = (unsigned __int128)df->path_rate_bps * df->path_rtt_ns / 8u / 1000000000u;
		df->share_bps = df->path_rate_bps;
		if (f->bottleneck[0] == '\0') {
			blocks = eng_dfcp_window_path(df);
		} else {
			for (j = 0; j < cfg->nb_flows; j++)
				if (j == i || same_group(f, &cfg->flows[j]))
					wsum += cfg->flows[j].weight;
			if (wsum == 0)
				wsum = 1;
			blocks = (uint64_t)((2u * bdp * f->weight / wsum + bs - 1) / bs) +
					(64u * f->weight + wsum - 1) / wsum;
			df->share_bps = (uint64_t)((unsigned __int128)df->path_rate_bps * f->weight /
					wsum);
		}
		if (blocks < ENG_DFCP_WINDOW_FLOOR)
			blocks = ENG_DFCP_WINDOW_FLOOR;
		df->window = blocks > DFCP_MAX_WINDOW ? DFCP_MAX_WINDOW : (uint32_t)blocks;
	}
}

/* ------------------------------------------------------------------ */
/* the plan                                                             */
/* ------------------------------------------------------------------ */

static struct eng_dfcp_shape *
shape_of(struct eng_dfcp_plan *pl, uint16_t K, uint16_t T)
{
	unsigned int i;

	for (i = 0; i < pl->nshapes; i++)
		if (pl->s[i].K == K && pl->s[i].T == T)
			return &pl->s[i];
	if (pl->nshapes == ENG_DFCP_MAX_SHAPES)
		return NULL;
	memset(&pl->s[i], 0, sizeof(pl->s[i]));
	pl->s[i].K = K;
	pl->s[i].T = T;
	pl->nshapes++;
	return &pl->s[i];
}

/* What each shape's flows want (their windows) and need at least. */
static int
plan_demand(const struct eng_config *cfg, const struct eng_task *tk, struct eng_dfcp_plan *pl)
{
	const struct eng_dfcp_conf *dc = tk->conf;
	unsigned int i;

	for (i = 0; i < tk->nb_flows; i++) {
		const struct eng_flow_conf *f = eng_task_flow(cfg, tk, i);
		const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(f);
		struct eng_dfcp_shape *s;

		/* its endpoint's records (eng_dfcp_ep_conf: a receiver's bitmaps for
		 * its pool's K, or max_K without decoding; a sender's endpoint 2) */
		if (f->role == ENG_FLOW_RECEIVER)
			pl->records += dfcp_ep_slab_bytes(dc->max_conns, 1, df->window,
					df->decode ? df->K : df->max_K);
		else
			pl->records += dfcp_ep_slab_bytes(2, 0, df->window, 0);
		if (f->role == ENG_FLOW_RECEIVER ? !df->decode : !df->encode)
			continue;
		s = shape_of(pl, df->K, df->T);
		if (s == NULL)
			return -E2BIG;
		if (f->role == ENG_FLOW_RECEIVER) {
			/* one connection's window each: more connections share it */
			s->nrecv++;
			s->want_buf += df->window;
			s->conns += dc->max_conns;
		} else {
			s->nsend++;
			s->want_enc += df->window;
		}
	}
	for (i = 0; i < pl->nshapes; i++) {
		struct eng_dfcp_shape *s = &pl->s[i];

		if (dfcp_pool_item_bytes(s->K, s->T, &s->b_buf, &s->b_dec, &s->b_enc) < 0)
			return -ENOMEM;
		/* decoders serve only blocks collecting repair symbols */
		s->want_dec = (s->want_buf + ENG_DFCP_DEC_RATIO - 1) / ENG_DFCP_DEC_RATIO;
		/* the least that works: a buffer per receiver, one decoder, one encoder */
		s->min_buf = s->nrecv;
		s->min_dec = s->nrecv ? 1 : 0;
		s->min_enc = s->nsend ? 1 : 0;
		pl->want += s->want_buf * s->b_buf + s->want_dec * s->b_dec + s->want_enc * s->b_enc;
		pl->min += s->min_buf * s->b_buf + s->min_dec * s->b_dec + s->min_enc * s->b_enc;
	}
	return 0;
}

static uint64_t
scale(uint64_t lo, uint64_t hi, uint64_t num, uint64_t den)
{
	if (den == 0 || hi <= lo)
		return lo;
	return lo + (uint64_t)((unsigned __int128)(hi - lo) * num / den);
}

/* One term of the refusal's numbers: " + 4096 receivers x 1 block buffer x 65.2 KiB". */
static size_t
term(char *buf, size_t n, uint64_t count, const char *what, uint64_t bytes, int *first)
{
	char a[24];
	int k;

	if (count == 0 || n == 0)
		return 0;
	k = snprintf(buf, n, "%s%" PRIu64 " %s x %s", *first ? "" : " + ", count, what,
			size_str(bytes, a, sizeof(a)));
	*first = 0;
	return k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
}

/* The refusal's numbers, per block shape. */
static void
min_str(const struct eng_dfcp_plan *pl, char *buf, size_t n)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < pl->nshapes && off + 1 < n; i++) {
		const struct eng_dfcp_shape *s = &pl->s[i];
		int first = 1, k;

		k = snprintf(buf + off, n - off, "%sK %u T %u: ", i ? "; " : "", s->K, s->T);
		off += k > 0 && (size_t)k < n - off ? (size_t)k : 0;
		off += term(buf + off, n - off, s->min_buf, "receivers x 1 block buffer", s->b_buf,
				&first);
		off += term(buf + off, n - off, s->min_dec, "decoder", s->b_dec, &first);
		off += term(buf + off, n - off, s->min_enc, "encoder", s->b_enc, &first);
	}
}

/*
 * Bytes beyond the minimum for one buffer per receiver connection and two
 * encoders per sender where its window wants them (what mem_budget auto adds
 * at least). With one encoder a sender is stop-and-wait: equal flows
 * through one WF2Q+ link finish their blocks together and the link idles
 * while they all wait for their BLOCK-ACKs; a second encoder keeps a block
 * in flight meanwhile.
 */
static uint64_t
guarantees(const struct eng_dfcp_plan *pl)
{
	uint64_t g = 0;
	unsigned int i;

	for (i = 0; i < pl->nshapes; i++) {
		const struct eng_dfcp_shape *s = &pl->s[i];
		uint64_t enc = RTE_MIN(2 * s->nsend, s->want_enc);

		if (s->conns > s->min_buf)
			g += (s->conns - s->min_buf) * s->b_buf;
		if (enc > s->min_enc)
			g += (enc - s->min_enc) * s->b_enc;
	}
	return g;
}

int
eng_dfcp_plan(const struct eng_config *cfg, const struct eng_task *tk, struct eng_dfcp_plan *pl,
		char *err, size_t errlen)
{
	const struct eng_dfcp_conf *dc = tk->conf;
	uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	char a[24], b[24], m[400];
	unsigned int i;
	int rc;

	memset(pl, 0, sizeof(*pl));
	rc = plan_demand(cfg, tk, pl);
	if (rc == -E2BIG) {
		snprintf(err, errlen, "%s:%d: [task %s] its flows have more than %u block shapes "
				"(symbol_size, block_size)", cfg->file, tk->line, tk->name,
				ENG_DFCP_MAX_SHAPES);
		return -EINVAL;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s:%d: [task %s] cannot measure a block slot", cfg->file,
				tk->line, tk->name);
		return rc;
	}
	pl->budget = dc->mem_budget;
	if (pl->budget == 0)	/* auto: the minimum, the guarantees, up to ENG_DFCP_MEM_AUTO more */
		pl->budget = RTE_MIN(pl->want, pl->min + RTE_MAX(ENG_DFCP_MEM_AUTO, guarantees(pl)));
	if (pl->min > pl->budget) {
		min_str(pl, m, sizeof(m));
		snprintf(err, errlen, "%s:%d: [task %s] mem_budget: its flows need at least %s "
				"(%s) > mem_budget %s", cfg->file, tk->line, tk->name,
				size_str(pl->min, a, sizeof(a)), m, size_str(pl->budget, b, sizeof(b)));
		return -EINVAL;
	}
	if (phys != 0 && pl->budget > phys) {
		snprintf(err, errlen, "%s:%d: [task %s] mem_budget %s is more than this machine's "
				"memory (%s)", cfg->file, tk->line, tk->name,
				size_str(pl->budget, a, sizeof(a)), size_str(phys, b, sizeof(b)));
		return -EINVAL;
	}
	if (phys != 0 && pl->records > phys - pl->budget) {
		snprintf(err, errlen, "%s:%d: [task %s] its connection records (%s: max_conns x "
				"window) and mem_budget %s are more than this machine's memory (%s)",
				cfg->file, tk->line, tk->name, size_str(pl->records, a, sizeof(a)),
				size_str(pl->budget, b, sizeof(b)), size_str(phys, m, sizeof(m)));
		return -EINVAL;
	}
	/* between the minimum and what the windows want, in proportion */
	for (i = 0; i < pl->nshapes; i++) {
		struct eng_dfcp_shape *s = &pl->s[i];
		uint64_t num = pl->budget - pl->min, den = pl->want - pl->min;

		if (pl->want <= pl->budget)
			num = den = 1;
		s->n_buf = scale(s->min_buf, s->want_buf, num, den);
		s->n_dec = scale(s->min_dec, s->want_dec, num, den);
		s->n_enc = scale(s->min_enc, s->want_enc, num, den);
		pl->bytes += s->n_buf * s->b_buf + s->n_dec * s->b_dec + s->n_enc * s->b_enc;
	}
	/* room left: a guarantee for every connection the receivers may hold (one
	 * buffer) and for every sender (one encoder, reserved: eng_dfcp_mem_setup) */
	for (i = 0; i < pl->nshapes; i++) {
		struct eng_dfcp_shape *s = &pl->s[i];

		if (s->n_buf < s->conns && (s->conns - s->n_buf) * s->b_buf <= pl->budget - pl->bytes) {
			pl->bytes += (s->conns - s->n_buf) * s->b_buf;
			s->n_buf = s->conns;
		}
		if (s->n_enc < s->nsend && (s->nsend - s->n_enc) * s->b_enc <= pl->budget - pl->bytes) {
			pl->bytes += (s->nsend - s->n_enc) * s->b_enc;
			s->n_enc = s->nsend;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* set-up, use, totals                                                  */
/* ------------------------------------------------------------------ */

int
eng_dfcp_mem_setup(const struct eng_xtask *x, struct eng_dfcp_mem *m)
{
	char err[512], a[24], b[24];
	unsigned int i;

	memset(m, 0, sizeof(*m));
	if (eng_dfcp_plan(x->rt->cfg, x->t, &m->plan, err, sizeof(err)) < 0) {
		ENG_LOG(ERR, task, "%s", err);
		return -EINVAL;
	}
	for (i = 0; i < m->plan.nshapes; i++) {
		const struct eng_dfcp_shape *s = &m->plan.s[i];
		struct dfcp_pool_conf pc = {
			.K = s->K, .T = s->T, .shared = 1,
			.tx_min = s->nsend != 0 && s->n_enc >= s->nsend ? 1 : 0,
			.rx_slots = (uint32_t)s->n_buf, .dec_slots = (uint32_t)s->n_dec,
			.tx_slots = (uint32_t)s->n_enc,
		};

		m->pool[i] = dfcp_pool_create(&pc);
		if (m->pool[i] == NULL) {
			ENG_LOG(ERR, task, "task %s: cannot make its block memory (%s)", x->t->name,
					size_str(m->plan.bytes, a, sizeof(a)));
			eng_dfcp_mem_free(m);
			return -ENOMEM;
		}
	}
	ENG_LOG(INFO, task, "task %s: block memory %s of mem_budget %s (its windows want %s), "
			"made at set-up", x->t->name, size_str(m->plan.bytes, a, sizeof(a)),
			size_str(m->plan.budget, b, sizeof(b)), size_str(m->plan.want, err, 24));
	ENG_LOG(INFO, task, "task %s: connection records %s (outside mem_budget), made at set-up",
			x->t->name, size_str(m->plan.records, a, sizeof(a)));
	for (i = 0; i < m->plan.nshapes; i++)
		ENG_LOG(INFO, task, "task %s: K %u T %u: %" PRIu64 " block buffers, %" PRIu64
				" decoders, %" PRIu64 " encoders", x->t->name, m->plan.s[i].K,
				m->plan.s[i].T, m->plan.s[i].n_buf, m->plan.s[i].n_dec,
				m->plan.s[i].n_enc);
	return 0;
}

struct dfcp_pool *
eng_dfcp_mem_pool(const struct eng_dfcp_mem *m, uint16_t K, uint16_t T)
{
	unsigned int i;

	for (i = 0; i < m->plan.nshapes; i++)
		if (m->plan.s[i].K == K && m->plan.s[i].T == T)
			return m->pool[i];
	return NULL;
}

void
eng_dfcp_mem_free(struct eng_dfcp_mem *m)
{
	unsigned int i;

	for (i = 0; i < ENG_DFCP_MAX_SHAPES; i++) {
		dfcp_pool_free(m->pool[i]);
		m->pool[i] = NULL;
	}
}

/* The owning lcore: the totals into m->snap (read by any thread). */
void
eng_dfcp_mem_publish(struct eng_dfcp_mem *m)
{
	struct eng_dfcp_mem_snap s;
	struct dfcp_pool_stats ps;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	s.budget = m->plan.budget;
	s.want = m->plan.want;
	s.records = m->plan.records;
	for (i = 0; i < m->plan.nshapes; i++) {
		if (m->pool[i] == NULL)
			continue;
		dfcp_pool_stats(m->pool[i], &ps);
		s.bytes += ps.bytes;
		s.used += ps.bytes_used;
		s.peak += ps.bytes_peak;
		s.waits += ps.waits;
		s.refused += ps.refused;
		s.bufs += ps.rx_slots;
		s.decs += ps.dec_slots;
		s.encs += ps.tx_slots;
		s.bufs_peak += ps.bufs_peak;
		s.decs_peak += ps.decs_peak;
		s.encs_peak += ps.encs_peak;
	}
	m->snap = s;
}

#define MS_(field) offsetof(struct eng_dfcp_mem_snap, field)

const struct eng_ctr eng_dfcp_mem_ctrs[ENG_DFCP_MEM_NCTRS] = {
	{"budget", "B", MS_(budget), ENG_CT_U64, 0, 0,
		"mem_budget: the block memory the task may make"},
	{"want", "B", MS_(want), ENG_CT_U64, 0, ENG_V_DATA, "what its flows' windows would take"},
	{"bytes", "B", MS_(bytes), ENG_CT_U64, 0, 0,
		"made at set-up (buffers, decoders, encoders)"},
	{"in_use", "B", MS_(used), ENG_CT_U64, 0, 0, "drawn now"},
	{"peak", "B", MS_(peak), ENG_CT_U64, 0, 0, "most drawn at once"},
	{"buffers", "", MS_(bufs), ENG_CT_U64, 0, ENG_V_DATA, "block buffers made"},
	{"buffers_peak", "", MS_(bufs_peak), ENG_CT_U64, 0, ENG_V_DATA, "most in use at once"},
	{"decoders", "", MS_(decs), ENG_CT_U64, 0, ENG_V_DATA, "decoders made"},
	{"decoders_peak", "", MS_(decs_peak), ENG_CT_U64, 0, ENG_V_DATA, "most in use at once"},
	{"encoders", "", MS_(encs), ENG_CT_U64, 0, ENG_V_DATA, "encoders made"},
	{"encoders_peak", "", MS_(encs_peak), ENG_CT_U64, 0, ENG_V_DATA, "most in use at once"},
	{"waits", "", MS_(waits), ENG_CT_U64, 0, 0,
		"draws refused (back-pressure: a sender waited, a receiver dropped a DATA)"},
	{"refused", "", MS_(refused), ENG_CT_U64, 0, 0,
		"connects / SYNs refused: no guarantee left"},
	{"records", "B", MS_(records), ENG_CT_U64, 0, ENG_V_DATA,
		"connection records with their window arrays, made with the endpoints "
		"(outside budget)"},
};

_Static_assert(RTE_DIM(eng_dfcp_mem_ctrs) == ENG_DFCP_MEM_NCTRS, "ENG_DFCP_MEM_NCTRS");

/* "dfcp_memory": one record per dfcp task (summary, JSON, telemetry). */
void
eng_dfcp_mem_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i;

	eng_out_arr(o, "dfcp_memory");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_dfcp_mem_snap s;

		if (t->ops != &eng_task_dfcp || eng_dfcp_mem_snap(t, &s) < 0)
			continue;
		eng_out_item(o, "task", t->name);
		if (o->kind != ENG_OUT_TEXT)
			eng_out_str(o, "task", t->name);
		eng_out_str(o, "memory", "blocks");
		eng_out_counters(o, eng_dfcp_mem_ctrs, RTE_DIM(eng_dfcp_mem_ctrs), &s);
		eng_out_end(o);
	}
	eng_out_end(o);
}

static int
tel_memory(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	eng_dfcp_mem_write(rt, o);
	return 0;
}

/*
 * The dfcp kind's telemetry: /dfcp/memory (/dfcp/flows is the transport
 * kinds' common command, registered through kind tcp's table too).
 */
const struct eng_tel_cmd eng_dfcp_tel[] = {
	{"/dfcp/memory", "Block memory of each dfcp task: budget, made, in use, peak, waits",
		tel_memory},
	{NULL, NULL, NULL},
};
