// kernel_macros.h - macros spatch must know to parse fs/ of a kernel tree.
//
// Passed to spatch as --macro-file (beside Coccinelle's own standard.h) by
// scripts/y2038lab/churn/run.py, for the matching pass and for the
// `spatch --parse-c` check alike.  Each entry names the construct it lets
// the parser through; none of them hides an inode timestamp access.

// attributes after a declarator (include/linux/compiler_attributes.h, init.h, cache.h)
#define __cold
#define __nonstring
#define __ro_after_init
#define __read_mostly
#define __initdata
#define __refdata
#define __packed
#define __aligned(x)
#define __maybe_unused
#define __always_unused
#define __must_check
#define __malloc
#define __pure
#define __noreturn
#define __counted_by(m)
#define noinline_for_stack
#define __no_sanitize_address
#define __randomize_layout
#define ____cacheline_aligned
#define ____cacheline_aligned_in_smp
#define __cacheline_aligned
#define __cacheline_aligned_in_smp

// declarations through type macros (include/linux/stddef.h, generic-radix-tree.h, cleanup.h)
#define typeof_member(T, m) int
#define GENRADIX(_type) struct genradix_root
#define DECLARE_BITMAP(name, bits) unsigned long name[1]
#define scoped_guard(_name, args...) for (;;)
#define guard(_name) struct guard_holder
