/* SPDX-License-Identifier: MIT */
/*
 * pin.c - y2038-pin, the board bundle's taskset: run a program on one CPU.
 *
 *   y2038-pin --list             the CPUs this process may run on, ascending,
 *                                one line, separated by spaces
 *   y2038-pin CPU PROGRAM [ARG]...  pin to CPU, then exec PROGRAM
 *
 * scripts/lab bench pins with util-linux's taskset; a busybox board may have
 * no taskset (it is an optional applet), so the bundle carries this one,
 * linked static like everything else in it.  The affinity survives execve(),
 * so PROGRAM and every thread it starts stay on CPU unless they set their
 * own (y2038-bench does so only for the threads Y2038_BENCH_CPUS names).
 * Exit status: PROGRAM's, or 2 for bad usage or a CPU this process may not
 * use, 127 when PROGRAM cannot be executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fputs("usage: y2038-pin --list | y2038-pin CPU PROGRAM [ARG]...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	cpu_set_t allowed, one;
	char *end;
	long cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
		fprintf(stderr, "y2038-pin: sched_getaffinity: %s\n", strerror(errno));
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		const char *sep = "";

		for (int i = 0; i < CPU_SETSIZE; i++) {
			if (CPU_ISSET(i, &allowed)) {
				printf("%s%d", sep, i);
				sep = " ";
			}
		}
		putchar('\n');
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (argc < 3)
		return usage();
	errno = 0;
	cpu = strtol(argv[1], &end, 10);
	if (end == argv[1] || *end != '\0' || errno || cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "y2038-pin: '%s' is not a CPU number\n", argv[1]);
		return 2;
	}
	if (!CPU_ISSET((int)cpu, &allowed)) {
		fprintf(stderr, "y2038-pin: CPU %ld is not one this process may run on\n", cpu);
		return 2;
	}
	CPU_ZERO(&one);
	CPU_SET((int)cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0) {
		fprintf(stderr, "y2038-pin: sched_setaffinity(CPU %ld): %s\n", cpu, strerror(errno));
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "y2038-pin: cannot execute %s: %s\n", argv[2], strerror(errno));
	return 127;
}
