/*
 * croupier.engine.evaluate._ceval -- fast poker hand evaluation and equity loops.
 *
 * Cards are ints 0..51 = rank * 4 + suit (ranks 2..A = 0..12, suits c d h s = 0..3).
 *
 * High hands: every card adds a rank key (Shackleton's SKPokerEval 7-card keys: the sums
 * of up to seven keys, at most four of a rank, are unique per rank multiset), a suit
 * counter (one nibble per suit) and a bit in a 64-bit mask (16 bits per suit). A suit
 * nibble >= 5 means a flush: its 13-bit suit mask indexes an 8192-entry flush table.
 * Otherwise the key sum goes through a row-displacement perfect hash (built here at
 * module init) into a table of values. Values are dense class numbers, higher better:
 * 1 .. 7462 for standard high (7462 = royal flush), 1 .. 1404 for short deck.
 *
 * Every table is computed at import from first principles (a 5-card scorer); nothing is
 * downloaded or stored.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t RK[13] = {0,      1,      5,      22,     98,      453,    2031,
                                8698,   22854,  83661,  262349, 636345, 1479181};

/* SKPokerEval's 5-card keys: sums over 5-card rank multisets are unique and below 360,919,
 * small enough for a direct table (used by the Omaha 2 + 3 loops) */
static const uint32_t RK5[13] = {0,    1,     5,     22,    94,    312,  992,
                                 2422, 5624, 12522, 19998, 43258, 79415};

#define SHIFT 9
#define COLS (1u << SHIFT)
#define CMASK (COLS - 1)

typedef struct {
    int32_t *off;
    uint16_t *val;
    uint32_t nrows;
    uint32_t size;
} PHash;

typedef struct {
    uint16_t flush[8192];
    PHash rank[8]; /* by number of cards 5, 6, 7 */
    PHash small5; /* 5-card non-flush values by RK5 key sum: a table of ~30 KB */
    int nclasses;
} Tables;

static Tables TSTD, TSHORT;

/* per card precomputation */
static uint32_t C_KEY[52];
static uint32_t C_SUIT[52];
static uint64_t C_BIT[52];
static uint32_t C_LOW[52];
/* rank key | suit nibble << 32, indexed by card & 63; 52..63 carry a flag at bit 60 */
static uint64_t C_KS[64];

static PyObject *ErrCls = NULL;

static void
set_err(const char *code, const char *fmt, ...)
{
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (ErrCls != NULL) {
        PyObject *e = PyObject_CallFunction(ErrCls, "ss", code, buf);
        if (e != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(e), e);
            Py_DECREF(e);
        }
        return;
    }
    PyErr_SetString(PyExc_ValueError, buf);
}

/* ------------------------------------------------------------------ table building */

static int
popc(uint32_t x)
{
    return __builtin_popcount(x);
}

/* raw score of a 5-card hand given its ranks; category << 20 | distinct ranks by
 * (count desc, rank desc) in 4-bit digits. */
static uint32_t
raw5(const int *r, int flush, int shortdeck)
{
    int cnt[13] = {0};
    uint32_t m = 0;
    for (int i = 0; i < 5; i++) {
        cnt[r[i]]++;
        m |= 1u << r[i];
    }
    int u[5] = {0, 0, 0, 0, 0}, k = 0, maxc = 0, npairs = 0;
    for (int c = 4; c >= 1; c--)
        for (int q = 12; q >= 0; q--)
            if (cnt[q] == c) {
                u[k++] = q;
                if (c > maxc) maxc = c;
                if (c == 2) npairs++;
            }
    int top = -1;
    if (popc(m) == 5) {
        for (int t = 12; t >= 4; t--)
            if (((m >> (t - 4)) & 31u) == 31u) {
                top = t;
                break;
            }
        if (top < 0 && !shortdeck && m == ((1u << 12) | 0xFu)) top = 3;
        if (top < 0 && shortdeck && m == ((1u << 12) | (0xFu << 4))) top = 7;
    }
    int cF = shortdeck ? 6 : 5, cFH = shortdeck ? 5 : 6;
    int cat;
    if (top >= 0 && flush)
        return (8u << 20) | ((uint32_t)top << 16);
    if (maxc == 4)
        cat = 7;
    else if (maxc == 3 && npairs == 1)
        cat = cFH;
    else if (flush)
        cat = cF;
    else if (top >= 0)
        return (4u << 20) | ((uint32_t)top << 16);
    else if (maxc == 3)
        cat = 3;
    else if (npairs == 2)
        cat = 2;
    else if (npairs == 1)
        cat = 1;
    else
        cat = 0;
    return ((uint32_t)cat << 20) | ((uint32_t)u[0] << 16) | ((uint32_t)u[1] << 12) |
           ((uint32_t)u[2] << 8) | ((uint32_t)u[3] << 4) | (uint32_t)u[4];
}

static int
cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

typedef struct {
    uint32_t *raws;
    int n;
} RawSet;

static int
dense_of(const RawSet *rs, uint32_t raw)
{
    int lo = 0, hi = rs->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        if (rs->raws[mid] == raw) return mid + 1;
        if (rs->raws[mid] < raw)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

/* best dense value over the 5-subsets of ranks r[0..n) */
static int
best_of_multiset(const RawSet *rs, const int *r, int n, int shortdeck)
{
    int best = 0, s[5];
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b + 1; c < n; c++)
                for (int d = c + 1; d < n; d++)
                    for (int e = d + 1; e < n; e++) {
                        s[0] = r[a];
                        s[1] = r[b];
                        s[2] = r[c];
                        s[3] = r[d];
                        s[4] = r[e];
                        int v = dense_of(rs, raw5(s, 0, shortdeck));
                        if (v > best) best = v;
                    }
    return best;
}

