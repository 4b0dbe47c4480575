#!/usr/bin/python3
"""Write the committed libFuzzer seed corpus: one file per boundary case.

Regenerate with:  python3 tests/fuzz/make_seed_corpus.py
Each file is the little-endian field layout its target reads (see the
target's header comment); names say which edge the seed sits on.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
S32_MIN, S32_MAX, U32_MAX = -2**31, 2**31 - 1, 2**32 - 1
S64_MIN, S64_MAX = -2**63, 2**63 - 1
NTFS_TIME_OFFSET = (369 * 365 + 89) * 24 * 3600 * 10**7
EXT4_MAX = 2**34 - 1 + S32_MIN


def fat_date(y, m, d):
    return (y - 1980) << 9 | m << 5 | d


def fat_time(h, m, s):
    return h << 11 | m << 5 | s // 2


def ext4(base, extra, sec, nsec):
    return struct.pack("<IIqq", base & U32_MAX, extra & U32_MAX, sec, nsec)


def fat(time, date, cs, flags, offset, systz, sec, nsec):
    return struct.pack("<HHBBiiqq", time, date, cs, flags, offset, systz, sec, nsec)


def cifs(nt, date, time, offset, sec, nsec):
    return struct.pack("<QHHiqq", nt, date, time, offset, sec, nsec)


def fs_time(lo, hi, gran, sec, nsec, civil=(1970, 1, 1, 0, 0, 0)):
    """civil: year, mon, mday, hour, min, sec for tm64_to_time64()."""
    return struct.pack("<qqIqqqiiiii", lo, hi, gran, sec, nsec, *civil)


SEEDS = {
    "ext4_time_fuzz": {
        "epoch0_s32_min": ext4(0x80000000, 0, S32_MIN, 0),
        "epoch1_2038": ext4(0x80000000, 1, 2**31, 999999999),
        "epoch1_2106": ext4(0, 1, 2**32, 1),
        "epoch2_2242": ext4(0, 2, 2**33, 0),
        "epoch3_legacy_sign": ext4(0xFFFFFFFF, 3 | 5 << 2, 3 * 2**32 - 1, 5),
        "epoch3_2446_max": ext4(0x7FFFFFFF, 3 | 999999999 << 2, EXT4_MAX, 999999999),
        "past_max": ext4(0, 0, EXT4_MAX + 1, 0),
        "s64_extremes": ext4(U32_MAX, U32_MAX, S64_MIN, -1),
        "nsec_all_ones": ext4(0, 0xFFFFFFFC, S64_MAX, 2**30),
    },
    "fat_time_fuzz": {
        "first_instant": fat(0, fat_date(1980, 1, 1), 0, 1, 0, 0, 315532800, 0),
        "last_instant_cs199": fat(fat_time(23, 59, 58), fat_date(2107, 12, 31), 199, 1, 0, 0,
                                  4354819199, 990000000),
        "leap_2000_02_29": fat(0, fat_date(2000, 2, 29), 0, 1, 60, 0, 951782400, 1),
        "not_leap_2100_03_01": fat(0, fat_date(2100, 3, 1), 0, 0, 0, 300, 4107542400, 0),
        "tz_east_1440": fat(0, fat_date(1980, 1, 1), 100, 1, 1440, 0, 315532800 - 86400, 0),
        "tz_west_1440": fat(0, fat_date(2107, 12, 31), 0, 1, -1440, 0, 4354819200, 0),
        "before_1980": fat(0, 0, 0, 1, 0, 0, 315532799, 999999999),
        "bad_words": fat(0xFFFF, 0xFFFF, 255, 0, 2**31 - 1, -2**31, S64_MIN, -1),
        "s64_max": fat(0, 0, 0, 0, 0, 0, S64_MAX, S64_MAX),
        # flags bit 1: vfat (creation time kept to 10 ms); bit 0: tz_set
        "vfat_crtime_nsec_minus_1": fat(0, fat_date(2000, 3, 1), 0, 3, 0, 0, 951914097, -1),
        "vfat_crtime_nsec_s64_min": fat(0, fat_date(2000, 3, 1), 0, 3, 0, 0, 951914097, S64_MIN),
        "msdos_crtime_odd_second": fat(0, fat_date(2000, 3, 1), 0, 1, 0, 0, 951914097, 123456789),
    },
    "cifs_time_fuzz": {
        "nt_zero_1601": cifs(0, fat_date(1980, 1, 1), 0, 0, -11644473600, 0),
        "nt_unix_epoch": cifs(NTFS_TIME_OFFSET, fat_date(2000, 2, 29), 0, 3600, 0, 0),
        "nt_before_1970": cifs(NTFS_TIME_OFFSET - 1, fat_date(2100, 3, 1), 0, -3600, -1, 999999900),
        "nt_s64_max": cifs(S64_MAX, fat_date(2107, 12, 31), fat_time(23, 59, 58), 0,
                           910692730085, 477580700),
        "nt_s64_min_wrap": cifs(2**63 + NTFS_TIME_OFFSET, 0, 0, 0, S64_MIN, 0),
        "nt_u64_max": cifs(2**64 - 1, 0xFFFF, 0xFFFF, 2**31 - 1, S64_MAX, -1),
    },
    "fs_time_fuzz": {
        "rfc_default_2038": fs_time(0, S32_MAX, 10**9, 2**31, 500000000),
        "ext4_extra_max": fs_time(S32_MIN, EXT4_MAX, 1, EXT4_MAX, 7),
        "u32_gran_100": fs_time(0, U32_MAX, 100, 2**32, 123456789),
        "fat_crtime_10ms": fs_time(315532800, 4354819198, 10**7, 951914097, 123456789),
        "odd_gran_3": fs_time(S64_MIN, S64_MAX, 3, -1, 999999999),
        "illegal_gran_0": fs_time(0, 1, 0, 5, -3),
        "gran_just_below_1s": fs_time(S64_MIN, S64_MAX, 999999999, S64_MAX, 2**31 - 1),
        "min_gt_max": fs_time(100, 50, 1000, 75, 1),
        "min_gt_max_below_both": fs_time(100, 50, 1, 10, 1),
        "min_gt_max_extremes": fs_time(S64_MAX, S64_MIN, 1, 0, 5),
        "nsec_negative": fs_time(S64_MIN, S64_MAX, 1000, 10, -1500),
        # TIME64_MIN is 08:29:52 on its day: its midnight lies before the range.
        "time64_min_first_day": fs_time(S64_MIN, S64_MAX, 1, S64_MIN, 0,
                                        (-292277022657, 1, 27, 8, 29, 52)),
        "time64_max_last_day": fs_time(S64_MIN, S64_MAX, 1, S64_MAX, 0,
                                       (292277026596, 12, 4, 15, 30, 7)),
        "civil_one_past_max": fs_time(0, 0, 1, S64_MAX - 55807, 0,
                                      (292277026596, 12, 4, 15, 30, 8)),
        "civil_one_before_min": fs_time(0, 0, 1, S64_MIN + 55808, 0,
                                        (-292277022657, 1, 27, 8, 29, 51)),
        "civil_extreme_fields": fs_time(0, 0, 1, 0, 0,
                                        (S64_MAX, -2**31, -2**31, 2**31 - 1, -2**31, 2**31 - 1)),
    },
}

for target, seeds in SEEDS.items():
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    for name, blob in seeds.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(blob)
    print(f"{target}: {len(seeds)} seeds")
