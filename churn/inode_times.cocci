// inode_times.cocci - where a kernel tree touches an inode's a/m/c times.
//
// Counts only: no transformation.  Every rule records positions through
// emit() below; scripts/y2038lab/churn/sites.py joins the records by position
// and decides what each site costs under each conversion approach.
// Types come from Coccinelle's type inference (run with --local-includes
// --include-headers-for-types and the VFS headers passed by --include), so
// `T` is e.g. "struct inode" or "struct ext2_inode": the Python side keeps
// struct inode and reports the rest, and what stayed untyped, separately.
//
// Records (tab separated): kind file line column function extra...
// The output folder is $Y2038_CHURN_OUT; one file per spatch process
// (churn/run.py starts one per slice of the files), each line flushed as it
// is written.  A rule whose pattern holds both sides of an assignment records
// both (r_copy_vfs, r_vfs_same): one matching pass instead of two mirrored
// rules.  r_field_to and r_field_from stay two rules: a disjunction is
// decided per statement, so in `a->i_mtime = b->i_ctime = c->i_ctime` the
// chain branch hides b's plain copy; r_field_from records b's with c's (its
// other side is c's field, so b's copy is neutral, as a's and c's are).
// `depends on` skips a rule in a file where it cannot match (the same records
// in less time): the rules of iattr/kstat fields where r_vfs_struct found
// none, r_format where no tv_sec was found, r_addr_cast where no address was.

@initialize:python@
@@
import os
_churn_files = {}

def emit(kind, p, *extra):
    pid = os.getpid()
    out = _churn_files.get(pid)
    if out is None:
        out = open(os.path.join(os.environ["Y2038_CHURN_OUT"], "spatch-%d.tsv" % pid), "a")
        _churn_files[pid] = out
    fields = [kind, p[0].file, p[0].line, p[0].column, p[0].current_element] + list(extra)
    out.write("\t".join(str(f).replace("\t", " ").replace("\n", " ") for f in fields) + "\n")
    out.flush()

// ---- 1. every access to an a/m/c time field, with the type it belongs to

@r_field@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
E->fld@p
|
F.fld@p
)

@script:python@
T << r_field.T;
fld << r_field.fld;
p << r_field.p;
@@
emit("field", p, T, fld)

// the same fields whatever the type, known or not (for the accounting of
// sites the type inference could not resolve)
@r_anyfield@
expression X;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
X->fld@p
|
X.fld@p
)

@script:python@
X << r_anyfield.X;
p << r_anyfield.p;
@@
emit("anyfield", p, X)

// writes: the field, or its tv_sec/tv_nsec, on the left of an assignment
@r_write_whole@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
expression V;
assignment operator aop;
position p;
@@
(
E->fld@p aop V
|
F.fld@p aop V
)

@script:python@
T << r_write_whole.T;
p << r_write_whole.p;
@@
emit("write", p, T, "")

// (prefix operators are indented: in column 0 SmPL reads ++/-- as its own
// add/remove markers)
@r_write_member@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier m;
expression V;
assignment operator aop;
position p;
@@
(
E->fld@p.m aop V
|
F.fld@p.m aop V
|
E->fld@p.m++
|
F.fld@p.m++
|
E->fld@p.m--
|
F.fld@p.m--
|
 ++E->fld@p.m
|
 ++F.fld@p.m
|
 --E->fld@p.m
|
 --F.fld@p.m
)

@script:python@
T << r_write_member.T;
m << r_write_member.m;
p << r_write_member.p;
@@
emit("write", p, T, m)

// tv_sec / tv_nsec of a timestamp: the scalar the filesystem encodes/decodes
@r_member@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier m;
position p;
@@
(
E->fld@p.m
|
F.fld@p.m
)

@script:python@
T << r_member.T;
m << r_member.m;
p << r_member.p;
@@
emit("member", p, T, m)

// ---- 2. Bergmann's couplings: address taken, passed, copied to locals

@r_addr@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
 &E->fld@p
|
 &F.fld@p
)

@script:python@
T << r_addr.T;
p << r_addr.p;
@@
emit("addr", p, T)

// ... cast to another pointer type (`(uint64_t *)&VFS_I(ip)->i_atime`, xfs's
// rtbitmap sequence): compiles unchanged whatever the timestamp's type
@r_addr_cast depends on r_addr disable drop_cast@
type T, T2;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
 (T2)&E->fld@p
|
 (T2)&F.fld@p
)