static int
ph_build(PHash *h, const uint32_t *keys, const uint16_t *vals, int n, uint32_t maxany)
{
    uint32_t maxkey = 0;
    for (int i = 0; i < n; i++)
        if (keys[i] > maxkey) maxkey = keys[i];
    /* rows for any sum of up to nine keys, so that impossible inputs (duplicated cards in a
     * batch) read some value instead of outside the tables */
    uint32_t nrows = (maxany >> SHIFT) + 1;
    (void)maxkey;
    int *cnt = calloc(nrows, sizeof(int));
    int *start = calloc(nrows + 1, sizeof(int));
    int *items = malloc(sizeof(int) * (size_t)n);
    int *fill = calloc(nrows, sizeof(int));
    int *order = malloc(sizeof(int) * nrows);
    int32_t *off = calloc(nrows, sizeof(int32_t));
    size_t cap = (size_t)n * 8 + COLS * 4;
    size_t *nf = NULL;
    uint8_t *used = calloc(cap, 1);
    uint16_t *val = NULL;
    if (!cnt || !start || !items || !fill || !order || !off || !used) goto fail;
    for (int i = 0; i < n; i++) cnt[keys[i] >> SHIFT]++;
    for (uint32_t r = 0; r < nrows; r++) start[r + 1] = start[r] + cnt[r];
    for (int i = 0; i < n; i++) {
        uint32_t r = keys[i] >> SHIFT;
        items[start[r] + fill[r]++] = i;
    }
    /* rows by count, descending (counting sort) */
    {
        int k = 0;
        for (int c = (int)COLS; c >= 1; c--)
            for (uint32_t r = 0; r < nrows; r++)
                if (cnt[r] == c) order[k++] = (int)r;
        for (uint32_t r = 0; r < nrows; r++)
            if (cnt[r] == 0) order[k++] = (int)r;
    }
    size_t first_free = 0, maxd = 0, prev_d = 0;
    int prev_cnt = -1;
    nf = malloc(sizeof(size_t) * (cap + 1));
    if (!nf) goto fail;
    for (size_t x = 0; x <= cap; x++) nf[x] = x;
    for (uint32_t oi = 0; oi < nrows; oi++) {
        int r = order[oi];
        if (cnt[r] == 0) {
            off[r] = 0;
            continue;
        }
        uint32_t mincol = COLS;
        for (int j = start[r]; j < start[r + 1]; j++) {
            uint32_t col = keys[items[j]] & CMASK;
            if (col < mincol) mincol = col;
        }
        size_t d = first_free > mincol ? first_free - mincol : 0;
        /* rows of equal size tend to fail where the previous one failed: start there */
        if (cnt[r] == prev_cnt && prev_d > d + COLS) d = prev_d - COLS;
        for (;;) {
            int okk = 1;
            if (d + COLS >= cap) goto fail;
            for (int j = start[r]; j < start[r + 1]; j++) {
                size_t pos = d + (keys[items[j]] & CMASK);
                if (used[pos]) {
                    /* jump to the next free slot for this column */
                    size_t f = pos;
                    while (nf[f] != f) {
                        nf[f] = nf[nf[f]];
                        f = nf[f];
                    }
                    d = f - (keys[items[j]] & CMASK);
                    okk = 0;
                    break;
                }
            }
            if (okk) break;
        }
        for (int j = start[r]; j < start[r + 1]; j++) {
            size_t at = d + (keys[items[j]] & CMASK);
            used[at] = 1;
            nf[at] = at + 1;
        }
        off[r] = (int32_t)d;
        prev_cnt = cnt[r];
        prev_d = d;
        if (d > maxd) maxd = d;
        while (used[first_free]) first_free++;
    }
    h->size = (uint32_t)(maxd + COLS);
    val = calloc(h->size, sizeof(uint16_t));
    if (!val) goto fail;
    for (int i = 0; i < n; i++) val[off[keys[i] >> SHIFT] + (keys[i] & CMASK)] = vals[i];
    h->off = off;
    h->val = val;
    h->nrows = nrows;
    free(cnt);
    free(start);
    free(items);
    free(fill);
    free(order);
    free(used);
    free(nf);
    return 0;
fail:
    free(cnt);
    free(start);
    free(items);
    free(fill);
    free(order);
    free(used);
    free(nf);
    free(off);
    free(val);
    return -1;
}

typedef struct {
    uint32_t *keys;
    uint16_t *vals;
    int n, cap;
} KV;

static void
gen_multisets(const RawSet *rs, int shortdeck, int target, int rank, int *buf, int len,
              uint32_t key, KV *kv)
{
    if (len == target) {
        kv->keys[kv->n] = key;
        kv->vals[kv->n] = (uint16_t)best_of_multiset(rs, buf, target, shortdeck);
        kv->n++;
        return;
    }
    int lowest = shortdeck ? 4 : 0;
    if (rank < lowest) return;
    /* choose count of this rank */
    for (int c = 0; c <= 4 && len + c <= target; c++) {
        for (int j = 0; j < c; j++) buf[len + j] = rank;
        gen_multisets(rs, shortdeck, target, rank - 1, buf, len + c, key + (uint32_t)c * RK[rank],
                      kv);
    }
}

