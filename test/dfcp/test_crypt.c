/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP encryption (crypto = aes-128-gcm | chacha20-poly1305), on a virtual
 * clock: the primitives against published vectors (RFC 7748 X25519, RFC
 * 5869 HKDF, the GCM specification's test case 4, RFC 8439 §2.8.2), then
 * whole transfers: every DATA frame sealed (no source symbol readable on
 * the wire), each byte of a sealed frame from the IPv4 header on changed
 * and refused, replayed frames harmless, fresh keys per connection, the
 * forged or duplicated copies of a source symbol in the burst that opens it
 * into its block, a connection ending its data at the nonce's 2^32 - 1
 * blocks; and the refusals: a suite required but not offered (downgrade), offered but
 * not configured, another suite, a wrong pre-shared key, a SYN whose
 * public key an on-path attacker replaced.
 */
#include "sechelp.h"
#include "dfcp_crypt.h"
#include "dfcp_priv.h"
#include <openssl/evp.h>

static void
unhex(const char *h, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int b;

		REQUIRE(sscanf(h + 2 * i, "%2x", &b) == 1);
		out[i] = (uint8_t)b;
	}
}

static int
eq_hex(const uint8_t *p, const char *h)
{
	uint8_t x[256];
	size_t n = strlen(h) / 2;

	REQUIRE(n <= sizeof(x));
	unhex(h, x, n);
	return memcmp(p, x, n) == 0;
}

