/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The output writer (out.h): the generic layer (nesting, counter tables) and
 * the text and JSON backends. No DPDK: test/obs/test_out.c drives it alone.
 *
 * Levels: 0 is the root (JSON: the top-level object, opened by eng_out_json
 * and closed by eng_out_finish); opening a container at level L makes level
 * L + 1 the level of its members. count[L] is the number of members written
 * at level L, how[L] what kind of container level L belongs to.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "obs/out.h"

/* ------------------------------------------------------------------ */
/* generic layer                                                        */
/* ------------------------------------------------------------------ */

static void
out_open(struct eng_out *o, const char *key, int how)
{
	if (o->depth >= ENG_OUT_DEPTH) {
		o->err = -ENOSPC;
		o->depth++;	/* matched by eng_out_end(), nothing written inside */
		return;
	}
	o->be->open(o, key, how);
	o->depth++;
	o->how[o->depth] = (uint8_t)how;
	o->count[o->depth] = 0;
}

void
eng_out_obj(struct eng_out *o, const char *key)
{
	out_open(o, key, ENG_OPEN_OBJ);
}

void
eng_out_arr(struct eng_out *o, const char *key)
{
	out_open(o, key, ENG_OPEN_ARR);
}

void
eng_out_item(struct eng_out *o, const char *what, const char *name)
{
	char label[160];

	if (name == NULL)
		name = "-";
	if (o->kind == ENG_OUT_TEXT && what != NULL) {
		snprintf(label, sizeof(label), "%s %s", what, name);
		out_open(o, label, ENG_OPEN_ITEM);
	} else {
		out_open(o, name, ENG_OPEN_ITEM);
	}
}

void
eng_out_end(struct eng_out *o)
{
	if (o->depth == 0)
		return;
	if (o->depth <= ENG_OUT_DEPTH)
		o->be->close(o);
	o->depth--;
}

static void
out_scalar(struct eng_out *o, const char *key, const struct eng_out_val *v)
{
	if (o->depth > ENG_OUT_DEPTH)
		return;
	o->be->scalar(o, key, v);
}

void
eng_out_u64(struct eng_out *o, const char *key, uint64_t v)
{
	struct eng_out_val x = {.type = ENG_CT_U64, .u = v};

	out_scalar(o, key, &x);
}

void
eng_out_int(struct eng_out *o, const char *key, int64_t v)
{
	struct eng_out_val x = {.type = ENG_CT_INT, .i = v};

	out_scalar(o, key, &x);
}

void
eng_out_dbl(struct eng_out *o, const char *key, double v, unsigned int prec)
{
	struct eng_out_val x = {.type = ENG_CT_DBL, .prec = (uint8_t)(prec > 12 ? 12 : prec), .d = v};

	out_scalar(o, key, &x);
}

void
eng_out_str(struct eng_out *o, const char *key, const char *s)
{
	struct eng_out_val x = {.type = ENG_CT_STR, .s = s != NULL ? s : ""};

	out_scalar(o, key, &x);
}

void
eng_out_bool(struct eng_out *o, const char *key, int v)
{
	struct eng_out_val x = {.type = ENG_CT_BOOL, .u = v != 0};

	out_scalar(o, key, &x);
}

void
eng_out_counters(struct eng_out *o, const struct eng_ctr *tab, unsigned int n, const void *base)
{
	const char *b = base;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct eng_ctr *c = &tab[i];
		const void *p = b + c->offset;
		struct eng_out_val v = {.type = c->type, .prec = c->prec, .unit = c->unit};

		if (c->views != 0 && (c->views & o->view) == 0)
			continue;
		switch (c->type) {
		case ENG_CT_U64:
			v.u = *(const uint64_t *)p;
			break;
		case ENG_CT_U32:
			v.type = ENG_CT_U64;
			v.u = *(const uint32_t *)p;
			break;
		case ENG_CT_INT:
			v.i = *(const int *)p;
			break;
		case ENG_CT_BOOL:
			v.u = *(const int *)p != 0;
			break;
		case ENG_CT_DBL:
			v.d = *(const double *)p;
			break;
		case ENG_CT_STR:
			v.s = *(const char *const *)p != NULL ? *(const char *const *)p : "";
			break;
		case ENG_CT_CHARS:
			v.type = ENG_CT_STR;
			v.s = (const char *)p;
			break;
		default:
			continue;
		}
		out_scalar(o, c->name, &v);
	}
}

