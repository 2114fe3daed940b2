/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config loader: INI via rte_cfgfile, dispatched to the section-kind table.
 * No EAL: the unit tests build this file.
 *
 * rte_cfgfile silently skips lines that are neither "[section]" nor
 * "key = value", keeps duplicate sections and keys, and reports no line
 * numbers. A short pre-scan of the file catches those cases first and
 * remembers the line of every section and key for error messages.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_cfgfile.h>

#include "pace.h"

#include "config/config.h"
#include "core/paths.h"
#include "config/flow.h"

#define ENG_COMMENT_CHAR '#'

#define ENG_MAX_SECTION_KINDS 32
/* a line of the file, without its newline: a key, "=", a value and some blanks */
#define ENG_MAX_LINE (CFG_NAME_LEN + CFG_VALUE_LEN + 6)
#define ENG_MAX_CONFIG_BYTES (16 << 20)

/*
 * The section kinds: the core ones, then those of the task kinds (their
 * eng_task_ops.sections, in kind order, each once), then [capture]. Checks
 * run in this order: [lcore] before [task] (it assigns tasks to lcores),
 * [task] before the kinds' sections, then every kind's check().
 */
static const struct eng_section_kind *const core_first[] = {
	&eng_section_eal,
	&eng_section_engine,
	&eng_section_port,
	&eng_section_lcore,
	&eng_section_task,
	&eng_section_flow,	/* after [task]: its check resolves the tasks' flow lists */
};

static unsigned int
section_add(const struct eng_section_kind **tab, unsigned int n,
		const struct eng_section_kind *k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (tab[i] == k || strcmp(tab[i]->prefix, k->prefix) == 0)
			return n;
	if (n < ENG_MAX_SECTION_KINDS)
		tab[n++] = k;
	return n;
}

static unsigned int
section_table(const struct eng_section_kind **tab)
{
	unsigned int n = 0, i, k;

	for (i = 0; i < RTE_DIM(core_first); i++)
		n = section_add(tab, n, core_first[i]);
	for (k = 0; k < eng_kinds_count(); k++) {
		const struct eng_section_kind *const *s = eng_kind(k)->sections;

		for (; s != NULL && *s != NULL; s++)
			n = section_add(tab, n, *s);
	}
	return section_add(tab, n, &eng_section_capture);
}

struct scan_key {
	char name[CFG_NAME_LEN];
	int line;
};

struct scan_section {
	char name[CFG_NAME_LEN];
	int line;
	int nb_keys;
	struct scan_key keys[ENG_MAX_KEYS];
};

struct scan {
	int nb;
	struct scan_section *s;
};

