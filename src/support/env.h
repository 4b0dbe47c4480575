/* SPDX-License-Identifier: MIT */
/*
 * env.h - numbers from environment variables (Y2038_SEED, Y2038_TORN_WRITES,
 * Y2038_PROPERTY_INPUTS), for the tests and the benchmarks alike.
 *
 * A value is an unsigned decimal number, or a hexadecimal one after "0x";
 * nothing else: no sign, no blanks, no suffix, no octal (a leading 0 is
 * still decimal, so a pasted seed means what it says).  A value that is not
 * such a number, overflows 64 bits or lies outside the caller's range is
 * refused with the variable's name in a one-line message, and the program
 * exits with status 2 before it has done anything.
 */
#ifndef SUPPORT_ENV_H
#define SUPPORT_ENV_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * env_parse_u64 - parse @text, the value of the variable @name
 *
 * Return: 0 with the number in *@out when @text is a number in
 * [@min, @max]; -1 otherwise, with the reason (naming @name and quoting
 * @text) in @err (@err_len bytes, always terminated) and *@out untouched.
 */
static inline int env_parse_u64(const char *name, const char *text, uint64_t min, uint64_t max,
				uint64_t *out, char *err, size_t err_len)
{
	const char *p = text;
	unsigned int base = 10;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		goto not_a_number;
	for (; *p; p++) {
		unsigned int digit;

		if (*p >= '0' && *p <= '9')
			digit = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			digit = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			digit = (unsigned int)(*p - 'A' + 10);
		else
			goto not_a_number;
		if (v > (UINT64_MAX - digit) / base)
			goto out_of_range; /* overflows 64 bits */
		v = v * base + digit;
	}
	if (v < min || v > max)
		goto out_of_range;
	*out = v;
	return 0;

not_a_number:
	snprintf(err, err_len, "%s=\"%s\" is not a number (decimal, or hexadecimal after 0x)", name,
		 text);
	return -1;
out_of_range:
	snprintf(err, err_len, "%s=\"%s\" is out of range (%" PRIu64 "..%" PRIu64 ")", name, text, min,
		 max);
	return -1;
}

/**
 * env_u64 - the number in the environment variable @name, or @fallback
 * when it is unset or empty
 *
 * A bad value (see env_parse_u64()) is reported on stderr as
 * "<program>: <reason>" and ends the process with exit status 2.
 */
static inline uint64_t env_u64(const char *program, const char *name, uint64_t min, uint64_t max,
			       uint64_t fallback)
{
	const char *text = getenv(name);
	char err[256];
	uint64_t v;

	if (!text || !*text)
		return fallback;
	if (env_parse_u64(name, text, min, max, &v, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", program, err);
		exit(2);
	}
	return v;
}

#ifdef __cplusplus
}
#endif

#endif /* SUPPORT_ENV_H */
