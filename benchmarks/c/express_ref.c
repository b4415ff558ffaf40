/* Lama Express reference in C: the same rules (docs/rules.md E-2 .. E-11, turn-by-turn windows E-9)
 * and the same benchmark policy as lamagames.bots.express.ExpressBenchmarkBot, on the standard
 * board (E-3) with the E-4 default colours. A speed baseline for
 * benchmarks/bench_batch_express.py (not part of the package).
 *
 * Chance and train choices come from two splitmix64 streams per game seeded exactly as in
 * lamagames.express.batch_kernels.setup_game, with game i seeded by i: the games are the very
 * games the batch engine plays from seeds 0..GAMES-1, so the totals must be equal.
 *
 * Usage: express_ref GAMES PLAYERS TURN_LIMIT
 * Prints: games rolls_total seconds wins_seat0 .. wins_seat{P-1} truncated
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 48
#define CARS 5
#define SLOTS 10
#define TRAIN 7
#define NPATHS 4
#define PATHCAP 3
enum { R_NONE, R_BOARD, R_EXIT, R_ARROW, R_REBOARD };

static const char TRACK[] = "ROYGBPGPRBOYBYOPRGORGYPBPGBRYOYBPOGRYRGPBOBORYGP";
static int next_dist[6][N], car_role[N][CARS], car_index[N][CARS], car_need[N][CARS];
static int station_seat[4];

static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void tables(int players) {
    int role[N], index[N], need[N];
    const char *colours = "ROYGBP";
    memset(role, 0, sizeof role);
    for (int i = 0; i < N; i++) { index[i] = -1; need[i] = 0; }
    for (int k = 0; k < 4; k++) {
        role[12 * k] = R_BOARD; index[12 * k] = k;
        for (int e = 1; e <= 3; e++) {
            int sp = (12 * k - e + N) % N;
            role[sp] = R_EXIT; index[sp] = k; need[sp] = N - e;
        }
        role[12 * k + 6] = R_ARROW; index[12 * k + 6] = k;
        role[12 * k + 3] = R_REBOARD; index[12 * k + 3] = k;
    }
    for (int c = 0; c < 6; c++)
        for (int t = 0; t < N; t++) {
            int d = 1;
            while (TRACK[(t + d) % N] != colours[c]) d++;
            next_dist[c][t] = d;
        }
    for (int t = 0; t < N; t++)
        for (int c = 0; c < CARS; c++) {
            int sp = ((t - 3 - c) % N + N) % N;
            car_role[t][c] = role[sp]; car_index[t][c] = index[sp]; car_need[t][c] = need[sp];
        }
    int seats2[4] = {0, -1, 1, -1}, seats3[4] = {0, 1, 2, -1}, seats4[4] = {0, 1, 2, 3};
    memcpy(station_seat, players == 2 ? seats2 : players == 3 ? seats3 : seats4, sizeof seats4);
}

typedef struct {
    int tips[2], owner[SLOTS], prog[SLOTS], station[4], house[4];
    int plen[NPATHS], powner[NPATHS][PATHCAP], pprog[NPATHS][PATHCAP];
    uint64_t free[4];
} Game;

static void available(Game *g, int n) {
    for (int s = 0; s < n; s++) g->free[s] = 0;
    for (int t = 0; t < 2; t++) {
        int tip = g->tips[t];
        for (int c = 0; c < CARS; c++) {
            int role = car_role[tip][c];
            if (role == R_NONE) continue;
            int slot = t * CARS + c, idx = car_index[tip][c], who = g->owner[slot];
            if (who < 0) {
                if (role == R_BOARD) {
                    int s = station_seat[idx];
                    if (s >= 0 && g->station[s] > 0) g->free[s] |= 1ULL << (3 + slot);
                } else if (role == R_REBOARD && g->plen[idx] > 0) {
                    g->free[g->powner[idx][0]] |= 1ULL << (33 + slot);
                }
            } else if (role == R_EXIT) {
                if (station_seat[idx] == who && g->prog[slot] >= car_need[tip][c])
                    g->free[who] |= 1ULL << (13 + slot);
            } else if (role == R_ARROW && g->plen[idx] < PATHCAP) {
                for (int s = 0; s < n; s++)
                    if (s != who) g->free[s] |= 1ULL << (23 + slot);
            }
        }
    }
}

static int next_asked(Game *g, int n, int start) {
    for (int i = 0; i < n; i++) {
        int s = (start + i) % n;
        if (g->free[s]) return s;
    }
    return -1;
}

static const int RANK[4] = {1, 0, 3, 2}; /* board, exit, detour, re-board */