static int
build_tables(Tables *T, int shortdeck)
{
    /* all raw 5-card scores */
    int lowest = shortdeck ? 4 : 0;
    uint32_t *raws = malloc(sizeof(uint32_t) * 20000);
    int nr = 0;
    if (!raws) return -1;
    int r[5];
    for (r[0] = lowest; r[0] < 13; r[0]++)
        for (r[1] = r[0]; r[1] < 13; r[1]++)
            for (r[2] = r[1]; r[2] < 13; r[2]++)
                for (r[3] = r[2]; r[3] < 13; r[3]++)
                    for (r[4] = r[3]; r[4] < 13; r[4]++) {
                        if (r[0] == r[4]) continue; /* five of a kind */
                        raws[nr++] = raw5(r, 0, shortdeck);
                        if (r[0] < r[1] && r[1] < r[2] && r[2] < r[3] && r[3] < r[4])
                            raws[nr++] = raw5(r, 1, shortdeck);
                    }
    qsort(raws, (size_t)nr, sizeof(uint32_t), cmp_u32);
    int nu = 0;
    for (int i = 0; i < nr; i++)
        if (nu == 0 || raws[nu - 1] != raws[i]) raws[nu++] = raws[i];
    RawSet rs = {raws, nu};
    T->nclasses = nu;
    /* flush table */
    memset(T->flush, 0, sizeof T->flush);
    for (uint32_t m = 0; m < 8192; m++) {
        if (popc(m) < 5) continue;
        if (shortdeck && (m & 0xFu)) continue;
        int rr[13], k = 0, best = 0;
        for (int q = 0; q < 13; q++)
            if (m & (1u << q)) rr[k++] = q;
        int s[5];
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++)
                for (int c = b + 1; c < k; c++)
                    for (int d = c + 1; d < k; d++)
                        for (int e = d + 1; e < k; e++) {
                            s[0] = rr[a];
                            s[1] = rr[b];
                            s[2] = rr[c];
                            s[3] = rr[d];
                            s[4] = rr[e];
                            int v = dense_of(&rs, raw5(s, 1, shortdeck));
                            if (v > best) best = v;
                        }
        T->flush[m] = (uint16_t)best;
    }
    for (int n = 5; n <= 7; n++) {
        KV kv;
        kv.cap = 60000;
        kv.n = 0;
        kv.keys = malloc(sizeof(uint32_t) * (size_t)kv.cap);
        kv.vals = malloc(sizeof(uint16_t) * (size_t)kv.cap);
        int buf[8];
        if (!kv.keys || !kv.vals) {
            free(kv.keys);
            free(kv.vals);
            free(raws);
            return -1;
        }
        gen_multisets(&rs, shortdeck, n, 12, buf, 0, 0, &kv);
        int rc = ph_build(&T->rank[n], kv.keys, kv.vals, kv.n, 9u * RK[12]);
        free(kv.keys);
        free(kv.vals);
        if (rc < 0) {
            free(raws);
            return -1;
        }
    }
    free(raws);
    {
        uint32_t *k5s = malloc(sizeof(uint32_t) * 7000);
        uint16_t *v5s = malloc(sizeof(uint16_t) * 7000);
        int m = 0;
        if (!k5s || !v5s) {
            free(k5s);
            free(v5s);
            return -1;
        }
        for (r[0] = lowest; r[0] < 13; r[0]++)
            for (r[1] = r[0]; r[1] < 13; r[1]++)
                for (r[2] = r[1]; r[2] < 13; r[2]++)
                    for (r[3] = r[2]; r[3] < 13; r[3]++)
                        for (r[4] = r[3]; r[4] < 13; r[4]++) {
                            if (r[0] == r[4]) continue;
                            uint32_t k7 = 0, k5 = 0;
                            for (int i = 0; i < 5; i++) {
                                k7 += RK[r[i]];
                                k5 += RK5[r[i]];
                            }
                            const PHash *h = &T->rank[5];
                            k5s[m] = k5;
                            v5s[m++] = h->val[h->off[k7 >> SHIFT] + (k7 & CMASK)];
                        }
        int rc = ph_build(&T->small5, k5s, v5s, m, 5u * RK5[12]);
        free(k5s);
        free(v5s);
        if (rc < 0) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ evaluation */

static inline int
ph_get(const PHash *h, uint32_t key)
{
    return h->val[h->off[key >> SHIFT] + (key & CMASK)];
}

static inline int
eval_state(const Tables *T, int n, uint32_t key, uint32_t sk, uint64_t bits)
{
    uint32_t f = (sk + 0x3333u) & 0x8888u;
    if (f) {
        int s = __builtin_ctz(f) >> 2;
        return T->flush[(bits >> (16 * s)) & 0x1FFFu];
    }
    return ph_get(&T->rank[n], key);
}

static inline int
eval_cards(const Tables *T, const int *c, int n)
{
    if (n <= 7) {
        uint32_t key = 0, sk = 0;
        uint64_t bits = 0;
        for (int i = 0; i < n; i++) {
            key += C_KEY[c[i]];
            sk += C_SUIT[c[i]];
            bits |= C_BIT[c[i]];
        }
        return eval_state(T, n, key, sk, bits);
    }
    /* 8 or 9 cards: best of the 7-card subsets (leave out n - 7 cards) */
    int best = 0, sub[7];
    for (int a = 0; a < n; a++)
        for (int b = (n == 9 ? a + 1 : a); b < n; b++) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if (i != a && i != b) sub[k++] = c[i];
            int v = eval_cards(T, sub, 7);
            if (v > best) best = v;
            if (n == 8) break;
        }
    return best;
}

typedef struct {
    uint32_t key; /* RK5 key sum */
    uint32_t m;
    int suit;
    uint32_t low;
} Part;

static inline int
make_pairs(const int *h, int nh, Part *P)
{
    int k = 0;
    for (int a = 0; a < nh; a++)
        for (int b = a + 1; b < nh; b++) {
            int x = h[a], y = h[b];
            P[k].key = RK5[x >> 2] + RK5[y >> 2];
            P[k].m = (1u << (x >> 2)) | (1u << (y >> 2));
            P[k].suit = ((x & 3) == (y & 3)) ? (x & 3) : -1;
            P[k].low = (C_LOW[x] && C_LOW[y] && C_LOW[x] != C_LOW[y]) ? (C_LOW[x] | C_LOW[y]) : 0;
            k++;
        }
    return k;
}

