// SPDX-License-Identifier: MIT
/*
 * fs-expiry - the expiry table: each file system's first and last
 * representable instant (ISO 8601, UTC) and its granularity, computed from
 * the presets in src/fstime/fs_presets.c (which call the on-disk codecs
 * where the kernel does), never typed in, with the mainline code that sets
 * each row and where the 2019 cover letter differs from that code; beside
 * it, what the 2016 RFC's range would do to the same file system: RFC 03/15
 * gives every super block 0..INT_MAX (alloc_super()) and no RFC patch sets
 * another (RFC 07/15 converts ext4 without one).
 *
 * Exit status: 0; 2 for an unknown name or option (one line on stderr).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fs_presets.h"
#include "timeconv.h"

static const char usage[] =
	"Usage: fs-expiry [NAME...]\n"
	"       fs-expiry --list\n"
	"       fs-expiry --help\n"
	"\n"
	"Print, as a Markdown table, when each file system's timestamps begin and run\n"
	"out (UTC), its s_time_min/s_time_max/s_time_gran as its mount code sets them,\n"
	"that code, where the 2019 timestamp-limits cover letter differs from it, and\n"
	"what the 2016 RFC's default range (0..INT_MAX, RFC 03/15) would do instead.\n"
	"\n"
	"  NAME...   only these file systems, in this order (names as --list prints them,\n"
	"            e.g. \"ext4 (extra)\", fat)\n"
	"  --list    the names, one per line\n"
	"  --help    this text\n"
	"\n"
	"Exit status: 0, or 2 for an unknown name or option.\n";

static void print_header(void)
{
	printf("Each row is what the file system's mount code sets (file and function of\n"
	       "mainline, Linux 6.1 and later; a removed file system as of its last\n"
	       "release), in UTC with no time-zone mount options.  Where the 2019 cover\n"
	       "letter's table differs from that code, the code is followed and the note\n"
	       "says so.  \"Under the RFC (2016)\": RFC 03/15 gives every super block\n"
	       "s_time_min = 0 and s_time_max = INT_MAX (1970-01-01 to 2038-01-19) and\n"
	       "no RFC patch sets another, so that column compares that range with the row's.\n\n");
	printf("| file system | time type | first instant (UTC) | last instant (UTC) | "
	       "under the RFC (2016) | s_time_min | s_time_max | s_time_gran (ns) | set by (mainline) | note |\n");
	printf("|---|---|---|---|---|---:|---:|---:|---|---|\n");
}

/* The date of an instant: its ISO 8601 form up to the 'T'. */
static void date_of(time64_t t, char *buf, size_t size)
{
	char *time_part;

	if (time64_format_iso8601(t, buf, size) < 0)
		snprintf(buf, size, "%" PRId64, t);
	else if ((time_part = strchr(buf, 'T')) != NULL)
		*time_part = '\0';
}

/*
 * What RFC 03/15's default range does to a file system whose own range is
 * @sb's: the instants it clamps that the file system holds, and those it
 * lets through that the file system cannot hold.
 */
static void rfc_range_note(const struct super_block *sb, char *buf, size_t size)
{
	const time64_t rfc_min = FS_DEFAULT_MIN_TIMESTAMP, rfc_max = FS_DEFAULT_MAX_TIMESTAMP;
	char own[48], rfc[48];
	size_t used = 0;

	buf[0] = '\0';
	if (sb->s_time_max > rfc_max) {
		date_of(sb->s_time_max, own, sizeof(own));
		used += (size_t)snprintf(buf + used, size - used, "clamps after 2038-01-19 (holds to %s)", own);
	}
	if (sb->s_time_min < rfc_min && used < size) {
		date_of(sb->s_time_min, own, sizeof(own));
		used += (size_t)snprintf(buf + used, size - used, "%sclamps before 1970 (holds from %s)",
					 used ? "; " : "", own);
	}
	if (sb->s_time_min > rfc_min && used < size) {
		date_of(sb->s_time_min, own, sizeof(own));
		date_of(rfc_min, rfc, sizeof(rfc));
		used += (size_t)snprintf(buf + used, size - used, "%slets %s..%s through, which it cannot hold",
					 used ? "; " : "", rfc, own);
	}
	if (sb->s_time_max < rfc_max && used < size) {
		date_of(sb->s_time_max, own, sizeof(own));
		used += (size_t)snprintf(buf + used, size - used, "%slets %s..2038-01-19 through, which it "
					 "cannot hold", used ? "; " : "", own);
	}
	if (!used)
		snprintf(buf, size, "the same range");
}

static int print_row(const struct fs_preset *p)
{
	char rfc_note[256];
	struct super_block sb = fs_preset_sb(p);
	char first[48], last[48];

	if (time64_format_iso8601(sb.s_time_min, first, sizeof(first)) < 0 ||
	    time64_format_iso8601(sb.s_time_max, last, sizeof(last)) < 0) {
		fprintf(stderr, "fs-expiry: cannot format the limits of %s\n", p->name);
		return -1;
	}
	rfc_range_note(&sb, rfc_note, sizeof(rfc_note));
	printf("| %s | %s | %s | %s | %s | %" PRId64 " | %" PRId64 " | %" PRIu32 " | %s | ", p->name,
	       p->time_type, first, last, rfc_note, sb.s_time_min, sb.s_time_max, sb.s_time_gran,
	       p->source);
	if (p->removed)
		printf("**removed from mainline in %s**%s", p->removed, p->note[0] ? "; " : "");
	printf("%s |\n", p->note);
	return 0;
}

static int refuse(const char *arg)
{
	fprintf(stderr, "fs-expiry: unknown file system or option '%s' (try --list or --help)\n",
		arg);
	return 2;
}

int main(int argc, char **argv)
{
	size_t count;
	const struct fs_preset *all = fs_presets(&count);

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < count; i++)
			printf("%s\n", all[i].name);
		return 0;
	}
	/* Options only come alone; everything else must name a file system. */
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' || !fs_preset_find(argv[i]))
			return refuse(argv[i]);
	print_header();
	if (argc == 1) {
		for (size_t i = 0; i < count; i++)
			if (print_row(&all[i]) < 0)
				return 1;
	} else {
		for (int i = 1; i < argc; i++)
			if (print_row(fs_preset_find(argv[i])) < 0)
				return 1;
	}
	return 0;
}