static int benchmark(Game *g, uint64_t bits) {
    int best = -1, best_key = 1 << 30;
    for (int a = 3; a < 43; a++) {
        if (!((bits >> a) & 1)) continue;
        int kind = (a - 3) / SLOTS, slot = (a - 3) % SLOTS, fp = -1;
        if (kind >= 2) fp = car_index[g->tips[slot / CARS]][slot % CARS];
        int key = RANK[kind] * 100000 + (fp + 1) * 16 + slot;
        if (key < best_key) { best_key = key; best = a; }
    }
    return best;
}

/* A window (E-9) with benchmark players, who never pass: returns the winner or -1. */
static int window(Game *g, int n, int active, int llamas) {
    available(g, n);
    int seat = next_asked(g, n, active);
    while (seat >= 0) {
        int a = benchmark(g, g->free[seat]);
        int kind = (a - 3) / SLOTS, slot = (a - 3) % SLOTS;
        if (kind == 1) {
            g->owner[slot] = -1;
            if (++g->house[seat] >= llamas) return seat;
        } else if (kind == 0) {
            g->station[seat]--; g->owner[slot] = seat; g->prog[slot] = 0;
        } else {
            int idx = car_index[g->tips[slot / CARS]][slot % CARS];
            if (kind == 2) {
                int m = g->plen[idx]++;
                g->powner[idx][m] = g->owner[slot]; g->pprog[idx][m] = g->prog[slot] - 3;
                g->owner[slot] = -1;
            } else {
                g->owner[slot] = g->powner[idx][0]; g->prog[slot] = g->pprog[idx][0];
                int m = --g->plen[idx];
                for (int j = 0; j < m; j++) {
                    g->powner[idx][j] = g->powner[idx][j + 1]; g->pprog[idx][j] = g->pprog[idx][j + 1];
                }
            }
        }
        available(g, n);
        seat = next_asked(g, n, (seat + 1) % n);
    }
    return -1;
}

static int free_ahead(Game *g, int t) {
    int x = g->tips[1 - t] - TRAIN - g->tips[t];
    while (x < 0) x += N;
    return x;
}

static void move(Game *g, int t, int d) {
    g->tips[t] = (g->tips[t] + d) % N;
    for (int s = t * CARS; s < t * CARS + CARS; s++)
        if (g->owner[s] >= 0) g->prog[s] += d;
}

/* One game; returns the winner (-1 truncated) and adds its rolls to *rolls. */
static int play(uint64_t seed, int n, int limit, long *rolls) {
    uint64_t chance = seed * 0xBF58476D1CE4E5B9ULL + 0x9E3779B97F4A7C15ULL;
    uint64_t policy = (seed ^ 0x94D049BB133111EBULL) * 0x94D049BB133111EBULL + 1;
    mix(&chance);
    mix(&policy);
    Game g;
    memset(&g, 0, sizeof g);
    g.tips[0] = 0; g.tips[1] = 24;
    for (int s = 0; s < SLOTS; s++) g.owner[s] = -1;
    for (int s = 0; s < n; s++) g.station[s] = 4;
    int active = 0, count = 0;
    for (;;) {
        int die = (int)(((mix(&chance) >> 32) * 6) >> 32);
        count++;
        int w = window(&g, n, active, 4);
        if (w >= 0) { *rolls += count; return w; }
        int d0 = next_dist[die][g.tips[0]], d1 = next_dist[die][g.tips[1]];
        int can0 = d0 <= free_ahead(&g, 0), can1 = d1 <= free_ahead(&g, 1);
        if (can0 || can1) {
            int t = can0 && can1 ? (int)(mix(&policy) >> 63) : (can0 ? 0 : 1);
            move(&g, t, t ? d1 : d0);
            w = window(&g, n, active, 4);
            if (w >= 0) { *rolls += count; return w; }
        }
        if (count >= limit) { *rolls += count; return -1; }
        active = (active + 1) % n;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s GAMES PLAYERS TURN_LIMIT\n", argv[0]); return 2; }
    long games = atol(argv[1]);
    int n = atoi(argv[2]), limit = atoi(argv[3]);
    if (games < 1 || n < 2 || n > 4 || limit < 1) { fprintf(stderr, "bad arguments\n"); return 2; }
    tables(n);
    long rolls = 0, wins[4] = {0, 0, 0, 0}, truncated = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < games; i++) {
        int w = play((uint64_t)i, n, limit, &rolls);
        if (w >= 0) wins[w]++; else truncated++;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%ld %ld %.6f", games, rolls, seconds);
    for (int s = 0; s < n; s++) printf(" %ld", wins[s]);
    printf(" %ld\n", truncated);
    return 0;
}