static inline int
make_triples(const int *b, int nb, Part *B)
{
    int k = 0;
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++)
            for (int l = j + 1; l < nb; l++) {
                int x = b[i], y = b[j], z = b[l];
                B[k].key = RK5[x >> 2] + RK5[y >> 2] + RK5[z >> 2];
                B[k].m = (1u << (x >> 2)) | (1u << (y >> 2)) | (1u << (z >> 2));
                B[k].suit = ((x & 3) == (y & 3) && (y & 3) == (z & 3)) ? (x & 3) : -2;
                uint32_t lm = C_LOW[x] | C_LOW[y] | C_LOW[z];
                B[k].low = (C_LOW[x] && C_LOW[y] && C_LOW[z] && popc(lm) == 3) ? lm : 0;
                k++;
            }
    return k;
}

/* best flush of exactly two hole and three board cards: only suits with three board cards
 * and two hole cards can make one */
static inline int
omaha_flush_best(const Tables *T, const int *h, int nh, const int *b, int nb)
{
    uint32_t bs = 0, hs = 0;
    int best = 0;
    for (int i = 0; i < nb; i++) bs += 1u << (4 * (b[i] & 3));
    for (int i = 0; i < nh; i++) hs += 1u << (4 * (h[i] & 3));
    if (!(((bs + 0x5555u) & 0x8888u))) return 0; /* no suit with three board cards */
    for (int s = 0; s < 4; s++) {
        if (((bs >> (4 * s)) & 15u) < 3 || ((hs >> (4 * s)) & 15u) < 2) continue;
        int hr[6], br[5], n1 = 0, n2 = 0;
        for (int i = 0; i < nh; i++)
            if ((h[i] & 3) == s) hr[n1++] = h[i] >> 2;
        for (int i = 0; i < nb; i++)
            if ((b[i] & 3) == s) br[n2++] = b[i] >> 2;
        for (int a = 0; a < n1; a++)
            for (int c = a + 1; c < n1; c++) {
                uint32_t pm = (1u << hr[a]) | (1u << hr[c]);
                for (int i = 0; i < n2; i++)
                    for (int j = i + 1; j < n2; j++)
                        for (int l = j + 1; l < n2; l++) {
                            int v = T->flush[pm | (1u << br[i]) | (1u << br[j]) | (1u << br[l])];
                            best = v > best ? v : best;
                        }
            }
    }
    return best;
}

/* best non-flush value over hole-pair keys x board-triple keys (RK5 sums) */
static inline int
omaha_rank_best(const Tables *T, const uint32_t *pk, int np, const uint32_t *tk, int nt)
{
    const int32_t *off = T->small5.off;
    const uint16_t *val = T->small5.val;
    int best = 0;
    for (int i = 0; i < np; i++) {
        uint32_t p = pk[i];
        for (int j = 0; j < nt; j++) {
            uint32_t key = p + tk[j];
            int v = val[off[key >> SHIFT] + (key & CMASK)];
            best = v > best ? v : best;
        }
    }
    return best;
}

static inline int
pair_keys(const int *h, int nh, uint32_t *pk)
{
    int k = 0;
    for (int a = 0; a < nh; a++)
        for (int c = a + 1; c < nh; c++) pk[k++] = RK5[h[a] >> 2] + RK5[h[c] >> 2];
    return k;
}

static inline int
triple_keys(const int *b, int nb, uint32_t *tk)
{
    int k = 0;
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++)
            for (int l = j + 1; l < nb; l++) tk[k++] = RK5[b[i] >> 2] + RK5[b[j] >> 2] + RK5[b[l] >> 2];
    return k;
}

static inline int
omaha_hi(const Tables *T, const int *h, int nh, const int *b, int nb)
{
    uint32_t pk[15], tk[10];
    int np = pair_keys(h, nh, pk), nt = triple_keys(b, nb, tk);
    int r = omaha_rank_best(T, pk, np, tk, nt), f = omaha_flush_best(T, h, nh, b, nb);
    return r > f ? r : f;
}

static inline int
low_value(uint32_t m)
{
    /* m: a set of exactly five low ranks (bit 0 = ace .. bit 7 = eight) */
    return 255 - (int)m;
}

static inline int
omaha_lo_parts(const Part *P, int np, const Part *B, int nb)
{
    uint32_t best = 0x1FFu;
    for (int i = 0; i < np; i++) {
        uint32_t pl = P[i].low;
        if (!pl) continue;
        for (int j = 0; j < nb; j++) {
            uint32_t bl = B[j].low;
            if (bl && !(pl & bl)) {
                uint32_t c = pl | bl;
                if (c < best) best = c;
            }
        }
    }
    return best == 0x1FFu ? -1 : low_value(best);
}

static inline int
low8_cards(const int *c, int n)
{
    uint32_t m = 0;
    for (int i = 0; i < n; i++) m |= C_LOW[c[i]];
    if (popc(m) < 5) return -1;
    while (popc(m) > 5) m &= ~(1u << (31 - __builtin_clz(m)));
    return low_value(m);
}

/* ------------------------------------------------------------------ argument helpers */

