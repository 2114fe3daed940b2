/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [port NAME]: one DPDK port. Values come from built-in defaults, then the
 * optional preset (drivers-config/<preset>.ini, section [preset]), then the
 * keys of the section itself.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/devargs.h"

/*
 * devargs: KEY=VALUE pairs for a vdev the engine creates (device = net_x0,...):
 * the preset's come first, the section's replace them key by key, and a key
 * written in device itself wins over both (port.c).
 */
static int
port_devargs_key(struct eng_port_conf *pc, struct eng_sec *sec)
{
	char v[CFG_VALUE_LEN], *tok, *save = NULL;
	int rc;

	v[0] = '\0';
	rc = eng_sec_str(sec, "devargs", v, sizeof(v));
	if (rc < 0 || v[0] == '\0')
		return rc;
	if (v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,") != NULL)
		return eng_sec_error(sec, "devargs", "empty item in \"%s\"", v);
	/* each item KEY=VALUE with a non-empty KEY of [A-Za-z0-9_] */
	for (tok = strtok_r(v, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		const char *eq = strchr(tok, '=');
		size_t i;

		if (eq == NULL || eq == tok)
			return eng_sec_error(sec, "devargs",
					"\"%s\" is not KEY=VALUE (devargs is a list such as "
					"qdisc_bypass=1,framecnt=4096)",
					tok);
		for (i = 0; tok + i < eq; i++)
			if (!isalnum((unsigned char)tok[i]) && tok[i] != '_')
				return eng_sec_error(sec, "devargs", "bad key \"%.*s\"",
						(int)(eq - tok), tok);
	}
	if (eng_devargs_merge(pc->devargs, sizeof(pc->devargs), eng_sec_get(sec, "devargs")) < 0)
		return eng_sec_error(sec, "devargs", "preset and section devargs together are too "
				"long (at most %d characters)", CFG_VALUE_LEN - 1);
	return 0;
}

/* Keys shared by [port NAME] and preset files. */
static int
port_tuning_keys(struct eng_port_conf *pc, struct eng_sec *sec)
{
	int rc;

	rc = eng_sec_u16(sec, "rx_queues", 1, 16, &pc->rx_queues);
	if (rc == 0)
		rc = port_devargs_key(pc, sec);
	if (rc == 0)
		rc = eng_sec_u16(sec, "tx_queues", 1, 16, &pc->tx_queues);
	if (rc == 0)
		rc = eng_sec_u16(sec, "rx_desc", 32, 16384, &pc->rx_desc);
	if (rc == 0)
		rc = eng_sec_u16(sec, "tx_desc", 32, 16384, &pc->tx_desc);
	if (rc == 0)
		rc = eng_sec_u16(sec, "mtu", 68, 9600, &pc->mtu);
	if (rc == 0)
		rc = eng_sec_bool(sec, "promisc", &pc->promisc);
	if (rc == 0)
		rc = eng_sec_bool(sec, "rss", &pc->rss);
	if (rc == 0)
		rc = eng_sec_bool(sec, "rx_checksum", &pc->rx_checksum);
	if (rc == 0)
		rc = eng_sec_bool(sec, "tx_checksum", &pc->tx_checksum);
	return rc;
}

int
eng_preset_load(const struct eng_config *cfg, struct eng_port_conf *pc, const char *preset,
		struct eng_sec *owner)
{
	char path[PATH_MAX + ENG_NAME_LEN + 8];
	struct eng_sec *sec;
	char e[CFG_ERR_LEN];
	void *mem;
	int i, rc;

	if (cfg_check_name(preset, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(owner, "preset", "%s", e);
	snprintf(path, sizeof(path), "%s/%s.ini", cfg->drivers_dir[0] ? cfg->drivers_dir : ".",
			preset);
	if (access(path, R_OK) != 0)
		return eng_sec_error(owner, "preset",
				"cannot load preset file %s (expected one of the files in %s, "
				"e.g. ixgbe, i40e, ice, mlx5, virtio, net_ring, net_af_packet, "
				"net_af_xdp)",
				path, cfg->drivers_dir);
	sec = calloc(1, sizeof(*sec));
	if (sec == NULL)
		return -ENOMEM;
	/* the preset's rules are the config's: its errors name the preset file */
	rc = eng_config_load_one(path, "preset", sec, &mem, owner->err, owner->errlen);
	if (rc == 0) {
		(void)eng_sec_get(sec, "description");
		rc = port_tuning_keys(pc, sec);
	}
	for (i = 0; rc == 0 && i < sec->nb_entries; i++)
		if (!sec->used[i])
			rc = eng_sec_error(sec, sec->entries[i].name,
					"unknown key in preset (known: description, devargs, "
					"rx_queues, tx_queues, rx_desc, tx_desc, mtu, promisc, rss, "
					"rx_checksum, tx_checksum)");
	eng_config_load_one_free(mem);
	free(sec);
	return rc;
}

static int
port_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_port_conf *pc;
	char e[CFG_ERR_LEN];
	int rc;

	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (eng_config_port_index(cfg, sec->id) >= 0)
		return eng_sec_error(sec, NULL, "port \"%s\" defined twice", sec->id);
	if (cfg->nb_ports == ENG_MAX_PORTS)
		return eng_sec_error(sec, NULL, "too many ports (at most %d)", ENG_MAX_PORTS);
	pc = &cfg->ports[cfg->nb_ports];
	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
	pc->line = sec->line;
	pc->rx_queues = 1;
	pc->tx_queues = 1;
	pc->rx_desc = 1024;
	pc->tx_desc = 1024;
	pc->promisc = 1;
	pc->arp_tries = ENG_ARP_TRIES;

	if (eng_sec_get(sec, "device") == NULL)
		return eng_sec_missing(sec, "device",
				"ring:WIRE, a vdev such as net_af_packet0,iface=eth0, or a PCI "
				"address");
	rc = eng_sec_str(sec, "device", pc->device, sizeof(pc->device));
	if (rc == 0)
		rc = eng_sec_name(sec, "preset", pc->preset, sizeof(pc->preset));
	if (rc == 0 && pc->preset[0] != '\0')
		rc = eng_preset_load(cfg, pc, pc->preset, sec);
	if (rc == 0)
		rc = port_tuning_keys(pc, sec);
	/* counts written here are the user's: a task's lcores key raises only defaults */
	if (eng_sec_get(sec, "rx_queues") != NULL)
		pc->rx_queues_line = eng_sec_line(sec, "rx_queues");
	if (eng_sec_get(sec, "tx_queues") != NULL)
		pc->tx_queues_line = eng_sec_line(sec, "tx_queues");
	if (rc == 0 && eng_sec_get(sec, "mac") != NULL) {
		pc->has_mac = 1;
		rc = eng_sec_mac(sec, "mac", &pc->mac);
	}
	if (rc == 0 && eng_sec_get(sec, "peer_mac") != NULL) {
		pc->has_peer_mac = 1;
		rc = eng_sec_mac(sec, "peer_mac", &pc->peer_mac);
	}
	if (rc == 0)
		rc = eng_sec_u16(sec, "arp_tries", 1, 1000, &pc->arp_tries);
	if (rc == 0 && strncmp(pc->device, "ring:", 5) == 0 &&
			cfg_check_name(pc->device + 5, ENG_NAME_LEN, e, sizeof(e)) < 0)
		rc = eng_sec_error(sec, "device", "ring:WIRE: %s", e);
	if (rc < 0)
		return rc;
	cfg->nb_ports++;
	return 0;
}

static int
port_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j, n;

	/* A ring wire joins at most two ports. */
	for (i = 0; i < cfg->nb_ports; i++) {
		if (strncmp(cfg->ports[i].device, "ring:", 5) != 0)
			continue;
		for (n = 0, j = 0; j < cfg->nb_ports; j++)
			if (strcmp(cfg->ports[i].device, cfg->ports[j].device) == 0)
				n++;
		if (n > 2) {
			snprintf(err, errlen,
					"%s:%d: [port %s] device: \"%s\" is used by %u ports; a ring wire "
					"joins at most two",
					cfg->file, cfg->ports[i].line, cfg->ports[i].name, cfg->ports[i].device, n);
			return -EINVAL;
		}
	}
	return 0;
}

const struct eng_section_kind eng_section_port = {
	.prefix = "port",
	.named = 1,
	.help = "a DPDK port",
	.parse = port_parse,
	.check = port_check,
};
