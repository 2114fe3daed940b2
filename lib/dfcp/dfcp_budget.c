/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP sender: the symbol budget of a round that must bring `need`
 * arrivals over independent loss (extended reports, auto redundancy). Only
 * the arrivals past the last one a block needs are wasted (a lost symbol is
 * the channel's, not the code's), so a round gets the most symbols whose
 * expected overshoot E[(X - need)+], X ~ Bin(n, 1 - p), stays within a
 * small budget: the block then takes a few small rounds, each sized from
 * the receiver's exact report of the one before, instead of one round with
 * a margin. p is the loss estimate less one standard deviation of it (a
 * binomial bound over the packets the estimate has seen): the bound
 * shrinks as the estimate firms. The table (need x p) is made once at
 * set-up in floating point; the hot path looks it up with integers.
 * doc/protocol.md, "Capacity budget".
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include "dfcp.h"
#include "dfcp_priv.h"

#define Q16		65536u
#define NP		96u		/* loss levels: 0.9 (i / 95)^2 */
#define EXACT_ROWS	64u		/* need 1..64: a row each, exact binomial */
#define LOG_ROWS	80u		/* then 64 x 2^(j / 8), j = 1..80 (to 65536) */
#define NROWS		(EXACT_ROWS + LOG_ROWS)
#define BUDGET_MIN	0.2		/* symbols of expected overshoot a round, at least */
#define BUDGET_DIV	512.0		/* ... or need / 512 */
#define LOSS_CAP	0.9
#define EST_MAX_PKTS	2048u		/* the estimate's memory (a 1024-packet EWMA) */

static uint32_t grid_q16[NP];		/* loss level i, Q16, increasing */
static uint32_t row_need[NROWS];	/* need of each row, increasing */
static uint32_t tab[NROWS][NP];		/* symbols to send */
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

/* E[(d - L)+], L ~ Bin(n, p): the arrivals past need, d = n - need. */
static double
over_exact(uint32_t n, uint32_t d, double p)
{
	double q = 1.0 - p, mu = n * p, lp, s = 0.0;
	uint32_t l;

	if (d == 0)
		return 0.0;
	/* from l = d - 1 down, until the terms below the mean vanish */
	l = d - 1;
	lp = lgamma(n + 1.0) - lgamma(l + 1.0) - lgamma(n - l + 1.0) + l * log(p) +
		(n - l) * log(q);
	for (;;) {
		double t = (double)(d - l) * exp(lp);

		s += t;
		if (l == 0 || (l < mu && t < 1e-13 * (s + 1e-300)))
			break;
		lp += log((double)l / (double)(n - l + 1)) + log(q / p);
		l--;
	}
	return s;
}

/* The same, L normal (mean n p, variance n p q): rows past EXACT_ROWS. */
static double
over_normal(uint32_t n, uint32_t d, double p)
{
	double mu = n * p, sd = sqrt(n * p * (1.0 - p)), t;

	if (sd < 1e-9)
		return d > mu ? d - mu : 0.0;
	t = (d - mu) / sd;
	return (d - mu) * 0.5 * erfc(-t / sqrt(2.0)) + sd * exp(-t * t / 2) / sqrt(2 * M_PI);
}

/* The largest n >= need whose expected overshoot is within the budget. */
static uint32_t
fit(uint32_t need, double p)
{
	double b = need / BUDGET_DIV > BUDGET_MIN ? need / BUDGET_DIV : BUDGET_MIN;
	double q = 1.0 - p;
	uint64_t lo = need, hi = (uint64_t)ceil((need + b) / q) + 1;

	if (p <= 0.0)
		return need;
	/* E[X] - need <= E[(X - need)+]: hi is over the budget */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		double e = need <= EXACT_ROWS ?
			over_exact((uint32_t)mid, (uint32_t)(mid - need), p) :
			over_normal((uint32_t)mid, (uint32_t)(mid - need), p);

		if (e <= b)
			lo = mid;
		else
			hi = mid;
	}
	return lo > UINT32_MAX ? UINT32_MAX : (uint32_t)lo;
}

static void
tab_make(void)
{
	for (uint32_t i = 0; i < NP; i++) {
		double x = (double)i / (NP - 1);

		grid_q16[i] = (uint32_t)(LOSS_CAP * x * x * Q16);
	}
	for (uint32_t r = 0; r < NROWS; r++)
		row_need[r] = r < EXACT_ROWS ? r + 1 :
			(uint32_t)floor(EXACT_ROWS * exp2((r - EXACT_ROWS + 1) / 8.0));
	for (uint32_t r = 0; r < NROWS; r++)
		for (uint32_t i = 0; i < NP; i++)
			tab[r][i] = fit(row_need[r], (double)grid_q16[i] / Q16);
}

void
dfcp_budget_init(void)
{
	pthread_once(&tab_once, tab_make);
}

/* The largest index of a sorted array with a[i] <= x (0 if none). */
static uint32_t
floor_idx(const uint32_t *a, uint32_t n, uint32_t x)
{
	uint32_t lo = 0, hi = n;

	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;

		if (a[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Symbols for need arrivals at loss loss_q16 (the level at or below it:
 * fewer symbols, never more overshoot). Between two rows of the log part
 * the excess over need scales with need. Integer only.
 */
uint32_t
dfcp_budget_syms(uint32_t need, uint32_t loss_q16, uint32_t cap)
{
	uint32_t i, r, n;

	if (need == 0)
		return 0;
	i = floor_idx(grid_q16, NP, loss_q16);
	if (need <= EXACT_ROWS) {
		n = tab[need - 1][i];
	} else {
		uint64_t m;

		r = floor_idx(row_need, NROWS, need);
		m = row_need[r];
		n = need + (uint32_t)((uint64_t)(tab[r][i] - m) * need / m);
	}
	return n > cap ? cap : n;
}

static uint64_t
isqrt64(uint64_t x)
{
	uint64_t r = 0, bit = 1ull << 62;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * The loss level the table is read at: the estimate less one standard
 * deviation of it, sqrt(p q / n) over the n packets behind it (at most the
 * estimate's memory), 0 before any report. Bursty loss (first rounds'
 * dispersion phi above 2: a queue overflowing while its lcore stalled)
 * hits few rounds hard and leaves the rest whole, whose overshoot a
 * binomial margin at the mean loss would be: the level is p / phi there.
 */
uint32_t
dfcp_budget_loss_lo(const struct loss_model *lm)
{
	uint64_t p = lm->loss_q16, n = lm->total, sd;

	if (!lm->have || n == 0)
		return 0;
	if (n > EST_MAX_PKTS)
		n = EST_MAX_PKTS;
	sd = isqrt64((p * (Q16 - p) << 16) / n) >> 8;	/* Q16 */
	p = p > sd ? p - sd : 0;
	if (lm->phi_q16 > 2u * Q16)
		p = p * Q16 / lm->phi_q16;
	return (uint32_t)p;
}
