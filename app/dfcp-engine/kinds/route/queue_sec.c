/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [queue NAME]: a queue bound to a pipe (ipfw "queue N config pipe P weight
 * W queue Q") with its match rules (ipfw "add queue N ip from A to B"):
 * keys match, match1 .. match15, evaluated in that order; over the pipe,
 * queues are tried in file order, first match wins. Cross-references are
 * resolved by [pipe]'s check (pipe_sec.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kinds/route/route.h"
#include "pktsched.h"

static const char *const match_keys[ENG_MAX_QUEUE_RULES] = {
	"match", "match1", "match2", "match3", "match4", "match5", "match6", "match7",
	"match8", "match9", "match10", "match11", "match12", "match13", "match14", "match15",
};

static int
queue_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_route_conf *r = eng_route_conf_get(cfg);
	struct eng_queue_conf *q;
	char e[CFG_ERR_LEN];
	unsigned int i;
	uint64_t v;
	int rc;

	if (r == NULL)
		return eng_sec_error(sec, NULL, "out of memory");
	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (strcmp(sec->id, "default") == 0 || strcmp(sec->id, "pass") == 0)
		return eng_sec_error(sec, NULL, "\"%s\" is reserved (see unmatched in [pipe])",
				sec->id);
	if (r->nb_queues == ENG_MAX_QUEUES)
		return eng_sec_error(sec, NULL, "too many queues (at most %d)", ENG_MAX_QUEUES);
	q = &r->queues[r->nb_queues];
	memset(q, 0, sizeof(*q));
	snprintf(q->name, sizeof(q->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
	q->line = sec->line;
	q->weight = 1;
	q->pipe_idx = -1;

	if (eng_sec_get(sec, "pipe") == NULL)
		return eng_sec_missing(sec, "pipe", "the name of a [pipe NAME] section");
	rc = eng_sec_name(sec, "pipe", q->pipe, sizeof(q->pipe));
	if (rc == 0)
		rc = eng_sec_u32(sec, "weight", 1, SCHED_WEIGHT_MAX, &q->weight);
	if (rc == 0)
		rc = eng_sec_u32(sec, "queue", 1, 1u << 20, &q->limit_pkts);
	if (rc == 0) {
		v = 0;
		rc = eng_sec_size(sec, "queue_bytes", 64, 1ull << 32, &v);
		q->limit_bytes = v;
	}
	for (i = 0; rc == 0 && i < ENG_MAX_QUEUE_RULES; i++) {
		const char *s = eng_sec_get(sec, match_keys[i]);

		if (s == NULL)
			continue;
		if (pipe_rule_parse(s, &q->rules[q->nb_rules], e, sizeof(e)) < 0)
			return eng_sec_error(sec, match_keys[i], "%s", e);
		q->nb_rules++;
	}
	if (rc < 0)
		return rc;
	r->nb_queues++;
	return 0;
}

const struct eng_section_kind eng_section_queue = {
	.prefix = "queue",
	.named = 1,
	.help = "a weighted queue of a pipe with ipfw-like match rules",
	.parse = queue_parse,
	.check = NULL, /* resolved by [pipe]'s check */
};