int
eng_out_finish(struct eng_out *o)
{
	while (o->depth > 0)
		eng_out_end(o);
	if (o->be->finish != NULL)
		o->be->finish(o);
	return o->err;
}

static void
out_init(struct eng_out *o, const struct eng_out_backend *be, int kind, FILE *f)
{
	memset(o, 0, sizeof(*o));
	o->be = be;
	o->kind = kind;
	o->view = (unsigned int)kind;
	o->f = f;
	o->how[0] = ENG_OPEN_OBJ;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */
/* ------------------------------------------------------------------ */

size_t
eng_json_escape(char *buf, size_t cap, const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		char tmp[8];
		const char *e = tmp;

		switch (c) {
		case '"': e = "\\\""; break;
		case '\\': e = "\\\\"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		default:
			if (c < 0x20 || c == 0x7f)
				snprintf(tmp, sizeof(tmp), "\\u%04x", c);
			else
				tmp[0] = (char)c, tmp[1] = '\0';
			break;
		}
		for (; *e != '\0'; e++, n++)
			if (n + 1 < cap)
				buf[n] = *e;
	}
	if (cap > 0)
		buf[n < cap ? n : cap - 1] = '\0';
	return n;
}

static void
json_string(FILE *f, const char *s)
{
	char buf[256];
	size_t n = strlen(s);

	fputc('"', f);
	while (n > 0) {
		/* escape at most 40 input bytes at a time: <= 6 output bytes each */
		char chunk[41];
		size_t k = n < 40 ? n : 40;

		memcpy(chunk, s, k);
		chunk[k] = '\0';
		eng_json_escape(buf, sizeof(buf), chunk);
		fputs(buf, f);
		s += k;
		n -= k;
	}
	fputc('"', f);
}

static void
json_indent(FILE *f, int n)
{
	fputc('\n', f);
	while (n-- > 0)
		fputc(' ', f);
}

/* Indentation of a line at level l: two spaces per line-broken level below. */
static int
json_indent_of(const struct eng_out *o, int l)
{
	int i, n = 0;

	for (i = 0; i < l; i++)
		n += o->nl[i];
	return 2 * n;
}

/* Separator, line break and key before a member of the current level. */
static void
json_member(struct eng_out *o, const char *key, int container)
{
	int l = o->depth;

	if (o->count[l] == 0 && o->how[l] == ENG_OPEN_ARR && container && l > 0 && !o->one_line)
		o->nl[l] = 1;	/* an array of containers: one element per line */
	if (o->count[l] > 0)
		fputc(',', o->f);
	if (o->nl[l])
		json_indent(o->f, json_indent_of(o, l) + 2);
	else if (o->count[l] > 0)
		fputc(' ', o->f);
	o->count[l]++;
	if (o->how[l] != ENG_OPEN_ARR) {
		json_string(o->f, key != NULL ? key : "");
		fputs(": ", o->f);
	}
}

static void
json_open(struct eng_out *o, const char *key, int how)
{
	json_member(o, how == ENG_OPEN_ITEM ? NULL : key, 1);
	fputc(how == ENG_OPEN_ARR ? '[' : '{', o->f);
	o->nl[o->depth + 1] = 0;
}

static void
json_close(struct eng_out *o)
{
	int l = o->depth;

	if (o->nl[l] && o->count[l] > 0)
		json_indent(o->f, json_indent_of(o, l));
	fputc(o->how[l] == ENG_OPEN_ARR ? ']' : '}', o->f);
}

static void
json_scalar(struct eng_out *o, const char *key, const struct eng_out_val *v)
{
	json_member(o, key, 0);
	switch (v->type) {
	case ENG_CT_INT:
		fprintf(o->f, "%" PRId64, v->i);
		break;
	case ENG_CT_BOOL:
		fputs(v->u ? "true" : "false", o->f);
		break;
	case ENG_CT_DBL:
		if (isfinite(v->d))
			fprintf(o->f, "%.*f", v->prec, v->d);
		else
			fputs("null", o->f);
		break;
	case ENG_CT_STR:
		json_string(o->f, v->s);
		break;
	default:
		fprintf(o->f, "%" PRIu64, v->u);
		break;
	}
}

