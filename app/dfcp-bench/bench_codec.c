/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-bench codec: one-core RaptorQ throughput.
 *
 *   dfcp-bench codec --k K --symbol-size T [--loss PCT] [--overhead N]
 *                    [--seconds S] [--peer lcrq] [--json] [--path gen|plan]
 *                    [--cpu-time] [--api ref|copy|both] [--stripe-ws BYTES]
 *
 * encode: load a block (intermediate symbols) and generate the repair
 * symbols the block needs at this loss (lost + overhead), Gbit/s of source
 * data. decode: reset, add the surviving source symbols and the repair
 * symbols, decode into a buffer; loss patterns cycle through 64 random
 * ones. Each figure is the median of >= 5 timed batches. The kernel tier
 * (RQ_ISA overrides it) is printed and is "isa" in the JSON rows.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_LCRQ		/* set by meson when liblcrq is found */
#include <lcrq.h>
#endif

#include "rq.h"
#include "rq_bench.h"	/* internal-for-bench: path overrides, stripe size, tiers */
#include "bench.h"
#include "cli.h"

#define PROG "dfcp-bench codec"

#define NPAT 64
#define MAXB 64

struct cfg {
	uint32_t K;
	uint16_t T;
	double loss, seconds;
	uint32_t overhead;
	int json, peer_lcrq;
	int path;	/* -1 default, 0 plan, 1 generator matrix (K' <= RQ_GEN_MAX_KP) */
	int api;	/* bit 0: zero-copy API (ref), bit 1: copying API */
	size_t stripe_ws;	/* 0: the library's default */
};

struct work {
	uint32_t K, T, nlost, nrep;
	uint8_t *src, *out, *rep;	/* rep: nrep repair symbols */
	uint32_t *pat;			/* NPAT x K permutations: first nlost are lost */
	uint8_t **srcp;
};

