/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection's encryption session (conf.crypto): the initiator's
 * ephemeral key in its SYN, the keys derived on the SYNACK (initiator) or
 * on the SYN (responder, kept with the half-open entry), then which key
 * tags, seals and checks each message. SYN, SYNACK and RST stay tagged
 * with the pre-shared key (they come before or without a session); every
 * other message of a session is tagged (SipHash) or sealed (DATA, AEAD)
 * with the session's keys of its direction.
 */
#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>

#include "dfcp.h"
#include "dfcp_crypt.h"
#include "dfcp_priv.h"

static int
hs_type(uint8_t type)
{
	return type == DFCP_T_SYN || type == DFCP_T_SYNACK || type == DFCP_T_RST;
}

int
dfcp_sess_connect(struct dfcp_conn *c)
{
	if (c->conf.crypto == DFCP_CRYPTO_OFF)
		return 0;
	if (!c->has_auth || c->conf.crypto >= DFCP_CRYPTO_MAX)
		return -EINVAL;
	c->p.suite = c->conf.crypto;
	return dfcp_kx_keypair(c->kx_priv, c->p.kx_pub);
}

int
dfcp_sess_install(struct dfcp_conn *c, const struct dfcp_keyset *k, int initiator)
{
	int tx = initiator ? 0 : 1, rx = 1 - tx;

	if (dfcp_aead_init_ops(&c->tx_aead, c->conf.aead_ops, k->suite, k->dir[tx].key,
			k->dir[tx].iv, 1) < 0 ||
			dfcp_aead_init_ops(&c->rx_aead, c->conf.aead_ops, k->suite, k->dir[rx].key,
			k->dir[rx].iv, 0) < 0) {
		dfcp_sess_free(c);
		return -ENOMEM;
	}
	dfcp_auth_init(&c->tx_mac, k->dir[tx].mac, 16);
	dfcp_auth_init(&c->rx_mac, k->dir[rx].mac, 16);
	c->sess = 1;
	return 0;
}

/* The initiator on the SYNACK: the same suite, or the connection is refused. */
int
dfcp_sess_synack(struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	const struct dfcp_params *p = &pkt->u.params;
	struct dfcp_keyset k;
	uint8_t shared[DFCP_KX_KEY];
	int rc;

	if (p->suite != c->conf.crypto)
		return -DFCP_E_CRYPTO;
	if (c->conf.crypto == DFCP_CRYPTO_OFF)
		return 0;
	rc = dfcp_kx_shared(c->kx_priv, p->kx_pub, shared);
	if (rc == 0)
		rc = dfcp_kx_derive(p->suite, c->conf.auth_key, c->conf.auth_key_len, shared,
				c->p.kx_pub, p->kx_pub, c->lcid, pkt->src_cid, &k);
	OPENSSL_cleanse(shared, sizeof(shared));
	OPENSSL_cleanse(c->kx_priv, sizeof(c->kx_priv));
	if (rc == 0)
		rc = dfcp_sess_install(c, &k, 1);
	OPENSSL_cleanse(&k, sizeof(k));
	return rc < 0 ? -DFCP_E_CRYPTO : 0;
}

/*
 * The responder on the SYN: suite required (0: none), its own key pair,
 * the keys of both directions into *k and its public key into p.
 */
int
dfcp_sess_respond(unsigned int suite, const uint8_t *psk, size_t psk_len,
		const struct dfcp_pkt *syn, uint32_t lcid, struct dfcp_params *p,
		struct dfcp_keyset *k)
{
	uint8_t priv[DFCP_KX_KEY], shared[DFCP_KX_KEY];
	int rc;

	if (syn->u.params.suite != suite)
		return -DFCP_E_CRYPTO;
	p->suite = (uint8_t)suite;
	if (suite == DFCP_CRYPTO_OFF)
		return 0;
	rc = dfcp_kx_keypair(priv, p->kx_pub);
	if (rc == 0)
		rc = dfcp_kx_shared(priv, syn->u.params.kx_pub, shared);
	if (rc == 0)
		rc = dfcp_kx_derive(suite, psk, psk_len, shared, syn->u.params.kx_pub, p->kx_pub,
				syn->src_cid, lcid, k);
	OPENSSL_cleanse(priv, sizeof(priv));
	OPENSSL_cleanse(shared, sizeof(shared));
	return rc < 0 ? -DFCP_E_CRYPTO : 0;
}

/*
 * A half-open entry's proof of the initiator (its ACK, FIN or first DATA)
 * checked with the derived keys; a DATA is opened here once (pkt->opened).
 */
