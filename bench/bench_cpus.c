/* SPDX-License-Identifier: MIT */
/*
 * bench_cpus.c - the CPU plan of bench_cpus.h.
 */
#include "bench_cpus.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int plan[CPU_SETSIZE];
static int plan_len;

static void plan_fail(const char *text, const char *why)
{
	fprintf(stderr, "y2038-bench: Y2038_BENCH_CPUS=\"%s\": %s\n", text, why);
	exit(2);
}

void bench_cpus_init(void)
{
	const char *text = getenv("Y2038_BENCH_CPUS");
	char context[256] = "";
	cpu_set_t allowed, seen;
	size_t used = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
		fprintf(stderr, "y2038-bench: sched_getaffinity: %s\n", strerror(errno));
		exit(2);
	}
	CPU_ZERO(&seen);
	if (text && *text) {
		const char *p = text;

		for (;;) {
			char *end;
			long cpu;

			errno = 0;
			cpu = strtol(p, &end, 10);
			if (end == p || errno || cpu < 0 || cpu >= CPU_SETSIZE)
				plan_fail(text, "expected a comma-separated list of CPU numbers");
			if (!CPU_ISSET((int)cpu, &allowed))
				plan_fail(text, "lists a CPU this process may not run on");
			if (CPU_ISSET((int)cpu, &seen))
				plan_fail(text, "lists a CPU twice");
			CPU_SET((int)cpu, &seen);
			plan[plan_len++] = (int)cpu;
			if (*end == '\0')
				break;
			if (*end != ',')
				plan_fail(text, "expected a comma-separated list of CPU numbers");
			p = end + 1;
		}
	} else {
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &allowed))
				plan[plan_len++] = cpu;
	}
	for (int i = 0; i < plan_len && used < sizeof(context) - 16; i++)
		used += (size_t)snprintf(context + used, sizeof(context) - used, "%s%d",
					 i ? "," : "", plan[i]);
	snprintf(context + used, sizeof(context) - used, " (%s)",
		 text && *text ? "Y2038_BENCH_CPUS" : "allowed set");
	bench_add_context("y2038_thread_cpus", context);
}

int bench_cpus_pin(int index, cpu_set_t *saved)
{
	cpu_set_t one;
	int err;

	if (plan_len == 0) {
		errno = ESRCH;
		return -1;
	}
	err = pthread_getaffinity_np(pthread_self(), sizeof(*saved), saved);
	if (err == 0) {
		CPU_ZERO(&one);
		CPU_SET(plan[index % plan_len], &one);
		err = pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	}
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

void bench_cpus_restore(const cpu_set_t *saved)
{
	/* Back to the set it had; failing that, it stays pinned (harmless). */
	(void)pthread_setaffinity_np(pthread_self(), sizeof(*saved), saved);
}