/* --cpu-time: this thread's CPU time instead of wall time (a shared machine) */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(bench_clock, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

typedef int (*iter_fn)(void *ctx, struct work *w, uint32_t it);

/* Median Gbit/s of source data over batches filling `seconds`. */
static double
measure(iter_fn fn, void *ctx, struct work *w, double seconds, int *err)
{
	double rates[MAXB], t0, t, per;
	uint32_t it = 0, n, b, nb;

	/* calibrate: iterations per batch so that >= 5 batches fit */
	t0 = now_s();
	for (n = 0; n < 3 || now_s() - t0 < 0.05; n++)
		if ((*err = fn(ctx, w, it++)) != 0)
			return 0;
	per = (now_s() - t0) / n;
	nb = 9;
	n = (uint32_t)(seconds / nb / per);
	if (n < 1)
		n = 1;
	for (b = 0; b < nb; b++) {
		uint32_t i;

		t = now_s();
		for (i = 0; i < n; i++)
			if ((*err = fn(ctx, w, it++)) != 0)
				return 0;
		t = now_s() - t;
		rates[b] = (double)w->K * w->T * 8 * n / t / 1e9;
	}
	qsort(rates, nb, sizeof(double), cmp_d);
	return rates[nb / 2];
}

/* --- ours --- */
struct ours {
	struct rq_enc *enc;
	struct rq_dec *dec;
	int ref;	/* rq_enc_block_ref / rq_dec_add_ref, decoding in place */
};

static int
ours_encode(void *ctx, struct work *w, uint32_t it)
{
	struct ours *o = ctx;
	size_t len = (size_t)w->K * w->T;
	uint32_t r;
	int rc;

	(void)it;
	rc = o->ref ? rq_enc_block_ref(o->enc, w->src, len) : rq_enc_block(o->enc, w->src, len);
	for (r = 0; r < w->nrep && rc == 0; r++)
		rc = rq_enc_symbol(o->enc, w->K + r, w->rep + (size_t)r * w->T);
	return rc;
}

static int
ours_decode(void *ctx, struct work *w, uint32_t it)
{
	struct ours *o = ctx;
	const uint32_t *pat = w->pat + (size_t)(it % NPAT) * w->K;
	uint32_t i;

	rq_dec_reset(o->dec);
	if (o->ref) {
		/*
		 * In place, as the DFCP receiver does: the received source
		 * symbols already lie at their place in the output block (w->out
		 * holds the source from the start); the lost ones are spoiled
		 * here and must come back from the decoder.
		 */
		for (i = 0; i < w->nlost; i++)
			memset(w->out + (size_t)pat[i] * w->T, 0xa5, w->T);
		for (i = w->nlost; i < w->K; i++)
			rq_dec_add_ref(o->dec, pat[i], w->out + (size_t)pat[i] * w->T);
		for (i = 0; i < w->nrep; i++)
			rq_dec_add_ref(o->dec, w->K + i, w->rep + (size_t)i * w->T);
	} else {
		for (i = w->nlost; i < w->K; i++)
			rq_dec_add(o->dec, pat[i], w->src + (size_t)pat[i] * w->T);
		for (i = 0; i < w->nrep; i++)
			rq_dec_add(o->dec, w->K + i, w->rep + (size_t)i * w->T);
	}
	return rq_dec_decode(o->dec, w->out, (size_t)w->K * w->T);
}

#ifdef HAVE_LCRQ
struct peer {
	rq_t *rq;
	uint8_t *enc;
	uint32_t *esi;
};

static int
lcrq_encode(void *ctx, struct work *w, uint32_t it)
{
	struct peer *p = ctx;
	uint32_t r;

	(void)it;
	if (rq_encode(p->rq, w->src, (size_t)w->K * w->T) != 0)
		return -EIO;
	for (r = 0; r < w->nrep; r++) {
		rq_pid_t pid = rq_pidsetesi(0, w->K + r);
		uint8_t *s = rq_symbol(p->rq, &pid, w->rep + (size_t)r * w->T, 0);

		if (s != w->rep + (size_t)r * w->T)
			memcpy(w->rep + (size_t)r * w->T, s, w->T);
	}
	return 0;
}

static int
lcrq_decode(void *ctx, struct work *w, uint32_t it)
{
	struct peer *p = ctx;
	const uint32_t *pat = w->pat + (size_t)(it % NPAT) * w->K;
	uint32_t i, n = 0;

	for (i = w->nlost; i < w->K; i++) {
		memcpy(p->enc + (size_t)n * w->T, w->src + (size_t)pat[i] * w->T, w->T);
		p->esi[n++] = pat[i];
	}
	for (i = 0; i < w->nrep; i++) {
		memcpy(p->enc + (size_t)n * w->T, w->rep + (size_t)i * w->T, w->T);
		p->esi[n++] = w->K + i;
	}
	return rq_decode(p->rq, w->out, p->enc, p->esi, n) == 0 ? 0 : -EDOM;
}
#endif

static void
report(const struct cfg *c, const struct work *w, const char *impl, double e, double d)
{
	if (c->json)
		printf("{\"impl\": \"%s\", \"isa\": \"%s\", \"k\": %u, \"t\": %u, "
			"\"loss_pct\": %.1f, \"repair\": %u, \"encode_gbps\": %.3f, "
			"\"decode_gbps\": %.3f}\n", impl, strncmp(impl, "dfcp-rq", 7) == 0 ?
			rq_isa_name() : "", c->K, c->T, c->loss, w->nrep, e, d);
	else
		printf("%-12s K=%-6u T=%-5u loss=%4.1f%% repair=%-4u encode %8.3f Gbit/s"
			"   decode %8.3f Gbit/s\n", impl, c->K, c->T, c->loss, w->nrep, e, d);
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: dfcp-bench codec --k K --symbol-size T [--loss PCT] [--overhead N]\n"
		"                        [--seconds S] [--peer lcrq] [--json] [--path gen|plan]\n"
		"                        [--cpu-time] [--api ref|copy|both]\n"
		"  --loss PCT     lost source symbols, replaced by repair (default 10)\n"
		"  --overhead N   repair symbols beyond the lost ones (default 2)\n"
		"  --seconds S    time per measurement (default 2)\n"
		"  --path P       gen | plan: force the small-block generator path (K' <=\n"
		"                 %u) or the plan path (default: the kernel tier's\n"
		"                 choice: gen for small K', above it the residual\n"
		"                 decoder when few source symbols are lost)\n"
		"  --cpu-time     time with the thread's CPU clock instead of wall time\n"
		"                 (time slices lost to other processes do not count)\n"
		"  --api A        ref: zero-copy API (rq_enc_block_ref, rq_dec_add_ref with\n"
		"                 the received source symbols in place, as the DFCP\n"
		"                 receiver keeps them; impl dfcp-rq); copy: rq_enc_block /\n"
		"                 rq_dec_add (impl dfcp-rq-copy); both (default)\n"
		"  --stripe-ws B  the plan replay's working set per column stripe (bytes;\n"
		"                 default from the L2 size: %zu here)\n"
		"Kernel tier: the best this CPU runs (here %s), or RQ_ISA=generic|sse|avx2|\n"
		"avx512|avx512-gfni in the environment.\n",
		RQ_GEN_MAX_KP, rq_stripe_ws(), rq_isa_name());
}

