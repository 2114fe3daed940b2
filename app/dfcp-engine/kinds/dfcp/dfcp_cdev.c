/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DATA AEAD of encrypted DFCP flows through DPDK cryptodev
 * (crypto_backend = cryptodev; doc/config.md). The device: crypto_dev, or
 * the suite's software PMD made at set-up (crypto_aesni_gcm for AES-GCM,
 * crypto_aesni_mb for ChaCha20-Poly1305; both crypto_ipsec_mb). One with
 * CPU crypto (rte_cryptodev_sym_cpu_crypto_process) is called directly,
 * in place (a message from elsewhere is copied into place first); any
 * other (crypto_openssl, a QAT or NIC accelerator) goes through its queue
 * pairs (dfcp_cdev_op.c). A connection's direction gets a session of its
 * own when its keys are installed (dfcp_aead_ops.create), made with the
 * AAD length of the first message (a DATA header's is fixed per
 * connection). The same bytes as OpenSSL's: test cdev-aead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ALLOW_EXPERIMENTAL_API /* CPU crypto and the session pool (DPDK 22.11) */
#include <rte_bus_vdev.h>
#include <rte_cryptodev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "core/log.h"
#include "kinds/dfcp/dfcp_cdev.h"
#include "kinds/dfcp/dfcp_task.h"

#define CDEV_SESSIONS	4096	/* two a connection */

/* The PMD a suite goes to without crypto_dev: its vdev name (a driver name and a number). */
static const struct {
	const char *vdev;
	enum rte_crypto_aead_algorithm algo;
} cdev_pmd[DFCP_CRYPTO_MAX] = {
	[DFCP_CRYPTO_AES128GCM] = { "crypto_aesni_gcm0", RTE_CRYPTO_AEAD_AES_GCM },
	[DFCP_CRYPTO_CHACHA20] = { "crypto_aesni_mb0", RTE_CRYPTO_AEAD_CHACHA20_POLY1305 },
};

static struct {
	struct cdev_dev dev[CDEV_DEVS];
	unsigned int n_dev;
	struct rte_mempool *sess_mp;
	uint32_t sess_size;
} cd;

static const struct dfcp_aead_ops cdev_ops;

/* The session pool, for every device: elements the largest session's size. */
static int
cdev_sess_pool(int id, const char **why)
{
	uint32_t z = rte_cryptodev_sym_get_private_session_size((uint8_t)id);

	if (cd.sess_mp == NULL) {
		/* devices made later may need more: room for a larger session */
		cd.sess_size = z < 2048 ? 2048 : z;
		cd.sess_mp = rte_cryptodev_sym_session_pool_create("dfcp_cdev_sess",
				CDEV_SESSIONS, cd.sess_size, 0, 0, (int)rte_socket_id());
	}
	if (cd.sess_mp == NULL || z > cd.sess_size) {
		*why = "no memory for its sessions";
		return -ENOMEM;
	}
	return 0;
}

/* Device d configured and started: CPU crypto, else a queue pair an lcore. */
static int
cdev_start(struct cdev_dev *d, const struct rte_cryptodev_info *info, const char **why)
{
	struct rte_cryptodev_config conf = { .socket_id = (int)rte_socket_id(),
		.nb_queue_pairs = 1 };
	struct rte_cryptodev_qp_conf qp = { .nb_descriptors = 2 * CDEV_BURST };

	d->cpu = (info->feature_flags & RTE_CRYPTODEV_FF_SYM_CPU_CRYPTO) != 0;
	d->hw = (info->feature_flags & RTE_CRYPTODEV_FF_HW_ACCELERATED) != 0;
	if (!d->cpu) {
		if (info->max_nb_queue_pairs < rte_lcore_count()) {
			*why = "fewer queue pairs than the engine has lcores (one each)";
			return -ENOSPC;
		}
		conf.nb_queue_pairs = (uint16_t)rte_lcore_count();
		if (cdev_op_setup(d, why) < 0)
			return -ENOMEM;
	}
	d->nb_qp = conf.nb_queue_pairs;
	qp.mp_session = cd.sess_mp;
	if (rte_cryptodev_configure((uint8_t)d->id, &conf) < 0) {
		*why = "it could not be configured";
		return -EIO;
	}
	for (uint16_t q = 0; q < conf.nb_queue_pairs; q++)
		if (rte_cryptodev_queue_pair_setup((uint8_t)d->id, q, &qp, conf.socket_id) < 0) {
			*why = "a queue pair could not be set up";
			return -EIO;
		}
	if (rte_cryptodev_start((uint8_t)d->id) < 0) {
		*why = "it did not start";
		return -EIO;
	}
	return 0;
}

