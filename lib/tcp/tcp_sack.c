/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SACK bookkeeping of a connection. Sender: the scoreboard of SACKed
 * blocks (RFC 6675 IsLost / pipe / NextSeg) used by the classic SACK
 * recovery. Receiver: the out-of-order blocks it reports (RFC 2018).
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

/* ------------------------------------------------------------------ */
/* Sender scoreboard                                                    */
/* ------------------------------------------------------------------ */

void
tcp_sb_trim(struct tcp_conn *c)
{
	uint32_t i = 0, j = 0;

	for (; i < c->nsb; i++) {
		if (TCP_SEQ_LEQ(c->sb[i].end, c->snd_una))
			continue;
		if (TCP_SEQ_LT(c->sb[i].start, c->snd_una))
			c->sb[i].start = c->snd_una;
		c->sb[j++] = c->sb[i];
	}
	c->nsb = j;
}

/* Add [s, e); returns the number of newly SACKed bytes. */
uint32_t
tcp_sb_add(struct tcp_conn *c, uint32_t s, uint32_t e)
{
	uint32_t i, newly, covered = 0;

	if (TCP_SEQ_LT(s, c->snd_una))
		s = c->snd_una;
	if (TCP_SEQ_GT(e, c->snd_max))
		e = c->snd_max;
	if (!TCP_SEQ_LT(s, e))
		return 0;
	newly = e - s;
	/* bytes already covered */
	for (i = 0; i < c->nsb; i++) {
		uint32_t a = TCP_SEQ_GT(c->sb[i].start, s) ? c->sb[i].start : s;
		uint32_t b = TCP_SEQ_LT(c->sb[i].end, e) ? c->sb[i].end : e;

		if (TCP_SEQ_LT(a, b))
			covered += b - a;
	}
	newly -= covered;
	/* merge overlapping / adjacent blocks into [s, e) */
	for (i = 0; i < c->nsb;) {
		if (TCP_SEQ_LEQ(c->sb[i].start, e) && TCP_SEQ_GEQ(c->sb[i].end, s)) {
			if (TCP_SEQ_LT(c->sb[i].start, s))
				s = c->sb[i].start;
			if (TCP_SEQ_GT(c->sb[i].end, e))
				e = c->sb[i].end;
			memmove(&c->sb[i], &c->sb[i + 1], (c->nsb - i - 1) * sizeof(c->sb[0]));
			c->nsb--;
		} else {
			i++;
		}
	}
	/* insert sorted; when full, drop the highest block (advisory data) */
	for (i = 0; i < c->nsb && TCP_SEQ_LT(c->sb[i].start, s); i++)
		;
	if (c->nsb == SB_MAX) {
		if (i == SB_MAX)
			return newly;
		c->nsb--;
	}
	memmove(&c->sb[i + 1], &c->sb[i], (c->nsb - i) * sizeof(c->sb[0]));
	c->sb[i].start = s;
	c->sb[i].end = e;
	c->nsb++;
	return newly;
}

/* Highest point below which unSACKed data is deemed lost (RFC 6675
 * IsLost: DupThresh * SMSS bytes SACKed above). snd_una if none. */
uint32_t
tcp_sb_lost_edge(const struct tcp_conn *c)
{
	uint32_t need = c->conf.dupthresh * c->smss, cum = 0;

	for (int i = (int)c->nsb - 1; i >= 0; i--) {
		uint32_t len = c->sb[i].end - c->sb[i].start;

		if (cum + len >= need)
			return c->sb[i].end - (need - cum);
		cum += len;
	}
	return c->snd_una;
}

/* RFC 6675 pipe: unSACKed bytes not deemed lost, plus retransmitted ones. */
uint32_t
tcp_sb_pipe(const struct tcp_conn *c)
{
	uint32_t edge = tcp_sb_lost_edge(c), pipe = 0, pos = c->snd_una;

	for (uint32_t i = 0; i <= c->nsb; i++) {
		uint32_t he = i < c->nsb ? c->sb[i].start : c->snd_max;

		/* hole [pos, he) */
		if (TCP_SEQ_LT(pos, he)) {
			uint32_t lost_end = TCP_SEQ_LT(edge, he) ? edge : he;

			if (TCP_SEQ_LT(pos, lost_end)) {
				uint32_t rx_end = TCP_SEQ_LT(c->high_rxt, lost_end) ?
					c->high_rxt : lost_end;

				if (TCP_SEQ_LT(pos, rx_end))
					pipe += rx_end - pos;
				pipe += he - lost_end;
			} else {
				pipe += he - pos;
			}
		}
		if (i < c->nsb)
			pos = c->sb[i].end;
	}
	return pipe;
}

/* NextSeg rule 1: first lost, not yet retransmitted byte; 0 if none. */
int
tcp_sb_next_lost(const struct tcp_conn *c, uint32_t *seq, uint32_t *len)
{
	uint32_t edge = tcp_sb_lost_edge(c), pos = c->snd_una;

	for (uint32_t i = 0; i < c->nsb; i++) {
		uint32_t hs = TCP_SEQ_GT(c->high_rxt, pos) ? c->high_rxt : pos;
		uint32_t he = c->sb[i].start;

		if (TCP_SEQ_GT(he, edge))
			he = edge;
		if (TCP_SEQ_LT(hs, he)) {
			*seq = hs;
			*len = tcp_min32(he - hs, c->smss);
			return 1;
		}
		pos = c->sb[i].end;
		if (!TCP_SEQ_LT(pos, edge))
			break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Receiver: out-of-order blocks                                        */
/* ------------------------------------------------------------------ */

/* Record an out-of-order block; returns 0 if it was already held. */
int
tcp_ooo_add(struct tcp_conn *c, uint32_t s, uint32_t e)
{
	uint32_t i;

	for (i = 0; i < c->nooo; i++)
		if (TCP_SEQ_LEQ(c->ooo[i].start, s) && TCP_SEQ_GEQ(c->ooo[i].end, e))
			return 0;
	for (i = 0; i < c->nooo;) {
		if (TCP_SEQ_LEQ(c->ooo[i].start, e) && TCP_SEQ_GEQ(c->ooo[i].end, s)) {
			if (TCP_SEQ_LT(c->ooo[i].start, s))
				s = c->ooo[i].start;
			if (TCP_SEQ_GT(c->ooo[i].end, e))
				e = c->ooo[i].end;
			memmove(&c->ooo[i], &c->ooo[i + 1], (c->nooo - i - 1) * sizeof(c->ooo[0]));
			c->nooo--;
		} else {
			i++;
		}
	}
	for (i = 0; i < c->nooo && TCP_SEQ_LT(c->ooo[i].start, s); i++)
		;
	if (c->nooo == c->ooo_cap) {
		/* no room: forget the highest block (the sender will resend) */
		if (i == c->ooo_cap)
			return 1;
		c->nooo--;
	}
	memmove(&c->ooo[i + 1], &c->ooo[i], (c->nooo - i) * sizeof(c->ooo[0]));
	c->ooo[i].start = s;
	c->ooo[i].end = e;
	c->nooo++;
	return 1;
}

/* RFC 2883: data that arrived twice; the next ACK reports it first (once). */
void
tcp_rcv_dsack(struct tcp_conn *c, uint32_t s, uint32_t e)
{
	if (!c->sack_ok || !TCP_SEQ_LT(s, e))
		return;
	c->dsack.start = s;
	c->dsack.end = e;
	c->dsack_pending = 1;
}
