/*
 * croupier.analysis._csim -- a C simulation core for the Hold'em/Omaha family.
 *
 * Plays complete hands of Hold'em or Omaha high (no-limit, pot-limit, half-pot-limit,
 * fixed-limit; blinds and antes; no rake) with the `random` or `call` self-play policy,
 * with exactly the rules of the Python engine (croupier.engine.state / settle):
 *
 *   - players in position order (0 = left of the button, n - 1 = the button); with three
 *     players or more 0 posts the small blind and 1 the big blind, heads-up the button (1)
 *     posts the small blind; antes first, then blinds in ascending (amount, position);
 *   - hole cards one at a time round the table from position 0, a burn before the flop,
 *     the turn and the river;
 *   - raise-to amounts; the min/max raise-to of `_raise_bounds` (R-BET-1/2/3/4/6): the
 *     short all-in rule through "acted level vs raise increment", no raise when no
 *     opponent could put in more than the current bet, the fixed-limit cap of four bets;
 *   - uncalled chips returned at the end of every round, run-outs, side pots built like
 *     `settle.build_pots`, the antes dead money of the main pot unless someone is all-in
 *     on the ante (`settle.dead_money`), single-contributor layers refunded, odd chips
 *     from the lowest position; showdown show/muck decisions are counted (they never
 *     change the stacks).
 *
 * Random numbers: xoshiro256** (Blackman & Vigna), state seeded by splitmix64 from the
 * 64-bit seed. A uniform double is (next >> 11) * 2^-53; a uniform integer below k is
 * Lemire's multiply-and-reject method on 64 bits. Each hand shuffles a fresh ordered deck
 * (cards 0..51) with a Fisher-Yates shuffle (i from 51 down to 1, j uniform in 0..i), then
 * the policy draws one double per betting decision (the `call` policy draws none).
 *
 * Hand values come from the evaluator extension's own code (compiled into this module
 * from src/croupier/engine/evaluate/_ceval.c, tables built at import).
 */

/* the evaluator's source, with its module-level names moved out of the way */
#define methods ceval_methods_
#define moddef ceval_moddef_
#define PyInit__ceval csim_unused_init_ceval_
#include "../engine/evaluate/_ceval.c"
#undef methods
#undef moddef
#undef PyInit__ceval

#define NMAX 10
#define NPOTS (NMAX + 1)

enum { NL = 0, PL = 1, HPL = 2, FL = 3 };
enum { K_FOLD = 0, K_CHECK = 1, K_CALL = 2, K_RAISE = 3 };
enum { POL_RANDOM = 0, POL_CALL = 1 };

typedef struct {
    int omaha, structure, showdown_all, short_full, policy;
    int64_t sb, bb, ante, min_bet, small_bet, big_bet;
} cs_Cfg;

/* ------------------------------------------------------------------ random numbers */

typedef struct {
    uint64_t s[4];
} cs_Rng;

static inline uint64_t
cs_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t
cs_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void
cs_rng_seed(cs_Rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = cs_splitmix64(&x);
}

static inline uint64_t
cs_rng_next(cs_Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = cs_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cs_rotl(s[3], 45);
    return result;
}

static inline double
cs_rng_double(cs_Rng *r)
{
    return (double)(cs_rng_next(r) >> 11) * 0x1.0p-53;
}

