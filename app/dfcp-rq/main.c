/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-rq: the RaptorQ codec as a command-line tool.
 *
 *   dfcp-rq encode --symbol-size T [--repair R | --overhead PCT]
 *                  [--source-blocks Z] [--sub-blocks N] [--alignment Al]
 *                  [--working-memory BYTES] [--raw] [--max-memory BYTES] IN OUT
 *   dfcp-rq decode [--raw] [--max-memory BYTES] IN OUT
 *   dfcp-rq --help | --version
 *
 * Exit status: 0 done, 1 the input could not be encoded / decoded or a file
 * could not be read or written (no output is left then), 2 a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rq.h"
#include "rqfile.h"

static const char *const usage_encode =
	"usage: dfcp-rq encode --symbol-size T [--repair R | --overhead PCT]\n"
	"                      [--source-blocks Z] [--sub-blocks N] [--alignment Al]\n"
	"                      [--working-memory BYTES] [--raw] [--max-memory BYTES] IN OUT\n";
static const char *const usage_decode =
	"usage: dfcp-rq decode [--raw] [--max-memory BYTES] IN OUT\n";

static void
usage(FILE *f, const char *which)
{
	if (which == NULL || strcmp(which, "encode") == 0)
		fputs(usage_encode, f);
	if (which == NULL)
		fputs("       ", f);
	if (which == NULL || strcmp(which, "decode") == 0)
		fputs(usage_decode + (which == NULL ? 7 : 0), f);
	if (which == NULL)
		fputs("       dfcp-rq --help | --version   (dfcp-rq COMMAND --help)\n", f);
	fprintf(f,
		"Output of encode: \"DFRQ\", version, the 12-byte OTI (RFC 6330), a CRC-32C per\n"
		"source block, then per block its K source packets and R repair packets, each a\n"
		"4-byte FEC Payload ID + T bytes; decode checks every block against its CRC\n"
		"(RFC 6330 itself has no integrity check). --raw: the OTI and packets only, no\n"
		"checksums (plain RFC 6330 packets). Without --source-blocks/--sub-blocks, Z and\n"
		"N follow RFC 6330 4.3 with working memory WS = %u bytes (override with\n"
		"--working-memory) and SS = 1. Default repair: --overhead 5 (percent of K,\n"
		"rounded up). Al defaults to 4 when T %% 4 == 0. --max-memory: what the input\n"
		"(encode) or the object and its decoders (decode, from the OTI, before reading\n"
		"any packet) may take, default %llu bytes.\n"
		"exit codes: 0 done; 1 the input cannot be encoded or decoded, or a file cannot\n"
		"be read or written (no output is written then; an empty input is an error:\n"
		"a RaptorQ object has at least one byte); 2 a usage error.\n",
		RQ_OBJ_WS_DEFAULT, (unsigned long long)RQF_MAX_MEMORY_DEFAULT);
}

static int
bad_usage(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "dfcp-rq %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (dfcp-rq %s --help)\n", cmd);
	return 2;
}

static int
num(const char *cmd, const char *s, const char *what, long long lo, long long hi,
		long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	if (errno || end == s || *end || *v < lo || *v > hi) {
		fprintf(stderr, "dfcp-rq %s: %s must be an integer in %lld..%lld, not '%s'\n",
			cmd, what, lo, hi, s);
		return -1;
	}
	return 0;
}

