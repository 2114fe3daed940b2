/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sched unit tests: shares, weights, many queues, join/leave, FIFO, DRR,
 * 65536 queues. Virtual clock, fixed seeds: every run is identical. WF2Q+
 * against fluid GPS and against the plain reference are in test_sched_gps.c
 * and test_sched_ref.c. Usage: test_sched NAME   ("all" runs all)
 */
#include "sched_test.h"

/*
 * Keep queues backlogged (refill after each dequeue) and serve `pkts`
 * packets; sizes random 64..1518 (or fixed when fixed_len). Returns served
 * bytes per queue in bytes[].
 */
static void
run_backlogged(struct sched *s, const uint32_t *active, uint32_t na,
		uint64_t pkts, uint32_t fixed_len, uint64_t *bytes)
{
	struct sched_pkt out[1];
	uint64_t done = 0, id = 0;
	uint32_t i;

	for (i = 0; i < na; i++) {
		struct sched_qstats st;

		sched_queue_stats(s, active[i], &st);
		for (; st.qlen_pkts < 4; st.qlen_pkts++)
			sched_enqueue(s, active[i], id++, fixed_len ? fixed_len :
				rnd_range(LMIN, LMAX), 0);
	}
	while (done < pkts) {
		/* One at a time: every queue refilled before the next choice. */
		unsigned int n = sched_dequeue_burst(s, out, 1, 0), j;

		if (n == 0)
			break;
		for (j = 0; j < n; j++) {
			bytes[out[j].queue] += out[j].len;
			sched_enqueue(s, out[j].queue, id++, fixed_len ? fixed_len :
				rnd_range(LMIN, LMAX), 0);
		}
		done += n;
	}
}

/* Shares of the active queues within tol (relative) of w_i / sum w. */
static void
check_shares(const char *what, const uint32_t *active, const uint32_t *w,
		uint32_t na, const uint64_t *bytes, double tol)
{
	double tot = 0, wsum = 0;
	uint32_t i;

	for (i = 0; i < na; i++) {
		tot += bytes[active[i]];
		wsum += w[i];
	}
	for (i = 0; i < na; i++) {
		double share = bytes[active[i]] / tot, want = w[i] / wsum;

		CHECKF(fabs(share - want) <= tol * want,
		      "%s: queue %u share %.5f want %.5f", what, active[i], share, want);
	}
}

static void
test_share2(const char *algo)
{
	uint32_t act[2] = { 0, 1 }, w[2] = { 1, 1 };
	uint64_t bytes[2] = { 0, 0 };
	struct sched *s = mk(algo, 2, 64);

	run_backlogged(s, act, 2, 200000, 0, bytes);
	check_shares(algo, act, w, 2, bytes, 0.005);
	sched_free(s);
}

static void
test_weights127(const char *algo)
{
	uint32_t act[3] = { 0, 1, 2 }, w[3] = { 1, 2, 7 }, i;
	uint64_t bytes[3] = { 0 };
	struct sched *s = mk(algo, 3, 64);

	for (i = 0; i < 3; i++)
		CHECKF(sched_queue_set(s, i, w[i], 0, 0) == 0, "set");
	run_backlogged(s, act, 3, 300000, 0, bytes);
	check_shares(algo, act, w, 3, bytes, 0.005);
	sched_free(s);
}

/* 1000 queues, random weights 1..100: each within 2 max packets of its
 * weighted share, weighted Jain >= 0.999. */
static void
test_many(const char *algo)
{
	enum { NQ = 1000 };
	static uint32_t act[NQ], w[NQ];
	static uint64_t bytes[NQ];
	static double x[NQ];
	double tot = 0, wsum = 0, jain;
	struct sched *s = mk(algo, NQ, NQ * 8);
	uint32_t i;

	memset(bytes, 0, sizeof(bytes));
	for (i = 0; i < NQ; i++) {
		act[i] = i;
		w[i] = rnd_range(1, 100);
		wsum += w[i];
		sched_queue_set(s, i, w[i], 0, 0);
	}
	run_backlogged(s, act, NQ, 3000000, 0, bytes);
	for (i = 0; i < NQ; i++)
		tot += bytes[i];
	for (i = 0; i < NQ; i++) {
		double want = tot * w[i] / wsum;
		double tolb = strcmp(algo, "drr") == 0 ?
			(double)SCHED_DEFAULT_QUANTUM * w[i] + LMAX : 2.0 * LMAX;

		CHECKF(fabs(bytes[i] - want) <= tolb,
		      "%s: queue %u (w %u) got %" PRIu64 " want %.0f", algo, i, w[i],
		      bytes[i], want);
		x[i] = bytes[i] / (double)w[i];
	}
	jain = sched_jain(x, NQ);
	CHECKF(jain >= 0.999, "%s: Jain %.6f", algo, jain);
	printf("%s many: Jain %.6f\n", algo, jain);
	sched_free(s);
}