static char *
strip(char *p)
{
	char *e;

	while (isspace((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return p;
}

/* "[name]" at lineno (p stripped): a new section. 0 or a negative errno. */
static int
scan_header(struct scan *sc, char *p, const char *file, int lineno, char *err, size_t errlen)
{
	char *end = strchr(p, ']'), *name;
	struct scan_section *cur;
	int i;

	if (end == NULL || end[1] != '\0') {
		snprintf(err, errlen, "%s:%d: expected a section header \"[name]\"; got \"%s\"", file,
				lineno, p);
		return -EINVAL;
	}
	*end = '\0';
	name = strip(p + 1);
	if (*name == '\0' || strlen(name) >= CFG_NAME_LEN) {
		snprintf(err, errlen, "%s:%d: section name empty or too long", file, lineno);
		return -EINVAL;
	}
	for (i = 0; i < sc->nb; i++)
		if (strcmp(sc->s[i].name, name) == 0) {
			snprintf(err, errlen, "%s:%d: [%s]: duplicate section (first defined at line %d)",
					file, lineno, name, sc->s[i].line);
			return -EEXIST;
		}
	if (sc->nb == ENG_MAX_SECTIONS) {
		snprintf(err, errlen, "%s:%d: too many sections (at most %d)", file, lineno,
				ENG_MAX_SECTIONS);
		return -E2BIG;
	}
	cur = &sc->s[sc->nb++];
	snprintf(cur->name, sizeof(cur->name), "%s", name);
	cur->line = lineno;
	return 0;
}

/* "key = value" at lineno (p stripped) in section cur. 0 or a negative errno. */
static int
scan_key(struct scan_section *cur, char *p, const char *file, int lineno, char *err,
		size_t errlen)
{
	char *eq = strchr(p, '=');
	int i;

	if (eq == NULL) {
		snprintf(err, errlen, "%s:%d: expected \"key = value\" or \"[section]\"; got \"%s\"",
				file, lineno, p);
		return -EINVAL;
	}
	*eq = '\0';
	p = strip(p);
	if (cur == NULL) {
		snprintf(err, errlen, "%s:%d: %s: key outside of any [section]", file, lineno, p);
		return -EINVAL;
	}
	if (*p == '\0' || strlen(p) >= CFG_NAME_LEN) {
		snprintf(err, errlen, "%s:%d: [%s]: key name empty or too long", file, lineno,
				cur->name);
		return -EINVAL;
	}
	if (*strip(eq + 1) == '\0') {
		snprintf(err, errlen, "%s:%d: [%s] %s: empty value", file, lineno, cur->name, p);
		return -EINVAL;
	}
	if (strlen(strip(eq + 1)) >= CFG_VALUE_LEN) {
		snprintf(err, errlen, "%s:%d: [%s] %s: value too long (at most %d characters)", file,
				lineno, cur->name, p, CFG_VALUE_LEN - 1);
		return -EINVAL;
	}
	for (i = 0; i < cur->nb_keys; i++)
		if (strcmp(cur->keys[i].name, p) == 0) {
			snprintf(err, errlen, "%s:%d: [%s] %s: duplicate key (first set at line %d)",
					file, lineno, cur->name, p, cur->keys[i].line);
			return -EEXIST;
		}
	if (cur->nb_keys == ENG_MAX_KEYS) {
		snprintf(err, errlen, "%s:%d: [%s]: too many keys (at most %d)", file, lineno,
				cur->name, ENG_MAX_KEYS);
		return -E2BIG;
	}
	snprintf(cur->keys[cur->nb_keys].name, CFG_NAME_LEN, "%s", p);
	cur->keys[cur->nb_keys++].line = lineno;
	return 0;
}

/*
 * The whole file into memory (at most ENG_MAX_CONFIG_BYTES): a regular file
 * only (a directory, a device such as /dev/zero or a FIFO is refused up
 * front, since rte_cfgfile reads the file a second time by name).
 */
static int
file_slurp(const char *file, char **buf, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	size_t n = 0;
	FILE *f;
	int e;

	f = fopen(file, "r");
	if (f == NULL) {
		e = errno;
		snprintf(err, errlen, "%s: cannot open: %s", file, strerror(e));
		return -e;
	}
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", file, S_ISDIR(st.st_mode) ? "is a directory, "
				"expected a config file" : "not a regular file (expected an INI config file)");
		fclose(f);
		return -EINVAL;
	}
	if (st.st_size > ENG_MAX_CONFIG_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes: larger than any config (at most %d)", file,
				(long long)st.st_size, ENG_MAX_CONFIG_BYTES);
		fclose(f);
		return -EFBIG;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (*buf == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", file);
		return -ENOMEM;
	}
	/* the size may change under us: read at most what was allocated */
	n = fread(*buf, 1, (size_t)st.st_size, f);
	e = ferror(f) ? errno : 0;
	fclose(f);
	if (e != 0) {
		snprintf(err, errlen, "%s: read error: %s", file, strerror(e));
		free(*buf);
		*buf = NULL;
		return -e;
	}
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

/*
 * A text line: no NUL, no control character but tab and CR, not longer
 * than the loader's limit. 0 or an error naming FILE:LINE.
 */
static int
line_check(const char *p, size_t n, const char *file, int lineno, char *err, size_t errlen)
{
	size_t i;

	if (n > ENG_MAX_LINE) {
		snprintf(err, errlen, "%s:%d: line too long (at most %d characters)", file, lineno,
				ENG_MAX_LINE);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\0') {
			snprintf(err, errlen, "%s:%d: NUL byte at column %zu: not a text file", file,
					lineno, i + 1);
			return -EINVAL;
		}
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			snprintf(err, errlen, "%s:%d: control character 0x%02x at column %zu: not a "
					"text file", file, lineno, c, i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

static int
scan_file(const char *file, struct scan *sc, char *err, size_t errlen)
{
	char line[ENG_MAX_LINE + 1];
	char *buf = NULL, *p, *c;
	size_t len = 0, off = 0;
	int lineno = 0, rc;

	rc = file_slurp(file, &buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	sc->nb = 0;
	sc->s = calloc(ENG_MAX_SECTIONS, sizeof(*sc->s));
	if (sc->s == NULL) {
		free(buf);
		snprintf(err, errlen, "%s: out of memory", file);
		return -ENOMEM;
	}
	while (rc == 0 && off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl != NULL ? (size_t)(nl - (buf + off)) : len - off;

		lineno++;
		rc = line_check(buf + off, n, file, lineno, err, errlen);
		if (rc < 0)
			break;
		memcpy(line, buf + off, n);
		line[n] = '\0';
		off += n + 1;
		c = strchr(line, ENG_COMMENT_CHAR);
		if (c != NULL)
			*c = '\0';
		p = strip(line);
		if (*p == '\0')
			continue;
		if (*p == '[')
			rc = scan_header(sc, p, file, lineno, err, errlen);
		else
			rc = scan_key(sc->nb ? &sc->s[sc->nb - 1] : NULL, p, file, lineno, err, errlen);
	}
	free(buf);
	if (rc == 0 && sc->nb == 0) {
		snprintf(err, errlen, "%s: %s: no [section] (a config needs at least its ports, tasks "
				"and lcores; doc/config.md)", file, lineno ? "only comments and blank lines" :
				"empty file");
		rc = -EINVAL;
	}
	return rc;
}

static const struct eng_section_kind *
kind_find(const char *name, char *kind, char *id)
{
	const struct eng_section_kind *tab[ENG_MAX_SECTION_KINDS];
	size_t nk = section_table(tab);
	const char *sp;
	size_t n, i;

	sp = strchr(name, ' ');
	n = sp != NULL ? (size_t)(sp - name) : strlen(name);
	snprintf(kind, CFG_NAME_LEN, "%.*s", (int)n, name);
	id[0] = '\0';
	if (sp != NULL) {
		while (*sp == ' ' || *sp == '\t')
			sp++;
		snprintf(id, CFG_NAME_LEN, "%s", sp);
	}
	for (i = 0; i < nk; i++)
		if (strcmp(tab[i]->prefix, kind) == 0)
			return tab[i];
	return NULL;
}

static void
kinds_list(char *buf, size_t len)
{
	const struct eng_section_kind *tab[ENG_MAX_SECTION_KINDS];
	size_t i, off = 0, nk = section_table(tab);

	buf[0] = '\0';
	for (i = 0; i < nk && off < len; i++) {
		const struct eng_section_kind *k = tab[i];

		off += (size_t)snprintf(buf + off, len - off, "%s[%s%s]", i ? ", " : "", k->prefix,
				k->named ? " NAME" : "");
	}
}

static int
parse_section(struct eng_config *cfg, struct rte_cfgfile *cf, int idx, const struct scan_section *ss,
		struct eng_sec *sec)
{
	int i, j, n;

	memset(sec, 0, sizeof(*sec));
	sec->file = cfg->file;
	sec->err = NULL;
	n = rte_cfgfile_section_entries_by_index(cf, idx, sec->name, sec->entries, ENG_MAX_KEYS);
	if (n < 0)
		return -EINVAL;
	sec->nb_entries = n;
	sec->line = ss->line;
	for (i = 0; i < n; i++) {
		sec->entry_line[i] = ss->line;
		for (j = 0; j < ss->nb_keys; j++)
			if (strcmp(ss->keys[j].name, sec->entries[i].name) == 0)
				sec->entry_line[i] = ss->keys[j].line;
	}
	return 0;
}

int
eng_config_port_index(const struct eng_config *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_ports; i++)
		if (strcmp(cfg->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void
config_defaults(struct eng_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->duration_ns = 0;
	cfg->stats_period_ns = 1000000000ull;
	cfg->drain_ns = 200000000ull;
	cfg->stats_top = 10;
	cfg->pace_catchup_ns = PACE_CATCHUP_DEFAULT_NS;
	cfg->mbuf_cache = 256;
	cfg->mbuf_data_size = 2048 + 128; /* RTE_MBUF_DEFAULT_BUF_SIZE */
	eng_drivers_dir_default(cfg->drivers_dir, sizeof(cfg->drivers_dir));
}

/* The section kinds' checks, then the task kinds'. */
static int
config_check(struct eng_config *cfg, char *err, size_t errlen)
{
	const struct eng_section_kind *tab[ENG_MAX_SECTION_KINDS];
	unsigned int i, nk = section_table(tab);
	int rc;

	for (i = 0; i < nk; i++) {
		if (tab[i]->check == NULL)
			continue;
		rc = tab[i]->check(cfg, err, errlen);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < eng_kinds_count(); i++) {
		if (eng_kind(i)->check == NULL)
			continue;
		rc = eng_kind(i)->check(cfg, err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
eng_config_load(struct eng_config *cfg, const char *file, char *err, size_t errlen)
{
	struct rte_cfgfile_parameters params = {.comment_character = ENG_COMMENT_CHAR};
	struct rte_cfgfile *cf = NULL;
	struct eng_sec *sec = NULL;
	struct scan sc = {0, NULL};
	char list[ENG_ERR_LEN / 2];
	int i, j, rc, nsec;

	config_defaults(cfg);
	snprintf(cfg->file, sizeof(cfg->file), "%s", file);
	rc = scan_file(file, &sc, err, errlen);
	if (rc < 0)
		goto out;
	cf = rte_cfgfile_load_with_params(file, 0, &params);
	if (cf == NULL) {
		snprintf(err, errlen, "%s: rte_cfgfile could not parse the file", file);
		rc = -EINVAL;
		goto out;
	}
	nsec = rte_cfgfile_num_sections(cf, "", 0);
	if (nsec != sc.nb) {
		snprintf(err, errlen, "%s: rte_cfgfile found %d sections, expected %d", file, nsec,
				sc.nb);
		rc = -EINVAL;
		goto out;
	}
	sec = malloc(sizeof(*sec));
	if (sec == NULL) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", file);
		goto out;
	}
	for (i = 0; i < nsec; i++) {
		const struct eng_section_kind *kind;

		rc = parse_section(cfg, cf, i, &sc.s[i], sec);
		sec->err = err;
		sec->errlen = errlen;
		if (rc == -EINVAL) {
			snprintf(err, errlen, "%s:%d: cannot read section", file, sc.s[i].line);
			goto out;
		}
		kind = kind_find(sec->name, sec->kind, sec->id);
		if (kind == NULL) {
			kinds_list(list, sizeof(list));
			rc = eng_sec_error(sec, NULL, "unknown section kind \"%s\" (known: %s)",
					sec->kind, list);
			goto out;
		}
		if (kind->named && sec->id[0] == '\0') {
			rc = eng_sec_error(sec, NULL, "expected a name: [%s NAME]", kind->prefix);
			goto out;
		}
		if (!kind->named && sec->id[0] != '\0') {
			rc = eng_sec_error(sec, NULL, "[%s] takes no name", kind->prefix);
			goto out;
		}
		rc = kind->parse(cfg, sec);
		if (rc < 0)
			goto out;
		for (j = 0; j < sec->nb_entries; j++) {
			size_t off = 0;
			int a;

			if (sec->used[j])
				continue;
			list[0] = '\0';
			for (a = 0; a < sec->nb_asked && off < sizeof(list); a++)
				off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
						a ? ", " : "", sec->asked[a]);
			rc = eng_sec_error(sec, sec->entries[j].name, "unknown key (known keys: %s)",
					list);
			goto out;
		}
	}
	rc = config_check(cfg, err, errlen);
	if (rc < 0)
		goto out;
	rc = 0;
out:
	free(sec);
	free(sc.s);
	if (cf != NULL)
		rte_cfgfile_close(cf);
	if (rc < 0)
		eng_config_free(cfg);
	return rc;
}

void
eng_config_free(struct eng_config *cfg)
{
	const struct eng_section_kind *tab[ENG_MAX_SECTION_KINDS];
	unsigned int i, nk = section_table(tab);

	for (i = 0; i < cfg->nb_tasks; i++) {
		free(cfg->tasks[i].conf);
		cfg->tasks[i].conf = NULL;
	}
	for (i = 0; i < nk; i++)
		if (tab[i]->free != NULL)
			tab[i]->free(cfg);
}