/* The whole input, at most max bytes (a regular file is checked before reading). */
static int
read_input(const char *path, uint64_t max, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, r;
	struct stat sb;
	uint8_t *b;

	if (f == NULL) {
		fprintf(stderr, "dfcp-rq: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "dfcp-rq: %s is a directory\n", path);
		fclose(f);
		return -1;
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > max) {
		fprintf(stderr, "dfcp-rq: %s has %llu bytes, over the limit of %llu (--max-memory)\n",
			path, (unsigned long long)sb.st_size, (unsigned long long)max);
		fclose(f);
		return -1;
	}
	b = malloc(cap);
	while (b != NULL && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n > max) {
			fprintf(stderr, "dfcp-rq: %s: more than %llu bytes (--max-memory)\n", path,
				(unsigned long long)max);
			free(b);
			fclose(f);
			return -1;
		}
		if (n == cap) {
			uint8_t *nb = realloc(b, cap * 2);

			if (nb == NULL) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (b == NULL || ferror(f)) {
		fprintf(stderr, "dfcp-rq: cannot read %s%s\n", path, b == NULL ? ": out of memory" : "");
		free(b);
		fclose(f);
		return -1;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

/* The options both commands have; 1 if opt was one of them, -1 on a bad value. */
static int
common_opt(const char *cmd, int opt, int *raw, uint64_t *max)
{
	long long v;

	if (opt == 'R') {
		*raw = 1;
		return 1;
	}
	if (opt == 'M') {
		if (num(cmd, optarg, "--max-memory", 1, 1ll << 50, &v) < 0)
			return -1;
		*max = (uint64_t)v;
		return 1;
	}
	return 0;
}

static int
getopt_fail(const char *cmd, char **argv, int opt)
{
	if (opt == ':')
		return bad_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
	return bad_usage(cmd, "unknown option '%s'", argv[optind - 1]);
}

static int
encode_opts(int argc, char **argv, struct rqf_enc_opts *o, int *raw, uint64_t *max)
{
	static const struct option opts[] = {
		{ "symbol-size", required_argument, NULL, 't' },
		{ "repair", required_argument, NULL, 'r' },
		{ "overhead", required_argument, NULL, 'o' },
		{ "source-blocks", required_argument, NULL, 'z' },
		{ "sub-blocks", required_argument, NULL, 'n' },
		{ "alignment", required_argument, NULL, 'a' },
		{ "working-memory", required_argument, NULL, 'w' },
		{ "raw", no_argument, NULL, 'R' },
		{ "max-memory", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	char *end;
	int opt, c;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		c = common_opt("encode", opt, raw, max);
		if (c < 0)
			return 2;
		if (c > 0)
			continue;
		switch (opt) {
		case 't':
			if (num("encode", optarg, "--symbol-size", 1, 65535, &v) < 0)
				return 2;
			o->T = (uint16_t)v;
			break;
		case 'r':
			if (num("encode", optarg, "--repair", 0, RQ_MAX_ESI, &v) < 0)
				return 2;
			o->repair = v;
			break;
		case 'o':
			errno = 0;
			o->overhead_pct = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->overhead_pct >= 0) ||
					o->overhead_pct > 10000)
				return bad_usage("encode", "--overhead must be a number of percent in "
						"0..10000, not '%s'", optarg);
			break;
		case 'z':
			if (num("encode", optarg, "--source-blocks", 1, 255, &v) < 0)
				return 2;
			o->Z = (uint32_t)v;
			break;
		case 'n':
			if (num("encode", optarg, "--sub-blocks", 1, 65535, &v) < 0)
				return 2;
			o->N = (uint32_t)v;
			break;
		case 'a':
			if (num("encode", optarg, "--alignment", 1, 255, &v) < 0)
				return 2;
			o->Al = (uint8_t)v;
			break;
		case 'w':
			if (num("encode", optarg, "--working-memory", 1, 1ll << 40, &v) < 0)
				return 2;
			o->WS = (uint64_t)v;
			break;
		case 'h':
			usage(stdout, "encode");
			return 0;
		default:
			return getopt_fail("encode", argv, opt);
		}
	}
	if (o->T == 0)
		return bad_usage("encode", "%s", "--symbol-size T is required");
	if (argc - optind != 2) {
		fprintf(stderr, "dfcp-rq encode: expected two file names IN OUT, got %d argument(s) "
			"(dfcp-rq encode --help)\n", argc - optind);
		return 2;
	}
	return -1;
}

static int
do_encode(int argc, char **argv)
{
	struct rqf_enc_opts o = { .repair = -1, .overhead_pct = 5 };
	uint64_t max = RQF_MAX_MEMORY_DEFAULT;
	const char *in_path, *out_path;
	char err[1024];
	int raw = 0, rc;
	uint8_t *in;
	size_t len;
	FILE *f;

	rc = encode_opts(argc, argv, &o, &raw, &max);
	if (rc >= 0)
		return rc;
	o.checksum = !raw;
	in_path = argv[optind];
	out_path = argv[optind + 1];
	if (read_input(in_path, max, &in, &len))
		return 1;
	if (len == 0) {
		fprintf(stderr, "dfcp-rq: encode %s: the input is empty: a RaptorQ object has at "
			"least one byte (RFC 6330: F >= 1); no output written\n", in_path);
		free(in);
		return 1;
	}
	f = fopen(out_path, "wb");
	if (f == NULL) {
		fprintf(stderr, "dfcp-rq: cannot create %s: %s\n", out_path, strerror(errno));
		free(in);
		return 1;
	}
	rc = rqf_encode(in, len, &o, f, err, sizeof(err));
	if (fclose(f) != 0 && rc == 0) {
		snprintf(err, sizeof(err), "write error on %s: %s", out_path, strerror(errno));
		rc = -1;
	}
	free(in);
	if (rc) {
		unlink(out_path);	/* no partial output */
		fprintf(stderr, "dfcp-rq: encode %s: %s; no output written\n", in_path, err);
		return 1;
	}
	return 0;
}

static int
do_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "raw", no_argument, NULL, 'R' },
		{ "max-memory", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t max = RQF_MAX_MEMORY_DEFAULT, F;
	char err[4096];
	int raw = 0, opt, c, rc;
	uint8_t *obj;
	FILE *f;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		c = common_opt("decode", opt, &raw, &max);
		if (c < 0)
			return 2;
		if (c > 0)
			continue;
		if (opt == 'h') {
			usage(stdout, "decode");
			return 0;
		}
		return getopt_fail("decode", argv, opt);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "dfcp-rq decode: expected two file names IN OUT, got %d argument(s) "
			"(dfcp-rq decode --help)\n", argc - optind);
		return 2;
	}
	f = fopen(argv[optind], "rb");
	if (f == NULL) {
		fprintf(stderr, "dfcp-rq: cannot open %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	rc = rqf_decode_file(f, raw ? RQF_RAW : RQF_CHECKED, max, &obj, &F, err, sizeof(err));
	fclose(f);
	if (rc) {
		fprintf(stderr, "dfcp-rq: decode %s: %s\n", argv[optind], err);
		return 1;
	}
	f = fopen(argv[optind + 1], "wb");
	if (f == NULL || fwrite(obj, 1, F, f) != F || fclose(f) != 0) {
		fprintf(stderr, "dfcp-rq: cannot write %s: %s\n", argv[optind + 1], strerror(errno));
		unlink(argv[optind + 1]);
		free(obj);
		return 1;
	}
	free(obj);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr, NULL);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
			strcmp(argv[1], "help") == 0) {
		usage(stdout, NULL);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("dfcp-rq %s\n", DFCP_TOOL_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "encode") == 0)
		return do_encode(argc - 1, argv + 1);
	if (strcmp(argv[1], "decode") == 0)
		return do_decode(argc - 1, argv + 1);
	fprintf(stderr, "dfcp-rq: unknown command '%s' (expected encode or decode; dfcp-rq "
		"--help)\n", argv[1]);
	return 2;
}