/*
 * The device named (a vdev made here if it is none yet, e.g. crypto_openssl0),
 * set up once (or failed once), for suite: NULL and why if there is none or
 * it cannot.
 */
static struct cdev_dev *
cdev_dev(const char *name, unsigned int suite, const char **why)
{
	struct rte_cryptodev_sym_capability_idx cap = { .type = RTE_CRYPTO_SYM_XFORM_AEAD,
		.algo.aead = cdev_pmd[suite].algo };
	struct rte_cryptodev_info info;
	struct cdev_dev *d;
	int id;

	for (unsigned int i = 0; i < cd.n_dev; i++)
		if (strcmp(cd.dev[i].name, name) == 0) {
			d = &cd.dev[i];
			goto check;
		}
	if (cd.n_dev == CDEV_DEVS || strlen(name) >= sizeof(d->name)) {
		*why = "too many devices, or too long a name";
		return NULL;
	}
	id = rte_cryptodev_get_dev_id(name);
	if (id < 0 && rte_vdev_init(name, NULL) == 0)
		id = rte_cryptodev_get_dev_id(name);
	if (id < 0) {
		*why = "no such cryptodev (a vdev driver's name and a number, or a device "
			"probed with -a / --vdev); DPDK without its PMD?";
		return NULL;
	}
	d = &cd.dev[cd.n_dev];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->id = id;
	d->ops = cdev_ops;
	d->ops.arg = d;
	rte_cryptodev_info_get((uint8_t)id, &info);
	if (cdev_sess_pool(id, why) < 0 || cdev_start(d, &info, why) < 0)
		d->failed = *why;	/* kept: a later flow gets the same answer */
	cd.n_dev++;
check:
	if (d->failed != NULL) {
		*why = d->failed;
		return NULL;
	}
	if (rte_cryptodev_sym_capability_get((uint8_t)d->id, &cap) == NULL) {
		*why = "it does not do this suite";
		return NULL;
	}
	return d;
}

/* The session for AAD of aad_len bytes: made on the first message. */
static int
cdev_sess(struct cdev_ctx *c, uint32_t aad_len)
{
	struct rte_crypto_sym_xform x = { .type = RTE_CRYPTO_SYM_XFORM_AEAD };

	if (c->sess != NULL && c->aad_len == aad_len)
		return 0;
	if (c->sess != NULL)
		rte_cryptodev_sym_session_free((uint8_t)c->d->id, c->sess);
	x.aead.op = c->enc ? RTE_CRYPTO_AEAD_OP_ENCRYPT : RTE_CRYPTO_AEAD_OP_DECRYPT;
	x.aead.algo = cdev_pmd[c->suite].algo;
	x.aead.key.data = c->key;
	x.aead.key.length = (uint16_t)c->key_len;
	x.aead.iv.offset = CDEV_IV_OFF;	/* the op path's; CPU crypto: the message's */
	x.aead.iv.length = 12;
	x.aead.digest_length = DFCP_AEAD_TAG_LEN;
	x.aead.aad_length = (uint16_t)aad_len;
	c->sess = rte_cryptodev_sym_session_create((uint8_t)c->d->id, &x, cd.sess_mp);
	c->aad_len = aad_len;
	return c->sess != NULL ? 0 : -ENOMEM;
}

static void *
cdev_create(void *arg, unsigned int suite, const uint8_t *key, uint32_t key_len, int enc)
{
	struct cdev_ctx *c;

	if (arg == NULL || suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX ||
			key_len > sizeof(c->key))
		return NULL;
	c = rte_zmalloc("dfcp_cdev", sizeof(*c), 0);
	if (c == NULL)
		return NULL;
	c->d = arg;
	c->suite = (uint8_t)suite;
	c->enc = enc;
	c->key_len = key_len;
	memcpy(c->key, key, key_len);
	return c;
}