/* read a sequence of cards into out[], checking range and duplicates against *seen */
static int
read_cards(PyObject *seq, int *out, int maxn, const char *what, uint64_t *seen)
{
    PyObject *fast = PySequence_Fast(seq, "cards must be a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > maxn) {
        Py_DECREF(fast);
        set_err("wrong_card_count", "too many %s cards: %zd", what, n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_DECREF(fast);
            set_err("invalid_card", "a card is an integer from 0 to 51");
            return -1;
        }
        if (v < 0 || v > 51) {
            Py_DECREF(fast);
            set_err("invalid_card", "a card is an integer from 0 to 51, not %ld", v);
            return -1;
        }
        if (*seen & (1ull << v)) {
            Py_DECREF(fast);
            set_err("duplicate_card", "card %c%c appears twice", "23456789TJQKA"[v >> 2],
                    "cdhs"[v & 3]);
            return -1;
        }
        *seen |= 1ull << v;
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int
read_hole_board(PyObject *const *args, Py_ssize_t nargs, int *hole, int *nh, int *board, int *nb,
                uint64_t *seen)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expected (hole, board)");
        return -1;
    }
    *seen = 0;
    *nh = read_cards(args[0], hole, 9, "hole", seen);
    if (*nh < 0) return -1;
    *nb = read_cards(args[1], board, 9, "board", seen);
    if (*nb < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------------ scalar functions */

static PyObject *
generic_high(const Tables *T, PyObject *const *args, Py_ssize_t nargs, const char *name,
             int shortdeck)
{
    int c[18], nh, nb;
    uint64_t seen;
    if (read_hole_board(args, nargs, c, &nh, c + 9, &nb, &seen) < 0) return NULL;
    int n = nh + nb;
    if (n < 5 || n > 9) {
        set_err("wrong_card_count", "%s needs 5 to 9 cards in all, got %d", name, n);
        return NULL;
    }
    if (shortdeck && (seen & 0xFFFFull)) {
        set_err("invalid_card", "short-deck hands use only cards from 6 up");
        return NULL;
    }
    int all[9];
    for (int i = 0; i < nh; i++) all[i] = c[i];
    for (int i = 0; i < nb; i++) all[nh + i] = c[9 + i];
    return PyLong_FromLong(eval_cards(T, all, n));
}

static PyObject *
py_high(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return generic_high(&TSTD, args, nargs, "high", 0);
}

static PyObject *
py_short_deck(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return generic_high(&TSHORT, args, nargs, "short_deck", 1);
}

static int
read_omaha(PyObject *const *args, Py_ssize_t nargs, int *hole, int *nh, int *board, int *nb,
           const char *name)
{
    uint64_t seen;
    if (read_hole_board(args, nargs, hole, nh, board, nb, &seen) < 0) return -1;
    if (*nh < 4 || *nh > 6) {
        set_err("wrong_card_count", "%s needs 4 to 6 hole cards, got %d", name, *nh);
        return -1;
    }
    if (*nb < 3 || *nb > 5) {
        set_err("wrong_card_count", "%s needs 3 to 5 board cards, got %d", name, *nb);
        return -1;
    }
    return 0;
}

static PyObject *
py_omaha_high(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int h[9], b[9], nh, nb;
    Part P[15], B[10];
    if (read_omaha(args, nargs, h, &nh, b, &nb, "omaha_high") < 0) return NULL;
    (void)P;
    (void)B;
    return PyLong_FromLong(omaha_hi(&TSTD, h, nh, b, nb));
}

static PyObject *
py_omaha_low8(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int h[9], b[9], nh, nb;
    Part P[15], B[10];
    if (read_omaha(args, nargs, h, &nh, b, &nb, "omaha_low8") < 0) return NULL;
    int np = make_pairs(h, nh, P), nt = make_triples(b, nb, B);
    int v = omaha_lo_parts(P, np, B, nt);
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *
py_low8(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int c[18], nh, nb;
    uint64_t seen;
    if (read_hole_board(args, nargs, c, &nh, c + 9, &nb, &seen) < 0) return NULL;
    int n = nh + nb;
    if (n < 5 || n > 9) {
        set_err("wrong_card_count", "low8 needs 5 to 9 cards in all, got %d", n);
        return NULL;
    }
    int all[9] = {0};
    for (int i = 0; i < nh; i++) all[i] = c[i];
    for (int i = 0; i < nb; i++) all[nh + i] = c[9 + i];
    int v = low8_cards(all, n);
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *
py_high7(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "high7 takes exactly 7 cards");
        return NULL;
    }
    uint32_t key = 0, sk = 0;
    uint64_t bits = 0;
    for (int i = 0; i < 7; i++) {
        long v = PyLong_AsLong(args[i]);
        if ((unsigned long)v > 51ul) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                set_err("invalid_card", "a card is an integer from 0 to 51");
            }
            return NULL;
        }
        key += C_KEY[v];
        sk += C_SUIT[v];
        if (bits & C_BIT[v]) {
            set_err("duplicate_card", "card %c%c appears twice", "23456789TJQKA"[v >> 2],
                    "cdhs"[v & 3]);
            return NULL;
        }
        bits |= C_BIT[v];
    }
    return PyLong_FromLong(eval_state(&TSTD, 7, key, sk, bits));
}

/* ------------------------------------------------------------------ batch functions */

/* high_batch(cards: buffer int32 (N*k), k, out: writable int32 (N), short) -> bad row or -1 */
static PyObject *
py_high_batch(PyObject *self, PyObject *args)
{
    Py_buffer in, out;
    int k, shortdeck = 0;
    if (!PyArg_ParseTuple(args, "y*iw*|p", &in, &k, &out, &shortdeck)) return NULL;
    Py_ssize_t n = out.len / 4;
    const int32_t *c = in.buf;
    int32_t *o = out.buf;
    Py_ssize_t bad = -1;
    const Tables *T = shortdeck ? &TSHORT : &TSTD;
    if (k < 5 || k > 7 || in.len != n * k * 4) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "bad batch shape");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    const PHash *h = &T->rank[k];
    for (Py_ssize_t i = 0; i < n; i++) {
        const int32_t *r = c + i * k;
        uint64_t ks = 0;
        uint32_t any = 0;
        for (int j = 0; j < k; j++) {
            uint32_t v = (uint32_t)r[j];
            any |= v;
            ks += C_KS[v & 63u];
        }
        if (any > 63u || (ks >> 60)) {
            bad = i;
            break;
        }
        uint32_t f = ((uint32_t)(ks >> 32) + 0x3333u) & 0x8888u;
        if (f) {
            uint32_t s = (uint32_t)__builtin_ctz(f) >> 2, m = 0;
            for (int j = 0; j < k; j++)
                if (((uint32_t)r[j] & 3u) == s) m |= 1u << ((uint32_t)r[j] >> 2);
            o[i] = T->flush[m];
        } else {
            uint32_t key = (uint32_t)ks;
            o[i] = h->val[h->off[key >> SHIFT] + (key & CMASK)];
        }
    }
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

