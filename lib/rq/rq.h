/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rq: RaptorQ (RFC 6330) forward error correction.
 *
 * No DPDK dependency. Symbol arithmetic: our SIMD kernels (one tier chosen
 * at start-up, below) and Intel ISA-L.
 * Every function returns 0 (or a count) on success and a negative errno on
 * failure; none aborts. Instances are not shared between threads; the only
 * process-wide state is an immutable, lazily built per-K' plan cache.
 *
 * Error codes:
 *   -EINVAL   bad parameter (K out of 1..RQ_MAX_K, T == 0, NULL buffer, ...)
 *   -ERANGE   ESI out of range (>= 2^24)
 *   -EMSGSIZE a length does not fit the block (len > K*T)
 *   -EAGAIN   too few symbols to attempt a decode (fewer than K)
 *   -EDOM     the received symbols do not determine the block yet (rank
 *             deficient): add more repair symbols and call decode again
 *   -ENOSPC   decoder storage full (more symbols than it was sized for)
 *   -ENOMEM   allocation failed (only in constructors)
 */
#ifndef RQ_H
#define RQ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RQ_MAX_K	56403u		/* largest K' of RFC 6330 Table 2 */
#define RQ_MAX_ESI	((1u << 24) - 1)
#define RQ_OTI_LEN	12		/* FEC Object Transmission Information */
#define RQ_PAYLOAD_ID_LEN 4		/* FEC Payload ID: SBN 8 bits, ESI 24 */

/*
 * --- SIMD tier of the symbol kernels ---
 * Chosen once per process (the first encoder / decoder creation, or this
 * call) from the CPU's features: the best of generic, sse, avx2, avx512,
 * avx512-gfni; the environment variable RQ_ISA (one of those names)
 * overrides it. 0, or -ENOTSUP when RQ_ISA names a tier this CPU lacks and
 * -EINVAL for an unknown name: the override is refused (message on stderr
 * once, and from rq_isa_error()) and no encoder or decoder can be created.
 */
int rq_isa_init(void);
/* The tier in use ("avx2"). */
const char *rq_isa_name(void);
/* Why RQ_ISA was refused ("RQ_ISA=avx512: this CPU lacks ..."), or NULL. */
const char *rq_isa_error(void);

/* --- source-block parameters (RFC 6330 §5.6 Table 2 and §5.3.3.3) --- */
struct rq_params {
	uint32_t K;	/* source symbols in the block */
	uint32_t Kp;	/* K': extended source block size */
	uint32_t J;	/* systematic index */
	uint32_t S;	/* LDPC symbols */
	uint32_t H;	/* HDPC symbols */
	uint32_t W;	/* LT symbols */
	uint32_t L;	/* intermediate symbols = K' + S + H */
	uint32_t P;	/* permanently inactivated symbols = L - W */
	uint32_t P1;	/* smallest prime >= P */
	uint32_t B;	/* W - S */
};

/* Fill *p for a block of K source symbols. -EINVAL if K is 0 or > RQ_MAX_K. */
int rq_params_get(uint32_t K, struct rq_params *p);

/* --- encoder: create once per (K, T), reuse for every block --- */
struct rq_enc;

struct rq_enc *rq_enc_create(uint32_t K, uint16_t T);
void rq_enc_free(struct rq_enc *enc);
/*
 * Load one source block of len bytes (len <= K*T; the rest of the block is
 * zero-padded) and compute its intermediate symbols. The source bytes are
 * copied; src may be reused after the call.
 */
int rq_enc_block(struct rq_enc *enc, const void *src, size_t len);
/*
 * The same without the copy: the encoder reads the K*T bytes at src (source
 * symbol i at src + i*T) until the next rq_enc_block / rq_enc_block_ref, so
 * they must stay valid and unchanged until then. A short block (len < K*T),
 * a small one (the generator path: its aligned copy is faster to read) and
 * a large one whose symbols are not 64-byte aligned (a replay in column
 * stripes: aligned stripes are faster to read) are copied as by
 * rq_enc_block.
 */
int rq_enc_block_ref(struct rq_enc *enc, const void *src, size_t len);
/*
 * The same without a staging buffer: write source symbol i (T bytes) of the
 * next block at rq_enc_src(enc, i) for each i, then rq_enc_load(enc, len)
 * zero-pads past len bytes and loads the block. rq_enc_src unloads the
 * encoder (NULL for i >= K or no encoder); rq_enc_load is -EINVAL after no
 * rq_enc_src, -EMSGSIZE for len > K*T.
 */
void *rq_enc_src(struct rq_enc *enc, uint32_t i);
int rq_enc_load(struct rq_enc *enc, size_t len);
/*
 * Source symbol esi (< K) of the loaded block where the encoder reads it:
 * the T bytes rq_enc_symbol would write (zero-padded past the block's
 * length), valid until the next load. NULL for esi >= K or no block loaded.
 */
