/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connections of a dfcp flow (dfcp_task.c's adapter): a receiver flow
 * (a listener of up to max_conns connections) gives each accepted
 * connection an entry of its own (struct dfcp_rconn, made at set-up): its
 * own verifying sink, checked from stream offset 0 against the flow's seed,
 * its start and last delivery, so that several transfers at once neither
 * disturb each other's verification nor hide each other's goodput; the
 * flow's sink keeps the sums. A closed connection's counters go into the
 * flow's (and a receiver's its own line: bytes, Mbit/s, verify). A sink
 * file that fails a write (ENOSPC, EIO, EFBIG ...) fails the flow: its
 * connections are aborted at the next tick; an orderly close fsyncs the
 * file first, and a failed fsync fails the flow too.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_branch_prediction.h>

#include "core/log.h"
#include "dfcp.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"

/* A connection's own sink; the flow's sink keeps the sums. */
static void
conn_sink(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct dfcp_rconn *r = ctx;
	struct net_sink_count *fs = &r->f->sink;
	uint64_t bad = r->sink.bad_bytes, ord = r->sink.order_errors, fb = r->sink.file_bytes;
	int err = r->sink.err;

	net_sink_count_write(&r->sink, off, data, len);
	fs->bytes += len;
	fs->bad_bytes += r->sink.bad_bytes - bad;
	fs->order_errors += r->sink.order_errors - ord;
	fs->file_bytes += r->sink.file_bytes - fb;
	if (unlikely(r->sink.err != err))
		eng_dfcp_sink_failed(r->f, r->sink.err);
}

void
eng_dfcp_sink_failed(struct dfcp_flow *f, int err)
{
	f->sink_errors++;
	if (f->sink.err == 0)
		f->sink.err = err;
}

/* The flow's sink file failed (a write, or an fsync at an orderly close):
 * every connection aborted (RST), once, logged. */
static void
sink_abort(struct eng_xflow *xf, struct dfcp_flow *f, uint64_t now)
{
	uint32_t i;

	f->sink_aborted = 1;
	ENG_LOG(ERR, task, "flow %s: sink file failed: %s after %" PRIu64 " bytes written: "
			"its connections aborted", xf->fc->name, strerror(-f->sink.err),
			f->sink.file_bytes);
	for (i = 0; i < f->nrconn; i++)
		if (f->rconn[i].c != NULL)
			dfcp_conn_abort(f->rconn[i].c, now);
	if (f->conn != NULL)
		dfcp_conn_abort(f->conn, now);
	eng_xport_ep_wake(xf->ep);	/* the RSTs */
}

/* An accepted connection (before its first delivery): an entry of its own,
 * its stream checked from offset 0. */
void
eng_dfcp_flow_accept(void *ctx, struct dfcp_conn *c)
{
	struct dfcp_flow *f = ctx;
	uint32_t i;

	if (f->conn == NULL || dfcp_conn_state(f->conn) == DFCP_CLOSED)
		f->conn = c;
	for (i = 0; i < f->nrconn; i++) {
		struct dfcp_rconn *r = &f->rconn[i];

		if (r->c != NULL)
			continue;
		memset(r, 0, sizeof(*r));
		r->f = f;
		r->c = c;
		net_sink_count_init(&r->sink, f->xf->fc->seed, f->xf->fc->verify);
		r->sink.fd = f->sink.fd;
		dfcp_conn_set_sink(c, conn_sink, r);
		f->live++;
		return;
	}
	f->sink.next_off = 0;	/* no entry (cannot happen): the flow's own sink */
}

/* Why a connection that did not complete closed; a refusal of an encrypted one says so. */
static const char *
closed_why(const struct eng_dfcp_flow_conf *df, enum dfcp_close_reason cr)
{
	static const char *const refused[DFCP_CRYPTO_MAX] = {
		[DFCP_CRYPTO_AES128GCM] = "refused: the peer lacks crypto = aes-128-gcm",
		[DFCP_CRYPTO_CHACHA20] = "refused: the peer lacks crypto = chacha20-poly1305",
	};

	if (cr == DFCP_CR_REFUSED && df->crypto < DFCP_CRYPTO_MAX && refused[df->crypto] != NULL)
		return refused[df->crypto];
	return dfcp_close_reason_str(cr);
}

