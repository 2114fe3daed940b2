/* SPDX-License-Identifier: BSD-3-Clause */
/* One registered rte_log type per engine component (log.c). */
#ifndef ENG_LOG_H
#define ENG_LOG_H

#include <rte_log.h>

extern int eng_logtype_main;
extern int eng_logtype_config;
extern int eng_logtype_port;
extern int eng_logtype_lcore;
extern int eng_logtype_task;
extern int eng_logtype_stats;

#define ENG_LOG(level, comp, fmt, ...) \
	rte_log(RTE_LOG_##level, eng_logtype_##comp, "dfcp-engine: " fmt "\n", ##__VA_ARGS__)

#endif /* ENG_LOG_H */
