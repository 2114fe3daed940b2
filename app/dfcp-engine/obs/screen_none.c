/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Built without ncurses (meson -Dncurses=disabled, or libncurses-dev missing):
 * no screen; the periodic view stays the log form (live = screen says so).
 */
#include <errno.h>
#include <stdio.h>

#include "config/config.h"
#include "core/runtime.h"
#include "obs/obs.h"

void
eng_screen_open(struct eng_runtime *rt)
{
	if (rt->cfg->live == ENG_LIVE_SCREEN)
		fprintf(stderr, "dfcp-engine: live = screen: built without ncurses "
				"(libncurses-dev); printing the log view\n");
}

int
eng_screen_period(struct eng_runtime *rt)
{
	(void)rt;
	return -ENOTSUP;
}

void
eng_screen_close(struct eng_runtime *rt)
{
	(void)rt;
}