/* Drain queue q completely from the backlog set: stop refilling it. */
static void
test_joinleave(void)
{
	/* Phases: {0,1} -> {0,1,2} -> {1,2} -> {1,2,3}; weights 1,1,2,4. */
	static const uint32_t w[4] = { 1, 1, 2, 4 };
	static const uint32_t phase[4][4] = {
		{ 1, 1, 0, 0 }, { 1, 1, 1, 0 }, { 0, 1, 1, 0 }, { 0, 1, 1, 1 },
	};
	struct sched *s = mk("wf2q+", 4, 256);
	struct sched_pkt out[16];
	uint64_t id = 0;
	uint32_t ph, i;

	for (i = 0; i < 4; i++)
		sched_queue_set(s, i, w[i], 0, 0);
	for (ph = 0; ph < 4; ph++) {
		uint64_t bytes[4] = { 0 }, tot = 0, served = 0;
		double wsum = 0;

		/* Let leaving queues drain, then measure a steady phase. */
		for (i = 0; i < 4; i++) {
			struct sched_qstats st;

			sched_queue_stats(s, i, &st);
			while (phase[ph][i] && st.qlen_pkts < 8) {
				sched_enqueue(s, i, id++, rnd_range(LMIN, LMAX), 0);
				st.qlen_pkts++;
			}
		}
		while (served < 200000) {
			unsigned int n = sched_dequeue_burst(s, out, 1, 0), j;

			for (j = 0; j < n; j++) {
				uint32_t q = out[j].queue;

				if (!phase[ph][q])
					continue;	/* leftovers of a leaving queue */
				bytes[q] += out[j].len;
				tot += out[j].len;
				sched_enqueue(s, q, id++, rnd_range(LMIN, LMAX), 0);
			}
			served += n;
		}
		for (i = 0; i < 4; i++)
			if (phase[ph][i])
				wsum += w[i];
		for (i = 0; i < 4; i++) {
			double share = (double)bytes[i] / tot, want = phase[ph][i] ? w[i] / wsum : 0;

			CHECKF(fabs(share - want) <= 0.005 * (want > 0 ? want : 1),
			      "phase %u queue %u share %.5f want %.5f", ph, i, share, want);
		}
	}
	sched_free(s);
}