@script:python@
T << r_addr_cast.T;
p << r_addr_cast.p;
@@
emit("addr_cast", p, T)

// a timestamp's size (`memset(&inode->i_atime, 0, sizeof(inode->i_atime))`):
// compiles unchanged whatever its type
@r_sizeof@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
 sizeof(E->fld@p)
|
 sizeof(F.fld@p)
)

@script:python@
T << r_sizeof.T;
p << r_sizeof.p;
@@
emit("sizeof", p, T)

@r_addr_arg@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier f;
position p;
@@
(
f(..., &E->fld@p, ...)
|
f(..., &F.fld@p, ...)
)

@script:python@
T << r_addr_arg.T;
f << r_addr_arg.f;
p << r_addr_arg.p;
@@
emit("addr_arg", p, T, f)

@r_value_arg@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier f;
position p;
@@
(
f(..., E->fld@p, ...)
|
f(..., F.fld@p, ...)
)

@script:python@
T << r_value_arg.T;
f << r_value_arg.f;
p << r_value_arg.p;
@@
emit("value_arg", p, T, f)

// whole-value copies with a plain variable (either direction, and
// declarations initialised from a timestamp)
@r_local_copy@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier x;
position p;
@@
(
x = E->fld@p
|
x = F.fld@p
|
E->fld@p = x
|
F.fld@p = x
)

@script:python@
T << r_local_copy.T;
x << r_local_copy.x;
p << r_local_copy.p;
@@
emit("local", p, T, x)

@r_local_decl@
type T, T2;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier x;
position p;
@@
(
T2 x = E->fld@p;
|
T2 x = F.fld@p;
)

@script:python@
T << r_local_decl.T;
x << r_local_decl.x;
p << r_local_decl.p;
@@
emit("local", p, T, x)

// every whole-value assignment, with the other side as text; the more
// specific records below say what that other side is.  One rule per side:
// a disjunction stops at its first matching branch, so `a->i_mtime =
// b->i_ctime` would otherwise record only one of its two accesses.
@r_copy_from@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
expression V;
position p;
@@
(
V = E->fld@p
|
V = F.fld@p
)

@script:python@
T << r_copy_from.T;
V << r_copy_from.V;
p << r_copy_from.p;
@@
emit("copy", p, T, V)

@r_copy_to@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
expression V;
position p;
@@
(
E->fld@p = V
|
F.fld@p = V
)

@script:python@
T << r_copy_to.T;
V << r_copy_to.V;
p << r_copy_to.p;
@@
emit("copy", p, T, V)

// the other side is another a/m/c time field (the assigned one, then the
// one assigned from, then chains: a->i_mtime = b->i_ctime = V)
@r_field_to@
type T, T2;
T *E;
T F;
T2 *E2;
T2 F2;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier fld2 = {i_atime, i_mtime, i_ctime};
expression V;
position p;
@@
(
E->fld@p = E2->fld2 = V
|
E->fld@p = F2.fld2 = V
|
F.fld@p = E2->fld2 = V
|
F.fld@p = F2.fld2 = V
|
E->fld@p = E2->fld2
|
E->fld@p = F2.fld2
|
F.fld@p = E2->fld2
|
F.fld@p = F2.fld2
)

@script:python@
T << r_field_to.T;
T2 << r_field_to.T2;
p << r_field_to.p;
@@
emit("peer_field", p, T, T2)

@r_field_from@
type T, T2;
T *E;
T F;
T2 *E2;
T2 F2;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier fld2 = {i_atime, i_mtime, i_ctime};
position p, p2;
@@
(
E2->fld2@p2 = E->fld@p
|
E2->fld2@p2 = F.fld@p
|
F2.fld2@p2 = E->fld@p
|
F2.fld2@p2 = F.fld@p
)

@script:python@
T << r_field_from.T;
T2 << r_field_from.T2;
p << r_field_from.p;
p2 << r_field_from.p2;
@@
emit("peer_field", p, T, T2)
emit("peer_field", p2, T2, T)

// the other side is a function call's result
@r_copy_call@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier f;
position p;
@@
(
E->fld@p = f(...)
|
F.fld@p = f(...)
)

@script:python@
T << r_copy_call.T;
f << r_copy_call.f;
p << r_copy_call.p;
@@
emit("peer_call", p, T, f)

@r_ret@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime};
position p;
@@
(
return E->fld@p;
|
return F.fld@p;
)

