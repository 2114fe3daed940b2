/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cryptodev backend's own parts (dfcp_cdev.c: devices, sessions, CPU
 * crypto; dfcp_cdev_op.c: the enqueue/dequeue path of devices without CPU
 * crypto). Not for the rest of the kind.
 */
#ifndef ENG_DFCP_CDEV_H
#define ENG_DFCP_CDEV_H

#include <stdint.h>

#include <rte_crypto.h>

#include "dfcp.h"

#define CDEV_BURST	32
#define CDEV_DEVS	8		/* devices the flows of a run name, at most */
#define CDEV_AAD_MAX	128		/* the op path copies the AAD into its op */
/* the op path's nonce, then its AAD: in the op after its symmetric part */
#define CDEV_IV_OFF	(sizeof(struct rte_crypto_op) + sizeof(struct rte_crypto_sym_op))
#define CDEV_AAD_OFF	(CDEV_IV_OFF + 16)

/* A device the flows' AEAD goes to, set up once. */
struct cdev_dev {
	char name[64];
	int id;				/* cryptodev id; -1: none */
	int cpu;			/* CPU crypto: synchronous calls, no queue pair */
	int hw;				/* a hardware device: IOVAs, DPDK memory only */
	uint16_t nb_qp;			/* op path: a queue pair an lcore */
	int dead;			/* op path: it kept ops past the wait */
	const char *failed;		/* its set-up failed: why */
	struct rte_mempool *op_mp;	/* op path: its crypto ops */
	struct rte_mempool *view_mp;	/* op path: mbufs over the messages */
	struct dfcp_aead_ops ops;	/* arg: this device */
};

struct cdev_ctx {
	void *sess;
	void *evp;		/* no session to be had (the pool empty): OpenSSL's context */
	struct cdev_dev *d;
	uint32_t aad_len;
	uint8_t suite;
	int enc;
	uint32_t key_len;
	uint8_t key[32];
};

/* The op path: set-up of d (0 or -errno, why), and n messages through it. */
int cdev_op_setup(struct cdev_dev *d, const char **why);
void cdev_op_run(struct cdev_ctx *c, const struct dfcp_aead_msg *m, uint32_t n, int *st);

#endif /* ENG_DFCP_CDEV_H */