static PyObject *
py_low8_batch(PyObject *self, PyObject *args)
{
    Py_buffer in, out;
    int k;
    if (!PyArg_ParseTuple(args, "y*iw*", &in, &k, &out)) return NULL;
    Py_ssize_t n = out.len / 4;
    const int32_t *c = in.buf;
    int32_t *o = out.buf;
    Py_ssize_t bad = -1;
    if (k < 5 || k > 9 || in.len != n * k * 4) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "bad batch shape");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < n; i++) {
        int row[9];
        int okk = 1;
        for (int j = 0; j < k; j++) {
            uint32_t v = (uint32_t)c[i * k + j];
            if (v > 51u) okk = 0;
            row[j] = (int)v;
        }
        if (!okk) {
            bad = i;
            break;
        }
        o[i] = low8_cards(row, k);
    }
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

/* omaha_batch(hole buffer (N*nh), nh, board buffer (N*nb), nb, out_hi, out_lo) ;
 * out_hi / out_lo may be None */
static PyObject *
py_omaha_batch(PyObject *self, PyObject *args)
{
    Py_buffer hb, bb, ohi, olo;
    int nh, nb;
    PyObject *ohi_o, *olo_o;
    if (!PyArg_ParseTuple(args, "y*iy*iOO", &hb, &nh, &bb, &nb, &ohi_o, &olo_o)) return NULL;
    int want_hi = ohi_o != Py_None, want_lo = olo_o != Py_None;
    memset(&ohi, 0, sizeof ohi);
    memset(&olo, 0, sizeof olo);
    if (want_hi && PyObject_GetBuffer(ohi_o, &ohi, PyBUF_WRITABLE) < 0) goto err0;
    if (want_lo && PyObject_GetBuffer(olo_o, &olo, PyBUF_WRITABLE) < 0) {
        if (want_hi) PyBuffer_Release(&ohi);
        goto err0;
    }
    Py_ssize_t n = hb.len / 4 / (nh > 0 ? nh : 1);
    if (nh < 4 || nh > 6 || nb < 3 || nb > 5 || hb.len != n * nh * 4 || bb.len != n * nb * 4 ||
        (want_hi && ohi.len != n * 4) || (want_lo && olo.len != n * 4)) {
        if (want_hi) PyBuffer_Release(&ohi);
        if (want_lo) PyBuffer_Release(&olo);
        PyErr_SetString(PyExc_ValueError, "bad batch shape");
        goto err0;
    }
    const int32_t *h = hb.buf, *b = bb.buf;
    int32_t *oh = want_hi ? ohi.buf : NULL, *ol = want_lo ? olo.buf : NULL;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < n; i++) {
        int hh[6], bbb[5], okk = 1;
        Part P[15], B[10];
        for (int j = 0; j < nh; j++) {
            uint32_t v = (uint32_t)h[i * nh + j];
            if (v > 51u) okk = 0;
            hh[j] = (int)v;
        }
        for (int j = 0; j < nb; j++) {
            uint32_t v = (uint32_t)b[i * nb + j];
            if (v > 51u) okk = 0;
            bbb[j] = (int)v;
        }
        if (!okk) {
            bad = i;
            break;
        }
        if (oh) oh[i] = omaha_hi(&TSTD, hh, nh, bbb, nb);
        if (ol) {
            int np = make_pairs(hh, nh, P), nt = make_triples(bbb, nb, B);
            ol[i] = omaha_lo_parts(P, np, B, nt);
        }
    }
    Py_END_ALLOW_THREADS;
    if (want_hi) PyBuffer_Release(&ohi);
    if (want_lo) PyBuffer_Release(&olo);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&bb);
    return PyLong_FromSsize_t(bad);
err0:
    PyBuffer_Release(&hb);
    PyBuffer_Release(&bb);
    return NULL;
}

/* ------------------------------------------------------------------ equity loops */

enum { G_HOLDEM = 0, G_OMAHA = 1, G_OMAHA8 = 2, G_SHORT = 3 };

#define MAXP 23

typedef struct {
    int game, np, nh;
    const Tables *T;
    int holes[MAXP][6];
    uint32_t hkey[MAXP], hsk[MAXP];
    uint64_t hbits[MAXP];
    Part P[MAXP][15];
    uint32_t pk[MAXP][15];
    int npairs;
    int board[5], nknown, k; /* known board cards, cards to deal */
    int deck[52], ndeck;
    /* results */
    uint64_t wins[MAXP], ties[MAXP];
    double shares[MAXP];
    uint64_t total;
} Ctx;