static void
test_fifo(void)
{
	struct sched_conf c = { .algo = "fifo", .nb_queues = 4, .pool_pkts = 100,
		.limit_pkts = 10 };
	struct sched *s = sched_create(&c);
	struct sched_pkt out[200];
	struct sched_qstats st;
	uint64_t order[200];
	unsigned int n, i, acc = 0, drops = 0;

	CHECKF(s != NULL, "create");
	for (i = 0; i < 60; i++) {
		uint32_t q = rnd_range(0, 3);
		int rc = sched_enqueue(s, q, 1000 + i, 100 + i, 0);

		if (rc == 0)
			order[acc++] = 1000 + i;
		else
			drops++;
		CHECKF(rc == 0 || rc == -ENOBUFS, "rc %d", rc);
	}
	n = sched_dequeue_burst(s, out, 200, 0);
	CHECKF(n == acc, "fifo returned %u of %u", n, acc);
	for (i = 0; i < n; i++)
		CHECKF(out[i].pkt == order[i], "fifo order at %u", i);
	{
		uint64_t d = 0, e = 0, dq = 0;

		for (i = 0; i < 4; i++) {
			sched_queue_stats(s, i, &st);
			d += st.drop_pkts;
			e += st.enq_pkts;
			dq += st.deq_pkts;
			CHECKF(st.qlen_pkts == 0, "empty");
		}
		CHECKF(d == drops && e == acc && dq == acc, "counters");
	}
	/* Byte limit and pool exhaustion. */
	sched_queue_set(s, 0, 1, 0, 1000);
	CHECKF(sched_enqueue(s, 0, 1, 600, 0) == 0, "b1");
	CHECKF(sched_enqueue(s, 0, 2, 600, 0) == -ENOBUFS, "byte limit");
	CHECKF(sched_enqueue(s, 0, 3, 400, 0) == 0, "b3");
	sched_queue_set(s, 1, 1, 0, 0);
	for (i = 0; i < 98; i++)
		CHECKF(sched_enqueue(s, 1, i, 64, 0) == 0, "pool %u", i);
	CHECKF(sched_enqueue(s, 1, 99, 64, 0) == -ENOBUFS, "pool full");
	CHECKF(sched_enqueue(s, 9, 99, 64, 0) == -EINVAL, "bad queue");
	CHECKF(sched_enqueue(s, 1, 99, 0, 0) == -EINVAL, "bad len");
	CHECKF(sched_backlog_pkts(s) == 100, "backlog");
	n = sched_dequeue_burst(s, out, 200, 0);
	CHECKF(n == 100 && out[0].pkt == 1 && out[1].pkt == 3, "fifo after limits");
	sched_free(s);
	CHECKF(sched_create(&(struct sched_conf){ .algo = "nope", .nb_queues = 1 }) == NULL, "bad algo");
	CHECKF(sched_algo_check("drr") == 0 && sched_algo_check("x") == -ENOENT, "algo check");
}

/*
 * DRR with weights 1,2,3 and quantum 1518 per unit weight: at every
 * dequeue, each backlogged queue's service is within one of its quanta
 * (plus one maximum packet of carried deficit) of its weighted share.
 */
static void
test_drr(void)
{
	static const uint32_t w[3] = { 1, 2, 3 };
	struct sched *s = mk("drr", 3, 256);
	uint64_t bytes[3] = { 0 }, tot = 0, id = 0;
	double worst = 0;
	uint32_t i, k;

	for (i = 0; i < 3; i++) {
		sched_queue_set(s, i, w[i], 0, 0);
		for (k = 0; k < 8; k++)
			sched_enqueue(s, i, id++, rnd_range(LMIN, LMAX), 0);
	}
	for (k = 0; k < 300000; k++) {
		struct sched_pkt o;

		CHECKF(sched_dequeue_burst(s, &o, 1, 0) == 1, "deq");
		bytes[o.queue] += o.len;
		tot += o.len;
		sched_enqueue(s, o.queue, id++, rnd_range(LMIN, LMAX), 0);
		for (i = 0; i < 3; i++) {
			double dev = fabs(bytes[i] - tot * w[i] / 6.0) / (w[i] * 1518.0 + LMAX);

			if (dev > worst)
				worst = dev;
		}
	}
	printf("drr: worst deviation %.3f quantum+Lmax\n", worst);
	CHECKF(worst <= 1.0, "DRR deviation %.3f quanta", worst);
	{
		uint32_t act[3] = { 0, 1, 2 };
		uint64_t b2[3] = { 0 };

		run_backlogged(s, act, 3, 300000, 0, b2);
		check_shares("drr", act, w, 3, b2, 0.005);
	}
	sched_free(s);
}

/* 65536 queues: equal weights are served in exact rounds; random weights
 * stay within 2 maximum packets of their share. */
