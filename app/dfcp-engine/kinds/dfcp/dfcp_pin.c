/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The keys of a DFCP flow read from files at load, before EAL: the file
 * reader and auth_key's decoding, and pinned keys (identity_key, peer_key; doc/config.md): this
 * end's static X25519 private key and the peer's public key make the flow's
 * pre-shared key (dfcp_pin_psk), which then authenticates the key exchange
 * as an auth_key does. A key is raw (32 bytes), 64 hex digits, or PEM
 * (`openssl genpkey -algorithm x25519`, `openssl pkey -pubout`).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "kinds/dfcp/dfcp_task.h"

#define KEY_FILE_MAX	4096

ssize_t
eng_dfcp_key_file(const char *path, uint8_t *buf, size_t cap, const char **why)
{
	struct stat sb;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		*why = "not a regular file";
		return -1;
	}
	n = read(fd, buf, cap);
	if (n < 0)
		*why = strerror(errno);
	close(fd);
	return n;
}

/* A key of 16 or 32 bytes: the raw bytes, or 32 / 64 hex digits (one line). */
int
eng_dfcp_key_decode(const uint8_t *buf, size_t n, uint8_t *key, uint8_t *len)
{
	size_t i, h = n;

	while (h > 0 && (buf[h - 1] == '\n' || buf[h - 1] == '\r'))
		h--;
	for (i = 0; i < h && isxdigit(buf[i]); i++)
		;
	if (i == h && (h == 32 || h == 64)) {
		for (i = 0; i < h / 2; i++) {
			char b[3] = {(char)buf[2 * i], (char)buf[2 * i + 1], 0};

			key[i] = (uint8_t)strtoul(b, NULL, 16);
		}
		*len = (uint8_t)(h / 2);
		return 0;
	}
	if (n != 16 && n != 32)
		return -EINVAL;
	memcpy(key, buf, n);
	*len = (uint8_t)n;
	return 0;
}

/* An X25519 key, private (priv 1) or public, raw, hex or PEM: 0, else -1. */
static int
key_x25519(const uint8_t *s, size_t n, int priv, uint8_t out[32])
{
	EVP_PKEY *k = NULL;
	size_t len = 32;
	uint8_t klen;
	int rc = -1;
	BIO *b;

	if (eng_dfcp_key_decode(s, n, out, &klen) == 0)
		return klen == 32 ? 0 : -1;	/* raw, or 64 hex digits */
	b = BIO_new_mem_buf(s, (int)n);
	if (b != NULL)
		k = priv ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) :
			PEM_read_bio_PUBKEY(b, NULL, NULL, NULL);
	if (k != NULL && EVP_PKEY_get_id(k) == EVP_PKEY_X25519 &&
			(priv ? EVP_PKEY_get_raw_private_key(k, out, &len) :
			 EVP_PKEY_get_raw_public_key(k, out, &len)) == 1 && len == 32)
		rc = 0;
	EVP_PKEY_free(k);
	BIO_free(b);
	return rc;
}

/* A key of key: its file (peer_key also 64 hex digits in place); 0 or an error. */
static int
pin_read(struct eng_sec *sec, const char *key, int priv, uint8_t out[32])
{
	const char *v = eng_sec_get(sec, key), *why = "";
	uint8_t buf[KEY_FILE_MAX], len;
	ssize_t n;
	int rc;

	if (v == NULL)
		return eng_sec_error(sec, key, "missing: identity_key and peer_key go together");
	if (!priv && strlen(v) == 64 && eng_dfcp_key_decode((const uint8_t *)v, 64, out, &len) == 0)
		return 0;	/* 64 hex digits in place */
	n = eng_dfcp_key_file(v, buf, sizeof(buf), &why);
	if (n < 0)
		return eng_sec_error(sec, key, "%s: %s", v, why);
	rc = key_x25519(buf, (size_t)n, priv, out);
	OPENSSL_cleanse(buf, sizeof(buf));
	if (rc < 0)
		return eng_sec_error(sec, key, "%s: not an X25519 %s key (32 bytes, 64 hex digits "
				"or PEM)", v, priv ? "private" : "public");
	return 0;
}

int
eng_dfcp_pin_parse(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	uint8_t priv[32], pub[32];
	int rc;

	if (eng_sec_get(sec, "identity_key") == NULL && eng_sec_get(sec, "peer_key") == NULL)
		return 0;
	if (eng_sec_get(sec, "auth_key") != NULL)
		return eng_sec_error(sec, "identity_key", "with auth_key: the pinned keys make the "
				"pre-shared key, so give one or the other");
	rc = pin_read(sec, "identity_key", 1, priv);
	if (rc == 0)
		rc = pin_read(sec, "peer_key", 0, pub);
	if (rc == 0 && dfcp_pin_psk(priv, pub, f->auth_key) < 0)
		rc = eng_sec_error(sec, "peer_key", "a key no secret can be agreed with (a "
				"low-order point)");
	if (rc == 0)
		f->auth_key_len = 32;
	OPENSSL_cleanse(priv, sizeof(priv));
	return rc;
}