/* The session for this AAD length, else (once, with a warning) OpenSSL's context. */
static int
cdev_ready(struct cdev_ctx *c, uint32_t aad_len)
{
	static int warned;

	/* an empty pool: straight to OpenSSL (the PMD's failed get logs an error) */
	if (c->evp != NULL || ((c->sess != NULL || rte_mempool_avail_count(cd.sess_mp) > 0) &&
			cdev_sess(c, aad_len) == 0))
		return 0;
	c->evp = dfcp_aead_evp_ops.create(NULL, c->suite, c->key, c->key_len, c->enc);
	if (c->evp != NULL && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		ENG_LOG(WARNING, task, "dfcp: no cryptodev session left (%u made): a connection "
				"seals with OpenSSL", CDEV_SESSIONS);
	return c->evp != NULL ? 0 : -ENOMEM;
}

/* n <= CDEV_BURST messages of one AAD length through the PMD; st[i] 0 or -errno. */
static void
cdev_run(struct cdev_ctx *c, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	struct rte_crypto_vec v[CDEV_BURST];
	struct rte_crypto_sgl sgl[CDEV_BURST];
	struct rte_crypto_va_iova_ptr iv[CDEV_BURST], dg[CDEV_BURST], aad[CDEV_BURST];
	int32_t s[CDEV_BURST];
	struct rte_crypto_sym_vec vec = { .num = n, .src_sgl = sgl, .iv = iv, .digest = dg,
		.aad = aad, .status = s };
	union rte_crypto_sym_ofs ofs = { .raw = 0 };
	uint32_t i;

	if (cdev_ready(c, m[0].aad_len) < 0) {
		for (i = 0; i < n; i++)
			st[i] = -ENOMEM;
		return;
	}
	if (c->evp != NULL) {
		dfcp_aead_evp_ops.seal_burst(c->evp, m, n, st);	/* seals or opens, as made */
		return;
	}
	if (!c->d->cpu) {
		cdev_op_run(c, m, n, st);
		return;
	}
	for (i = 0; i < n; i++) {
		/* CPU crypto is in place only: a message from src is copied first */
		if (m[i].src != NULL)
			memcpy(m[i].buf, m[i].src, m[i].len);
		v[i] = (struct rte_crypto_vec){ .base = m[i].buf, .len = m[i].len,
			.tot_len = m[i].len };
		sgl[i] = (struct rte_crypto_sgl){ .vec = &v[i], .num = 1 };
		iv[i].va = (void *)(uintptr_t)m[i].nonce;
		dg[i].va = m[i].tag;
		aad[i].va = (void *)(uintptr_t)m[i].aad;
		s[i] = EIO;	/* the PMD writes each one's */
	}
	rte_cryptodev_sym_cpu_crypto_process((uint8_t)c->d->id, c->sess, ofs, &vec);
	for (i = 0; i < n; i++)
		st[i] = s[i] == 0 ? 0 : s[i] == EBADMSG ? -DFCP_E_AUTH : -(int)s[i];
}

static void
cdev_seal_burst(void *ctx, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	uint32_t i = 0;

	/* runs of one AAD length, at most a burst each */
	while (i < n) {
		uint32_t j = i + 1;

		while (j < n && j - i < CDEV_BURST && m[j].aad_len == m[i].aad_len)
			j++;
		cdev_run(ctx, m + i, j - i, st + i);
		i = j;
	}
}

static int
cdev_open(void *ctx, const struct dfcp_aead_msg *m)
{
	int st;

	cdev_run(ctx, m, 1, &st);
	return st == 0 ? 0 : -DFCP_E_AUTH;
}

static void
cdev_destroy(void *ctx)
{
	struct cdev_ctx *c = ctx;

	if (c->sess != NULL)
		rte_cryptodev_sym_session_free((uint8_t)c->d->id, c->sess);
	if (c->evp != NULL)
		dfcp_aead_evp_ops.destroy(c->evp);
	explicit_bzero(c->key, sizeof(c->key));
	rte_free(c);
}

static const struct dfcp_aead_ops cdev_ops = {
	.create = cdev_create,
	.seal_burst = cdev_seal_burst,
	.open = cdev_open,
	.destroy = cdev_destroy,
};

int
eng_dfcp_cdev_get(unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
		char *what, size_t len)
{
	const char *name = dev != NULL && dev[0] != '\0' ? dev : cdev_pmd[suite].vdev;
	const char *why = "";
	struct cdev_dev *d = cdev_dev(name, suite, &why);

	if (d == NULL) {
		snprintf(what, len, "%s: %s", name, why);
		return -ENODEV;
	}
	*ops = &d->ops;
	snprintf(what, len, "%s, %s", name, d->cpu ? "CPU crypto" : "enqueue/dequeue");
	return 0;
}
