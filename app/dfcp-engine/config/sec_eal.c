/* SPDX-License-Identifier: BSD-3-Clause */
/* [eal]: EAL arguments used when none are given on the command line. */
#include <errno.h>

#include "config/config.h"

static int
eal_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	if (eng_sec_get(sec, "args") == NULL)
		return eng_sec_missing(sec, "args", "EAL arguments such as \"-l 0-1 --no-huge\"");
	cfg->has_eal = 1;
	return eng_sec_str(sec, "args", cfg->eal_args, sizeof(cfg->eal_args));
}

const struct eng_section_kind eng_section_eal = {
	.prefix = "eal",
	.named = 0,
	.help = "EAL arguments",
	.parse = eal_parse,
	.check = NULL,
};
