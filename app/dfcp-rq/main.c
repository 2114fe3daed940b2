/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-rq: the RaptorQ codec as a command-line tool.
 *
 *   dfcp-rq encode --symbol-size T [--repair R | --overhead PCT]
 *                  [--source-blocks Z] [--sub-blocks N] [--alignment Al]
 *                  [--working-memory BYTES] IN OUT
 *   dfcp-rq decode IN OUT
 *   dfcp-rq --help | --version
 * Exit codes: 0 ok, 1 I/O or codec error, 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rq.h"
#include "rqfile.h"

#define PROG "dfcp-rq encode"

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: dfcp-rq encode --symbol-size T [--repair R | --overhead PCT]\n"
		"                      [--source-blocks Z] [--sub-blocks N] [--alignment Al]\n"
		"                      [--working-memory BYTES] IN OUT\n"
		"       dfcp-rq decode IN OUT\n"
		"       dfcp-rq --help | --version   (dfcp-rq COMMAND --help)\n"
		"Output of encode: the 12-byte OTI, then per block its K source packets and R\n"
		"repair packets, each a 4-byte FEC Payload ID + T bytes. Without\n"
		"--source-blocks/--sub-blocks, Z and N follow RFC 6330 4.3 with working memory\n"
		"WS = %u bytes (override with --working-memory) and SS = 1. Default repair:\n"
		"--overhead 5 (percent of K, rounded up). Al defaults to 4 when T %% 4 == 0.\n"
		"exit codes: 0 ok, 1 I/O or codec error (unreadable input, undecodable\n"
		"object), 2 usage error\n",
		RQ_OBJ_WS_DEFAULT);
}

static int
read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, r;
	uint8_t *b;

	if (f == NULL) {
		fprintf(stderr, "dfcp-rq: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	b = malloc(cap);
	while (b != NULL && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
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
		fprintf(stderr, "dfcp-rq: cannot read %s\n", path);
		free(b);
		fclose(f);
		return -1;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static int
do_encode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "symbol-size", required_argument, NULL, 't' },
		{ "repair", required_argument, NULL, 'r' },
		{ "overhead", required_argument, NULL, 'o' },
		{ "source-blocks", required_argument, NULL, 'z' },
		{ "sub-blocks", required_argument, NULL, 'n' },
		{ "alignment", required_argument, NULL, 'a' },
		{ "working-memory", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rqf_enc_opts o = { .repair = -1, .overhead_pct = 5 };
	char err[1024];
	uint8_t *in;
	size_t len;
	FILE *f;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't': o.T = (uint16_t)cli_uint(PROG, "--symbol-size", optarg, 1, 65535); break;
		case 'r': o.repair = (long long)cli_uint(PROG, "--repair", optarg, 0, RQ_MAX_ESI); break;
		case 'o': o.overhead_pct = cli_double(PROG, "--overhead", optarg, 0, 10000); break;
		case 'z': o.Z = (uint32_t)cli_uint(PROG, "--source-blocks", optarg, 1, 255); break;
		case 'n': o.N = (uint32_t)cli_uint(PROG, "--sub-blocks", optarg, 1, 65535); break;
		case 'a': o.Al = (uint8_t)cli_uint(PROG, "--alignment", optarg, 1, 255); break;
		case 'w': o.WS = cli_uint(PROG, "--working-memory", optarg, 1, 1ull << 40); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (o.T == 0 || argc - optind != 2) {
		fprintf(stderr, "dfcp-rq encode: %s\n", o.T == 0 ? "--symbol-size T is required" :
				"two file names IN OUT expected");
		usage(stderr);
		return 2;
	}
	if (read_file(argv[optind], &in, &len))
		return 1;
	f = fopen(argv[optind + 1], "wb");
	if (f == NULL) {
		fprintf(stderr, "dfcp-rq: cannot create %s: %s\n", argv[optind + 1], strerror(errno));
		free(in);
		return 1;
	}
	rc = rqf_encode(in, len, &o, f, err, sizeof(err));
	if (fclose(f) != 0 && rc == 0) {
		snprintf(err, sizeof(err), "write error on %s", argv[optind + 1]);
		rc = -1;
	}
	free(in);
	if (rc) {
		fprintf(stderr, "dfcp-rq: encode %s: %s\n", argv[optind], err);
		return 1;
	}
	return 0;
}

static int
do_decode(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[4096];
	uint8_t *in, *obj;
	uint64_t F;
	size_t len;
	FILE *f;
	int rc, opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 0;
		}
		usage(stderr);
		return 2;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 3) {
		fprintf(stderr, "dfcp-rq decode: two file names IN OUT expected\n");
		usage(stderr);
		return 2;
	}
	if (read_file(argv[1], &in, &len))
		return 1;
	rc = rqf_decode(in, len, &obj, &F, err, sizeof(err));
	free(in);
	if (rc) {
		fprintf(stderr, "dfcp-rq: decode %s: %s\n", argv[1], err);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(obj, 1, F, f) != F || fclose(f) != 0) {
		fprintf(stderr, "dfcp-rq: cannot write %s: %s\n", argv[2], strerror(errno));
		free(obj);
		return 1;
	}
	free(obj);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("dfcp-rq %s\n", DFCP_TOOL_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "encode") == 0)
		return do_encode(argc - 1, argv + 1);
	if (strcmp(argv[1], "decode") == 0)
		return do_decode(argc - 1, argv + 1);
	fprintf(stderr, "dfcp-rq: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