/* Connection c of flow xf has closed: its counters into the flow's. */
void
eng_dfcp_conn_closed(struct eng_xflow *xf, struct dfcp_flow *f, struct dfcp_conn *c)
{
	const struct eng_flow_conf *fc = xf->fc;
	struct dfcp_stats cs;

	dfcp_conn_stats(c, &cs);
	eng_dfcp_stats_add(&f->acc, &cs);
	f->snap.close_reason = cs.close_reason;
	f->completed |= cs.completed != 0;
	if (!cs.completed && f->closed == NULL && cs.close_reason != DFCP_CR_DONE)
		f->closed = closed_why(eng_dfcp_fc(fc), cs.close_reason);
	if (cs.close_reason != DFCP_CR_DONE)
		ENG_LOG(WARNING, task, "flow %s: connection closed: %s%s", fc->name,
				closed_why(eng_dfcp_fc(fc), cs.close_reason),
				cs.completed ? " (after completing)" : "");
	f->conns_closed++;
}

/* A receiver's connection r closed: its own line (goodput, verify), the entry freed. */
static void
rconn_closed(struct eng_xflow *xf, struct dfcp_flow *f, struct dfcp_rconn *r)
{
	const struct dfcp_addr *a = dfcp_conn_remote(r->c);
	uint64_t us = r->last_ns > r->start_ns && r->start_ns != 0 ?
			(r->last_ns - r->start_ns) / 1000 : 0;

	/* the data is on disk before an orderly close counts as completed */
	if (r->sink.fd >= 0 && r->sink.err == 0 &&
			dfcp_conn_close_reason(r->c) == DFCP_CR_DONE &&
			net_sink_count_sync(&r->sink) < 0)
		eng_dfcp_sink_failed(f, r->sink.err);	/* the next tick logs it */
	eng_dfcp_conn_closed(xf, f, r->c);
	if ((f->nrconn > 1 && f->nrconn <= 16) || r->sink.bad_bytes + r->sink.order_errors != 0)
		ENG_LOG(INFO, task, "flow %s: connection %u from %u.%u.%u.%u:%u: %" PRIu64
				" bytes, %.1f Mbit/s, %s", xf->fc->name, (unsigned int)(r - f->rconn),
				a->ip >> 24, (a->ip >> 16) & 255, (a->ip >> 8) & 255, a->ip & 255,
				a->port, r->sink.bytes, us != 0 ? r->sink.bytes * 8.0 / us : 0.0,
				!xf->fc->verify ? "not verified" :
				r->sink.bad_bytes + r->sink.order_errors == 0 ? "verify ok" :
				"verify FAILED");
	if (f->conn == r->c)
		f->conn = NULL;
	r->c = NULL;
	f->live--;
}

/* A receiver's connections: established, progress, closes. */
void
eng_dfcp_rconn_tick(struct eng_xflow *xf, struct dfcp_flow *f, uint64_t now)
{
	uint32_t i;

	for (i = 0; i < f->nrconn && f->live != 0; i++) {
		struct dfcp_rconn *r = &f->rconn[i];
		enum dfcp_state st;

		if (r->c == NULL)
			continue;
		st = dfcp_conn_state(r->c);
		if (r->start_ns == 0 && st == DFCP_ESTABLISHED)
			r->start_ns = now;
		if (r->sink.bytes != r->last_bytes) {
			r->last_bytes = r->sink.bytes;
			r->last_ns = now;
		}
		if (st == DFCP_CLOSED)
			rconn_closed(xf, f, r);
	}
	if (unlikely(f->sink.err != 0 && !f->sink_aborted))
		sink_abort(xf, f, now);
	for (i = 0; i < f->nrconn && f->conn == NULL && f->live != 0; i++)
		f->conn = f->rconn[i].c;	/* the current one: any still open */
}
