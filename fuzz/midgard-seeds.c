/*
 * midgard-seeds.c - a helper of fuzz/make-corpus (not a fuzz target):
 * prints COUNT small Midgard programs made by the reference codec's
 * random bundle generator (src/ref/midgard.h), one a line, as hex 32-bit
 * words.  Program i holds 1 + i % 4 bundles, from generator seed
 * SEED + i, so the seeds are the same on every machine.
 *
 *   cc -std=c11 -Isrc/ref fuzz/midgard-seeds.c src/ref/midgard.c -o seeds
 *   ./seeds COUNT SEED
 *
 * Exit 0, or 2 on bad arguments or when the reference cannot pack one of
 * its own bundles.
 */
#include "midgard.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: midgard-seeds COUNT SEED\n");
		return 2;
	}
	unsigned long count = strtoul(argv[1], NULL, 0);
	unsigned long long seed = strtoull(argv[2], NULL, 0);
	for (unsigned long i = 0; i < count; i++) {
		midgard_rng rng;
		midgard_rng_seed(&rng, seed + i);
		for (unsigned k = 0; k < 1 + i % 4; k++) {
			midgard_bundle b;
			uint32_t w[MIDGARD_MAX_WORDS];
			midgard_random_bundle(&rng, &b);
			midgard_status st = midgard_pack(&b, w, MIDGARD_MAX_WORDS);
			if (st != MIDGARD_OK) {
				fprintf(stderr, "midgard-seeds: seed %llu: %s\n", seed + i,
				        midgard_status_text(st));
				return 2;
			}
			for (unsigned j = 0; j < b.nwords; j++)
				printf("%s%08x", k || j ? " " : "", (unsigned)w[j]);
		}
		printf("\n");
	}
	return 0;
}
