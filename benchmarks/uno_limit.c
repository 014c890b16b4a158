/* A plain-C classic-UNO engine used only as a speed yardstick: how many games per
 * second one core can play when nothing but the rules runs; experiments/performance.py
 * reports unosim's speed as a ratio to it.
 * Rules: 108-card deck (two decks for 16 players), 7 cards each, start card uniform
 * over number cards, seat 0 starts clockwise, draw one and play it if playable,
 * reshuffle the discard pile except its top, Reverse = Skip with two players,
 * Draw Two / Wild Draw Four victims draw and lose the turn, Wild Draw Four always
 * legal and never challenged, no UNO calls. Policy: a uniformly random playable
 * physical card; wild colour = the colour held most, ties to the lowest colour index.
 * State is a count vector per hand and per pile (drawing = sampling the pile's counts).
 * Build: gcc -O2 -o uno_limit uno_limit.c -lm
 * Run:   ./uno_limit PLAYERS SECONDS [SEED]   -> one JSON line (games_per_s, mean_turns) */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <math.h>

#define CAP 2000
#define NT 54

static uint64_t S[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next_u64(void) {
    const uint64_t result = rotl(S[1] * 5, 7) * 9;
    const uint64_t t = S[1] << 17;
    S[2] ^= S[0]; S[3] ^= S[1]; S[1] ^= S[2]; S[0] ^= S[3];
    S[2] ^= t; S[3] = rotl(S[3], 45);
    return result;
}
static inline int rand_below(int n) { return (int)((double)(next_u64() >> 11) * 0x1.0p-53 * n); }
static void seed_rng(uint64_t seed) {
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        S[i] = z ^ (z >> 31);
    }
}

static int P, ND;
static int full[NT];
static int deck[216];
static int hands[16][NT];
static int hsize[16];
static int drawp[NT], disc[NT];
static int draw_n, disc_n;

static inline int draw_one(void) {
    if (draw_n == 0) {
        if (disc_n == 0) return -1;
        for (int t = 0; t < NT; t++) { drawp[t] += disc[t]; disc[t] = 0; }
        draw_n = disc_n; disc_n = 0;
    }
    int r = rand_below(draw_n), d = 0;
    for (int t = 0; t < NT; t++) { r -= drawp[t]; if (r < 0) { d = t; break; } }
    drawp[d]--; draw_n--;
    return d;
}

static inline int random_choose(const int *h, int color, int face, int T) {
    int r = rand_below(T);
    int base = color * 13;
    for (int k = 0; k < 13; k++) { r -= h[base + k]; if (r < 0) return base + k; }
    if (face < 13)
        for (int c2 = 0; c2 < 4; c2++)
            if (c2 != color) { r -= h[c2 * 13 + face]; if (r < 0) return c2 * 13 + face; }
    r -= h[52];
    return r < 0 ? 52 : 53;
}

static inline int most_color(const int *h) {
    int best = 0, bestc = -1;
    for (int c2 = 0; c2 < 4; c2++) {
        int s = 0;
        for (int k = 0; k < 13; k++) s += h[c2 * 13 + k];
        if (s > bestc) { bestc = s; best = c2; }
    }
    return best;
}

/* returns turns; *fin = 1 if someone went out */
static int play_one(int *fin) {
    memset(hands, 0, sizeof(hands));
    for (int t = 0; t < NT; t++) { drawp[t] = full[t]; disc[t] = 0; }
    int nd = 7 * P, c, i;
    for (i = 0; i < nd; i++) {
        int j = i + rand_below(ND - i);
        c = deck[j]; deck[j] = deck[i]; deck[i] = c;
        hands[i % P][c]++; drawp[c]--;
    }
    for (int p = 0; p < P; p++) hsize[p] = 7;
    i = nd;
    for (;;) {
        int j = i + rand_below(ND - i);
        c = deck[j]; deck[j] = deck[i]; deck[i] = c;
        if (c < 52 && c % 13 <= 9) break;
        i++;
    }
    int top = c; drawp[c]--;
    draw_n = ND - nd - 1; disc_n = 0;
    int color = top / 13, face = top % 13;
    int cur = 0, dirn = 1, turns = 0;
    while (turns < CAP) {
        turns++;
        int *h = hands[cur];
        int base = color * 13, T = 0;
        for (int k = 0; k < 13; k++) T += h[base + k];
        if (face < 13)
            for (int c2 = 0; c2 < 4; c2++) if (c2 != color) T += h[c2 * 13 + face];
        T += h[52] + h[53];
        int card = -1;
        if (T > 0) {
            card = random_choose(h, color, face, T);
            h[card]--; hsize[cur]--;
        } else {
            int d = draw_one();
            if (d >= 0) {
                if (d >= 52 || d / 13 == color || d % 13 == face) card = d;
                else { h[d]++; hsize[cur]++; }
            }
        }
        if (card < 0) { cur = (cur + dirn + P) % P; continue; }
        disc[top]++; disc_n++; top = card;
        if (card >= 52) { color = most_color(h); face = 13; }
        else { color = card / 13; face = card % 13; }
        if (hsize[cur] == 0) { *fin = 1; return turns; }
        int step = 1, pen = 0;
        if (card == 53) { pen = 4; step = 2; }
        else if (card < 52) {
            if (face == 10) step = 2;
            else if (face == 11) { if (P == 2) step = 2; else dirn = -dirn; }
            else if (face == 12) { pen = 2; step = 2; }
        }
        if (pen) {
            int v = (cur + dirn + P) % P;
            for (int k = 0; k < pen; k++) {
                int d = draw_one();
                if (d < 0) break;
                hands[v][d]++; hsize[v]++;
            }
        }
        cur = (cur + step * dirn + 2 * P) % P;
    }
    *fin = 0;
    return turns;
}

static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    P = argc > 1 ? atoi(argv[1]) : 4;
    double secs = argc > 2 ? atof(argv[2]) : 10.0;
    uint64_t seed = argc > 3 ? strtoull(argv[3], 0, 10) : 1;
    int ndecks = P > 8 ? 2 : 1;
    ND = 108 * ndecks;
    seed_rng(seed);
    for (int c = 0; c < 4; c++) {
        full[c * 13] = ndecks;
        for (int f = 1; f < 13; f++) full[c * 13 + f] = 2 * ndecks;
    }
    full[52] = full[53] = 4 * ndecks;
    int k = 0;
    for (int t = 0; t < NT; t++) for (int j = 0; j < full[t]; j++) deck[k++] = t;
    long n = 0, unfinished = 0;
    double sum = 0, sumsq = 0;
    double t0 = now(), el;
    for (;;) {
        for (int g = 0; g < 10000; g++) {
            int fin, t = play_one(&fin);
            n++; sum += t; sumsq += (double)t * t; unfinished += !fin;
        }
        el = now() - t0;
        if (el >= secs) break;
    }
    double mean = sum / n, var = (sumsq - n * mean * mean) / (n - 1);
    printf("{\"design\": \"d_c\", \"players\": %d, \"games\": %ld, \"seconds\": %.3f, \"games_per_s\": %.1f, "
           "\"mean_turns\": %.5f, \"se_turns\": %.5f, \"sd_turns\": %.4f, \"unfinished\": %ld, \"turns_per_s\": %.1f}\n",
           P, n, el, n / el, mean, sqrt(var / n), sqrt(var), unfinished, sum / el);
    return 0;
}