static void
test_x25519_hkdf(void)
{
	uint8_t a[32], b[32], pa[32], pb[32], s1[32], s2[32], lo[32] = { 0 }, okm[42];
	uint8_t ikm[22], salt[13], info[10];

	/* RFC 7748 §6.1 */
	unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a", a, 32);
	unhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb", b, 32);
	CHECK(dfcp_kx_public(a, pa) == 0 && dfcp_kx_public(b, pb) == 0);
	CHECK(eq_hex(pa, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"));
	CHECK(eq_hex(pb, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"));
	CHECK(dfcp_kx_shared(a, pb, s1) == 0 && dfcp_kx_shared(b, pa, s2) == 0);
	CHECK(eq_hex(s1, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"));
	CHECK(memcmp(s1, s2, 32) == 0);
	/* a low-order public key (all zero) gives the zero secret: refused */
	CHECK(dfcp_kx_shared(a, lo, s1) == -EINVAL);
	/* fresh pairs differ */
	CHECK(dfcp_kx_keypair(a, pa) == 0 && dfcp_kx_keypair(b, pb) == 0 && memcmp(pa, pb, 32) != 0);
	/* pinned keys: both ends make the same key, a third key another, low order refused */
	{
		uint8_t c[32], pc[32], k1[32], k2[32], k3[32];

		CHECK(dfcp_kx_keypair(c, pc) == 0);
		CHECK(dfcp_pin_psk(a, pb, k1) == 0 && dfcp_pin_psk(b, pa, k2) == 0 &&
				memcmp(k1, k2, 32) == 0);
		CHECK(dfcp_pin_psk(a, pc, k3) == 0 && memcmp(k1, k3, 32) != 0);
		CHECK(dfcp_pin_psk(c, pb, k3) == 0 && memcmp(k1, k3, 32) != 0);
		CHECK(dfcp_kx_shared(a, pb, s1) == 0 && memcmp(k1, s1, 32) != 0); /* not the bare secret */
		CHECK(dfcp_pin_psk(a, lo, k3) == -EINVAL);
	}

	/* RFC 5869 A.1 */
	memset(ikm, 0x0b, sizeof(ikm));
	unhex("000102030405060708090a0b0c", salt, sizeof(salt));
	unhex("f0f1f2f3f4f5f6f7f8f9", info, sizeof(info));
	CHECK(dfcp_hkdf_sha256(salt, sizeof(salt), ikm, sizeof(ikm), info, sizeof(info), okm,
			sizeof(okm)) == 0);
	CHECK(eq_hex(okm, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
			"34007208d5b887185865"));
}

/* One AEAD vector: seal gives ct and tag; open gives the plaintext back; a flipped
 * tag, ciphertext or AAD byte is refused. */
static void
aead_vector(unsigned int suite, const char *key, const char *iv, const char *aad,
		const char *pt, const char *ct, const char *tag)
{
	uint8_t k[32], n[12], ad[64], buf[256], t[16], p[256];
	size_t al = strlen(aad) / 2, pl = strlen(pt) / 2;
	struct dfcp_aead s, o;

	unhex(key, k, strlen(key) / 2);
	unhex(iv, n, 12);
	unhex(aad, ad, al);
	unhex(pt, p, pl);
	memcpy(buf, p, pl);
	REQUIRE(dfcp_aead_init(&s, suite, k, n, 1) == 0 && dfcp_aead_init(&o, suite, k, n, 0) == 0);
	CHECK(dfcp_aead_seal(&s, 0, ad, al, buf, pl, t) == 0);
	CHECKF(eq_hex(buf, ct) && eq_hex(t, tag), "%s: ciphertext or tag", dfcp_crypto_name(suite));
	CHECK(dfcp_aead_open(&o, 0, ad, al, buf, pl, t) == 0 && memcmp(buf, p, pl) == 0);
	for (int what = 0; what < 3; what++) {
		uint8_t *x = what == 0 ? t : what == 1 ? buf : ad;

		CHECK(dfcp_aead_seal(&s, 0, ad, al, buf, pl, t) == 0);
		x[what == 0 ? 15 : 1] ^= 0x40;
		CHECKF(dfcp_aead_open(&o, 0, ad, al, buf, pl, t) == -DFCP_E_AUTH, "%s: flip %d",
				dfcp_crypto_name(suite), what);
		unhex(aad, ad, al);
		memcpy(buf, p, pl);
	}
	/* another counter is another nonce */
	CHECK(dfcp_aead_seal(&s, 1, ad, al, buf, pl, t) == 0 && !eq_hex(buf, ct));
	dfcp_aead_fini(&s);
	dfcp_aead_fini(&o);
}

static void
test_aead(void)
{
	/* The Galois/Counter Mode specification (McGrew, Viega), test case 4 */
	aead_vector(DFCP_CRYPTO_AES128GCM, "feffe9928665731c6d6a8f9467308308",
			"cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
			"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
			"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
			"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
			"5bc94fbc3221a5db94fae95ae7121a47");
	/* RFC 8439 §2.8.2 */
	aead_vector(DFCP_CRYPTO_CHACHA20,
			"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
			"070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
			"4c616469657320616e642047656e746c656d656e206f662074686520636c6173"
			"73206f66202739393a204966204920636f756c64206f6666657220796f75206f"
			"6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73"
			"637265656e20776f756c642062652069742e",
			"d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
			"3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
			"92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
			"3ff4def08e4b7a9de576d26586cec64b6116",
			"1ae10b594f09e26a7e902ecbd0600691");
	CHECK(dfcp_crypto_parse("aes-128-gcm") == DFCP_CRYPTO_AES128GCM);
	CHECK(dfcp_crypto_parse("chacha20-poly1305") == DFCP_CRYPTO_CHACHA20);
	CHECK(dfcp_crypto_parse("off") == DFCP_CRYPTO_OFF && dfcp_crypto_parse("rot13") == -EINVAL);
}

/* ---- transfers ---- */

static struct {
	uint64_t data, sealed, plain, tampered, refused, replayed;
	uint8_t first[VN_FRAME];	/* the first source symbol of block 3 as sent */
	uint16_t first_len;
} w;

/* A frame straight to b's endpoint; one it holds (rx_defer) is flushed at once. */
static int
rx_b(struct sec_run *r, const uint8_t *g, uint16_t len)
{
	int rc = dfcp_ep_rx(r->eb, g, len, r->v.now);

	if (rc == 0 && dfcp_ep_rx_held(r->eb) != 0)
		rc = dfcp_ep_rx_flush(r->eb, r->v.now) != 0 ? -DFCP_E_AUTH : 0;
	return rc;
}

/* DATA a -> b: sealed? a source symbol readable? Then, once, every byte changed. */
static int
watch(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;
	uint8_t g[VN_FRAME], plain[VN_FRAME];
	uint64_t off;

	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA || dfcp_parse(f, len, 0, &p) != 0)
		return 0;
	w.data++;
	w.sealed += (p.flags & DFCP_F_CRYPT) && p.atag != NULL;
	if (p.u.data.esi < 16 && p.u.data.block < 100) {
		off = (uint64_t)p.u.data.block * 16 * 64 + (uint64_t)p.u.data.esi * 64;
		net_pattern_fill(77, off, plain, 64);
		w.plain += memcmp(plain, p.u.data.sym, 64) == 0;
		if (p.u.data.block == 3 && p.u.data.esi == 0 && w.first_len == 0) {
			memcpy(w.first, p.u.data.sym, 64);
			w.first_len = 64;
		}
	}
	if (r->step == 0 && r->sink.bytes > r->bytes / 3) {
		r->step = 1;
		for (uint16_t i = DFCP_ETH_LEN; i < len; i++) {
			memcpy(g, f, len);
			g[i] ^= 0x01;
			w.tampered++;
			w.refused += rx_b(r, g, len) < 0;
		}
	}
	/* a replay of every 50th frame, later: harmless */
	if (w.data % 50 == 0 && r->step == 1) {
		memcpy(g, f, len);
		(void)rx_b(r, g, len);
		w.replayed++;
	}
	return 0;
}

static void
crypted(struct sec_run *r, unsigned int sender, unsigned int listener)
{
	sec_init(r, 100 * 16 * 64);
	memcpy(r->cc.auth_key, sec_key, 32);
	r->cc.auth_key_len = 32;
	memcpy(r->ec.auth_key, sec_key, 32);
	r->ec.auth_key_len = 32;
	r->cc.crypto = (uint8_t)sender;
	r->ec.crypto = (uint8_t)listener;
}

/*
 * A verified transfer with 2 % loss under every attack of watch(); defer:
 * the listener holds sealed DATA and opens it in bursts (rx_defer), its
 * frames a burst at a time (no serialization delay a -> b).
 */
/* EVP, its messages counted by direction (0: opens): those from a src (out of place), all. */
static uint64_t n_oop[2], n_msgs[2];

static void
count_seal(void *ctx, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	int enc = EVP_CIPHER_CTX_is_encrypting(ctx);

	for (uint32_t i = 0; i < n; i++)
		n_oop[enc] += m[i].src != NULL;
	n_msgs[enc] += n;
	dfcp_aead_evp_ops.seal_burst(ctx, m, n, st);
}

static struct dfcp_aead_ops count_ops;

static void
test_transfer_ops(unsigned int suite, int csum_full, int defer, uint8_t *first_out,
		const struct dfcp_aead_ops *ops);

/*
 * Out of place (sealed from the encoder, opened into the block) where the
 * ops allow it, in the frame where they say in_place (a device that only
 * reaches DPDK memory).
 */
static void
test_in_place(void)
{
	for (int ip = 0; ip < 2; ip++) {
		count_ops = dfcp_aead_evp_ops;
		count_ops.seal_burst = count_seal;
		count_ops.in_place = ip;
		memset(n_oop, 0, sizeof(n_oop));
		memset(n_msgs, 0, sizeof(n_msgs));
		test_transfer_ops(DFCP_CRYPTO_AES128GCM, 0, 1, NULL, &count_ops);
		/* seals: every source symbol (100 blocks of 16), none twice; opens:
		 * a block's source symbols after the burst that brought its first */
		CHECKF(n_msgs[1] > 1600 && n_msgs[0] > 1600 && (ip ? n_oop[0] + n_oop[1] == 0 :
				n_oop[1] == 100 * 16 && n_oop[0] > 100),
				"in_place %d: %llu of %llu seals and %llu of %llu opens out of place",
				ip, (unsigned long long)n_oop[1], (unsigned long long)n_msgs[1],
				(unsigned long long)n_oop[0], (unsigned long long)n_msgs[0]);
	}
}

static void
test_transfer(unsigned int suite, int csum_full, int defer, uint8_t *first_out)
{
	test_transfer_ops(suite, csum_full, defer, first_out, NULL);
}

static void
test_transfer_ops(unsigned int suite, int csum_full, int defer, uint8_t *first_out,
		const struct dfcp_aead_ops *ops)
{
	struct dfcp_ep_stats sb;
	struct dfcp_stats bs;
	struct sec_run r;
	struct dfcp_conn *b;

	memset(&w, 0, sizeof(w));
	crypted(&r, suite, suite);
	if (csum_full)
		r.cc.csum = r.ec.csum = DFCP_CSUM_FULL;
	r.cc.aead_ops = r.ec.accept_conf.aead_ops = ops;
	r.ec.rx_defer = defer;
	r.attack = watch;
	sec_start(&r, 21);
	r.v.dir[0].loss_ppm = 20000;	/* 2 % */
	if (defer)
		r.v.dir[0].pkt_ns = 0;
	sec_run_until(&r, 60000 * MS);
	CHECKF(sec_verified(&r), "%s: transfer", dfcp_crypto_name(suite));
	CHECKF(w.data > 1600 && w.sealed == w.data && w.plain == 0,
			"%s: %llu DATA, %llu sealed, %llu with a readable source symbol",
			dfcp_crypto_name(suite), (unsigned long long)w.data,
			(unsigned long long)w.sealed, (unsigned long long)w.plain);
	CHECKF(w.tampered > 100 && w.refused == w.tampered, "%s: %llu of %llu changed frames taken",
			dfcp_crypto_name(suite), (unsigned long long)(w.tampered - w.refused),
			(unsigned long long)w.tampered);
	CHECK(w.replayed > 10);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	dfcp_ep_stats(r.eb, &sb);
	/* with software UDP checksums a changed byte is a checksum drop first */
	CHECKF((csum_full || sb.drops[DFCP_E_AUTH] > 50) && bs.completed, "%s: auth drops %llu",
			dfcp_crypto_name(suite), (unsigned long long)sb.drops[DFCP_E_AUTH]);
	/* held frames were opened in bursts of more than one, none outlived its frame */
	CHECKF(defer ? sb.rx_held > 1000 && sb.rx_held > 2 * sb.rx_held_bursts &&
			dfcp_ep_rx_held(r.eb) == 0 : sb.rx_held == 0,
			"%s defer %d: %llu held in %llu bursts", dfcp_crypto_name(suite), defer,
			(unsigned long long)sb.rx_held, (unsigned long long)sb.rx_held_bursts);
	if (first_out != NULL)
		memcpy(first_out, w.first, 64);
	sec_fini(&r);
}

/*
 * Source symbols the receiver opens straight into their block: a forged
 * copy (one payload byte changed) in the same held burst, before or after
 * the genuine frame, and the genuine frame twice. The first frame aiming at
 * a place has it; the forgery is refused and must not overwrite what the
 * genuine one put there (the block CRC off, so nothing else would notice).
 */
static struct {
	uint64_t forged, before, after, twice;
} bf;

static void
push_at(struct sec_run *r, const uint8_t *f, uint16_t len)
{
	struct vn_pkt *p = malloc(sizeof(*p));

	REQUIRE(p != NULL);
	p->t = r->v.now + r->v.dir[0].delay_ns;
	p->seq = r->v.seq++;
	p->to = 1;
	p->len = len;
	memcpy(p->data, f, len);
	vn_push(&r->v, p);
}

static int
burst_forge(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;
	uint8_t g[VN_FRAME];

	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA || dfcp_parse(f, len, 0, &p) != 0 ||
			p.u.data.esi >= 16 || p.u.data.block % 3 == 2)
		return 0;
	memcpy(g, f, len);
	g[(size_t)(p.u.data.sym - f) + p.u.data.esi * 3] ^= 0x40;
	switch (bf.forged++ % 3) {
	case 0:
		push_at(r, g, len);
		push_at(r, f, len);
		bf.before++;
		break;
	case 1:
		push_at(r, f, len);
		push_at(r, g, len);
		bf.after++;
		break;
	default:
		push_at(r, f, len);
		push_at(r, f, len);
		bf.twice++;
	}
	return 1;	/* the original is one of the pushed */
}

static void
test_burst_forgery(unsigned int suite)
{
	struct dfcp_ep_stats sb;
	struct sec_run r;

	memset(&bf, 0, sizeof(bf));
	crypted(&r, suite, suite);
	r.cc.integrity = 0;
	r.ec.accept_conf.integrity = 0;
	r.ec.rx_defer = 1;
	r.attack = burst_forge;
	sec_start(&r, 23);
	r.v.dir[0].pkt_ns = 0;
	sec_run_until(&r, 60000 * MS);
	dfcp_ep_stats(r.eb, &sb);
	CHECKF(sec_verified(&r), "%s: transfer with forgeries in its bursts",
			dfcp_crypto_name(suite));
	CHECKF(bf.before > 300 && bf.after > 300 && bf.twice > 300 &&
			sb.drops[DFCP_E_AUTH] >= bf.before + bf.after, "%s: %llu / %llu / %llu "
			"forged before / after / twice, %llu refused", dfcp_crypto_name(suite),
			(unsigned long long)bf.before, (unsigned long long)bf.after,
			(unsigned long long)bf.twice, (unsigned long long)sb.drops[DFCP_E_AUTH]);
	sec_fini(&r);
}

/*
 * The nonce's block half: a connection whose block numbers reach 2^32 - 1
 * ends its data there (the source treated as ended; the next block would
 * repeat nonces under its key). Both ends moved to 4 blocks before it while
 * the sender is held after the handshake.
 */
static struct {
	uint64_t data, below, over;
} nl;

static int
nonce_watch(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;

	(void)r;
	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA || dfcp_parse(f, len, 0, &p) != 0)
		return 0;
	nl.data++;
	nl.below += p.u.data.block < UINT32_MAX - 4;
	nl.over += p.u.data.block == UINT32_MAX;
	return 0;
}

static void
test_nonce_limit(void)
{
	struct dfcp_conn *b;
	struct dfcp_stats ss;
	struct sec_run r;

	memset(&nl, 0, sizeof(nl));
	crypted(&r, DFCP_CRYPTO_AES128GCM, DFCP_CRYPTO_AES128GCM);
	r.attack = nonce_watch;
	sec_start(&r, 25);
	dfcp_conn_hold(r.a, 1);
	sec_run_until(&r, 100 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL && dfcp_conn_state(r.a) == DFCP_ESTABLISHED && nl.data == 0);
	r.a->snd_base = r.a->snd_next = UINT32_MAX - 4;
	b->rcv_cum = UINT32_MAX - 4;
	dfcp_conn_hold(r.a, 0);
	sec_run_until(&r, 10000 * MS);
	dfcp_conn_stats(r.a, &ss);
	CHECKF(nl.data >= 4 * 16 && nl.below == 0 && nl.over == 0, "%llu DATA, %llu below the "
			"start, %llu of block 2^32 - 1", (unsigned long long)nl.data,
			(unsigned long long)nl.below, (unsigned long long)nl.over);
	CHECKF(r.sink.bytes == 4 * 16 * 64 && r.sink.bad_bytes == 0 &&
			ss.goodput_bytes == 4 * 16 * 64, "the 4 blocks before the limit: %llu bytes "
			"delivered, %llu acked", (unsigned long long)r.sink.bytes,
			(unsigned long long)ss.goodput_bytes);
	sec_fini(&r);
}

/* Without encryption the same watcher reads the source symbols (the check can fail). */
static void
test_plain_visible(void)
{
	struct sec_run r;

	memset(&w, 0, sizeof(w));
	crypted(&r, DFCP_CRYPTO_OFF, DFCP_CRYPTO_OFF);
	r.attack = watch;
	sec_start(&r, 22);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	CHECKF(w.plain > 1000 && w.sealed == 0, "plain: %llu readable", (unsigned long long)w.plain);
	sec_fini(&r);
}

/* On-path: the SYN's public key replaced (the tag kept) */
static int
swap_key(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	uint8_t g[VN_FRAME];

	if (dir != 0 || sec_type(f, len) != DFCP_T_SYN)
		return 0;
	memcpy(g, f, len);
	g[DFCP_L2L4_LEN + DFCP_COMMON_LEN + 24 + 4 + 7] ^= 0x20;
	r->rc[r->nrc < 31 ? r->nrc++ : 31] = rx_b(r, g, len);
	return 1;
}

static void
test_refused(void)
{
	static const struct {
		unsigned int sender, listener;
		int wrong_key, swap;
		enum dfcp_close_reason why;
		int drop;
	} cases[] = {
		/* downgrade: the listener requires a suite the SYN does not offer */
		{ DFCP_CRYPTO_OFF, DFCP_CRYPTO_AES128GCM, 0, 0, DFCP_CR_REFUSED, DFCP_E_CRYPTO },
		{ DFCP_CRYPTO_AES128GCM, DFCP_CRYPTO_OFF, 0, 0, DFCP_CR_REFUSED, DFCP_E_CRYPTO },
		{ DFCP_CRYPTO_CHACHA20, DFCP_CRYPTO_AES128GCM, 0, 0, DFCP_CR_REFUSED, DFCP_E_CRYPTO },
		{ DFCP_CRYPTO_AES128GCM, DFCP_CRYPTO_AES128GCM, 1, 0, DFCP_CR_SYN_TIMEOUT, DFCP_E_AUTH },
		{ DFCP_CRYPTO_AES128GCM, DFCP_CRYPTO_AES128GCM, 0, 1, DFCP_CR_SYN_TIMEOUT, DFCP_E_AUTH },
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct dfcp_ep_stats sb;
		struct dfcp_stats ss;
		struct sec_run r;

		crypted(&r, cases[k].sender, cases[k].listener);
		if (cases[k].wrong_key)
			r.ec.auth_key[3] ^= 1;
		if (cases[k].swap)
			r.attack = swap_key;
		sec_start(&r, 30 + k);
		sec_run_until(&r, 10000 * MS);
		dfcp_conn_stats(r.a, &ss);
		dfcp_ep_stats(r.eb, &sb);
		CHECKF(ss.close_reason == cases[k].why && !ss.completed && sb.conns == 0 &&
				r.sink.bytes == 0, "case %u: %s", k,
				dfcp_close_reason_str(ss.close_reason));
		CHECKF(sb.drops[cases[k].drop] >= 1, "case %u: %s drops %llu", k,
				dfcp_err_str(cases[k].drop),
				(unsigned long long)sb.drops[cases[k].drop]);
		sec_fini(&r);
	}
	/* the configuration: a suite without a key, an unknown suite */
	{
		struct dfcp_ep_conf ec;

		dfcp_ep_conf_default(&ec);
		ec.local = SB;
		ec.crypto = DFCP_CRYPTO_AES128GCM;
		CHECK(dfcp_ep_create(&ec) == NULL);
		ec.auth_key_len = 16;
		ec.crypto = DFCP_CRYPTO_MAX;
		CHECK(dfcp_ep_create(&ec) == NULL);
	}
}

int
main(void)
{
	uint8_t c1[64], c2[64];

	test_x25519_hkdf();
	test_aead();
	test_transfer(DFCP_CRYPTO_AES128GCM, 0, 0, c1);
	test_transfer(DFCP_CRYPTO_AES128GCM, 1, 0, c2);
	/* the same symbol under two connections' keys: fresh keys each time */
	CHECK(memcmp(c1, c2, 64) != 0);
	test_transfer(DFCP_CRYPTO_CHACHA20, 0, 0, NULL);
	test_transfer(DFCP_CRYPTO_AES128GCM, 0, 1, NULL);
	test_transfer(DFCP_CRYPTO_CHACHA20, 0, 1, NULL);
	test_burst_forgery(DFCP_CRYPTO_AES128GCM);
	test_nonce_limit();
	test_in_place();
	test_plain_visible();
	test_refused();
	return test_report("dfcp-crypt");
}