static void
json_finish(struct eng_out *o)
{
	if (o->count[0] > 0 && !o->one_line)
		fputc('\n', o->f);
	fputs("}\n", o->f);
	if (ferror(o->f) && o->err == 0)
		o->err = -EIO;
}

static const struct eng_out_backend json_backend = {
	.open = json_open,
	.close = json_close,
	.scalar = json_scalar,
	.finish = json_finish,
};

void
eng_out_json(struct eng_out *o, FILE *f)
{
	out_init(o, &json_backend, ENG_OUT_JSON, f);
	o->nl[0] = 1;
	fputc('{', f);
}

void
eng_out_json_line(struct eng_out *o, FILE *f)
{
	out_init(o, &json_backend, ENG_OUT_JSON, f);
	o->one_line = 1;
	fputc('{', f);
}

/* ------------------------------------------------------------------ */
/* text                                                                 */
/* ------------------------------------------------------------------ */

/* Items open above the current level (each indents its lines by two). */
static int
text_items(const struct eng_out *o)
{
	int l, n = 0;

	for (l = 1; l <= o->depth && l <= ENG_OUT_DEPTH; l++)
		n += o->how[l] == ENG_OPEN_ITEM;
	return n;
}

static void
text_line(struct eng_out *o, int items)
{
	int n = o->indent + 2 * items;

	if (o->line_open)
		fputc('\n', o->f);
	while (n-- > 0)
		fputc(' ', o->f);
	o->line_open = 1;
	o->sep = 0;
}

static void
text_open(struct eng_out *o, const char *key, int how)
{
	if (how == ENG_OPEN_ITEM) {
		text_line(o, text_items(o));
		fputs(key != NULL ? key : "-", o->f);
		return;
	}
	if (how == ENG_OPEN_ARR || key == NULL)
		return;		/* arrays: their items make the lines */
	o->count[o->depth]++;
	if (!o->line_open) {
		text_line(o, text_items(o));
		fprintf(o->f, "%s:", key);
	} else {
		fprintf(o->f, " | %s:", key);	/* an object inside a line: "| key: ... |" */
		o->sep = 0;
	}
}

static void
text_close(struct eng_out *o)
{
	int l = o->depth;

	if (o->how[l] == ENG_OPEN_ITEM && o->line_open) {
		fputc('\n', o->f);
		o->line_open = 0;
	} else if (o->how[l] == ENG_OPEN_OBJ && o->line_open) {
		if (o->count[l] == 0)
			fputs(" none", o->f);
		o->sep = 1;	/* the parent's next member starts with " |" */
	}
}

static void
text_scalar(struct eng_out *o, const char *key, const struct eng_out_val *v)
{
	if (!o->line_open)
		text_line(o, text_items(o));
	else if (o->sep)
		fputs(" |", o->f);
	o->sep = 0;
	o->count[o->depth]++;
	if (key != NULL)
		fprintf(o->f, " %s", key);
	switch (v->type) {
	case ENG_CT_INT:
		fprintf(o->f, " %" PRId64, v->i);
		break;
	case ENG_CT_BOOL:
		fputs(v->u ? " yes" : " no", o->f);
		break;
	case ENG_CT_DBL:
		fprintf(o->f, " %.*f%s", v->prec, v->d,
				v->unit != NULL && strcmp(v->unit, "%") == 0 ? "%" : "");
		break;
	case ENG_CT_STR:
		fprintf(o->f, " %s", v->s[0] != '\0' ? v->s : "-");
		break;
	default:
		fprintf(o->f, " %" PRIu64, v->u);
		break;
	}
}

static void
text_finish(struct eng_out *o)
{
	if (o->line_open)
		fputc('\n', o->f);
	o->line_open = 0;
	if (ferror(o->f) && o->err == 0)
		o->err = -EIO;
}

static const struct eng_out_backend text_backend = {
	.open = text_open,
	.close = text_close,
	.scalar = text_scalar,
	.finish = text_finish,
};

void
eng_out_text(struct eng_out *o, FILE *f, int indent)
{
	out_init(o, &text_backend, ENG_OUT_TEXT, f);
	o->indent = indent;
}
