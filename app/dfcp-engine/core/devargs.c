/* SPDX-License-Identifier: BSD-3-Clause */
/* Device argument lists merged key by key (devargs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/devargs.h"

#define DEVARGS_MAX 512

/* Length of the key of the item at ITEM (up to '=', ',' or the end). */
static size_t
item_key_len(const char *item)
{
	return strcspn(item, "=,");
}

int
eng_devargs_has(const char *list, const char *key)
{
	size_t klen = strlen(key);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (item_key_len(p) == klen && strncmp(p, key, klen) == 0)
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* Append the items of SRC whose key is not KEY (of KLEN bytes) to OUT. */
static int
copy_without(char *out, size_t len, const char *src, const char *key, size_t klen)
{
	const char *p = src;
	size_t off = strlen(out);

	while (*p != '\0') {
		size_t n = strcspn(p, ",");

		if (n != 0 && !(item_key_len(p) == klen && strncmp(p, key, klen) == 0)) {
			if (off + (off != 0) + n >= len)
				return -ENOSPC;
			off += (size_t)snprintf(out + off, len - off, "%s%.*s", off != 0 ? "," : "",
					(int)n, p);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

int
eng_devargs_merge(char *dst, size_t len, const char *add)
{
	char cur[DEVARGS_MAX], next[DEVARGS_MAX];
	const char *p = add;

	if (len > sizeof(cur) || strlen(dst) >= sizeof(cur))
		return -ENOSPC;
	snprintf(cur, sizeof(cur), "%s", dst);
	while (*p != '\0') {
		size_t n = strcspn(p, ","), off;

		if (n != 0) {
			next[0] = '\0';
			if (copy_without(next, len, cur, p, item_key_len(p)) < 0)
				return -ENOSPC;
			off = strlen(next);
			if (off + (off != 0) + n >= len)
				return -ENOSPC;
			snprintf(next + off, len - off, "%s%.*s", off != 0 ? "," : "", (int)n, p);
			memcpy(cur, next, off + (off != 0) + n + 1);
		}
		p += n;
		if (*p == ',')
			p++;
	}
	memcpy(dst, cur, strlen(cur) + 1);
	return 0;
}
