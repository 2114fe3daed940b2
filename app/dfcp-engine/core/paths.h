/* SPDX-License-Identifier: BSD-3-Clause */
/* Install-time paths of the engine (paths.c). */
#ifndef ENG_PATHS_H
#define ENG_PATHS_H

#include <stddef.h>

/* The default [engine] drivers_config directory into buf ("" when unknown). */
void eng_drivers_dir_default(char *buf, size_t len);

#endif /* ENG_PATHS_H */