@script:python@
T << r_ret.T;
p << r_ret.p;
@@
emit("return", p, T)

// a timestamp field named as a macro argument (ext4's
// EXT4_INODE_SET_XTIME(i_mtime, inode, raw)): the access is token-pasted
// inside the macro, out of the type inference's sight
@r_macro_arg@
identifier fld = {i_atime, i_mtime, i_ctime};
identifier mac;
position p;
@@
mac(..., fld@p, ...)

@script:python@
mac << r_macro_arg.mac;
fld << r_macro_arg.fld;
p << r_macro_arg.p;
@@
emit("macro_arg", p, mac, fld)

// ---- 3. the VFS/filesystem boundary

// iattr (setattr's input) and kstat (getattr's output) time fields
@r_vfs_struct@
type T;
T *A;
T B;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
position p;
@@
(
A->vf@p
|
B.vf@p
)

@script:python@
T << r_vfs_struct.T;
vf << r_vfs_struct.vf;
p << r_vfs_struct.p;
@@
emit("vfs_struct", p, T, vf)

// the other side is a field of a VFS structure (struct iattr, struct kstat):
// both sides recorded at once, the inode's (peer_vfs) and the VFS structure's
// (vfs_peer_field)
@r_copy_vfs depends on r_vfs_struct@
type T, T2;
T *E;
T F;
T2 *A;
T2 B;
identifier fld = {i_atime, i_mtime, i_ctime};
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
position p, p2;
@@
(
E->fld@p = A->vf@p2
|
E->fld@p = B.vf@p2
|
F.fld@p = A->vf@p2
|
F.fld@p = B.vf@p2
|
A->vf@p2 = E->fld@p
|
B.vf@p2 = E->fld@p
|
A->vf@p2 = F.fld@p
|
B.vf@p2 = F.fld@p
)

@script:python@
T << r_copy_vfs.T;
T2 << r_copy_vfs.T2;
p << r_copy_vfs.p;
p2 << r_copy_vfs.p2;
@@
emit("peer_vfs", p, T, T2)
emit("vfs_peer_field", p2, T2, T)

// ... and which of them go into a function (the VFS's own helpers: neutral);
// those that meet an inode timestamp: r_copy_vfs above
@r_vfs_arg depends on r_vfs_struct@
type T;
T *A;
T B;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier f;
position p;
@@
(
f(..., A->vf@p, ...)
|
f(..., B.vf@p, ...)
|
f(..., &A->vf@p, ...)
|
f(..., &B.vf@p, ...)
)

@script:python@
T << r_vfs_arg.T;
f << r_vfs_arg.f;
p << r_vfs_arg.p;
@@
emit("vfs_arg", p, T, f)

// implementations registered in a struct inode_operations
@r_iop@
identifier ops, f;
identifier op = {setattr, getattr, update_time};
position p;
@@
struct inode_operations ops = { ..., .op = f@p, ... };

@script:python@
op << r_iop.op;
f << r_iop.f;
p << r_iop.p;
@@
emit("iop", p, op, f)

// ---- 4. the clock: CURRENT_TIME* (gone since v4.12), current_fs_time()
// (gone since v4.18), current_time()

@r_clock_call@
identifier fn = {current_time, current_fs_time, current_fs_time_sec};
position p;
@@
fn@p(...)

@script:python@
fn << r_clock_call.fn;
p << r_clock_call.p;
@@
emit("clock", p, fn)

@r_clock_macro@
identifier c = {CURRENT_TIME, CURRENT_TIME_SEC};
position p;
@@
c@p

@script:python@
c << r_clock_macro.c;
p << r_clock_macro.p;
@@
emit("clock", p, c)

// ---- 5. what a flag day leaves alone, or changes elsewhere

// locals that take the clock's value or are copied into an inode timestamp
// (`struct timespec64 now = current_time(inode)`; `inode->i_mtime = ts`): a
// flag day retypes their declaration, and those copies compile unchanged
@r_retyped_init@
identifier fn = {current_time, current_fs_time, current_fs_time_sec};
identifier c = {CURRENT_TIME, CURRENT_TIME_SEC};
identifier x;
type T;
position p;
@@
(
T x@p = fn(...);
|
T x@p = c;
)

@script:python@
T << r_retyped_init.T;
x << r_retyped_init.x;
p << r_retyped_init.p;
@@
emit("retyped_local", p, T, x)

