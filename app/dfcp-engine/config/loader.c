/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config loader: the INI file read in one pass (sections, "key = value",
 * '#' comments), dispatched to the section-kind table. No EAL: the unit
 * tests build this file.
 *
 * The file is read into memory and split in place: every section and key
 * keeps its line for error messages; lines, values and the number of
 * sections have no limit but the file's size (ENG_MAX_CONFIG_BYTES), so
 * lists such as "flows = a, b, ..." are as long as they need to be.
 * Every line must be "[section]", "key = value", a comment or blank; a
 * section or a key given twice is refused (rte_cfgfile, used for the
 * drivers' presets, would keep both silently).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pace.h"

#include "config/config.h"
#include "core/paths.h"
#include "core/port.h"
#include "config/flow.h"

#define ENG_COMMENT_CHAR '#'

#define ENG_MAX_SECTION_KINDS 32
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

/* The pre-scan's model of the file: sections and keys point into its buffer. */
struct scan_key {
	const char *name, *value;
	int line;
};

struct scan_section {
	const char *name;
	int line;
	unsigned int first_key, nb_keys;	/* keys[first_key .. first_key + nb_keys) */
};

struct scan {
	char *buf;			/* the file, split into strings in place */
	unsigned int nb, cap;		/* sections */
	struct scan_section *s;
	unsigned int nb_keys, cap_keys;
	struct scan_key *keys;
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

/* Room for one more element in a table grown by doubling. */
static int
grow(void **tab, unsigned int n, unsigned int *cap, size_t size)
{
	unsigned int ncap;
	void *t;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	t = realloc(*tab, (size_t)ncap * size);
	if (t == NULL)
		return -ENOMEM;
	*tab = t;
	*cap = ncap;
	return 0;
}

/* "[name]" at lineno (p stripped): a new section. 0 or a negative errno. */
static int
scan_header(struct scan *sc, char *p, const char *file, int lineno, char *err, size_t errlen)
{
	char *end = strchr(p, ']'), *name;
	struct scan_section *cur;

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
	if (grow((void **)&sc->s, sc->nb, &sc->cap, sizeof(*sc->s)) < 0) {
		snprintf(err, errlen, "%s:%d: out of memory", file, lineno);
		return -ENOMEM;
	}
	cur = &sc->s[sc->nb++];
	cur->name = name;
	cur->line = lineno;
	cur->first_key = sc->nb_keys;
	cur->nb_keys = 0;
	return 0;
}

/* "key = value" at lineno (p stripped) in section cur. 0 or a negative errno. */
static int
scan_key(struct scan *sc, char *p, const char *file, int lineno, char *err, size_t errlen)
{
	struct scan_section *cur = sc->nb ? &sc->s[sc->nb - 1] : NULL;
	char *eq = strchr(p, '='), *v;
	struct scan_key *k;
	unsigned int i;

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
	v = strip(eq + 1);
	if (*v == '\0') {
		snprintf(err, errlen, "%s:%d: [%s] %s: empty value", file, lineno, cur->name, p);
		return -EINVAL;
	}
	for (i = 0; i < cur->nb_keys; i++)
		if (strcmp(sc->keys[cur->first_key + i].name, p) == 0) {
			snprintf(err, errlen, "%s:%d: [%s] %s: duplicate key (first set at line %d)",
					file, lineno, cur->name, p, sc->keys[cur->first_key + i].line);
			return -EEXIST;
		}
	if (cur->nb_keys == ENG_MAX_KEYS) {
		snprintf(err, errlen, "%s:%d: [%s]: too many keys (at most %d)", file, lineno,
				cur->name, ENG_MAX_KEYS);
		return -E2BIG;
	}
	if (grow((void **)&sc->keys, sc->nb_keys, &sc->cap_keys, sizeof(*sc->keys)) < 0) {
		snprintf(err, errlen, "%s:%d: out of memory", file, lineno);
		return -ENOMEM;
	}
	k = &sc->keys[sc->nb_keys++];
	k->name = p;
	k->value = v;
	k->line = lineno;
	cur->nb_keys++;
	return 0;
}

/*
 * The whole file into memory (at most ENG_MAX_CONFIG_BYTES): a regular file
 * only (a directory, a device such as /dev/zero or a FIFO is refused up front).
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
 * A text line: no NUL, no control character but tab and CR. 0 or an error
 * naming FILE:LINE. Lines have no length limit but the file's.
 */
static int
line_check(const char *p, size_t n, const char *file, int lineno, char *err, size_t errlen)
{
	size_t i;

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
sec_name_cmp(const void *a, const void *b)
{
	const struct scan_section *x = *(const struct scan_section *const *)a;
	const struct scan_section *y = *(const struct scan_section *const *)b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/* No section twice: sorted by name (then line), the duplicate met first in the file. */
static int
scan_duplicates(const struct scan *sc, const char *file, char *err, size_t errlen)
{
	const struct scan_section **v = malloc(sc->nb * sizeof(*v) + 1);
	const struct scan_section *dup = NULL, *first = NULL, *run;
	unsigned int i;

	if (v == NULL) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -ENOMEM;
	}
	for (i = 0; i < sc->nb; i++)
		v[i] = &sc->s[i];
	qsort(v, sc->nb, sizeof(*v), sec_name_cmp);
	run = sc->nb ? v[0] : NULL;
	for (i = 1; i < sc->nb; i++) {
		if (strcmp(v[i]->name, run->name) != 0) {
			run = v[i];
			continue;
		}
		if (dup == NULL || v[i]->line < dup->line) {
			dup = v[i];
			first = run;
		}
	}
	if (dup != NULL)
		snprintf(err, errlen, "%s:%d: [%s]: duplicate section (first defined at line %d)",
				file, dup->line, dup->name, first->line);
	free(v);
	return dup != NULL ? -EEXIST : 0;
}

static int
scan_file(const char *file, struct scan *sc, char *err, size_t errlen)
{
	size_t len = 0, off = 0;
	int lineno = 0, rc;
	char *p, *c;

	rc = file_slurp(file, &sc->buf, &len, err, errlen);
	if (rc < 0)
		return rc;
	while (rc == 0 && off < len) {
		char *line = sc->buf + off;
		char *nl = memchr(line, '\n', len - off);
		size_t n = nl != NULL ? (size_t)(nl - line) : len - off;

		lineno++;
		rc = line_check(line, n, file, lineno, err, errlen);
		if (rc < 0)
			break;
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
			rc = scan_key(sc, p, file, lineno, err, errlen);
	}
	if (rc == 0 && sc->nb == 0) {
		snprintf(err, errlen, "%s: %s: no [section] (a config needs at least its ports, tasks "
				"and lcores; doc/config.md)", file, lineno ? "only comments and blank lines" :
				"empty file");
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = scan_duplicates(sc, file, err, errlen);
	return rc;
}

static void
scan_free(struct scan *sc)
{
	free(sc->buf);
	free(sc->s);
	free(sc->keys);
	memset(sc, 0, sizeof(*sc));
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

static void
parse_section(const char *file, const struct scan *sc, const struct scan_section *ss,
		struct eng_sec *sec)
{
	unsigned int i;

	memset(sec, 0, sizeof(*sec));
	sec->file = file;
	snprintf(sec->name, sizeof(sec->name), "%s", ss->name);
	sec->line = ss->line;
	sec->nb_entries = (int)ss->nb_keys;
	for (i = 0; i < ss->nb_keys; i++) {
		const struct scan_key *k = &sc->keys[ss->first_key + i];

		sec->entries[i].name = k->name;
		sec->entries[i].value = k->value;
		sec->entry_line[i] = k->line;
	}
}

int
eng_config_load_one(const char *file, const char *section, struct eng_sec *sec, void **mem,
		char *err, size_t errlen)
{
	struct scan *sc = calloc(1, sizeof(*sc));
	int rc;

	*mem = NULL;
	if (sc == NULL)
		return -ENOMEM;
	rc = scan_file(file, sc, err, errlen);
	if (rc == 0 && (sc->nb != 1 || strcmp(sc->s[0].name, section) != 0)) {
		snprintf(err, errlen, "%s:%d: expected exactly one section, [%s]", file,
				sc->nb > 1 ? sc->s[1].line : sc->s[0].line, section);
		rc = -EINVAL;
	}
	if (rc < 0) {
		scan_free(sc);
		free(sc);
		return rc;
	}
	parse_section(file, sc, &sc->s[0], sec);
	sec->err = err;
	sec->errlen = errlen;
	*mem = sc;
	return 0;
}

void
eng_config_load_one_free(void *mem)
{
	if (mem != NULL) {
		scan_free(mem);
		free(mem);
	}
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
	cfg->summary_flows = 16;
	cfg->pace_catchup_ns = PACE_CATCHUP_DEFAULT_NS;
	cfg->mbuf_cache = 256;
	cfg->mbuf_data_size = 2048 + 128; /* RTE_MBUF_DEFAULT_BUF_SIZE */
	snprintf(cfg->mbuf_pool_ops, sizeof(cfg->mbuf_pool_ops), "auto");
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
	struct eng_sec *sec = NULL;
	struct scan sc;
	int dev_line[ENG_MAX_PORTS] = {0};	/* of each port's device key */
	char list[ENG_ERR_LEN / 2];
	unsigned int i;
	int j, rc;

	memset(&sc, 0, sizeof(sc));
	config_defaults(cfg);
	snprintf(cfg->file, sizeof(cfg->file), "%s", file);
	rc = scan_file(file, &sc, err, errlen);
	if (rc < 0)
		goto out;
	sec = malloc(sizeof(*sec));
	if (sec == NULL) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", file);
		goto out;
	}
	for (i = 0; i < sc.nb; i++) {
		const struct eng_section_kind *kind;

		parse_section(cfg->file, &sc, &sc.s[i], sec);
		sec->err = err;
		sec->errlen = errlen;
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
		if (rc == 0 && kind == &eng_section_port && cfg->nb_ports > 0)
			dev_line[cfg->nb_ports - 1] = eng_sec_line(sec, "device");
		if (sec->long_key != NULL) {
			rc = eng_sec_error(sec, sec->long_key, "value too long (at most %d characters; "
					"only lists of names, such as a task's flows, may be longer)",
					CFG_VALUE_LEN - 1);
			goto out;
		}
		if (rc < 0)
			goto out;
		for (j = 0; j < sec->nb_entries; j++) {
			if (sec->used[j])
				continue;
			rc = eng_sec_unknown_key(sec, j);
			goto out;
		}
	}
	rc = config_check(cfg, err, errlen);
	if (rc == 0)
		rc = eng_ports_check_devices(cfg, dev_line, err, errlen);
	if (rc < 0)
		goto out;
	rc = 0;
out:
	free(sec);
	scan_free(&sc);
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