static inline void
settle(Ctx *c, const int *board5)
{
    int hi[MAXP], lo[MAXP];
    int np = c->np;
    int besth = -1, bestl = -1;
    if (c->game == G_HOLDEM || c->game == G_SHORT) {
        uint32_t key = 0, sk = 0;
        uint64_t bits = 0;
        for (int i = 0; i < 5; i++) {
            key += C_KEY[board5[i]];
            sk += C_SUIT[board5[i]];
            bits |= C_BIT[board5[i]];
        }
        int n = 5 + c->nh;
        for (int p = 0; p < np; p++) {
            hi[p] = eval_state(c->T, n, key + c->hkey[p], sk + c->hsk[p], bits | c->hbits[p]);
            if (hi[p] > besth) besth = hi[p];
        }
    } else {
        Part B[10];
        int nt = c->game == G_OMAHA8 ? make_triples(board5, 5, B) : 0;
        uint32_t tk[10];
        triple_keys(board5, 5, tk);
        for (int p = 0; p < np; p++) {
            int rb = omaha_rank_best(c->T, c->pk[p], c->npairs, tk, 10);
            int fb = omaha_flush_best(c->T, c->holes[p], c->nh, board5, 5);
            hi[p] = rb > fb ? rb : fb;
            if (hi[p] > besth) besth = hi[p];
            if (c->game == G_OMAHA8) {
                lo[p] = omaha_lo_parts(c->P[p], c->npairs, B, nt);
                if (lo[p] > bestl) bestl = lo[p];
            }
        }
    }
    c->total++;
    int nwh = 0, nwl = 0;
    for (int p = 0; p < np; p++) nwh += hi[p] == besth;
    if (bestl < 0) {
        if (nwh == 1) {
            for (int p = 0; p < np; p++)
                if (hi[p] == besth) c->wins[p]++;
        } else {
            double s = 1.0 / nwh;
            for (int p = 0; p < np; p++)
                if (hi[p] == besth) {
                    c->ties[p]++;
                    c->shares[p] += s;
                }
        }
        return;
    }
    for (int p = 0; p < np; p++) nwl += lo[p] == bestl;
    for (int p = 0; p < np; p++) {
        double s = 0.0;
        if (hi[p] == besth) s += 0.5 / nwh;
        if (lo[p] == bestl) s += 0.5 / nwl;
        if (s >= 1.0 - 1e-12)
            c->wins[p]++;
        else if (s > 0.0) {
            c->ties[p]++;
            c->shares[p] += s;
        }
    }
}

static void
enum_rec(Ctx *c, int start, int depth, int *b5)
{
    if (depth == c->k) {
        settle(c, b5);
        return;
    }
    int need = c->k - depth;
    for (int i = start; i <= c->ndeck - need; i++) {
        b5[c->nknown + depth] = c->deck[i];
        enum_rec(c, i + 1, depth + 1, b5);
    }
}