static void
test_q64k(void)
{
	enum { NQ = 65536 };
	struct sched *s = mk("wf2q+", NQ, NQ * 4);
	static struct sched_pkt out[NQ];
	static uint32_t cnt[NQ], w[NQ];
	static uint64_t bytes[NQ];
	double wsum = 0, tot = 0;
	uint32_t i, k, n;
	uint64_t id = 0;

	for (i = 0; i < NQ; i++)
		for (k = 0; k < 3; k++)
			CHECKF(sched_enqueue(s, i, id++, 100, 0) == 0, "enq");
	for (k = 0; k < 2; k++) {
		n = sched_dequeue_burst(s, out, NQ, 0);
		CHECKF(n == NQ, "burst %u", n);
		for (i = 0; i < n; i++)
			cnt[out[i].queue]++;
		for (i = 0; i < NQ; i++)
			CHECKF(cnt[i] == k + 1, "round %u queue %u served %u", k, i, cnt[i]);
		if (test_failures)
			break;
	}
	while ((n = sched_dequeue_burst(s, out, NQ, 0)) > 0)
		;
	for (i = 0; i < NQ; i++) {
		w[i] = rnd_range(1, 16);
		wsum += w[i];
		sched_queue_set(s, i, w[i], 0, 0);
		for (k = 0; k < 3; k++)
			sched_enqueue(s, i, id++, rnd_range(LMIN, LMAX), 0);
	}
	for (k = 0; k < 40 * 64; k++) {
		n = sched_dequeue_burst(s, out, 1024, 0);
		for (i = 0; i < n; i++) {
			bytes[out[i].queue] += out[i].len;
			tot += out[i].len;
			sched_enqueue(s, out[i].queue, id++, rnd_range(LMIN, LMAX), 0);
		}
	}
	{
		double worst = 0;

		for (i = 0; i < NQ; i++) {
			double d = fabs(bytes[i] - tot * w[i] / wsum);

			if (d > worst)
				worst = d;
		}
		printf("q64k: worst deviation %.0f bytes\n", worst);
		CHECKF(worst <= 2.0 * LMAX, "65536 queues: deviation %.0f", worst);
	}
	sched_free(s);
}

/* The algorithm table: its names, listed, checked and created by name (every list of
 * names in messages and docs comes from it). */
static void
test_algos(void)
{
	char list[256], want[256] = "", cut[8];
	struct sched_conf sc = { .nb_queues = 4 };
	const char *name;
	unsigned int i;

	CHECK(sched_algo_name(0) != NULL);
	CHECK(strcmp(sched_algo_name(0), "wf2q+") == 0); /* the default */
	for (i = 0; (name = sched_algo_name(i)) != NULL; i++) {
		struct sched *s;

		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
				i ? ", " : "", name);
		CHECKF(sched_algo_check(name) == 0, "%s not accepted", name);
		sc.algo = name;
		s = sched_create(&sc);
		CHECKF(s != NULL && strcmp(sched_algo(s), name) == 0, "%s not created", name);
		sched_free(s);
	}
	CHECKF(i >= 3, "%u algorithms", i);
	CHECK(sched_algo_list(list, sizeof(list), NULL) == 0);
	CHECKF(strcmp(list, want) == 0, "list \"%s\", want \"%s\"", list, want);
	CHECK(sched_algo_list(list, sizeof(list), " or ") == 0);
	CHECKF(strstr(list, " or ") != NULL && strstr(list, " or ") == strrchr(list, ' ') - 3,
			"\"%s\"", list);
	CHECK(sched_algo_list(cut, sizeof(cut), NULL) == -ENOSPC);
	CHECK(sched_algo_check("qfq") == -ENOENT);
	CHECK(sched_algo_name(i) == NULL);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "share2", NULL }, { "weights", NULL }, { "many", NULL },
	{ "joinleave", test_joinleave }, { "fifo", test_fifo }, { "drr", test_drr },
	{ "q64k", test_q64k }, { "algos", test_algos },
};

static void
run(const char *name)
{
	unsigned int i;

	test_rng_seed(&rng, 12345);
	if (strcmp(name, "share2") == 0) {
		test_share2("wf2q+");
		test_share2("drr");
		return;
	}
	if (strcmp(name, "weights") == 0) {
		test_weights127("wf2q+");
		test_weights127("drr");
		return;
	}
	if (strcmp(name, "many") == 0) {
		test_many("wf2q+");
		test_many("drr");
		return;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (tests[i].fn && strcmp(tests[i].name, name) == 0) {
			tests[i].fn();
			return;
		}
	fprintf(stderr, "unknown test %s\n", name);
	exit(2);
}

int
main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || strcmp(argv[1], "all") == 0) {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			run(tests[i].name);
	} else {
		run(argv[1]);
	}
	return test_report("test_sched");
}
