/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The output model: one small streaming writer with three backends, so a
 * counter is described once and appears in the periodic text, the summary
 * JSON and telemetry alike.
 *
 *   text   (out.c)      one line per item: "  LABEL key value key value ..."
 *   JSON   (out.c)      proper string escaping, nesting and commas by the
 *                       writer (no hand-built fragments)
 *   tel    (out_tel.c)  rte_tel_data: items of the root become containers,
 *                       anything deeper is flattened into "a/b/key" keys
 *                       (DPDK 22.11 nests containers one level deep); keys
 *                       are reduced to [A-Za-z0-9_/]
 *
 * Structure: eng_out_obj(o, key) / eng_out_arr(o, key) open a member (key
 * NULL inside arrays), eng_out_item(o, what, name) opens an object element of
 * an array (text: the line's label "what name"; telemetry: the container's
 * name),
 * eng_out_end() closes the innermost one. Scalars take a key (NULL inside
 * arrays). A counter table (struct eng_ctr) describes the fields of a plain
 * struct once; eng_out_counters() writes those of the writer's view.
 * No DPDK in this header and in out.c (unit-tested without EAL).
 */
#ifndef ENG_OUT_H
#define ENG_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ENG_OUT_DEPTH 10

enum eng_out_kind {
	ENG_OUT_TEXT = 1,
	ENG_OUT_JSON = 2,
	ENG_OUT_TEL = 4,
};

/* Counter views: which outputs show an entry (0 = all). */
#define ENG_V_TEXT	ENG_OUT_TEXT
#define ENG_V_JSON	ENG_OUT_JSON
#define ENG_V_TEL	ENG_OUT_TEL
#define ENG_V_ALL	(ENG_V_TEXT | ENG_V_JSON | ENG_V_TEL)
#define ENG_V_DATA	(ENG_V_JSON | ENG_V_TEL)	/* not in the compact text lines */

enum eng_ctr_type {
	ENG_CT_U64 = 0,		/* uint64_t */
	ENG_CT_U32,		/* uint32_t */
	ENG_CT_INT,		/* int */
	ENG_CT_BOOL,		/* int, written true / false */
	ENG_CT_DBL,		/* double, prec decimals */
	ENG_CT_STR,		/* const char * (NULL: "") */
	ENG_CT_CHARS,		/* char[] */
};

/* One counter: where it is in its struct, how to show it, what it means. */
struct eng_ctr {
	const char *name;	/* JSON / telemetry key, text label */
	const char *unit;	/* "pkts", "B", "ns", "s", "Mbit/s", "ppm", "" ... */
	uint32_t offset;	/* in the struct the table describes */
	uint8_t type;		/* enum eng_ctr_type */
	uint8_t prec;		/* ENG_CT_DBL: decimals */
	uint8_t views;		/* ENG_V_*, 0 = all */
	const char *help;	/* one line */
};

#define ENG_CTR(st, field, ty, name, unit, views, prec, help) \
	{ name, unit, (uint32_t)offsetof(st, field), ty, prec, views, help }
#define ENG_CTR_U64(st, field, name, unit, help) \
	ENG_CTR(st, field, ENG_CT_U64, name, unit, 0, 0, help)
#define ENG_CTR_U32(st, field, name, unit, help) \
	ENG_CTR(st, field, ENG_CT_U32, name, unit, 0, 0, help)
#define ENG_CTR_DBL(st, field, name, unit, prec, help) \
	ENG_CTR(st, field, ENG_CT_DBL, name, unit, 0, prec, help)

struct eng_out;
struct rte_tel_data;

/* A value on its way to a backend. */
struct eng_out_val {
	uint8_t type;		/* enum eng_ctr_type (CHARS arrive as STR) */
	uint8_t prec;
	const char *unit;	/* from a counter table; the text shows "%" after the value */
	union {
		uint64_t u;
		int64_t i;
		double d;
		const char *s;
	};
};

enum eng_out_open {
	ENG_OPEN_OBJ = 0,
	ENG_OPEN_ARR,
	ENG_OPEN_ITEM,		/* an object element of an array, with a label */
};

struct eng_out_backend {
	void (*open)(struct eng_out *o, const char *key, int how);
	void (*close)(struct eng_out *o);
	void (*scalar)(struct eng_out *o, const char *key, const struct eng_out_val *v);
	void (*finish)(struct eng_out *o);
};

struct eng_out {
	const struct eng_out_backend *be;
	int kind;			/* enum eng_out_kind */
	unsigned int view;		/* ENG_V_* shown by eng_out_counters() */
	int depth;			/* open containers */
	uint8_t how[ENG_OUT_DEPTH + 1];	/* enum eng_out_open of each level */
	uint32_t count[ENG_OUT_DEPTH + 1]; /* members written at each depth */
	int err;			/* -ENOSPC: nested too deep; -EIO: write error */
	FILE *f;			/* text, JSON */
	/* JSON: newline before each member at this depth */
	uint8_t nl[ENG_OUT_DEPTH + 1];
	int one_line;			/* JSON: the whole object on one line */
	/* text */
	int line_open;
	int sep;			/* an object just closed inside the line */
	int indent;
	/* telemetry (out_tel.c) */
	struct rte_tel_data *tel_root, *tel_cur;
	char tel_label[64];
	char tel_prefix[128];
	size_t tel_plen[ENG_OUT_DEPTH + 1];
	const char *tel_arrkey[ENG_OUT_DEPTH + 1];
	int tel_item_depth;		/* level of the open container's members, 0 = none */
};

void eng_out_json(struct eng_out *o, FILE *f);
/* JSON on one line ending in a newline (a JSON Lines record, a reply). */
void eng_out_json_line(struct eng_out *o, FILE *f);
/* indent: spaces before a depth-0 line (each deeper item adds two) */
void eng_out_text(struct eng_out *o, FILE *f, int indent);
/* rte_telemetry (out_tel.c): starts d as a dict. */
void eng_out_tel(struct eng_out *o, struct rte_tel_data *d);
/* ... or makes the whole answer the one string s instead (nothing else may be
 * written): 0, or -E2BIG over DPDK's RTE_TEL_MAX_SINGLE_STRING_LEN - 1 bytes. */
int eng_out_tel_string(struct eng_out *o, const char *s);
/* Close whatever is open; 0 or the first error. */
int eng_out_finish(struct eng_out *o);

void eng_out_obj(struct eng_out *o, const char *key);
void eng_out_arr(struct eng_out *o, const char *key);
/* An object element of an array: text label "WHAT NAME" (or NAME), telemetry
 * container NAME; JSON ignores both (write a "name" member if it wants one). */
void eng_out_item(struct eng_out *o, const char *what, const char *name);
void eng_out_end(struct eng_out *o);

void eng_out_u64(struct eng_out *o, const char *key, uint64_t v);
void eng_out_int(struct eng_out *o, const char *key, int64_t v);
void eng_out_dbl(struct eng_out *o, const char *key, double v, unsigned int prec);
void eng_out_str(struct eng_out *o, const char *key, const char *s);
void eng_out_bool(struct eng_out *o, const char *key, int v);

/* The entries of tab[0..n) whose views include o->view, read from base. */
void eng_out_counters(struct eng_out *o, const struct eng_ctr *tab, unsigned int n,
		const void *base);

/* JSON string escaping into buf (cap > 0, always NUL-terminated); returns the
 * length it needs (as snprintf). For tests and one-off strings. */
size_t eng_json_escape(char *buf, size_t cap, const char *s);

#endif /* ENG_OUT_H */