/* uniform in 0..k-1 (k >= 1), Lemire's method */
static inline uint64_t
cs_rng_below(cs_Rng *r, uint64_t k)
{
    __uint128_t m = (__uint128_t)cs_rng_next(r) * k;
    uint64_t low = (uint64_t)m;
    if (low < k) {
        uint64_t threshold = (0 - k) % k;
        while (low < threshold) {
            m = (__uint128_t)cs_rng_next(r) * k;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

static void
cs_shuffle_deck(cs_Rng *r, uint8_t *deck)
{
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    for (int i = 51; i > 0; i--) {
        int j = (int)cs_rng_below(r, (uint64_t)i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* ------------------------------------------------------------------ the hand */

typedef struct {
    int8_t player, kind;
    int64_t call, lo, hi, amount;
} cs_Dec;

typedef struct {
    int n, live, street, actor, aggressor, bet_count, pos;
    int showdown, decisions; /* reached a showdown; show/muck decisions taken */
    int antes_dead;          /* every player posted the whole ante and kept chips */
    int64_t current, raise_inc;
    int64_t stack[NMAX], bet[NMAX], contrib[NMAX], acted[NMAX];
    uint8_t folded[NMAX];
    uint8_t deck[52];
    int board[5];
    int nboard;
} cs_Hand;

static inline int64_t
cs_fixed_size(const cs_Cfg *c, int street)
{
    return street >= 2 ? c->big_bet : c->small_bet;
}

static int
cs_next_to_act(const cs_Hand *h, int after)
{
    int n = h->n, able = 0;
    for (int p = 0; p < n; p++)
        if (!h->folded[p] && h->stack[p] > 0) able++;
    for (int i = 1; i <= n; i++) {
        int p = ((after + i) % n + n) % n;
        if (h->folded[p] || h->stack[p] == 0) continue;
        if (h->bet[p] < h->current) return p;
        if (h->acted[p] < 0 && able > 1) return p;
    }
    return -1;
}

/* min and max raise-to totals for p, both 0 when p may not raise */
static void
cs_raise_bounds(const cs_Hand *h, const cs_Cfg *c, int p, int64_t *plo, int64_t *phi)
{
    int64_t cur = h->current, all_in = h->bet[p] + h->stack[p], lo, hi;
    *plo = *phi = 0;
    if (all_in <= cur) return;
    if (c->structure == FL && h->bet_count >= 4) return;
    if (h->acted[p] >= 0 && cur - h->acted[p] < h->raise_inc) return; /* R-BET-6 */
    int others = 0;
    for (int q = 0; q < h->n; q++)
        if (q != p && !h->folded[q] && h->stack[q] > 0 && h->bet[q] + h->stack[q] > cur) {
            others = 1;
            break;
        }
    if (!others) return;
    if (c->structure == NL) {
        lo = cur + h->raise_inc;
        hi = all_in;
    } else if (c->structure == FL) {
        lo = hi = cur + cs_fixed_size(c, h->street);
    } else {
        int64_t pot = cur - h->bet[p];
        for (int q = 0; q < h->n; q++) pot += h->contrib[q];
        hi = cur + (c->structure == PL ? pot : pot / 2);
        lo = cur + h->raise_inc;
        if (hi < lo) hi = lo;
    }
    if (cur == 0 && lo < c->min_bet) lo = c->min_bet;
    if (lo > all_in) lo = all_in;
    if (hi > all_in) hi = all_in;
    *plo = lo;
    *phi = hi;
}

static void
cs_return_uncalled(cs_Hand *h)
{
    int n = h->n, leader = -1, leaders = 0;
    int64_t top = 0;
    for (int p = 0; p < n; p++) top = h->bet[p] > top ? h->bet[p] : top;
    if (top <= 0) return;
    for (int p = 0; p < n; p++)
        if (h->bet[p] == top) {
            leaders++;
            leader = p;
        }
    if (leaders != 1) return;
    int64_t second = 0;
    for (int q = 0; q < n; q++)
        if (q != leader && h->bet[q] > second) second = h->bet[q];
    int64_t excess = top - second;
    if (excess > 0) {
        h->bet[leader] -= excess;
        h->contrib[leader] -= excess;
        h->stack[leader] += excess;
        if (h->current == top) h->current = second;
    }
}

static int
cs_hand_value(const cs_Hand *h, const cs_Cfg *c, int p)
{
    int n = h->n;
    if (c->omaha) {
        int hole[4];
        for (int r = 0; r < 4; r++) hole[r] = h->deck[r * n + p];
        return omaha_hi(&TSTD, hole, 4, h->board, 5);
    }
    int cards[7] = {h->deck[p], h->deck[n + p], h->board[0], h->board[1],
                    h->board[2], h->board[3], h->board[4]};
    return eval_cards(&TSTD, cards, 7);
}

/* build the pots like cs_settle.build_pots, refund single-contributor layers, award */
static void
cs_settle(cs_Hand *h, const cs_Cfg *c)
{
    int n = h->n;
    /* antes are dead money of the main pot unless someone is all-in on the ante
     * (settle.dead_money): the layers are cut on the rest of each contribution */
    int64_t dead[NMAX], base[NMAX], dsum = 0;
    for (int p = 0; p < n; p++) {
        dead[p] = h->antes_dead ? c->ante : 0;
        base[p] = h->contrib[p] - dead[p];
        dsum += dead[p];
    }
    int64_t levels[NMAX];
    int nl = 0;
    for (int p = 0; p < n; p++) {
        if (h->folded[p] || base[p] <= 0) continue;
        int64_t v = base[p];
        int i = 0;
        while (i < nl && levels[i] < v) i++;
        if (i < nl && levels[i] == v) continue;
        for (int j = nl; j > i; j--) levels[j] = levels[j - 1];
        levels[i] = v;
        nl++;
    }
    int64_t layer[NPOTS][NMAX], amount[NPOTS];
    int eligible[NPOTS][NMAX], ne[NPOTS];
    int np = 0;
    int64_t prev = 0;
    for (int i = 0; i < nl; i++) {
        int64_t lv = levels[i], sum = 0;
        ne[np] = 0;
        for (int q = 0; q < n; q++) {
            int64_t x = (base[q] < lv ? base[q] : lv) - prev;
            x = x > 0 ? x : 0;
            layer[np][q] = x;
            sum += x;
            if (!h->folded[q] && base[q] >= lv) eligible[np][ne[np]++] = q;
        }
        amount[np++] = sum;
        prev = lv;
    }
    int64_t rest[NMAX], rsum = 0;
    for (int q = 0; q < n; q++) {
        rest[q] = base[q] - prev > 0 ? base[q] - prev : 0;
        rsum += rest[q];
    }
    if (rsum) {
        if (np == 0) {
            ne[0] = 0;
            amount[0] = 0;
            for (int q = 0; q < n; q++) layer[0][q] = 0;
            np = 1;
        }
        for (int q = 0; q < n; q++) layer[np - 1][q] += rest[q];
        amount[np - 1] += rsum;
    }
    if (dsum) { /* the dead money joins the main pot, won by whoever is still in */
        if (np == 0) {
            ne[0] = 0;
            amount[0] = 0;
            for (int q = 0; q < n; q++) layer[0][q] = 0;
            np = 1;
        }
        for (int q = 0; q < n; q++) layer[0][q] += dead[q];
        amount[0] += dsum;
        if (ne[0] == 0)
            for (int q = 0; q < n; q++)
                if (!h->folded[q]) eligible[0][ne[0]++] = q;
    }
    int value[NMAX];
    for (int p = 0; p < n; p++) value[p] = -1;
    for (int i = 0; i < np; i++) {
        int givers = 0, giver = -1;
        for (int q = 0; q < n; q++)
            if (layer[i][q]) {
                givers++;
                giver = q;
            }
        if (givers == 1 && ne[i] == 1 && eligible[i][0] == giver) { /* R-POT-2 refund */
            h->contrib[giver] -= amount[i];
            h->stack[giver] += amount[i];
            continue;
        }
        if (ne[i] == 0) {
            for (int q = 0; q < n; q++) h->stack[q] += layer[i][q];
            continue;
        }
        if (ne[i] == 1) {
            h->stack[eligible[i][0]] += amount[i];
            continue;
        }
        int best = -1, winners[NMAX], nw = 0;
        for (int k = 0; k < ne[i]; k++) {
            int p = eligible[i][k];
            if (value[p] < 0) value[p] = cs_hand_value(h, c, p);
            if (value[p] > best) {
                best = value[p];
                nw = 0;
            }
            if (value[p] == best) winners[nw++] = p;
        }
        int64_t share = amount[i] / nw, odd = amount[i] % nw;
        for (int k = 0; k < nw; k++) h->stack[winners[k]] += share + (k < odd ? 1 : 0);
    }
    for (int p = 0; p < n; p++) h->bet[p] = 0;
}

/* open the betting of the current street; the actor or -1 (run-out) */
static int
cs_open_betting(cs_Hand *h, const cs_Cfg *c)
{
    h->current = 0;
    h->bet_count = 0;
    h->raise_inc = c->structure == FL ? cs_fixed_size(c, h->street) : c->min_bet;
    for (int p = 0; p < h->n; p++) {
        h->bet[p] = 0;
        h->acted[p] = -1;
    }
    h->aggressor = -1;
    return h->actor = cs_next_to_act(h, -1);
}

static void
cs_start_showdown(cs_Hand *h)
{
    int everyone = 0, live = 0;
    h->showdown = 1;
    for (int p = 0; p < h->n; p++)
        if (!h->folded[p]) {
            live++;
            if (h->stack[p] == 0) everyone = 1;
        }
    /* each live player in turn shows or mucks (the last one alone left never has to) */
    h->decisions = everyone ? 0 : live;
}

/* close the round and move on; 1 when the hand is over */
static int
cs_end_round(cs_Hand *h, const cs_Cfg *c)
{
    cs_return_uncalled(h);
    h->actor = -1;
    for (;;) {
        if (h->live == 1) {
            cs_settle(h, c);
            return 1;
        }
        if (h->street >= 3) {
            cs_start_showdown(h);
            if (c->showdown_all) h->decisions = 0;
            cs_settle(h, c);
            return 1;
        }
        h->street++;
        h->pos++; /* burn */
        int k = h->street == 1 ? 3 : 1;
        for (int i = 0; i < k; i++) h->board[h->nboard++] = h->deck[h->pos++];
        if (cs_open_betting(h, c) >= 0) return 0;
    }
}

/* Play one hand from stacks; returns the number of actions (decisions and showdown
 * choices), -1 if chips were not conserved, -2 out of memory. Records the betting
 * decisions in rec (appended; NULL: no record). */
typedef struct {
    cs_Dec *d;
    int n, cap;
} cs_RecBuf;

static int
cs_play_hand(cs_Hand *h, const cs_Cfg *c, cs_Rng *rng, const int64_t *stacks, int n, cs_RecBuf *rec)
{
    memset(h, 0, sizeof *h);
    h->n = n;
    h->live = n;
    h->actor = -1;
    h->aggressor = -1;
    h->raise_inc = c->min_bet;
    int64_t total = 0;
    for (int p = 0; p < n; p++) {
        h->stack[p] = stacks[p];
        h->acted[p] = -1;
        total += stacks[p];
    }
    cs_shuffle_deck(rng, h->deck);
    h->antes_dead = c->ante > 0;
    for (int p = 0; p < n; p++)
        if (stacks[p] <= c->ante) h->antes_dead = 0;
    if (c->ante)
        for (int p = 0; p < n; p++) {
            int64_t paid = c->ante < h->stack[p] ? c->ante : h->stack[p];
            h->stack[p] -= paid;
            h->contrib[p] += paid;
        }
    int64_t blinds[NMAX] = {0};
    int bbpos = n == 2 ? 0 : 1;
    if (n == 2) {
        blinds[0] = c->bb;
        blinds[1] = c->sb;
    } else {
        blinds[0] = c->sb;
        blinds[1] = c->bb;
    }
    /* post in ascending (amount, position): only positions 0 and 1 post */
    int order[2] = {0, 1};
    if (blinds[1] < blinds[0]) {
        order[0] = 1;
        order[1] = 0;
    }
    int64_t largest = blinds[0] > blinds[1] ? blinds[0] : blinds[1];
    for (int i = 0; i < 2; i++) {
        int p = order[i];
        if (!blinds[p]) continue;
        int64_t paid = blinds[p] < h->stack[p] ? blinds[p] : h->stack[p];
        h->stack[p] -= paid;
        h->contrib[p] += paid;
        h->bet[p] += paid;
    }
    int opener = 0;
    if (largest > 0) {
        int64_t mb = h->bet[0] > h->bet[1] ? h->bet[0] : h->bet[1];
        h->current = c->short_full && largest > mb ? largest : mb;
        if (c->structure == FL) {
            h->raise_inc = cs_fixed_size(c, 0);
            h->bet_count = 1;
        } else {
            h->raise_inc = c->min_bet > largest ? c->min_bet : largest;
        }
        /* the player after the largest blind; the big blind's seat when it holds it */
        if (largest <= c->bb && blinds[bbpos] == largest)
            opener = (bbpos + 1) % n;
        else
            opener = ((blinds[1] == largest ? 1 : 0) + 1) % n;
    }
    h->pos = (c->omaha ? 4 : 2) * n;
    h->actor = cs_next_to_act(h, opener - 1);
    int over = h->actor < 0 ? cs_end_round(h, c) : 0;
    int actions = 0;
    while (!over) {
        int p = h->actor;
        int64_t to_call = h->current - h->bet[p], lo, hi;
        cs_raise_bounds(h, c, p, &lo, &hi);
        int kind;
        int64_t amount = 0;
        kind = to_call > 0 ? K_CALL : K_CHECK;
        if (c->policy == POL_RANDOM) {
            /* random_policy: facing a bet fold 20 %, min raise 12 %, max raise 3 %, else
             * call; otherwise min bet 32 %, max bet 3 %, else check */
            double r = cs_rng_double(rng);
            if (to_call > 0 && r < 0.20) {
                kind = K_FOLD;
            } else if (r < 0.32) {
                if (hi > 0) {
                    kind = K_RAISE;
                    amount = lo;
                }
            } else if (r < 0.35) {
                if (hi > 0) {
                    kind = K_RAISE;
                    amount = hi;
                }
            }
        }
        if (rec != NULL) {
            if (rec->n == rec->cap) {
                int cap = rec->cap ? 2 * rec->cap : 64;
                cs_Dec *grown = realloc(rec->d, sizeof(cs_Dec) * (size_t)cap);
                if (grown == NULL) return -2;
                rec->d = grown;
                rec->cap = cap;
            }
            cs_Dec *d = &rec->d[rec->n++];
            d->player = (int8_t)p;
            d->kind = (int8_t)kind;
            d->call = to_call > 0 ? (to_call < h->stack[p] ? to_call : h->stack[p]) : 0;
            d->lo = lo;
            d->hi = hi;
            d->amount = amount;
        }
        actions++;
        if (kind == K_FOLD) {
            h->folded[p] = 1;
            h->live--;
        } else if (kind == K_CALL) {
            int64_t paid = to_call < h->stack[p] ? to_call : h->stack[p];
            h->stack[p] -= paid;
            h->bet[p] += paid;
            h->contrib[p] += paid;
        } else if (kind == K_RAISE) {
            int64_t inc = amount - h->current, paid = amount - h->bet[p];
            h->stack[p] -= paid;
            h->bet[p] += paid;
            h->contrib[p] += paid;
            if (inc >= h->raise_inc) {
                if (c->structure != FL) h->raise_inc = inc;
                h->bet_count++;
            } else if (c->structure == FL) {
                h->bet_count++;
            }
            h->current = amount;
            h->aggressor = p;
        }
        h->acted[p] = h->current;
        if (h->live == 1) {
            over = cs_end_round(h, c);
        } else {
            int nxt = cs_next_to_act(h, p);
            if (nxt < 0)
                over = cs_end_round(h, c);
            else
                h->actor = nxt;
        }
    }
    int64_t after = 0;
    for (int p = 0; p < n; p++) after += h->stack[p];
    if (after != total) return -1;
    return actions + h->decisions;
}

/* ------------------------------------------------------------------ Python API */

static int
cs_parse_cfg(PyObject *cfg, cs_Cfg *c)
{
    long long sb, bb, ante, min_bet, small_bet, big_bet;
    if (!PyArg_ParseTuple(cfg, "iiiiiLLLLLL;cfg is (omaha, structure, showdown_all, short_full,"
                               " policy, sb, bb, ante, min_bet, small_bet, big_bet)",
                          &c->omaha, &c->structure, &c->showdown_all, &c->short_full,
                          &c->policy, &sb, &bb, &ante, &min_bet, &small_bet, &big_bet))
        return -1;
    c->sb = sb;
    c->bb = bb;
    c->ante = ante;
    c->min_bet = min_bet;
    c->small_bet = small_bet;
    c->big_bet = big_bet;
    const int64_t big = (int64_t)1 << 50;
    if (c->structure < NL || c->structure > FL || c->policy < POL_RANDOM ||
        c->policy > POL_CALL || sb < 0 || bb < 0 || ante < 0 || min_bet <= 0 || small_bet < 0 ||
        big_bet < 0 || sb > big || bb > big || ante > big || min_bet > big || small_bet > big ||
        big_bet > big || (c->structure == FL && (small_bet <= 0 || big_bet <= 0))) {
        PyErr_SetString(PyExc_ValueError, "_csim: unsupported configuration");
        return -1;
    }
    return 0;
}

static int
cs_parse_stacks(PyObject *seq, int64_t *stacks, int omaha)
{
    PyObject *fast = PySequence_Fast(seq, "stacks must be a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 2 || n > (omaha ? 9 : NMAX)) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "_csim: %s deals to 2-%d players, not %zd",
                     omaha ? "Omaha" : "Hold'em", omaha ? 9 : NMAX, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v <= 0 || v > ((long long)1 << 50)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "_csim: a stack must be in 1..2**50, not %lld", v);
            return -1;
        }
        stacks[i] = v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* run(cfg, stacks, hands, seed) -> (actions, showdowns, bad) ; bad: first hand (1-based)
 * whose chips were not conserved, or 0 */
static PyObject *
py_run(PyObject *self, PyObject *args)
{
    PyObject *cfg_t, *stacks_o;
    Py_ssize_t hands;
    unsigned long long seed;
    cs_Cfg c;
    int64_t stacks[NMAX];
    if (!PyArg_ParseTuple(args, "OOnK", &cfg_t, &stacks_o, &hands, &seed)) return NULL;
    if (cs_parse_cfg(cfg_t, &c) < 0) return NULL;
    int n = cs_parse_stacks(stacks_o, stacks, c.omaha);
    if (n < 0) return NULL;
    if (hands < 0) {
        PyErr_SetString(PyExc_ValueError, "_csim: hands must be >= 0");
        return NULL;
    }
    long long actions = 0, showdowns = 0;
    Py_ssize_t bad = 0;
    Py_BEGIN_ALLOW_THREADS;
    cs_Rng rng;
    cs_Hand h;
    cs_rng_seed(&rng, seed);
    for (Py_ssize_t i = 0; i < hands; i++) {
        int a = cs_play_hand(&h, &c, &rng, stacks, n, NULL);
        if (a < 0) {
            bad = i + 1;
            break;
        }
        actions += a;
        showdowns += h.showdown;
    }
    Py_END_ALLOW_THREADS;
    return Py_BuildValue("LLn", actions, showdowns, bad);
}

/* record(cfg, stacks, hands, seed) -> list of (deck: bytes, decisions, stacks, actions,
 * showdown); decisions are (player, kind, call, min_raise, max_raise, amount) with kind
 * 0 fold, 1 check, 2 call, 3 raise; actions counts showdown choices too (-1: not
 * conserved) */
static PyObject *
py_record(PyObject *self, PyObject *args)
{
    PyObject *cfg_t, *stacks_o;
    Py_ssize_t hands;
    unsigned long long seed;
    cs_Cfg c;
    int64_t stacks[NMAX];
    if (!PyArg_ParseTuple(args, "OOnK", &cfg_t, &stacks_o, &hands, &seed)) return NULL;
    if (cs_parse_cfg(cfg_t, &c) < 0) return NULL;
    int n = cs_parse_stacks(stacks_o, stacks, c.omaha);
    if (n < 0) return NULL;
    if (hands < 0 || hands > 10000000) {
        PyErr_SetString(PyExc_ValueError, "_csim: hands must be in 0..10**7");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    cs_Rng rng;
    cs_Hand h;
    cs_RecBuf rec = {NULL, 0, 0};
    cs_rng_seed(&rng, seed);
    for (Py_ssize_t i = 0; i < hands; i++) {
        rec.n = 0;
        int a = cs_play_hand(&h, &c, &rng, stacks, n, &rec);
        if (a == -2) {
            free(rec.d);
            Py_DECREF(out);
            return PyErr_NoMemory();
        }
        PyObject *decs = PyTuple_New(rec.n), *st = PyTuple_New(n);
        if (decs == NULL || st == NULL) goto fail_item;
        for (int k = 0; k < rec.n; k++) {
            cs_Dec *d = &rec.d[k];
            PyObject *t = Py_BuildValue("iiLLLL", d->player, d->kind, (long long)d->call,
                                        (long long)d->lo, (long long)d->hi,
                                        (long long)d->amount);
            if (t == NULL) goto fail_item;
            PyTuple_SET_ITEM(decs, k, t);
        }
        for (int p = 0; p < n; p++) {
            PyObject *v = PyLong_FromLongLong(h.stack[p]);
            if (v == NULL) goto fail_item;
            PyTuple_SET_ITEM(st, p, v);
        }
        PyObject *item = Py_BuildValue("y#NNiO", (const char *)h.deck, (Py_ssize_t)52, decs, st,
                                       a, h.showdown ? Py_True : Py_False);
        decs = st = NULL;
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            free(rec.d);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
        continue;
    fail_item:
        Py_XDECREF(decs);
        Py_XDECREF(st);
        free(rec.d);
        Py_DECREF(out);
        return NULL;
    }
    free(rec.d);
    return out;
}

/* random_doubles(seed, count) and shuffled_deck(seed): the PRNG, for tests */
static PyObject *
py_stream(PyObject *self, PyObject *args)
{
    unsigned long long seed;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &count)) return NULL;
    if (count < 0 || count > 1000000) {
        PyErr_SetString(PyExc_ValueError, "_csim: count must be in 0..10**6");
        return NULL;
    }
    cs_Rng rng;
    cs_rng_seed(&rng, seed);
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(cs_rng_next(&rng));
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *
py_first_deck(PyObject *self, PyObject *args)
{
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "K", &seed)) return NULL;
    cs_Rng rng;
    uint8_t deck[52];
    cs_rng_seed(&rng, seed);
    cs_shuffle_deck(&rng, deck);
    return PyBytes_FromStringAndSize((const char *)deck, 52);
}

static PyMethodDef csim_methods[] = {
    {"run", py_run, METH_VARARGS, "run(cfg, stacks, hands, seed) -> (actions, showdowns, bad)"},
    {"record", py_record, METH_VARARGS, "record(cfg, stacks, hands, seed) -> list of hands"},
    {"stream", py_stream, METH_VARARGS, "stream(seed, count) -> the first xoshiro256** outputs"},
    {"first_deck", py_first_deck, METH_VARARGS, "first_deck(seed) -> the first shuffled deck"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef csim_moddef = {
    PyModuleDef_HEAD_INIT, "_csim", "C simulation core for Hold'em/Omaha (see fastsim.py).", -1,
    csim_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__csim(void)
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
    if (build_tables(&TSTD, 0) < 0) return PyErr_NoMemory();
    return PyModule_Create(&csim_moddef);
}
