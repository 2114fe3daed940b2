/* SPDX-License-Identifier: BSD-3-Clause */
/* Device argument lists merged key by key (devargs.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* A plugin larger than this is not read (the largest of DPDK 22.11: ~3 MB). */
#define VDEV_PLUGIN_MAX (64u << 20)

static void
vdev_add(struct eng_vdev_names *v, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (strlen(v->name[i]) == len && strncmp(v->name[i], name, len) == 0)
			return;
	if (v->n == ENG_VDEV_MAX || v->used + len + 1 > sizeof(v->store))
		return;
	memcpy(v->store + v->used, name, len);
	v->store[v->used + len] = '\0';
	v->name[v->n++] = v->store + v->used;
	v->used += len + 1;
}

void
eng_vdev_names_init(struct eng_vdev_names *v)
{
	/* RTE_PMD_REGISTER_VDEV(net_*) of DPDK 22.11's drivers/net */
	static const char *const dpdk[] = {
		"net_af_packet", "net_af_xdp", "net_bonding", "net_enetfec", "net_failsafe",
		"net_kni", "net_memif", "net_mvneta", "net_mvpp2", "net_null", "net_octeontx",
		"net_pcap", "net_pfe", "net_ring", "net_softnic", "net_tap", "net_tun",
		"net_vdev_netvsc", "net_vhost", "net_virtio_user",
	};
	size_t i;

	v->n = 0;
	v->used = 0;
	for (i = 0; i < sizeof(dpdk) / sizeof(dpdk[0]); i++)
		vdev_add(v, dpdk[i], strlen(dpdk[i]));
}

/* The net_* names of the PMD_INFO_STRING records in buf[0..len). */
static int
vdev_scan_buf(struct eng_vdev_names *v, const char *buf, size_t len)
{
	static const char tag[] = "PMD_INFO_STRING= {\"name\": \"";
	const char *p = buf, *end = buf + len, *q;
	unsigned int before = v->n;

	while ((q = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1)) != NULL) {
		const char *name = q + sizeof(tag) - 1, *e = name;

		while (e < end && (*e == '_' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
				(*e >= '0' && *e <= '9')))
			e++;
		if (e < end && *e == '"' && e - name > 4 && strncmp(name, "net_", 4) == 0)
			vdev_add(v, name, (size_t)(e - name));
		p = e;
	}
	return (int)(v->n - before);
}

static int
vdev_scan_file(struct eng_vdev_names *v, const char *path)
{
	struct stat st;
	char *buf;
	FILE *f;
	size_t n;
	int added = 0;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
			(unsigned long long)st.st_size > VDEV_PLUGIN_MAX)
		return 0;
	f = fopen(path, "rb");
	if (f == NULL)
		return 0;
	buf = malloc((size_t)st.st_size);
	if (buf != NULL) {
		n = fread(buf, 1, (size_t)st.st_size, f);
		added = vdev_scan_buf(v, buf, n);
		free(buf);
	}
	fclose(f);
	return added;
}

int
eng_vdev_names_scan(struct eng_vdev_names *v, const char *path)
{
	char file[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int added = 0;

	if (path == NULL || path[0] == '\0' || stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return vdev_scan_file(v, path);
	d = opendir(path);
	if (d == NULL)
		return 0;
	/* EAL loads a directory's "*.so" files; their versioned names are the same files */
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l < 4 || strcmp(de->d_name + l - 3, ".so") != 0 ||
				(size_t)snprintf(file, sizeof(file), "%s/%s", path, de->d_name) >=
				sizeof(file))
			continue;
		added += vdev_scan_file(v, file);
	}
	closedir(d);
	return added;
}

const char *
eng_vdev_driver_of(const struct eng_vdev_names *v, const char *device)
{
	size_t n = strcspn(device, ","), l;
	unsigned int i;

	if (n <= 4 || strncmp(device, "net_", 4) != 0)
		return device;
	for (i = 0; i < v->n; i++) {
		l = strlen(v->name[i]);
		if (l <= n && strncmp(device, v->name[i], l) == 0)
			return v->name[i];
	}
	return NULL;
}
