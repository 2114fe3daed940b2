/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp-engine: exit codes and the size limits of the config model. */
#ifndef ENG_DEFS_H
#define ENG_DEFS_H

#include <rte_common.h>

/* Exit codes (doc/config.md, README.md). */
enum eng_exit {
	ENG_EXIT_OK = 0,       /* ran and finished (goals, duration, signal), no flow failed */
	ENG_EXIT_CONFIG = 1,   /* bad command line or config file */
	ENG_EXIT_EAL = 2,      /* rte_eal_init() failed */
	ENG_EXIT_SETUP = 3,    /* ports, pools, lcores or tasks could not be set up */
	ENG_EXIT_RUNTIME = 4,  /* an lcore or task failed while running */
	ENG_EXIT_FLOW = 5,     /* a flow failed: goal not reached, bad close, verify failed */
};

#define ENG_NAME_LEN 32
#define ENG_MAX_PORTS 32
#define ENG_MAX_TASKS 128
#define ENG_MAX_KINDS 16
#define ENG_MAX_LCORE_TASKS 16
#define ENG_MAX_TASK_PORTS 2
#define ENG_MAX_KEYS 64
#define ENG_ERR_LEN 512
#define ENG_MAX_CAPTURES 16

/*
 * Frame sizes every kind shares: the largest frame the engine builds or
 * accepts (a 9600-byte MTU with its Ethernet header and FCS), and what a
 * frame costs on the wire beyond its bytes without FCS (FCS 4, preamble and
 * SFD 8, inter-frame gap 12). Rates called L1 count it, L2 rates do not.
 */
#define ENG_MAX_FRAME 9618
#define ENG_L1_OVERHEAD 24u

#endif /* ENG_DEFS_H */
