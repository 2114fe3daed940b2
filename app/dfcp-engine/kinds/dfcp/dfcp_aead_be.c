/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The backends of DFCP encryption (crypto_backend; doc/config.md): where a
 * flow's DATA is sealed and opened. One line each; auto takes the first
 * that is there in its suite's order (the fastest first: doc/security.md):
 * for AES-GCM ipsec-mb (out of place, one call a message), for ChaCha20-
 * Poly1305 cryptodev (crypto_aesni_mb's job API beats the library's direct
 * ChaCha calls by a quarter), then the library's OpenSSL EVP, which is
 * always there. Said once a suite and backend.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "kinds/dfcp/dfcp_task.h"

#ifdef ENG_HAVE_IMB
#define IMB_GET eng_dfcp_imb_get
#else
#define IMB_GET NULL	/* built without libIPSec_MB */
#endif

static const struct {
	const char *name;
	int (*get)(unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
			char *what, size_t len);
} backends[ENG_CRYPTO_MAX] = {
	[ENG_CRYPTO_AUTO] = { "auto", NULL },
	[ENG_CRYPTO_IMB] = { "ipsec-mb", IMB_GET },
	[ENG_CRYPTO_CDEV] = { "cryptodev", eng_dfcp_cdev_get },
	[ENG_CRYPTO_OPENSSL] = { "openssl", NULL },
};

static const int auto_order[DFCP_CRYPTO_MAX][ENG_CRYPTO_MAX - 1] = {
	[DFCP_CRYPTO_AES128GCM] = { ENG_CRYPTO_IMB, ENG_CRYPTO_CDEV, ENG_CRYPTO_OPENSSL },
	[DFCP_CRYPTO_CHACHA20] = { ENG_CRYPTO_CDEV, ENG_CRYPTO_IMB, ENG_CRYPTO_OPENSSL },
};

const char *
eng_dfcp_backend_name(int backend)
{
	return backend >= 0 && backend < ENG_CRYPTO_MAX ? backends[backend].name : "?";
}

/* Backend b for suite: 0 and *ops, or -errno and why in what. */
static int
backend_try(int b, unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
		char *what, size_t len)
{
	if (b == ENG_CRYPTO_OPENSSL) {
		snprintf(what, len, "OpenSSL EVP");
		return 0;
	}
	if (backends[b].get == NULL) {
		snprintf(what, len, "not built in (libipsec-mb-dev was missing)");
		return -ENOTSUP;
	}
	return backends[b].get(suite, dev, ops, what, len);
}

int
eng_dfcp_aead_ops(unsigned int suite, int backend, const char *dev,
		const struct dfcp_aead_ops **ops)
{
	static int said[DFCP_CRYPTO_MAX][ENG_CRYPTO_MAX];	/* a line a suite and backend */
	char what[160], miss[360] = "";
	size_t k;
	int b, rc, i = 0;

	*ops = NULL;
	if (suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX)
		return 0;
	/* a device named: cryptodev's */
	if (dev != NULL && dev[0] != '\0' && backend == ENG_CRYPTO_AUTO)
		backend = ENG_CRYPTO_CDEV;
	if (backend <= ENG_CRYPTO_AUTO || backend >= ENG_CRYPTO_MAX) {
		/* openssl, the last, is always there */
		while (b = auto_order[suite][i++],
				backend_try(b, suite, dev, ops, what, sizeof(what)) < 0) {
			k = strlen(miss);
			snprintf(miss + k, sizeof(miss) - k, "%s%s: %s", k ? "; " : "",
					backends[b].name, what);
		}
		if (miss[0] != '\0' && !said[suite][b])
			ENG_LOG(WARNING, task, "dfcp: %s: %s; %s instead", dfcp_crypto_name(suite),
					miss, backends[b].name);
	} else {
		b = backend;
		rc = backend_try(b, suite, dev, ops, what, sizeof(what));
		if (rc < 0) {
			ENG_LOG(ERR, task, "dfcp: crypto_backend = %s for %s: %s",
					backends[b].name, dfcp_crypto_name(suite), what);
			return rc;
		}
	}
	if (!said[suite][b]++)
		ENG_LOG(INFO, task, "dfcp: %s through %s (%s)", dfcp_crypto_name(suite),
				backends[b].name, what);
	return 0;
}