int
dfcp_sess_half_check(const struct dfcp_keyset *k, const struct dfcp_auth *psk,
		struct dfcp_pkt *pkt)
{
	struct dfcp_aead a;
	struct dfcp_auth mac;
	int rc;

	if (hs_type(pkt->type))
		return dfcp_auth_check(psk, pkt);
	if (pkt->type != DFCP_T_DATA) {
		dfcp_auth_init(&mac, k->dir[0].mac, 16);
		return dfcp_auth_check(&mac, pkt);
	}
	if (dfcp_aead_init(&a, k->suite, k->dir[0].key, k->dir[0].iv, 0) < 0)
		return -DFCP_E_AUTH;
	rc = dfcp_data_open(&a, pkt);
	dfcp_aead_fini(&a);
	pkt->opened = rc == 0 ? DFCP_OPEN_OK : DFCP_OPEN_REFUSED;
	return rc;
}

const struct dfcp_auth *
dfcp_sess_mac(const struct dfcp_conn *c, uint8_t type)
{
	if (c->sess && !hs_type(type))
		return &c->tx_mac;
	return c->has_auth ? &c->auth : NULL;
}

/* What a connection with conf.crypto accepts: each message under its key. */
int
dfcp_sess_check(const struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	if (hs_type(pkt->type))
		return dfcp_auth_check(&c->auth, pkt);
	if (!c->sess)
		return -DFCP_E_AUTH;
	if (pkt->type == DFCP_T_DATA)
		return pkt->opened == DFCP_OPEN_OK ? 0 : pkt->opened == DFCP_OPEN_REFUSED ?
			-DFCP_E_AUTH : dfcp_data_open(&c->rx_aead, pkt);
	return dfcp_auth_check(&c->rx_mac, pkt);
}

/*
 * A DATA the endpoint may hold for a burst open (dfcp_ep_rx_flush): sealed,
 * not opened yet, for c's session and from its peer (the rest of the
 * connection's checks come when it is handled, after the open).
 */
int
dfcp_sess_defer_ok(const struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	return c->sess && pkt->type == DFCP_T_DATA && (pkt->flags & DFCP_F_CRYPT) &&
		pkt->opened == DFCP_OPEN_NOT && pkt->src_ip == c->remote.ip &&
		pkt->src_port == c->remote.port && pkt->dst_cid == c->lcid &&
		pkt->src_cid == c->rcid;
}

/*
 * The held DATA of c opened, each source symbol the block waits for straight
 * into its place in the block (dfcp_rx_sym_dst); a place two of them aim at
 * is the first one's, the others open in their frames.
 */
void
dfcp_sess_open_burst(struct dfcp_conn *c, struct dfcp_pkt *const *pkt, uint32_t n)
{
	uint8_t *dst[DFCP_EP_DEFER];

	if (c->rx_aead.ops == NULL || c->rx_aead.ops->in_place) {
		dfcp_data_open_burst(&c->rx_aead, pkt, NULL, n);
		return;
	}
	for (uint32_t i = 0; i < n && i < DFCP_EP_DEFER; i++) {
		dst[i] = dfcp_rx_sym_dst(c, pkt[i]);
		for (uint32_t j = 0; dst[i] != NULL && j < i; j++)
			if (dst[j] == dst[i])
				dst[i] = NULL;
	}
	dfcp_data_open_burst(&c->rx_aead, pkt, n <= DFCP_EP_DEFER ? dst : NULL, n);
}

/*
 * Seal the n DATA frames whose symbols are at out[i] (hdr bytes of header
 * before), or come from src[i] where src and src[i] are not NULL.
 */
void
dfcp_sess_seal(struct dfcp_conn *c, void *const *out, const void *const *src, uint32_t n,
		uint32_t hdr)
{
	uint8_t *f[GEN_MAX];

	for (uint32_t i = 0; i < n; i += GEN_MAX) {
		uint32_t b = n - i < GEN_MAX ? n - i : GEN_MAX;

		for (uint32_t j = 0; j < b; j++)
			f[j] = (uint8_t *)out[i + j] - hdr - DFCP_L2L4_LEN;
		dfcp_data_seal_burst(&c->tx_aead, f, src != NULL ? src + i : NULL, b, hdr, c->p.T);
	}
}

void
dfcp_sess_free(struct dfcp_conn *c)
{
	dfcp_aead_fini(&c->tx_aead);
	dfcp_aead_fini(&c->rx_aead);
	OPENSSL_cleanse(&c->tx_mac, sizeof(c->tx_mac));
	OPENSSL_cleanse(&c->rx_mac, sizeof(c->rx_mac));
	OPENSSL_cleanse(c->kx_priv, sizeof(c->kx_priv));
	c->sess = 0;
}
