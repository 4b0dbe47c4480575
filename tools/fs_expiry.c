// SPDX-License-Identifier: MIT
/*
 * fs-expiry - the expiry table: each file system's first and last
 * representable instant (ISO 8601, UTC) and its granularity, computed from
 * the presets in src/fstime/fs_presets.c (which call the on-disk codecs
 * where the kernel does), never typed in.
 *
 *   fs-expiry            the whole table, Markdown
 *   fs-expiry NAME...    only those file systems ("ext4 (extra)", fat, ...)
 *   fs-expiry --list     the names, one per line
 *
 * Exit status: 0, or 2 for an unknown name or option.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fs_presets.h"
#include "timeconv.h"

static void print_header(void)
{
	printf("| file system | time type | first instant (UTC) | last instant (UTC) | "
	       "s_time_min | s_time_max | s_time_gran (ns) |\n");
	printf("|---|---|---|---|---:|---:|---:|\n");
}

static void print_row(const struct fs_preset *p)
{
	struct super_block sb = fs_preset_sb(p);
	char first[48], last[48];

	if (time64_format_iso8601(sb.s_time_min, first, sizeof(first)) < 0 ||
	    time64_format_iso8601(sb.s_time_max, last, sizeof(last)) < 0) {
		fprintf(stderr, "fs-expiry: cannot format %s\n", p->name);
		return;
	}
	printf("| %s | %s | %s | %s | %" PRId64 " | %" PRId64 " | %" PRIu32 " |\n", p->name,
	       p->time_type, first, last, sb.s_time_min, sb.s_time_max, sb.s_time_gran);
}

int main(int argc, char **argv)
{
	size_t count;
	const struct fs_preset *all = fs_presets(&count);

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < count; i++)
			printf("%s\n", all[i].name);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' || !fs_preset_find(argv[i])) {
			fprintf(stderr, "fs-expiry: unknown file system or option '%s' "
				"(try --list)\n", argv[i]);
			return 2;
		}
	}
	print_header();
	if (argc == 1) {
		for (size_t i = 0; i < count; i++)
			print_row(&all[i]);
	} else {
		for (int i = 1; i < argc; i++)
			print_row(fs_preset_find(argv[i]));
	}
	return 0;
}