/* Options into *c: 0 to go on, else the exit status. */
static int
parse_args(int argc, char **argv, struct cfg *c)
{
	static const struct option opts[] = {
		{ "k", required_argument, NULL, 'k' },
		{ "symbol-size", required_argument, NULL, 't' },
		{ "loss", required_argument, NULL, 'l' },
		{ "overhead", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 's' },
		{ "peer", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "path", required_argument, NULL, 'P' },
		{ "cpu-time", no_argument, NULL, 'C' },
		{ "api", required_argument, NULL, 'A' },
		{ "stripe-ws", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'k': c->K = (uint32_t)cli_uint(PROG, "--k", optarg, 1, RQ_MAX_K); break;
		case 't': c->T = (uint16_t)cli_uint(PROG, "--symbol-size", optarg, 1, 65535); break;
		case 'l': c->loss = cli_double(PROG, "--loss", optarg, 0, 99.99); break;
		case 'o': c->overhead = (uint32_t)cli_uint(PROG, "--overhead", optarg, 0, 1u << 20); break;
		case 's': c->seconds = cli_double(PROG, "--seconds", optarg, 0.001, 1e6); break;
		case 'p':
			if (strcmp(optarg, "lcrq") != 0) {
				fprintf(stderr, PROG ": --peer: unknown peer '%s' (lcrq)\n", optarg);
				return CLI_EXIT_USAGE;
			}
			c->peer_lcrq = 1;
			break;
		case 'j': c->json = 1; break;
		case 'C': bench_clock = CLOCK_THREAD_CPUTIME_ID; break;
		case 'A':
			c->api = strcmp(optarg, "ref") == 0 ? 1 : strcmp(optarg, "copy") == 0 ? 2 :
				strcmp(optarg, "both") == 0 ? 3 : 0;
			if (c->api == 0) {
				fprintf(stderr, PROG ": --api: '%s' is not ref, copy or both\n", optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'P':
			if (strcmp(optarg, "gen") != 0 && strcmp(optarg, "plan") != 0) {
				fprintf(stderr, PROG ": --path: '%s' is not gen or plan\n", optarg);
				return CLI_EXIT_USAGE;
			}
			c->path = strcmp(optarg, "gen") == 0;
			break;
		case 'W': c->stripe_ws = (size_t)cli_uint(PROG, "--stripe-ws", optarg, 4096, 1ull << 40); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* Source block, NPAT loss patterns, repair buffer. */
static int
work_setup(const struct cfg *c, struct work *w)
{
	uint32_t i, p;

	memset(w, 0, sizeof(*w));
	w->K = c->K;
	w->T = c->T;
	w->nlost = (uint32_t)(c->K * c->loss / 100 + 0.5);
	w->nrep = w->nlost + c->overhead;
	w->src = malloc((size_t)c->K * c->T);
	w->out = malloc((size_t)c->K * c->T);
	w->rep = malloc((size_t)w->nrep * c->T + 1);
	w->pat = malloc((size_t)NPAT * c->K * sizeof(uint32_t));
	if (!w->src || !w->out || !w->rep || !w->pat)
		return -ENOMEM;
	for (i = 0; i < (size_t)c->K * c->T; i++)
		w->src[i] = (uint8_t)rnd();
	for (p = 0; p < NPAT; p++) {
		uint32_t *pat = w->pat + (size_t)p * c->K;

		for (i = 0; i < c->K; i++)
			pat[i] = i;
		for (i = c->K; i > 1; i--) {
			uint32_t j = (uint32_t)(rnd() % i), t = pat[i - 1];

			pat[i - 1] = pat[j];
			pat[j] = t;
		}
	}
	return 0;
}

static void
work_free(struct work *w)
{
	free(w->src);
	free(w->out);
	free(w->rep);
	free(w->pat);
}

/*
 * Our codec with each API asked for; *e / *d and *rname: the figures of the
 * last one (the copying API when both run, the one the lcrq ratio uses).
 */
static int
run_ours(const struct cfg *c, struct work *w, double *e, double *d, const char **rname)
{
	struct ours o;
	int err = 0, rc = 0;

	o.enc = rq_enc_create(c->K, c->T);
	o.dec = rq_dec_create(c->K, c->T, c->K + w->nrep);
	if (!o.enc || !o.dec) {
		fprintf(stderr, "codec: cannot create the codec for K=%u T=%u\n", c->K, c->T);
		rc = 1;
		goto out;
	}
	if (c->path >= 0 && (rq_enc_set_gen(o.enc, c->path) != c->path ||
			rq_dec_set_gen(o.dec, c->path) != c->path)) {
		fprintf(stderr, "codec: no generator path for K=%u (K' > %u)\n", c->K,
			RQ_GEN_MAX_KP);
		rc = 1;
		goto out;
	}
	if (c->path == 0)	/* the plan decoder, not the residual one (K' > RQ_GEN_MAX_KP) */
		rq_dec_set_res(o.dec, 0);
	for (o.ref = 1; o.ref >= 0; o.ref--) {
		if (!(c->api & (o.ref ? 1 : 2)))
			continue;
		memcpy(w->out, w->src, (size_t)c->K * c->T);
		*e = measure(ours_encode, &o, w, c->seconds, &err);
		if (err == 0) {
			memset(w->out, 0, (size_t)c->K * c->T);
			if (o.ref)	/* in place: the received symbols are there */
				memcpy(w->out, w->src, (size_t)c->K * c->T);
			*d = measure(ours_decode, &o, w, c->seconds, &err);
		}
		if (err) {
			fprintf(stderr, "codec: dfcp-rq failed: %s\n", strerror(-err));
			rc = 1;
			break;
		}
		if (memcmp(w->out, w->src, (size_t)c->K * c->T) != 0) {
			fprintf(stderr, "codec: decoded block differs from the source\n");
			rc = 1;
			break;
		}
		*rname = o.ref ? "dfcp-rq" : "dfcp-rq-copy";
		report(c, w, *rname, *e, *d);
	}
out:
	rq_enc_free(o.enc);
	rq_dec_free(o.dec);
	return rc;
}

/* liblcrq in the same run, and the ratio against our figures e / d. */
static int
run_lcrq(const struct cfg *c, struct work *w, double e, double d, const char *rname)
{
#ifdef HAVE_LCRQ
	struct peer pr;
	double le, ld = 0;
	int err = 0;

	pr.rq = rq_init((uint64_t)c->K * c->T, c->T);
	pr.enc = malloc((size_t)(c->K + w->nrep) * c->T);
	pr.esi = malloc((c->K + w->nrep) * sizeof(uint32_t));
	if (pr.rq == NULL || rq_Z(pr.rq) != 1 || rq_K(pr.rq) != c->K || !pr.enc || !pr.esi) {
		fprintf(stderr, "codec: lcrq does not make one block of K=%u at T=%u "
			"(T must be a multiple of 4)\n", c->K, c->T);
		return 1;
	}
	le = measure(lcrq_encode, &pr, w, c->seconds, &err);
	if (err == 0)
		ld = measure(lcrq_decode, &pr, w, c->seconds, &err);
	if (err) {
		fprintf(stderr, "codec: lcrq failed\n");
		return 1;
	}
	report(c, w, "lcrq", le, ld);
	if (!c->json)
		printf("ratio    %s/lcrq: encode %.1fx, decode %.1fx\n", rname, e / le, d / ld);
	else
		printf("{\"impl\": \"ratio\", \"k\": %u, \"t\": %u, \"encode_gbps\": %.3f, "
			"\"decode_gbps\": %.3f}\n", c->K, c->T, e / le, d / ld);
	rq_free(pr.rq);
	free(pr.enc);
	free(pr.esi);
	return 0;
#else
	(void)c;
	(void)w;
	(void)e;
	(void)d;
	(void)rname;
	fprintf(stderr, "codec: built without liblcrq\n");
	return 1;
#endif
}

int
bench_codec_main(int argc, char **argv)
{
	struct cfg c = { .K = 47, .T = 1420, .loss = 10, .seconds = 2, .overhead = 2,
		.path = -1, .api = 3 };
	const char *rname = "dfcp-rq";
	struct work w;
	double e = 0, d = 0;
	int rc;

	if (rq_isa_init() != 0)		/* RQ_ISA refused: lib/rq said why on stderr */
		return 2;
	rc = parse_args(argc, argv, &c);
	if (rc >= 0)
		return rc;
	if (c.stripe_ws)
		rq_stripe_ws_set(c.stripe_ws);
	if (!c.json)
		printf("kernel tier %s, replay stripe working set %zu bytes (L2 %zu, L3 %zu)\n",
			rq_isa_name(), rq_stripe_ws(), rq_cache_l2(), rq_cache_l3());
	rc = work_setup(&c, &w) ? 1 : run_ours(&c, &w, &e, &d, &rname);
	if (rc == 0 && c.peer_lcrq)
		rc = run_lcrq(&c, &w, e, d, rname);
	work_free(&w);
	return rc;
}
