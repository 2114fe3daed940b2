/* SPDX-License-Identifier: BSD-3-Clause */
/* One registered rte_log type per engine component ("--log-level=dfcp.engine.port:debug"). */
#include <rte_log.h>


RTE_LOG_REGISTER(eng_logtype_main, dfcp.engine.main, INFO);
RTE_LOG_REGISTER(eng_logtype_config, dfcp.engine.config, INFO);
RTE_LOG_REGISTER(eng_logtype_port, dfcp.engine.port, INFO);
RTE_LOG_REGISTER(eng_logtype_lcore, dfcp.engine.lcore, INFO);
RTE_LOG_REGISTER(eng_logtype_task, dfcp.engine.task, INFO);
RTE_LOG_REGISTER(eng_logtype_stats, dfcp.engine.stats, INFO);
