/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "bench.h"

int
bench_codec_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "dfcp-bench: mode 'codec' is not built yet\n");
	return 2;
}
