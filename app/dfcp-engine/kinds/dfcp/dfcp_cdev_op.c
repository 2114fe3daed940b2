/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cryptodev backend's enqueue/dequeue path: devices without CPU crypto
 * (crypto_openssl, a QAT or a NIC's crypto engine). A burst of messages is
 * enqueued on the calling lcore's own queue pair and dequeued to the last
 * before the call returns (the lcore waits for a hardware device; a
 * software PMD does the work in its dequeue). A message is a crypto op
 * whose private area carries its nonce and AAD, over an mbuf that views
 * the message in place (an external buffer: nothing is copied, nothing
 * freed). A message from elsewhere is copied into place first. A hardware
 * device gets IOVAs, so its messages must lie in DPDK memory: frames do,
 * and the library seals and opens in the frame for it (ops.in_place).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cryptodev.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memory.h>

#include "core/log.h"
#include "kinds/dfcp/dfcp_cdev.h"
#include "kinds/dfcp/dfcp_task.h"

#define OP_WAIT_MS	1000	/* a device that keeps ops longer is given up */

static void
view_free(void *addr, void *opaque)
{
	(void)addr;	/* the message's memory is the caller's */
	(void)opaque;
}

int
cdev_op_setup(struct cdev_dev *d, const char **why)
{
	unsigned int n = 2 * CDEV_BURST * rte_lcore_count();
	char name[RTE_MEMPOOL_NAMESIZE];

	snprintf(name, sizeof(name), "dfcp_cop%d", d->id);
	d->op_mp = rte_crypto_op_pool_create(name, RTE_CRYPTO_OP_TYPE_SYMMETRIC, n, 0,
			16 + CDEV_AAD_MAX, (int)rte_socket_id());
	snprintf(name, sizeof(name), "dfcp_cview%d", d->id);
	d->view_mp = rte_pktmbuf_pool_create(name, n, 0, 0, 0, (int)rte_socket_id());
	if (d->op_mp == NULL || d->view_mp == NULL) {
		*why = "no memory for its crypto ops";
		return -ENOMEM;
	}
	d->ops.in_place = d->hw;
	return 0;
}

static rte_iova_t
iova_of(const struct cdev_dev *d, const void *p)
{
	return d->hw ? rte_mem_virt2iova(p) : (rte_iova_t)(uintptr_t)p;
}

/* Message m as op o over view v: 0, or -errno (not enqueued). */
static int
op_fill(struct cdev_ctx *c, const struct dfcp_aead_msg *m, struct rte_crypto_op *o,
		struct rte_mbuf *v, struct rte_mbuf_ext_shared_info *sh)
{
	struct rte_crypto_sym_op *s = o->sym;
	rte_iova_t io = iova_of(c->d, m->buf), tio = iova_of(c->d, m->tag);

	if (m->aad_len > CDEV_AAD_MAX || m->len > UINT16_MAX)
		return -EINVAL;
	if (io == RTE_BAD_IOVA || tio == RTE_BAD_IOVA)
		return -EFAULT;	/* outside DPDK memory: the device cannot reach it */
	if (m->src != NULL)
		memcpy(m->buf, m->src, m->len);
	sh->free_cb = view_free;
	sh->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(sh, 1);
	rte_pktmbuf_attach_extbuf(v, m->buf, io, (uint16_t)m->len, sh);
	v->data_len = (uint16_t)m->len;
	v->pkt_len = m->len;
	rte_crypto_op_attach_sym_session(o, c->sess);
	s->m_src = v;
	s->m_dst = NULL;
	s->aead.data.offset = 0;
	s->aead.data.length = m->len;
	s->aead.digest.data = m->tag;
	s->aead.digest.phys_addr = tio;
	memcpy(rte_crypto_op_ctod_offset(o, uint8_t *, CDEV_IV_OFF), m->nonce, 12);	/* the 12-byte nonce */
	memcpy(rte_crypto_op_ctod_offset(o, uint8_t *, CDEV_AAD_OFF), m->aad, m->aad_len);
	s->aead.aad.data = rte_crypto_op_ctod_offset(o, uint8_t *, CDEV_AAD_OFF);
	s->aead.aad.phys_addr = rte_crypto_op_ctophys_offset(o, CDEV_AAD_OFF);
	return 0;
}

/* Enqueued, then dequeued to the last or until the wait ends: how many came back. */
static uint32_t
op_roundtrip(struct cdev_dev *d, uint16_t qp, struct rte_crypto_op **op, uint32_t k,
		struct rte_crypto_op **done)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * OP_WAIT_MS;
	uint32_t sent = 0, got = 0;

	while (got < k && rte_get_timer_cycles() < end) {
		if (sent < k)
			sent += rte_cryptodev_enqueue_burst((uint8_t)d->id, qp, op + sent,
					(uint16_t)(k - sent));
		got += rte_cryptodev_dequeue_burst((uint8_t)d->id, qp, done + got,
				(uint16_t)(sent - got));
	}
	if (got < k) {
		ENG_LOG(ERR, task, "dfcp: cryptodev %s kept %u of %u ops past %u ms: given up",
				d->name, k - got, k, OP_WAIT_MS);
		d->dead = 1;	/* its ops and views may still be written: never reused */
	}
	return got;
}

void
cdev_op_run(struct cdev_ctx *c, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	struct cdev_dev *d = c->d;
	struct rte_crypto_op *op[CDEV_BURST], *run[CDEV_BURST], *done[CDEV_BURST];
	struct rte_mbuf_ext_shared_info sh[CDEV_BURST];
	struct rte_mbuf *v[CDEV_BURST];
	int lc = rte_lcore_index(-1);
	uint32_t k = 0, got, i, j;
	int32_t who[CDEV_BURST];

	for (i = 0; i < n; i++)
		st[i] = -EIO;
	if (d->dead || lc < 0 || lc >= d->nb_qp || n > CDEV_BURST)
		return;
	if (rte_crypto_op_bulk_alloc(d->op_mp, RTE_CRYPTO_OP_TYPE_SYMMETRIC, op, n) != n)
		return;
	if (rte_pktmbuf_alloc_bulk(d->view_mp, v, n) != 0) {
		rte_mempool_put_bulk(d->op_mp, (void **)op, n);
		return;
	}
	for (i = 0; i < n; i++) {
		int rc = op_fill(c, &m[i], op[i], v[i], &sh[i]);

		if (rc < 0) {
			st[i] = rc;
			continue;
		}
		who[k] = (int32_t)i;
		run[k++] = op[i];
	}
	got = op_roundtrip(d, (uint16_t)lc, run, k, done);
	for (i = 0; i < got; i++) {
		for (j = 0; j < k && run[j] != done[i]; j++)
			;
		if (j == k)
			continue;	/* not ours: cannot happen on our own queue pair */
		st[who[j]] = done[i]->status == RTE_CRYPTO_OP_STATUS_SUCCESS ? 0 :
			done[i]->status == RTE_CRYPTO_OP_STATUS_AUTH_FAILED ? -DFCP_E_AUTH : -EIO;
	}
	if (d->dead)
		return;	/* the device may still hold some: nothing goes back */
	rte_pktmbuf_free_bulk(v, n);
	rte_mempool_put_bulk(d->op_mp, (void **)op, n);
}