static uint64_t
rotl(const uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

typedef struct {
    uint64_t s[4];
} Rng;

static uint64_t
splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t
rng_next(Rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline uint32_t
rng_below(Rng *r, uint32_t n)
{
    /* Lemire's multiply-shift with rejection: unbiased */
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    uint32_t l = (uint32_t)m;
    if (l < n) {
        uint32_t t = -n % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static int
ctx_init(Ctx *c, int game, const char *holes, Py_ssize_t nholes, int nh, const char *board,
         Py_ssize_t nb, const char *deck, Py_ssize_t nd)
{
    memset(c, 0, sizeof *c);
    if (game < 0 || game > 3 || nh < 2 || nh > 6 || nholes % nh || nholes / nh < 1 ||
        nholes / nh > MAXP || nb > 5 || nd > 52 || nd < 5 - nb) {
        PyErr_SetString(PyExc_ValueError, "bad equity arguments");
        return -1;
    }
    c->game = game;
    c->nh = nh;
    c->np = (int)(nholes / nh);
    c->T = game == G_SHORT ? &TSHORT : &TSTD;
    for (Py_ssize_t i = 0; i < nholes + nb + nd; i++) {
        unsigned char v = (unsigned char)(i < nholes        ? holes[i]
                                          : i < nholes + nb ? board[i - nholes]
                                                            : deck[i - nholes - nb]);
        if (v > 51) {
            PyErr_SetString(PyExc_ValueError, "bad card");
            return -1;
        }
    }
    for (int p = 0; p < c->np; p++) {
        for (int j = 0; j < nh; j++) {
            int v = (unsigned char)holes[p * nh + j];
            c->holes[p][j] = v;
            c->hkey[p] += C_KEY[v];
            c->hsk[p] += C_SUIT[v];
            c->hbits[p] |= C_BIT[v];
        }
        if (game == G_OMAHA || game == G_OMAHA8) {
            c->npairs = make_pairs(c->holes[p], nh, c->P[p]);
            pair_keys(c->holes[p], nh, c->pk[p]);
        }
    }
    if ((game == G_HOLDEM || game == G_SHORT) && nh != 2) {
        PyErr_SetString(PyExc_ValueError, "hold'em hands have two cards");
        return -1;
    }
    if ((game == G_OMAHA || game == G_OMAHA8) && nh < 4) {
        PyErr_SetString(PyExc_ValueError, "omaha hands have 4 to 6 cards");
        return -1;
    }
    c->nknown = (int)nb;
    for (int i = 0; i < nb; i++) c->board[i] = (unsigned char)board[i];
    c->k = 5 - (int)nb;
    c->ndeck = (int)nd;
    for (int i = 0; i < nd; i++) c->deck[i] = (unsigned char)deck[i];
    return 0;
}

static PyObject *
ctx_result(Ctx *c)
{
    PyObject *w = PyTuple_New(c->np), *t = PyTuple_New(c->np), *s = PyTuple_New(c->np);
    if (!w || !t || !s) {
        Py_XDECREF(w);
        Py_XDECREF(t);
        Py_XDECREF(s);
        return NULL;
    }
    for (int p = 0; p < c->np; p++) {
        PyTuple_SET_ITEM(w, p, PyLong_FromUnsignedLongLong(c->wins[p]));
        PyTuple_SET_ITEM(t, p, PyLong_FromUnsignedLongLong(c->ties[p]));
        PyTuple_SET_ITEM(s, p, PyFloat_FromDouble(c->shares[p]));
    }
    return Py_BuildValue("(NNNK)", w, t, s, (unsigned long long)c->total);
}

/* equity_enum(game, holes: bytes, nh, board: bytes, deck: bytes, lo, hi)
 * enumerates every completion of the board whose first new card is deck[lo..hi). */
static PyObject *
py_equity_enum(PyObject *self, PyObject *args)
{
    int game, nh, lo, hi;
    const char *holes, *board, *deck;
    Py_ssize_t nhl, nbl, ndl;
    if (!PyArg_ParseTuple(args, "iy#iy#y#ii", &game, &holes, &nhl, &nh, &board, &nbl, &deck, &ndl,
                          &lo, &hi))
        return NULL;
    Ctx *c = malloc(sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    if (ctx_init(c, game, holes, nhl, nh, board, nbl, deck, ndl) < 0) {
        free(c);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    int b5[5];
    for (int i = 0; i < c->nknown; i++) b5[i] = c->board[i];
    if (c->k == 0) {
        if (lo == 0 && hi > 0) settle(c, b5);
    } else {
        if (hi > c->ndeck) hi = c->ndeck;
        for (int i = lo; i < hi && i <= c->ndeck - c->k; i++) {
            b5[c->nknown] = c->deck[i];
            enum_rec(c, i + 1, 1, b5);
        }
    }
    Py_END_ALLOW_THREADS;
    PyObject *r = ctx_result(c);
    free(c);
    return r;
}

/* equity_mc(game, holes, nh, board, deck, trials, seed) */
static PyObject *
py_equity_mc(PyObject *self, PyObject *args)
{
    int game, nh;
    const char *holes, *board, *deck;
    Py_ssize_t nhl, nbl, ndl;
    long long trials;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iy#iy#y#LK", &game, &holes, &nhl, &nh, &board, &nbl, &deck, &ndl,
                          &trials, &seed))
        return NULL;
    Ctx *c = malloc(sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    if (ctx_init(c, game, holes, nhl, nh, board, nbl, deck, ndl) < 0) {
        free(c);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    Rng r;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r.s[i] = splitmix(&x);
    int b5[5];
    for (int i = 0; i < c->nknown; i++) b5[i] = c->board[i];
    int nd = c->ndeck, k = c->k, nk = c->nknown;
    for (long long t = 0; t < trials; t++) {
        for (int i = 0; i < k; i++) {
            int j = i + (int)rng_below(&r, (uint32_t)(nd - i));
            int tmp = c->deck[i];
            c->deck[i] = c->deck[j];
            c->deck[j] = tmp;
            b5[nk + i] = c->deck[i];
        }
        settle(c, b5);
    }
    Py_END_ALLOW_THREADS;
    PyObject *res = ctx_result(c);
    free(c);
    return res;
}

static PyObject *
py_set_error_class(PyObject *self, PyObject *cls)
{
    Py_XINCREF(cls);
    Py_XSETREF(ErrCls, cls);
    Py_RETURN_NONE;
}

/* table introspection for tests: flush table and 5-card lookups */
static PyObject *
py_nclasses(PyObject *self, PyObject *arg)
{
    int sd = PyObject_IsTrue(arg);
    if (sd < 0) return NULL;
    return PyLong_FromLong(sd ? TSHORT.nclasses : TSTD.nclasses);
}

static PyMethodDef methods[] = {
    {"high", (PyCFunction)(void (*)(void))py_high, METH_FASTCALL, "high(hole, board) -> int"},
    {"short_deck", (PyCFunction)(void (*)(void))py_short_deck, METH_FASTCALL,
     "short_deck(hole, board) -> int"},
    {"omaha_high", (PyCFunction)(void (*)(void))py_omaha_high, METH_FASTCALL,
     "omaha_high(hole, board) -> int"},
    {"omaha_low8", (PyCFunction)(void (*)(void))py_omaha_low8, METH_FASTCALL,
     "omaha_low8(hole, board) -> int | None"},
    {"low8", (PyCFunction)(void (*)(void))py_low8, METH_FASTCALL,
     "low8(hole, board) -> int | None"},
    {"high7", (PyCFunction)(void (*)(void))py_high7, METH_FASTCALL,
     "high7(c1, ..., c7) -> int"},
    {"high_batch", py_high_batch, METH_VARARGS, "high_batch(cards, k, out, short=False)"},
    {"low8_batch", py_low8_batch, METH_VARARGS, "low8_batch(cards, k, out)"},
    {"omaha_batch", py_omaha_batch, METH_VARARGS, "omaha_batch(hole, nh, board, nb, hi, lo)"},
    {"equity_enum", py_equity_enum, METH_VARARGS, "exact equity over a range of first cards"},
    {"equity_mc", py_equity_mc, METH_VARARGS, "Monte Carlo equity"},
    {"set_error_class", py_set_error_class, METH_O, "set the exception class raised on bad input"},
    {"nclasses", py_nclasses, METH_O, "number of distinct 5-card classes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_ceval", "Fast poker hand evaluation (C).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__ceval(void)
{
    for (int c = 0; c < 52; c++) {
        int r = c >> 2, s = c & 3;
        C_KEY[c] = RK[r];
        C_SUIT[c] = 1u << (4 * s);
        C_BIT[c] = 1ull << (16 * s + r);
        C_LOW[c] = r == 12 ? 1u : (r <= 6 ? 1u << (r + 1) : 0u);
        C_KS[c] = RK[r] | ((uint64_t)1 << (32 + 4 * s));
    }
    for (int c = 52; c < 64; c++) C_KS[c] = (uint64_t)1 << 60;
    if (build_tables(&TSTD, 0) < 0 || build_tables(&TSHORT, 1) < 0) return PyErr_NoMemory();
    /* bad input raises the engine's InvalidCardError (a ValueError with a code) */
    PyObject *errors = PyImport_ImportModule("croupier.engine.errors");
    if (errors != NULL) {
        ErrCls = PyObject_GetAttrString(errors, "InvalidCardError");
        Py_DECREF(errors);
    }
    if (ErrCls == NULL) PyErr_Clear();
    return PyModule_Create(&moddef);
}
