/* LAMA Dice reference in C: the same rules (D-1 .. D-11, standard dice) and the same
 * benchmark policy as lamagames.bots.dice.DiceBenchmarkBot, for speed comparisons only.
 *
 * Policy: quit iff the own row scores <= 6, else roll; discard as many cards as the dice
 * allow; take the lowest matching llama-row card; give back black before white.
 * Chance: SplitMix64 per game (seed = game index), like the batch engine's stream 0.
 *
 * Usage: dice_ref GAMES PLAYERS [END_SCORE]
 * Prints: games seconds mean_rounds mean_score_seat0 wins_seat0 (one line).
 * Build: gcc -O2 -o dice_ref dice_ref.c   (benchmarks/bench_batch_dice.py does this)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const int VALUES[7] = {1, 2, 3, 4, 5, 6, 10};
static const int FACES[3][6] = {{2, 3, 4, 5, 6, 6}, {0, 1, 4, 5, 6, 6}, {0, 1, 2, 3, 6, 6}};
static const int DECK[7] = {5, 5, 5, 5, 5, 5, 6};
#define LL 6

static uint64_t next_u64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(uint64_t *s, int bound) {
    return (int)(((next_u64(s) >> 32) * (uint64_t)bound) >> 32);
}

static int row_score(const int *row) {
    int t = 0;
    for (int s = 0; s < 7; s++)
        if (row[s]) t += VALUES[s];
    return t;
}

/* One game; returns the number of rounds; fills scores. */
static int play(uint64_t seed, int n, int end_score, int *scores) {
    uint64_t rng = seed;
    int rows[6][7], quit[6], llama[7], setaside[7];
    int starter = 0, rounds = 0;
    for (int p = 0; p < n; p++) scores[p] = 0;
    for (;;) {
        rounds++;
        for (int s = 0; s < 7; s++) { llama[s] = 1; setaside[s] = DECK[s]; }
        int total = 36;
        for (int p = 0; p < n; p++) {
            quit[p] = 0;
            for (int s = 0; s < 7; s++) rows[p][s] = 0;
            for (int c = 0; c < 6; c++) {
                int r = below(&rng, total), s = 0;
                while (r >= setaside[s]) r -= setaside[s++];
                setaside[s]--; total--; rows[p][s]++;
            }
        }
        int p = starter, last = starter, active = n;
        for (;;) {
            int *row = rows[p];
            int over = 0;
            last = p;
            if (row_score(row) <= 6) {  /* D-7 */
                quit[p] = 1;
                if (--active == 0) break;
            } else {
                int d[3];
                for (int k = 0; k < 3; k++) d[k] = FACES[k][below(&rng, 6)];
                if (d[0] == LL && d[1] == LL && d[2] == LL) {  /* D-8.1 */
                    if (scores[p] >= 10) scores[p] -= 10;
                    else if (scores[p] > 0) scores[p] -= 1;
                } else if (row[d[0]] || row[d[1]] || row[d[2]]) {  /* D-8.2 */
                    int left = 0;
                    for (int k = 0; k < 3; k++) if (row[d[k]]) row[d[k]]--;
                    for (int s = 0; s < 7; s++) left += row[s];
                    if (!left) over = 1;
                } else {
                    int lone = (active == 1), take = -1;
                    for (int s = 0; s < 7 && take < 0; s++)
                        if (llama[s] && (d[0] == s || d[1] == s || d[2] == s)) take = s;
                    if (take >= 0 && !lone) {  /* D-8.3 */
                        llama[take] = 0; row[take]++;
                        int any = 0;
                        for (int s = 0; s < 7; s++) any |= llama[s];
                        if (!any) over = 1;
                    } else {  /* D-8.4, D-8.5 */
                        for (int s = 0; s < 7; s++) { row[s] += llama[s]; llama[s] = 0; }
                        over = 1;
                    }
                }
            }
            if (over) break;
            for (int k = 0; k < n; k++) { p = (p + 1) % n; if (!quit[p]) break; }
        }
        int high = 0;
        for (int q = 0; q < n; q++) {  /* D-10 */
            int pts = row_score(rows[q]);
            scores[q] += pts;
            if (!pts && scores[q]) scores[q] -= scores[q] >= 10 ? 10 : 1;
            if (scores[q] > high) high = scores[q];
        }
        starter = last;
        if (high >= end_score) return rounds;  /* D-11 */
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: dice_ref GAMES PLAYERS [END_SCORE]\n"); return 2; }
    long games = atol(argv[1]);
    int n = atoi(argv[2]), end_score = argc > 3 ? atoi(argv[3]) : 40;
    if (games < 1 || n < 2 || n > 6) { fprintf(stderr, "bad arguments\n"); return 2; }
    int scores[6];
    long rounds = 0, score0 = 0, wins0 = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long g = 0; g < games; g++) {
        rounds += play((uint64_t)g, n, end_score, scores);
        int low = scores[0];
        for (int q = 1; q < n; q++) if (scores[q] < low) low = scores[q];
        score0 += scores[0];
        wins0 += scores[0] == low;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("%ld %.6f %.4f %.4f %ld\n", games, sec, (double)rounds / games,
           (double)score0 / games, wins0);
    return 0;
}