@r_retyped_set@
identifier fn = {current_time, current_fs_time, current_fs_time_sec};
identifier c = {CURRENT_TIME, CURRENT_TIME_SEC};
identifier fld = {i_atime, i_mtime, i_ctime};
struct inode *E;
struct inode F;
identifier x;
type T;
position p;
@@
T x@p;
... when any
(
x = fn(...)
|
x = c
|
E->fld = x
|
F.fld = x
)

@script:python@
T << r_retyped_set.T;
x << r_retyped_set.x;
p << r_retyped_set.p;
@@
emit("retyped_local", p, T, x)

// tv_sec/tv_nsec of an iattr/kstat time field, and whole values between such
// a field and the clock or another such field: all of one type after a flag day
@r_vfs_member depends on r_vfs_struct@
type T;
T *A;
T B;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier m;
position p;
@@
(
A->vf@p.m
|
B.vf@p.m
)

@script:python@
T << r_vfs_member.T;
p << r_vfs_member.p;
@@
emit("vfs_member", p, T)

// tv_sec of an inode, iattr or kstat timestamp given as it is to a call, with
// the number of arguments before it (sites.resolve_sources reads them from
// the source, finds the format string and the conversion that prints it:
// `dout("%ld", ...)`; spatch's own text spaces a string's conversions apart)
@r_format depends on r_member || r_vfs_member@
type T;
T *E;
T F;
identifier fld = {i_atime, i_mtime, i_ctime, ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier f;
expression list[n] es;
position p;
@@
(
f(es, E->fld@p.tv_sec, ...)
|
f(es, F.fld@p.tv_sec, ...)
)

@script:python@
T << r_format.T;
fld << r_format.fld;
f << r_format.f;
n << r_format.n;
p << r_format.p;
@@
emit("format_arg", p, T, fld, f, n)

// whole values between an iattr/kstat time field and the clock
@r_vfs_clock depends on r_vfs_struct@
type T;
T *A;
T B;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier fn = {current_time, current_fs_time, current_fs_time_sec};
identifier c = {CURRENT_TIME, CURRENT_TIME_SEC};
position p;
@@
(
A->vf@p = fn(...)
|
B.vf@p = fn(...)
|
A->vf@p = c
|
B.vf@p = c
)

@script:python@
T << r_vfs_clock.T;
p << r_vfs_clock.p;
@@
emit("vfs_same", p, T, "clock")

@r_vfs_same depends on r_vfs_struct@
type T, T2;
T *A;
T B;
T2 *A2;
T2 B2;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier vf2 = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
position p, p2;
@@
(
A->vf@p = A2->vf2@p2
|
A->vf@p = B2.vf2@p2
|
B.vf@p = A2->vf2@p2
|
B.vf@p = B2.vf2@p2
)

@script:python@
T << r_vfs_same.T;
T2 << r_vfs_same.T2;
p << r_vfs_same.p;
p2 << r_vfs_same.p2;
@@
emit("vfs_same", p, T, T2)
emit("vfs_same", p2, T2, T)

// the outer links of a chain of iattr/kstat fields (`iattr->ia_ctime =
// iattr->ia_mtime = current_time(inode)`): the other side is another such
// field (r_vfs_same takes plain copies, r_vfs_clock the last link)
@r_vfs_chain depends on r_vfs_struct@
type T, T2;
T *A;
T B;
T2 *A2;
T2 B2;
identifier vf = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
identifier vf2 = {ia_atime, ia_mtime, ia_ctime, atime, mtime, ctime, btime};
expression V;
position p;
@@
(
A->vf@p = A2->vf2 = V
|
A->vf@p = B2.vf2 = V
|
B.vf@p = A2->vf2 = V
|
B.vf@p = B2.vf2 = V
)

@script:python@
T << r_vfs_chain.T;
T2 << r_vfs_chain.T2;
p << r_vfs_chain.p;
@@
emit("vfs_same", p, T, T2)

// the clock's value stored anywhere (`ei->i_crtime = current_time(inode)`):
// a flag day converts it unless the destination is of the VFS's type
@r_clock_store@
expression V;
identifier fn = {current_time, current_fs_time, current_fs_time_sec};
identifier c = {CURRENT_TIME, CURRENT_TIME_SEC};
position p;
@@
(
V = fn@p(...)
|
V = c@p
)

@script:python@
V << r_clock_store.V;
p << r_clock_store.p;
@@
emit("clock_store", p, V)