const void *rq_enc_source(const struct rq_enc *enc, uint32_t esi);
/* Write the T-byte encoding symbol with this ESI (source or repair) to out. */
int rq_enc_symbol(const struct rq_enc *enc, uint32_t esi, void *out);
/* Burst form: out[i] receives the symbol of esi[i]; returns n or -errno. */
int rq_enc_symbols(const struct rq_enc *enc, const uint32_t *esi,
		void *const *out, unsigned int n);

/* --- decoder: create once per (K, T), reset per block --- */
struct rq_dec;

/*
 * max_symbols bounds the symbols stored per block (0: a default of
 * K + max(K/4, 64)). Memory is allocated here only.
 */
struct rq_dec *rq_dec_create(uint32_t K, uint16_t T, uint32_t max_symbols);
void rq_dec_free(struct rq_dec *dec);
void rq_dec_reset(struct rq_dec *dec);
/*
 * Add one received symbol (T bytes, copied). Returns 1 if stored, 0 if it
 * was a duplicate ESI (ignored), or -ERANGE / -ENOSPC / -EINVAL.
 */
int rq_dec_add(struct rq_dec *dec, uint32_t esi, const void *sym);
/*
 * The same without the copy: the decoder reads the T bytes at sym until the
 * next rq_dec_reset, so they must stay valid and unchanged until then. For
 * in-place decoding, keep source symbol i at out + i*T of the buffer later
 * given to rq_dec_decode: those symbols are then not copied at all.
 */
int rq_dec_add_ref(struct rq_dec *dec, uint32_t esi, const void *sym);
/* Distinct symbols held for the current block. */
uint32_t rq_dec_count(const struct rq_dec *dec);
/* Nonzero once the block has been decoded or enough symbols are held to try. */
int rq_dec_ready(const struct rq_dec *dec);
/*
 * Recover the block into out (len <= K*T bytes are written). 0 on success,
 * -EAGAIN with fewer than K symbols, -EDOM when more symbols are needed.
 * After a success, further calls copy the recovered block again.
 */
int rq_dec_decode(struct rq_dec *dec, void *out, size_t len);

/* --- object level (RFC 6330 §4.4.1, §3.3) --- */
struct rq_oti {
	uint64_t F;	/* transfer length, bytes (40 bits) */
	uint16_t T;	/* symbol size */
	uint8_t Z;	/* source blocks */
	uint16_t N;	/* sub-blocks */
	uint8_t Al;	/* symbol alignment */
};

/* 12-byte big-endian OTI. parse returns -EINVAL for impossible values. */
void rq_oti_write(const struct rq_oti *oti, uint8_t out[RQ_OTI_LEN]);
int rq_oti_parse(const uint8_t in[RQ_OTI_LEN], struct rq_oti *oti);
/* 4-byte FEC Payload ID. */
void rq_payload_id_write(uint8_t sbn, uint32_t esi, uint8_t out[RQ_PAYLOAD_ID_LEN]);
void rq_payload_id_parse(const uint8_t in[RQ_PAYLOAD_ID_LEN], uint8_t *sbn, uint32_t *esi);

/*
 * --- object partitioning (RFC 6330 §4.3, §4.4.1.2): additions ---
 * A source block of K symbols is held in "symbol layout" (symbol i at
 * byte i*T) by the codec; on the wire and in the object it is N contiguous
 * sub-blocks. The helpers convert between the two.
 */
#define RQ_MAX_F	946270874880ull	/* largest transfer length (§4.3) */
#define RQ_OBJ_WS_DEFAULT	(16u << 20)	/* decoder working memory for rq_oti_derive */

struct rq_part {
	uint64_t IL, IS, JL, JS;	/* Partition[I, J] of §4.4.1.2 */
};
void rq_part_get(uint64_t I, uint64_t J, struct rq_part *pt);
/*
 * Fill *oti (Z, N) for an object of F bytes, symbol size T and alignment Al
 * by §4.3 with working memory WS bytes (0: RQ_OBJ_WS_DEFAULT) and SS = 1.
 * -EINVAL for impossible parameters, -EFBIG when the object needs Z > 255.
 */
int rq_oti_derive(uint64_t F, uint16_t T, uint8_t Al, uint64_t WS, struct rq_oti *oti);
/* 0 if the OTI describes a valid object, else -EINVAL. */
int rq_oti_check(const struct rq_oti *oti);
/* Source block sbn: symbols K, byte offset in the object and length. */
int rq_block_info(const struct rq_oti *oti, uint32_t sbn, uint32_t *K, uint64_t *off,
		size_t *len);
/* Sub-block layout (object bytes, K*T) <-> symbol layout (K*T). */
int rq_block_to_symbols(const struct rq_oti *oti, uint32_t K, const void *block,
		void *symbols);
int rq_symbols_to_block(const struct rq_oti *oti, uint32_t K, const void *symbols,
		void *block);

#ifdef __cplusplus
}
#endif

#endif /* RQ_H */
